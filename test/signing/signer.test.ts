import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import fc from "fast-check";
import { recoverTypedDataAddress, verifyTypedData } from "viem";
import { privateKeyToAccount, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import {
  SigningError,
  WalletSigner,
  buildOrder,
  rngSaltSource,
  orderDomain,
  recoverOrderSigner,
  type OrderStruct,
} from "../../src/signing/index.js";
import { BINARY_MARKET, CONTRACTS, NEG_RISK_MARKET, VIEM_TYPES, arbOrderStruct, testKey, viemDomain, viemMessage } from "./fixtures.js";

const KEY = testKey(1);
const ADDRESS = privateKeyToAddress(KEY);
const signer = WalletSigner.fromPrivateKey(KEY);
const binary = orderDomain(CONTRACTS, BINARY_MARKET);
const negRisk = orderDomain(CONTRACTS, NEG_RISK_MARKET);

/** Random orders signed by ADDRESS. */
const arbOwnOrder: fc.Arbitrary<OrderStruct> = arbOrderStruct.map((o) => ({ ...o, signer: ADDRESS }));

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

/** Every way the key could leak through an object or error. */
function renderings(x: unknown): string[] {
  const out = [String(x), inspect(x, { depth: 10, showHidden: true }), JSON.stringify(x) ?? ""];
  if (x instanceof Error) out.push(x.message, x.stack ?? "", JSON.stringify({ ...x }));
  return out;
}

function expectNoKey(x: unknown, key: string): void {
  const bare = key.replace(/^0x/, "").toLowerCase();
  for (const text of renderings(x)) {
    expect(text.toLowerCase()).not.toContain(bare);
    // Not even a recognisable chunk of it.
    expect(text.toLowerCase()).not.toContain(bare.slice(8, 24));
  }
}

describe("WalletSigner", () => {
  it("derives the wallet address from the key", () => {
    expect(signer.address).toBe(ADDRESS);
    expect(WalletSigner.fromPrivateKey(KEY.slice(2).toUpperCase()).address).toBe(ADDRESS);
    expect(WalletSigner.fromPrivateKey(`  ${KEY}\n`).address).toBe(ADDRESS);
  });

  it("order signatures verify with viem's verifyTypedData and recoverTypedDataAddress", async () => {
    await fc.assert(
      fc.asyncProperty(arbOwnOrder, fc.boolean(), async (order, neg) => {
        const domain = neg ? negRisk : binary;
        const { signature, orderHash } = await signer.signOrder(order, domain);
        expect(signature).toMatch(/^0x[0-9a-f]{130}$/);
        const typed = { domain: viemDomain(domain), types: VIEM_TYPES, primaryType: "Order" as const, message: viemMessage(order) };
        expect(await verifyTypedData({ address: ADDRESS, signature, ...typed })).toBe(true);
        expect(await recoverTypedDataAddress({ signature, ...typed })).toBe(ADDRESS);
        expect(await recoverOrderSigner(order, signature, domain, { cache: null })).toBe(ADDRESS);
        expect(orderHash).toMatch(/^0x[0-9a-f]{64}$/);
      }),
      { numRuns: 30, seed: 11 },
    );
  });

  it("produces exactly viem's signTypedData signature (both are RFC 6979 deterministic)", async () => {
    const account = privateKeyToAccount(KEY);
    await fc.assert(
      fc.asyncProperty(arbOwnOrder, async (order) => {
        const ours = await signer.signOrder(order, binary);
        const viem = await account.signTypedData({
          domain: viemDomain(binary),
          types: VIEM_TYPES,
          primaryType: "Order",
          message: viemMessage(order),
        });
        expect(ours.signature).toBe(viem);
      }),
      { numRuns: 30, seed: 12 },
    );
  });

  it("a signature for the binary exchange does not recover to the signer under the neg-risk exchange", async () => {
    const order = fc.sample(arbOwnOrder, { numRuns: 1, seed: 13 })[0]!;
    expect(binary.verifyingContract).not.toBe(negRisk.verifyingContract);
    const { signature, orderHash } = await signer.signOrder(order, binary);
    const other = await signer.signOrder(order, negRisk);
    expect(other.orderHash).not.toBe(orderHash);
    expect(await recoverOrderSigner(order, signature, binary, { cache: null })).toBe(ADDRESS);
    const underNeg = await recoverOrderSigner(order, signature, negRisk, { cache: null });
    expect(underNeg).not.toBe(ADDRESS);
    expect(
      await verifyTypedData({
        address: ADDRESS,
        signature,
        domain: viemDomain(negRisk),
        types: VIEM_TYPES,
        primaryType: "Order",
        message: viemMessage(order),
      }),
    ).toBe(false);
  });

  it("refuses to sign an order whose signer is another wallet", async () => {
    const order = { ...fc.sample(arbOrderStruct, { numRuns: 1, seed: 14 })[0]!, signer: `0x${"4".repeat(40)}` as const };
    await expect(signer.signOrder(order, binary)).rejects.toMatchObject({ code: "signer_mismatch" });
  });

  it("loads the key from an environment variable", () => {
    const env = { MM_WALLET_KEY: KEY };
    expect(WalletSigner.fromEnv("MM_WALLET_KEY", { env }).address).toBe(ADDRESS);
    expect(WalletSigner.fromEnv("MM_WALLET_KEY", { env, expectedAddress: ADDRESS.toLowerCase() }).address).toBe(ADDRESS);
    const missing = thrown(() => WalletSigner.fromEnv("MM_NOPE", { env }));
    expect(missing).toBeInstanceOf(SigningError);
    expect((missing as SigningError).message).toContain("MM_NOPE");
    const bad = thrown(() => WalletSigner.fromEnv("MM_BAD", { env: { MM_BAD: KEY.slice(0, 40) } }));
    expect((bad as SigningError).message).toContain("MM_BAD");
    expectNoKey(bad, KEY);
  });

  it("loads the key from a key file, trimming whitespace", () => {
    const dir = mkdtempSync(join(tmpdir(), "signer-test-"));
    const path = join(dir, "wallet.key");
    writeFileSync(path, `\n  ${KEY}  \n`, { mode: 0o600 });
    expect(WalletSigner.fromKeyFile(path).address).toBe(ADDRESS);
    const missing = thrown(() => WalletSigner.fromKeyFile(join(dir, "absent.key")));
    expect((missing as SigningError).code).toBe("key_source_missing");
    expect((missing as SigningError).message).toContain("absent.key");
    const badPath = join(dir, "bad.key");
    writeFileSync(badPath, `${KEY}ff`, { mode: 0o600 });
    const bad = thrown(() => WalletSigner.fromKeyFile(badPath));
    expect((bad as SigningError).message).toContain("bad.key");
    expectNoKey(bad, KEY);
  });

  it("checks the derived address against the configured wallet", () => {
    const e = thrown(() => WalletSigner.fromPrivateKey(KEY, { expectedAddress: `0x${"5".repeat(40)}` }));
    expect((e as SigningError).code).toBe("signer_mismatch");
    expect((e as SigningError).message).toContain(ADDRESS);
    expectNoKey(e, KEY);
  });

  it("never shows the private key in JSON, String or util.inspect", () => {
    for (const text of renderings(signer)) expect(text).toContain(ADDRESS);
    expectNoKey(signer, KEY);
    expectNoKey({ nested: { signer } }, KEY);
    expect(JSON.parse(JSON.stringify(signer))).toEqual({ address: ADDRESS });
    expect(Object.keys(signer)).toEqual(["address"]);
  });

  it("never shows the private key in errors for bad input", () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const cases: [string, string][] = [
      [KEY.slice(0, 65), "short"],
      [`${KEY}0`, "long"],
      [`0x${n.toString(16)}`, "curve order"],
      [`0x${"0".repeat(64)}`, "zero"],
      [`${KEY.slice(0, 40)}zz${KEY.slice(42)}`, "non-hex"],
    ];
    for (const [bad] of cases) {
      const e = thrown(() => WalletSigner.fromPrivateKey(bad));
      expect(e).toBeInstanceOf(SigningError);
      expectNoKey(e, bad.replace(/zz/, ""));
      expectNoKey(e, KEY.slice(0, 40));
    }
    // A key passed where a variable name or a path belongs is not echoed either.
    for (const f of [() => WalletSigner.fromEnv(KEY, { env: {} }), () => WalletSigner.fromKeyFile(KEY)]) {
      const e = thrown(f);
      expect(e).toBeInstanceOf(SigningError);
      expectNoKey(e, KEY);
    }
  });

  it("refuses to sign something that is not a 32-byte digest", async () => {
    await expect(signer.signDigest("0x1234")).rejects.toMatchObject({ code: "invalid_digest" });
  });
});

describe("signing built orders", () => {
  it("signBuiltOrder signs the builder's order hash, which recovers to the wallet", async () => {
    const built = buildOrder({
      contracts: CONTRACTS,
      market: NEG_RISK_MARKET,
      intent: { outcome: 1, side: "SELL", price: 420_000n, quantity: 3_000_000n },
      wallet: ADDRESS,
      vault: `0x${"6".repeat(40)}`,
      saltSource: rngSaltSource(new Rng(1)),
    });
    const { signature, orderHash } = await signer.signBuiltOrder(built);
    expect(orderHash).toBe(built.orderHash);
    expect(await recoverOrderSigner(built.struct, signature, negRisk, { cache: null })).toBe(ADDRESS);
    const other = WalletSigner.fromPrivateKey(testKey(2));
    await expect(other.signBuiltOrder(built)).rejects.toMatchObject({ code: "signer_mismatch" });
  });
});
