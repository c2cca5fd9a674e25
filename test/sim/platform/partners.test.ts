/**
 * The partner registry (src/sim/platform/partners.ts): defaults on add (per-wallet KYC required,
 * 600 requests a minute, no associated wallet, not suspended), the associated wallet checked and
 * lower-cased, bad input refused with PlatformSetupError naming the field, and updates that
 * replace a frozen record, so holders of the old one keep it.
 */
import { describe, expect, it } from "vitest";
import { PlatformSetupError } from "../../../src/sim/platform/errors.js";
import { DEFAULT_RATE_LIMIT_PER_MIN, PARTNER_KINDS, PartnerRegistry } from "../../../src/sim/platform/partners.js";
import { T0, WALLET_A } from "./fixtures.js";

describe("PartnerRegistry.add", () => {
  it("fills in the defaults and stamps the creation time", () => {
    const reg = new PartnerRegistry();
    const p = reg.add({ id: "mm", name: "MM", kind: "multi_wallet" }, T0);
    expect(p).toEqual({ id: "mm", name: "MM", kind: "multi_wallet", requirePerWalletKyc: true, rateLimitPerMin: 600, associatedWallet: null, suspended: false, createdAtMs: T0 });
    expect(DEFAULT_RATE_LIMIT_PER_MIN).toBe(600);
    expect(PARTNER_KINDS).toEqual(["single_wallet", "multi_wallet"]);
    expect(Object.isFrozen(p)).toBe(true);
  });

  it("keeps what is given, the associated wallet lower-cased", () => {
    const p = new PartnerRegistry().add({ id: "s", name: "S", kind: "single_wallet", requirePerWalletKyc: false, rateLimitPerMin: 60, associatedWallet: WALLET_A, suspended: true }, T0);
    expect(p).toMatchObject({ requirePerWalletKyc: false, rateLimitPerMin: 60, associatedWallet: WALLET_A.toLowerCase(), suspended: true });
  });

  it("refuses a duplicate id, a bad associated wallet and a rate that is not a positive integer", () => {
    const reg = new PartnerRegistry();
    reg.add({ id: "mm", name: "MM", kind: "multi_wallet" }, T0);
    expect(() => reg.add({ id: "mm", name: "Again", kind: "multi_wallet" }, T0)).toThrow(new PlatformSetupError('duplicate partner id "mm"'));
    expect(() => reg.add({ id: "a", name: "A", kind: "single_wallet", associatedWallet: "0x1234" }, T0)).toThrow('associatedWallet must be 0x + 40 hex, got "0x1234"');
    for (const rate of [0, -5, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => reg.add({ id: `r${rate}`, name: "R", kind: "multi_wallet", rateLimitPerMin: rate }, T0)).toThrow(`rateLimitPerMin must be a positive integer, got ${rate}`);
    }
    expect(reg.list().map((p) => p.id)).toEqual(["mm"]);
  });
});

describe("lookups", () => {
  it("get answers undefined for an unknown id, require throws naming it; list keeps insertion order", () => {
    const reg = new PartnerRegistry();
    reg.add({ id: "b", name: "B", kind: "multi_wallet" }, T0);
    reg.add({ id: "a", name: "A", kind: "multi_wallet" }, T0);
    expect(reg.get("a")?.name).toBe("A");
    expect(reg.get("zz")).toBeUndefined();
    expect(reg.require("b").name).toBe("B");
    expect(() => reg.require("zz")).toThrow(new PlatformSetupError('unknown partner "zz"'));
    expect(reg.list().map((p) => p.id)).toEqual(["b", "a"]);
  });
});

describe("PartnerRegistry.update", () => {
  it("replaces only the given fields with a new frozen record; the old one is unchanged", () => {
    const reg = new PartnerRegistry();
    const old = reg.add({ id: "mm", name: "MM", kind: "multi_wallet", associatedWallet: WALLET_A }, T0);
    const next = reg.update("mm", { name: "MM 2", kind: "single_wallet", rateLimitPerMin: 120 });
    expect(next).toMatchObject({ id: "mm", name: "MM 2", kind: "single_wallet", rateLimitPerMin: 120, associatedWallet: WALLET_A.toLowerCase(), createdAtMs: T0 });
    expect(Object.isFrozen(next)).toBe(true);
    expect(old).toMatchObject({ name: "MM", kind: "multi_wallet", rateLimitPerMin: 600 });
    expect(reg.get("mm")).toBe(next);
  });

  it("clears the associated wallet with null and checks a new one", () => {
    const reg = new PartnerRegistry();
    reg.add({ id: "mm", name: "MM", kind: "multi_wallet", associatedWallet: WALLET_A }, T0);
    expect(reg.update("mm", { associatedWallet: null }).associatedWallet).toBeNull();
    expect(() => reg.update("mm", { associatedWallet: "nope" })).toThrow(PlatformSetupError);
    expect(() => reg.update("mm", { rateLimitPerMin: 0 })).toThrow("rateLimitPerMin must be a positive integer, got 0");
    expect(reg.get("mm")!.associatedWallet).toBeNull();
  });

  it("suspend and unsuspend flip the flag; an unknown id is refused", () => {
    const reg = new PartnerRegistry();
    reg.add({ id: "mm", name: "MM", kind: "multi_wallet", requirePerWalletKyc: false }, T0);
    expect(reg.suspend("mm").suspended).toBe(true);
    expect(reg.get("mm")).toMatchObject({ suspended: true, requirePerWalletKyc: false });
    expect(reg.unsuspend("mm").suspended).toBe(false);
    expect(() => reg.suspend("nobody")).toThrow('unknown partner "nobody"');
  });
});
