import fc from "fast-check";
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  RecoveryCache,
  SigningError,
  WalletSigner,
  fromWire,
  isCanonicalSignature,
  orderDomain,
  recoverOrderSigner,
  toWire,
  verifyOrderSignature,
  type Hex,
  type OrderStruct,
} from "../../src/signing/index.js";
import { BINARY_MARKET, CONTRACTS, NEG_RISK_MARKET, arbOrderStruct, testKey } from "./fixtures.js";

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const domain = orderDomain(CONTRACTS, BINARY_MARKET);
const signers = [1, 2, 3].map((seed) => WalletSigner.fromPrivateKey(testKey(seed)));

async function signed(seed: number, who = 0): Promise<{ order: OrderStruct; signature: Hex }> {
  const s = signers[who]!;
  const order = { ...fc.sample(arbOrderStruct, { numRuns: 1, seed })[0]!, signer: s.address };
  return { order, signature: (await s.signOrder(order, domain)).signature };
}

function withS(signature: Hex, s: bigint, v?: number): Hex {
  const vv = v ?? parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 66)}${s.toString(16).padStart(64, "0")}${vv.toString(16).padStart(2, "0")}` as Hex;
}

describe("order signature recovery", () => {
  it("recovers the signing wallet (EIP-55) for random orders of several wallets", async () => {
    for (let i = 0; i < 12; i++) {
      const { order, signature } = await signed(100 + i, i % 3);
      const who = signers[i % 3]!.address;
      expect(await recoverOrderSigner(order, signature, domain, { cache: null })).toBe(who);
      expect(await verifyOrderSignature(order, signature, domain, who.toLowerCase(), { cache: null })).toBe(true);
      expect(await verifyOrderSignature(order, signature, domain, signers[(i + 1) % 3]!.address, { cache: null })).toBe(false);
    }
  });

  it("a changed field recovers to someone else", async () => {
    const { order, signature } = await signed(200);
    const tampered = { ...order, feeRateBps: order.feeRateBps + 1 };
    const recovered = await recoverOrderSigner(tampered, signature, domain, { cache: null });
    expect(recovered).not.toBeNull();
    expect(recovered).not.toBe(signers[0]!.address);
    const negDomain = orderDomain(CONTRACTS, NEG_RISK_MARKET);
    expect(await recoverOrderSigner(order, signature, negDomain, { cache: null })).not.toBe(signers[0]!.address);
  });

  it("returns null for signatures that are not valid EIP-712 at all", async () => {
    const { order, signature } = await signed(300);
    const s = BigInt(`0x${signature.slice(66, 130)}`);
    const v = parseInt(signature.slice(130), 16);
    const bad: string[] = [
      "",
      "0x",
      signature.slice(0, 130), // 64 bytes
      `${signature}00`, // 66 bytes
      `${signature.slice(0, 130)}00`, // v = 0
      `${signature.slice(0, 130)}01`, // v = 1
      `${signature.slice(0, 130)}1d`, // v = 29
      withS(signature, N - s, v === 27 ? 28 : 27), // the malleable high-s twin
      withS(signature, 0n),
      `0x${"0".repeat(64)}${signature.slice(66)}`, // r = 0
      `0x${"f".repeat(64)}${signature.slice(66)}`, // r >= n
      `0x${"0".repeat(63)}5${signature.slice(66)}`, // r = 5: not the x of a curve point
      `0xzz${signature.slice(4)}`,
    ];
    for (const sig of bad) {
      expect(await recoverOrderSigner(order, sig, domain, { cache: null }), sig).toBeNull();
    }
    expect(isCanonicalSignature(signature)).toBe(true);
    expect(isCanonicalSignature(42)).toBe(false);
  });

  it("caches recoveries of resent orders, least recently used evicted first", async () => {
    const cache = new RecoveryCache(2);
    const a = await signed(400);
    const b = await signed(401);
    const c = await signed(402);
    const rec = (x: { order: OrderStruct; signature: Hex }) => recoverOrderSigner(x.order, x.signature, domain, { cache });
    expect(await rec(a)).toBe(signers[0]!.address);
    expect(await rec(a)).toBe(signers[0]!.address);
    expect(cache.hits).toBe(1);
    await rec(b);
    await rec(a); // a is now the most recent
    await rec(c); // evicts b
    expect(cache.size).toBe(2);
    const hits = cache.hits;
    await rec(a);
    expect(cache.hits).toBe(hits + 1);
    await rec(b);
    expect(cache.hits).toBe(hits + 1); // b was evicted: a miss
    // A bad signature is cached as null too, and a different digest is a different entry.
    const bogus = { ...a, signature: `${a.signature.slice(0, 130)}00` as Hex };
    expect(await rec(bogus)).toBeNull();
    expect(await rec(bogus)).toBeNull();
    expect(await recoverOrderSigner({ ...a.order, salt: a.order.salt + 1n }, a.signature, domain, { cache })).not.toBe(
      signers[0]!.address,
    );
  });

  it("the wire form round-trips and still verifies", async () => {
    const { order, signature } = await signed(500);
    const wire = toWire({ ...order, signature });
    expect(typeof wire.salt).toBe("string");
    expect(typeof wire.feeRateBps).toBe("number");
    const back = fromWire(JSON.parse(JSON.stringify(wire)));
    expect(back).toEqual({ ...order, signature });
    expect(await recoverOrderSigner(back, back.signature, domain, { cache: null })).toBe(privateKeyToAddress(testKey(1)));
    expect(() => fromWire({ ...wire, side: 2 })).toThrow(/side/);
    expect(() => fromWire({ ...wire, makerAmount: "1.5" })).toThrow(/makerAmount/);
    expect(() => fromWire({ ...wire, maker: "0x12" })).toThrow(/maker/);
  });

  it("fromWire reads only 0/1 (or \"0\"/\"1\", BUY/SELL) as a side, never a falsy value as BUY", async () => {
    const { order, signature } = await signed(500);
    const wire = toWire({ ...order, signature });
    for (const bad of ["", null, [], false, true, " 0", "0x0", "00", 0.0001, 2, -1, "buy", undefined, {}]) {
      const e = (() => {
        try {
          fromWire({ ...wire, side: bad as number });
        } catch (err) {
          return err;
        }
        return undefined;
      })();
      expect(e, `side ${JSON.stringify(bad)}`).toBeInstanceOf(SigningError);
      expect((e as SigningError).code).toBe("invalid_field");
      expect((e as SigningError).message).toContain("order.side");
    }
    for (const [good, side] of [[0, 0], [1, 1], ["0", 0], ["1", 1], ["BUY", 0], ["SELL", 1]] as const) {
      expect(fromWire({ ...wire, side: good as unknown as number }).side).toBe(side);
    }
  });
});
