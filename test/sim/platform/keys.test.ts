import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import {
  DAY_ONE_SCOPES,
  keyIssuanceProblem,
  KeyStore,
  keyState,
  parseApiKey,
  type IssuanceFacts,
} from "../../../src/sim/platform/keys.js";
import type { Partner } from "../../../src/sim/platform/partners.js";
import { T0 } from "./fixtures.js";

const pepper = Buffer.alloc(32, 3);

describe("key format", () => {
  it("parses <prefix>_<env>_<keyId>_<secret>", () => {
    expect(parseApiKey("pmk_sim_0123456789abcdef_AbC123")).toEqual({ prefix: "pmk", env: "sim", keyId: "0123456789abcdef", secret: "AbC123" });
    expect(parseApiKey("pmk_sim_0123_")).toBeUndefined();
    expect(parseApiKey("pmk-sim-0123-abc")).toBeUndefined();
  });

  it("issues pmk_sim_<16 hex>_<32 base62>, deterministic for a seed", () => {
    const a = new KeyStore({ pepper, rng: new Rng(42) }).issue("p", DAY_ONE_SCOPES, { nowMs: T0 });
    const b = new KeyStore({ pepper, rng: new Rng(42) }).issue("p", DAY_ONE_SCOPES, { nowMs: T0 });
    const c = new KeyStore({ pepper, rng: new Rng(43) }).issue("p", DAY_ONE_SCOPES, { nowMs: T0 });
    expect(a.plaintext).toMatch(/^pmk_sim_[0-9a-f]{16}_[0-9A-Za-z]{32}$/);
    expect(a.plaintext).toBe(b.plaintext);
    expect(a.plaintext).not.toBe(c.plaintext);
    expect(a.record.keyId).toBe(a.plaintext.split("_")[2]);
  });

  it("scopes are stored in canonical order without duplicates; unknown scopes are refused", () => {
    const ks = new KeyStore({ pepper });
    const r = ks.register("pmk_sim_k1_s1", "p", ["portfolio:read", "orders:read", "orders:read"], { nowMs: T0 });
    expect(r.scopes).toEqual(["orders:read", "portfolio:read"]);
    expect(() => ks.register("pmk_sim_k2_s2", "p", ["admin" as never], { nowMs: T0 })).toThrow(/unknown scope/);
    expect(() => ks.register("pmk_sim_k1_other", "p", ["orders:read"], { nowMs: T0 })).toThrow(/duplicate/);
    expect(() => ks.register("not a key", "p", ["orders:read"], { nowMs: T0 })).toThrow(/prefix/);
  });
});

describe("storage", () => {
  it("keeps only the peppered SHA-256 of the secret", () => {
    const ks = new KeyStore({ pepper, rng: new Rng(7) });
    const { plaintext, record } = ks.issue("p", DAY_ONE_SCOPES, { nowMs: T0 });
    const secret = plaintext.split("_")[3]!;
    const dump = ks.dump();
    expect(JSON.stringify(dump)).not.toContain(secret);
    expect(JSON.stringify(ks.list())).not.toContain(secret);
    expect(dump[0]!.secretHashHex).toBe(createHmac("sha256", pepper).update(secret).digest("hex"));
    expect(Object.keys(record)).not.toContain("secret");
  });

  it("the same secret hashes differently under another pepper", () => {
    const a = new KeyStore({ pepper: Buffer.alloc(32, 1) });
    const b = new KeyStore({ pepper: Buffer.alloc(32, 2) });
    a.register("pmk_sim_k1_s1", "p", ["orders:read"], { nowMs: T0 });
    b.register("pmk_sim_k1_s1", "p", ["orders:read"], { nowMs: T0 });
    expect(a.dump()[0]!.secretHashHex).not.toBe(b.dump()[0]!.secretHashHex);
  });

  it("secretMatches accepts exactly the registered secret, through the injected comparison", () => {
    const calls: number[] = [];
    const ks = new KeyStore({
      pepper,
      compare: (x, y) => {
        calls.push(x.length, y.length);
        return Buffer.compare(Buffer.from(x), Buffer.from(y)) === 0;
      },
    });
    ks.register("pmk_sim_k1_s1", "p", ["orders:read"], { nowMs: T0 });
    expect(ks.secretMatches("k1", "s1")).toBe(true);
    expect(ks.secretMatches("k1", "s2")).toBe(false);
    expect(ks.secretMatches("k1", "a-much-longer-secret-than-the-real-one")).toBe(false);
    expect(ks.secretMatches("nope", "s1")).toBe(false);
    // Digests of equal length reach the comparison whatever the presented secret's length.
    expect(calls).toEqual([32, 32, 32, 32, 32, 32]);
  });
});

describe("revocation and expiry", () => {
  it("revoke is final and keeps the first revocation time", () => {
    const ks = new KeyStore({ pepper });
    ks.register("pmk_sim_k1_s1", "p", ["orders:write"], { nowMs: T0 });
    expect(ks.revoke("k1", T0 + 5).revokedAtMs).toBe(T0 + 5);
    expect(ks.revoke("k1", T0 + 9).revokedAtMs).toBe(T0 + 5);
    expect(keyState(ks.find("k1")!, T0 + 10)).toBe("revoked");
    expect(ks.activeWriteKeys("p", T0 + 10)).toEqual([]);
  });

  it("expiry is measured on the clock given", () => {
    const ks = new KeyStore({ pepper });
    const r = ks.register("pmk_sim_k1_s1", "p", ["orders:write"], { nowMs: T0, expiresAtMs: T0 + 1000 });
    expect(keyState(r, T0 + 999)).toBe("active");
    expect(keyState(r, T0 + 1000)).toBe("expired");
    expect(ks.activeWriteKeys("p", T0)).toHaveLength(1);
    expect(ks.activeWriteKeys("p", T0 + 1000)).toHaveLength(0);
  });
});

describe("issuance rules (spec 5.3)", () => {
  const base: Partner = {
    id: "p",
    name: "P",
    kind: "single_wallet",
    requirePerWalletKyc: true,
    rateLimitPerMin: 600,
    associatedWallet: null,
    suspended: false,
    createdAtMs: T0,
  };
  const facts = (f: Partial<IssuanceFacts>): IssuanceFacts => ({ associatedWalletKycApproved: false, activeTradingWallets: 0, ...f });

  it("single_wallet write keys need a KYC'd associated wallet; read keys do not", () => {
    expect(keyIssuanceProblem(base, ["orders:write"], facts({}))).toMatch(/associated wallet/);
    const withWallet = { ...base, associatedWallet: "0x" + "1".repeat(40) };
    expect(keyIssuanceProblem(withWallet, ["vault:write"], facts({}))).toMatch(/KYC/);
    expect(keyIssuanceProblem(withWallet, ["orders:write"], facts({ associatedWalletKycApproved: true }))).toBeUndefined();
    expect(keyIssuanceProblem(base, ["orders:read", "portfolio:read"], facts({}))).toBeUndefined();
  });

  it("multi_wallet orders:write needs an active trading wallet", () => {
    const mm: Partner = { ...base, kind: "multi_wallet" };
    expect(keyIssuanceProblem(mm, ["orders:write"], facts({}))).toMatch(/active trading wallet/);
    expect(keyIssuanceProblem(mm, ["orders:write"], facts({ activeTradingWallets: 1 }))).toBeUndefined();
    expect(keyIssuanceProblem(mm, ["orders:read"], facts({}))).toBeUndefined();
  });
});
