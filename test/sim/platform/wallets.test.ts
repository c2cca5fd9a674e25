import { getAddress, keccak256, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { vaultAddressOf } from "../../../src/sim/platform/derive.js";
import { PartnerRegistry } from "../../../src/sim/platform/partners.js";
import { WalletRegistry } from "../../../src/sim/platform/wallets.js";
import { T0, WALLET_A, WALLET_B } from "./fixtures.js";

function setup() {
  const partners = new PartnerRegistry();
  const noKyc = partners.add({ id: "mm", name: "MM", kind: "multi_wallet", requirePerWalletKyc: false }, T0);
  const kyc = partners.add({ id: "mm-kyc", name: "MM KYC", kind: "multi_wallet" }, T0);
  const single = partners.add({ id: "single", name: "S", kind: "single_wallet", associatedWallet: WALLET_B }, T0);
  return { wallets: new WalletRegistry(), noKyc, kyc, single };
}

const codeOf = (r: { ok: boolean; code?: string }): string => (r.ok ? "ok" : r.code!);

describe("vault address", () => {
  it("is the last 20 bytes of keccak256('vault:' + lowercased wallet), EIP-55 cased, case-insensitive input", () => {
    const expected = getAddress(`0x${keccak256(stringToHex(`vault:${WALLET_A.toLowerCase()}`)).slice(-40)}`);
    expect(vaultAddressOf(WALLET_A)).toBe(expected);
    expect(vaultAddressOf(WALLET_A.toUpperCase().replace("0X", "0x"))).toBe(expected);
    expect(expected).not.toBe(expected.toLowerCase());
  });
});

describe("onboarding of an unseen wallet (multi_wallet, requirePerWalletKyc false)", () => {
  it("vault_not_deployed until 10 s, kyc_blocked until 25 s, then usable, on the simulator clock", async () => {
    const clock = new VirtualClock(T0);
    const { wallets, noKyc } = setup();
    expect(wallets.vaultInfo(WALLET_A, clock.now()).deployed).toBe(false);
    const first = wallets.touch(WALLET_A, noKyc, clock.now());
    expect(first.enqueued).toBe(true);
    expect(wallets.touch(WALLET_A, noKyc, clock.now()).enqueued).toBe(false);

    const r0 = wallets.tradingCheck(WALLET_A, clock.now(), noKyc);
    expect(r0).toMatchObject({ ok: false, code: "vault_not_deployed", retryable: true, retryAfterSec: 10, details: { onboarding: "deploying_vault" } });
    await clock.advance(9_999);
    expect(codeOf(wallets.tradingCheck(WALLET_A, clock.now(), noKyc))).toBe("vault_not_deployed");
    expect(wallets.vaultInfo(WALLET_A, clock.now()).deployed).toBe(false);

    await clock.advance(1);
    expect(wallets.vaultInfo(WALLET_A, clock.now())).toEqual({
      walletAddress: WALLET_A.toLowerCase(),
      vaultAddress: vaultAddressOf(WALLET_A),
      deployed: true,
    });
    const r1 = wallets.tradingCheck(WALLET_A, clock.now(), noKyc);
    expect(r1).toMatchObject({ ok: false, code: "kyc_blocked", retryAfterSec: 15, details: { onboarding: "confirming_limits" } });
    await clock.advance(14_999);
    expect(codeOf(wallets.tradingCheck(WALLET_A, clock.now(), noKyc))).toBe("kyc_blocked");
    await clock.advance(1);
    expect(wallets.tradingCheck(WALLET_A, clock.now(), noKyc).ok).toBe(true);
    expect(wallets.onboardingState(WALLET_A, clock.now())).toBe("complete");
  });

  it("later requests do not restart onboarding; a clock jump lands in the right phase", () => {
    const { wallets, noKyc } = setup();
    wallets.touch(WALLET_A, noKyc, T0);
    wallets.touch(WALLET_A, noKyc, T0 + 12_000);
    expect(wallets.onboardingState(WALLET_A, T0 + 12_000)).toBe("confirming_limits");
    expect(wallets.tradingCheck(WALLET_A, T0 + 60_000, noKyc).ok).toBe(true);
  });

  it("custom timings are honoured", () => {
    const partners = new PartnerRegistry();
    const p = partners.add({ id: "mm", name: "MM", kind: "multi_wallet", requirePerWalletKyc: false }, T0);
    const wallets = new WalletRegistry({ vaultDeployMs: 1000, limitsConfirmMs: 3000 });
    wallets.touch(WALLET_A, p, T0);
    expect(codeOf(wallets.tradingCheck(WALLET_A, T0 + 999, p))).toBe("vault_not_deployed");
    expect(codeOf(wallets.tradingCheck(WALLET_A, T0 + 1000, p))).toBe("kyc_blocked");
    expect(wallets.tradingCheck(WALLET_A, T0 + 3000, p).ok).toBe(true);
    expect(() => new WalletRegistry({ vaultDeployMs: 5000, limitsConfirmMs: 1000 })).toThrow();
  });

  it("a wallet never seen is not deployed", () => {
    const { wallets, noKyc } = setup();
    expect(codeOf(wallets.tradingCheck(WALLET_A, T0, noKyc))).toBe("vault_not_deployed");
  });

  it("a pre-onboarded scenario wallet is usable at once", () => {
    const { wallets, noKyc } = setup();
    wallets.register({ address: WALLET_A, partnerId: "mm", kycWaived: true }, T0);
    expect(wallets.touch(WALLET_A, noKyc, T0).enqueued).toBe(false);
    expect(wallets.tradingCheck(WALLET_A, T0, noKyc).ok).toBe(true);
  });
});

describe("per-wallet KYC required", () => {
  it("an unseen or unapproved wallet fails kyc_blocked and no onboarding is enqueued", () => {
    const { wallets, kyc } = setup();
    expect(wallets.touch(WALLET_A, kyc, T0).enqueued).toBe(false);
    expect(wallets.tradingCheck(WALLET_A, T0 + 60_000, kyc)).toMatchObject({ ok: false, status: 403, code: "kyc_blocked" });
    wallets.setKyc(WALLET_A, true, 0);
    expect(codeOf(wallets.tradingCheck(WALLET_A, T0, kyc))).toBe("kyc_blocked");
  });

  it("an APPROVED tier >= 1 wallet with a vault trades", () => {
    const { wallets, kyc } = setup();
    wallets.register({ address: WALLET_A, partnerId: "mm-kyc", kycApproved: true, kycTier: 1 }, T0);
    expect(wallets.tradingCheck(WALLET_A, T0, kyc).ok).toBe(true);
  });

  it("an approved wallet without a vault fails vault_not_deployed", () => {
    const { wallets, kyc } = setup();
    wallets.register({ address: WALLET_A, kycApproved: true, kycTier: 2, onboarded: false }, T0);
    expect(codeOf(wallets.tradingCheck(WALLET_A, T0, kyc))).toBe("vault_not_deployed");
  });

  it("single_wallet partners always need KYC", () => {
    const { wallets, single } = setup();
    wallets.register({ address: WALLET_B, kycApproved: false }, T0);
    expect(codeOf(wallets.tradingCheck(WALLET_B, T0, single))).toBe("kyc_blocked");
    wallets.setKyc(WALLET_B, true, 1);
    expect(wallets.tradingCheck(WALLET_B, T0, single).ok).toBe(true);
  });
});

describe("bans", () => {
  it("a banned wallet is 403 wallet_banned for compliance and trading", () => {
    const { wallets, noKyc } = setup();
    wallets.register({ address: WALLET_A, banned: true, kycWaived: true }, T0);
    expect(wallets.complianceCheck(WALLET_A)).toMatchObject({ ok: false, status: 403, code: "wallet_banned" });
    expect(wallets.tradingCheck(WALLET_A, T0, noKyc)).toMatchObject({ status: 403, code: "wallet_banned" });
    wallets.unban(WALLET_A);
    expect(wallets.complianceCheck(WALLET_A).ok).toBe(true);
    expect(wallets.tradingCheck(WALLET_A, T0, noKyc).ok).toBe(true);
  });

  it("a banned unseen wallet does not get onboarding enqueued", () => {
    const { wallets, noKyc } = setup();
    wallets.register({ address: WALLET_A, banned: true, onboarded: false }, T0);
    expect(wallets.touch(WALLET_A, noKyc, T0).enqueued).toBe(false);
  });
});
