import fc from "fast-check";
import { hashDomain, hashStruct, hashTypedData } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { keccakReady } from "../../src/signing/keccak.js";
import {
  EIP712_DOMAIN_TYPES,
  ORDER_TYPES,
  DIGEST_MEMO_GENERATION,
  SigningError,
  domainSeparator,
  hashOrderStruct,
  orderDigest,
  orderDigestBytes,
  orderDomain,
  type OrderDomain,
  type OrderStruct,
} from "../../src/signing/index.js";
import {
  BINARY_MARKET,
  CONTRACTS,
  NEG_RISK_MARKET,
  VIEM_TYPES,
  arbAddress,
  arbOrderStruct,
  viemDomain,
  viemMessage,
} from "./fixtures.js";

const arbDomain: fc.Arbitrary<OrderDomain> = fc.record({
  name: fc.string({ maxLength: 40, unit: "grapheme" }),
  version: fc.string({ maxLength: 8 }),
  chainId: fc.integer({ min: 1, max: 2 ** 40 }),
  verifyingContract: arbAddress,
});

function viemDigest(order: OrderStruct, domain: OrderDomain): string {
  return hashTypedData({ domain: viemDomain(domain), types: VIEM_TYPES, primaryType: "Order", message: viemMessage(order) });
}

describe("EIP-712 order hashing", () => {
  // The WebAssembly keccak in use, as on the hot paths (keccak.test.ts checks it alone).
  beforeAll(() => keccakReady);

  it("the digest equals viem's hashTypedData on random orders and domains", () => {
    fc.assert(
      fc.property(arbOrderStruct, arbDomain, (order, domain) => {
        expect(orderDigest(order, domain)).toBe(viemDigest(order, domain));
      }),
      { numRuns: 400, seed: 712 },
    );
  });

  it("with the platform's domain, viem's default domain inference gives the same digest", () => {
    const domain = orderDomain(CONTRACTS, NEG_RISK_MARKET);
    fc.assert(
      fc.property(arbOrderStruct, (order) => {
        const viem = hashTypedData({ domain, types: ORDER_TYPES, primaryType: "Order", message: viemMessage(order) });
        expect(orderDigest(order, domain)).toBe(viem);
      }),
      { numRuns: 100, seed: 77 },
    );
  });

  it("the struct hash and domain separator equal viem's hashStruct / hashDomain", () => {
    fc.assert(
      fc.property(arbOrderStruct, arbDomain, (order, domain) => {
        expect(hashOrderStruct(order)).toBe(hashStruct({ data: viemMessage(order), primaryType: "Order", types: ORDER_TYPES }));
        expect(domainSeparator(domain)).toBe(hashDomain({ domain: viemDomain(domain), types: EIP712_DOMAIN_TYPES }));
      }),
      { numRuns: 100, seed: 1901 },
    );
  });

  it("an order digested again (the remembered digests) gives viem's digest, as a fresh array each time", () => {
    const domain = orderDomain(CONTRACTS, BINARY_MARKET);
    const other = orderDomain(CONTRACTS, NEG_RISK_MARKET);
    const orders = fc.sample(arbOrderStruct, { numRuns: 2 * DIGEST_MEMO_GENERATION + 50, seed: 12 });
    const first = orders[0]!;
    const a = orderDigestBytes(first, domain);
    a.fill(0); // the caller's copy: changing it changes nothing remembered
    expect(orderDigest(first, domain)).toBe(viemDigest(first, domain));
    // The same fields under another domain are another digest.
    expect(orderDigest(first, other)).toBe(viemDigest(first, other));
    expect(orderDigest(first, other)).not.toBe(orderDigest(first, domain));
    // Past two generations the first order is forgotten and hashed again: still the same digest.
    for (const o of orders) expect(orderDigest(o, domain)).toBe(viemDigest(o, domain));
    expect(orderDigest(first, domain)).toBe(viemDigest(first, domain));
    for (const o of orders.slice(-20)) expect(orderDigest(o, domain)).toBe(viemDigest(o, domain));
  });

  it("every field changes the digest", () => {
    const domain = orderDomain(CONTRACTS, BINARY_MARKET);
    const base = fc.sample(arbOrderStruct, { numRuns: 1, seed: 3 })[0]!;
    const h = orderDigest(base, domain);
    const changed: OrderStruct[] = [
      { ...base, salt: base.salt ^ 1n },
      { ...base, maker: `0x${"1".repeat(40)}` },
      { ...base, signer: `0x${"2".repeat(40)}` },
      { ...base, taker: `0x${"3".repeat(40)}` },
      { ...base, tokenId: base.tokenId ^ 1n },
      { ...base, makerAmount: base.makerAmount ^ 1n },
      { ...base, takerAmount: base.takerAmount ^ 1n },
      { ...base, expiration: base.expiration ^ 1n },
      { ...base, feeRateBps: base.feeRateBps === 0 ? 1 : base.feeRateBps - 1 },
      { ...base, side: base.side === 0 ? 1 : 0 },
      { ...base, signatureType: base.signatureType ^ 1 },
    ];
    const hashes = new Set(changed.map((o) => orderDigest(o, domain)));
    expect(hashes.size).toBe(changed.length);
    expect(hashes.has(h)).toBe(false);
  });

  it("neg-risk markets use the neg-risk exchange, the rest the binary exchange", () => {
    const bin = orderDomain(CONTRACTS, BINARY_MARKET);
    const neg = orderDomain(CONTRACTS, NEG_RISK_MARKET);
    expect(bin).toEqual({ name: "PartnerExchange", version: "1", chainId: 31337, verifyingContract: CONTRACTS.exchange.binary });
    expect(neg.verifyingContract).toBe(CONTRACTS.exchange.negRisk);
    expect(domainSeparator(bin)).not.toBe(domainSeparator(neg));
  });

  it("a bad contracts document or malformed fields are refused with a SigningError naming the field", () => {
    expect(() =>
      orderDomain({ ...CONTRACTS, exchange: { binary: "0x12", negRisk: CONTRACTS.exchange.negRisk } }, BINARY_MARKET),
    ).toThrow(/exchange\.binary/);
    expect(() => orderDomain({ ...CONTRACTS, chainId: 0 }, BINARY_MARKET)).toThrow(SigningError);
    const domain = orderDomain(CONTRACTS, BINARY_MARKET);
    const base = fc.sample(arbOrderStruct, { numRuns: 1, seed: 9 })[0]!;
    expect(() => orderDigest({ ...base, maker: `0xZZ${"0".repeat(38)}` }, domain)).toThrow(/order\.maker/);
    expect(() => orderDigest({ ...base, taker: `0x${"0".repeat(39)}` }, domain)).toThrow(/order\.taker/);
    expect(() => orderDigest({ ...base, salt: -1n }, domain)).toThrow(/order\.salt/);
    expect(() => orderDigest({ ...base, makerAmount: 1n << 256n }, domain)).toThrow(/order\.makerAmount/);
    expect(() => orderDigest({ ...base, signatureType: 256 }, domain)).toThrow(/order\.signatureType/);
    expect(() => orderDigest({ ...base, feeRateBps: 1.5 }, domain)).toThrow(/order\.feeRateBps/);
    // A failed encode must not poison the shared buffer for the next order.
    expect(orderDigest(base, domain)).toBe(viemDigest(base, domain));
  });
});
