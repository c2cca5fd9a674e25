/**
 * Acting wallets: vault address, KYC, bans and the sub-account onboarding of spec 5.3.
 *
 * For a multi_wallet partner with `requirePerWalletKyc: false`, the first authenticated
 * request for a wallet never seen before enqueues onboarding on the simulator clock:
 *
 *   [t0, t0 + vaultDeployMs)            vault deploying   -> trading fails vault_not_deployed
 *   [t0 + vaultDeployMs, t0 + limitsMs) limits confirming -> trading fails kyc_blocked
 *   [t0 + limitsMs, ...)                usable
 *
 * State is computed from stored times on every call, so no timer is needed and a virtual
 * clock jump lands in the right phase. With per-wallet KYC required (and for single_wallet
 * partners) a wallet trades only when KYC APPROVED with tier >= 1.
 */
import { failure, OK, PlatformSetupError, type PlatformFailure, type PlatformOk } from "./errors.js";
import { isWalletAddress, vaultAddressOf } from "./derive.js";
import type { Partner } from "./partners.js";

export interface OnboardingTimings {
  /** From enqueue to vault deployed. */
  vaultDeployMs: number;
  /** From enqueue to the limit operations confirmed (the wallet usable); >= vaultDeployMs. */
  limitsConfirmMs: number;
}

export const DEFAULT_ONBOARDING: OnboardingTimings = { vaultDeployMs: 10_000, limitsConfirmMs: 25_000 };

export type OnboardingState = "not_started" | "deploying_vault" | "confirming_limits" | "complete";

export interface WalletRecord {
  /** Lowercase 0x-hex. */
  readonly address: string;
  /** EIP-55 (docs/spec-gaps.md vault derivation). */
  readonly vaultAddress: string;
  readonly partnerId: string | null;
  readonly kycApproved: boolean;
  readonly kycTier: number;
  readonly banned: boolean;
  /** Per-wallet KYC waived (the wallet belongs to a multi_wallet partner onboarded as a legal entity). */
  readonly kycWaived: boolean;
  readonly firstSeenAtMs: number | null;
  readonly onboardingEnqueuedAtMs: number | null;
  readonly vaultDeployedAtMs: number | null;
  readonly limitsConfirmedAtMs: number | null;
}

export interface WalletInput {
  address: string;
  partnerId?: string | null;
  kycApproved?: boolean;
  kycTier?: number;
  banned?: boolean;
  kycWaived?: boolean;
  /** Vault deployed and limits set before the scenario starts (default true). */
  onboarded?: boolean;
}

export interface VaultInfo {
  walletAddress: string;
  vaultAddress: string;
  deployed: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function partnerWaivesKyc(p: Partner): boolean {
  return p.kind === "multi_wallet" && !p.requirePerWalletKyc;
}

function retryAfterSec(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}

export class WalletRegistry {
  readonly timings: OnboardingTimings;
  private readonly byAddress = new Map<string, Mutable<WalletRecord>>();

  constructor(timings: OnboardingTimings = DEFAULT_ONBOARDING) {
    if (timings.vaultDeployMs < 0 || timings.limitsConfirmMs < timings.vaultDeployMs) {
      throw new PlatformSetupError("onboarding timings need 0 <= vaultDeployMs <= limitsConfirmMs");
    }
    this.timings = { ...timings };
  }

  register(input: WalletInput, nowMs: number): WalletRecord {
    if (!isWalletAddress(input.address)) throw new PlatformSetupError(`bad wallet address ${JSON.stringify(input.address)}`);
    const address = input.address.toLowerCase();
    if (this.byAddress.has(address)) throw new PlatformSetupError(`duplicate wallet ${address}`);
    const onboarded = input.onboarded ?? true;
    const rec: Mutable<WalletRecord> = {
      address,
      vaultAddress: vaultAddressOf(address),
      partnerId: input.partnerId ?? null,
      kycApproved: input.kycApproved ?? false,
      kycTier: input.kycTier ?? (input.kycApproved ? 1 : 0),
      banned: input.banned ?? false,
      kycWaived: input.kycWaived ?? false,
      firstSeenAtMs: null,
      onboardingEnqueuedAtMs: null,
      vaultDeployedAtMs: onboarded ? nowMs : null,
      limitsConfirmedAtMs: onboarded ? nowMs : null,
    };
    this.byAddress.set(address, rec);
    return { ...rec };
  }

  get(address: string): WalletRecord | undefined {
    const r = this.byAddress.get(address.toLowerCase());
    return r ? { ...r } : undefined;
  }

  list(): WalletRecord[] {
    return [...this.byAddress.values()].map((r) => ({ ...r }));
  }

  listByPartner(partnerId: string): WalletRecord[] {
    return this.list().filter((r) => r.partnerId === partnerId);
  }

  /**
   * Record an authenticated request for `address` on behalf of `partner`. The first one for
   * an unseen wallet of a KYC-waiving multi_wallet partner enqueues onboarding.
   */
  touch(address: string, partner: Partner, nowMs: number): { record: WalletRecord; enqueued: boolean } {
    const key = address.toLowerCase();
    let rec = this.byAddress.get(key);
    if (!rec) {
      this.register({ address: key, partnerId: partner.id, onboarded: false, kycWaived: partnerWaivesKyc(partner) }, nowMs);
      rec = this.byAddress.get(key)!;
    }
    rec.firstSeenAtMs ??= nowMs;
    let enqueued = false;
    if (partnerWaivesKyc(partner) && !rec.banned && rec.vaultDeployedAtMs === null && rec.onboardingEnqueuedAtMs === null) {
      rec.kycWaived = true;
      rec.onboardingEnqueuedAtMs = nowMs;
      rec.vaultDeployedAtMs = nowMs + this.timings.vaultDeployMs;
      rec.limitsConfirmedAtMs = nowMs + this.timings.limitsConfirmMs;
      enqueued = true;
    }
    return { record: { ...rec }, enqueued };
  }

  onboardingState(address: string, nowMs: number): OnboardingState {
    const r = this.byAddress.get(address.toLowerCase());
    if (!r || r.vaultDeployedAtMs === null) return "not_started";
    if (nowMs < r.vaultDeployedAtMs) return "deploying_vault";
    if (r.limitsConfirmedAtMs === null || nowMs < r.limitsConfirmedAtMs) return "confirming_limits";
    return "complete";
  }

  vaultDeployed(address: string, nowMs: number): boolean {
    const r = this.byAddress.get(address.toLowerCase());
    return r !== undefined && r.vaultDeployedAtMs !== null && nowMs >= r.vaultDeployedAtMs;
  }

  /** `GET /api/me/vault` (docs/spec-gaps.md): the vault address is known before deployment. */
  vaultInfo(address: string, nowMs: number): VaultInfo {
    const lower = address.toLowerCase();
    return { walletAddress: lower, vaultAddress: vaultAddressOf(lower), deployed: this.vaultDeployed(lower, nowMs) };
  }

  /** 403 wallet_banned (spec 7.3) for a banned effective wallet. */
  complianceCheck(address: string): PlatformOk | PlatformFailure {
    const r = this.byAddress.get(address.toLowerCase());
    if (r?.banned) return failure(403, "wallet_banned", "wallet is banned", { walletAddress: r.address });
    return OK;
  }

  /**
   * May this wallet place orders / get vault signatures now? Failures carry the codes of spec
   * 5.3 (`vault_not_deployed`, `kyc_blocked`) or `wallet_banned`; order routes put the code in
   * a REJECTED placement result, other routes answer the status given here.
   */
  tradingCheck(address: string, nowMs: number, partner?: Partner): PlatformOk | PlatformFailure {
    const r = this.byAddress.get(address.toLowerCase());
    const waived = partner ? partnerWaivesKyc(partner) : (r?.kycWaived ?? false);
    if (r?.banned) return failure(403, "wallet_banned", "wallet is banned", { walletAddress: r.address });
    if (!waived && !(r?.kycApproved && r.kycTier >= 1)) {
      return failure(403, "kyc_blocked", "wallet has not cleared KYC (APPROVED, tier >= 1)", {
        walletAddress: address.toLowerCase(),
      });
    }
    const state = this.onboardingState(address, nowMs);
    if (state === "not_started" || state === "deploying_vault") {
      const details: Record<string, unknown> = { walletAddress: address.toLowerCase(), onboarding: state };
      const extra = r?.vaultDeployedAtMs != null ? { retryable: true, retryAfterSec: retryAfterSec(r.vaultDeployedAtMs, nowMs) } : undefined;
      return failure(409, "vault_not_deployed", "wallet vault is not deployed yet; retry in a few seconds", details, extra);
    }
    if (waived && state === "confirming_limits") {
      return failure(
        403,
        "kyc_blocked",
        "wallet limits are still confirming on chain; retry in a few seconds",
        { walletAddress: address.toLowerCase(), onboarding: state },
        { retryable: true, retryAfterSec: retryAfterSec(r!.limitsConfirmedAtMs!, nowMs) },
      );
    }
    return OK;
  }

  /**
   * Vault deployment through the signed-op flow (`POST /api/me/vault/deploy/submit`): the vault
   * exists from `deployedAtMs` on. A deployment already enqueued or done is kept.
   */
  deployVault(address: string, deployedAtMs: number): WalletRecord {
    return this.mutate(address, (r) => {
      r.vaultDeployedAtMs ??= deployedAtMs;
    });
  }

  ban(address: string): WalletRecord {
    return this.mutate(address, (r) => (r.banned = true));
  }

  unban(address: string): WalletRecord {
    return this.mutate(address, (r) => (r.banned = false));
  }

  setKyc(address: string, approved: boolean, tier: number): WalletRecord {
    if (!Number.isInteger(tier) || tier < 0) throw new PlatformSetupError(`bad KYC tier ${tier}`);
    return this.mutate(address, (r) => {
      r.kycApproved = approved;
      r.kycTier = tier;
    });
  }

  private mutate(address: string, fn: (r: Mutable<WalletRecord>) => void): WalletRecord {
    const r = this.byAddress.get(address.toLowerCase());
    if (!r) throw new PlatformSetupError(`unknown wallet ${address}`);
    fn(r);
    return { ...r };
  }
}
