/**
 * Partners (spec 5.3): the kind (single_wallet / multi_wallet), the per-wallet KYC policy,
 * the rate tier (8.1 `rateLimitPerMin`), the associated wallet and suspension.
 *
 * Operators may change the kind, `requirePerWalletKyc` or the associated wallet only once
 * every active write key is revoked; that rule needs the key store, so it is enforced by
 * SimPlatform.updatePartner, and this registry only stores.
 */
import { PlatformSetupError } from "./errors.js";
import { isWalletAddress } from "./derive.js";

export type PartnerKind = "single_wallet" | "multi_wallet";
export const PARTNER_KINDS: readonly PartnerKind[] = ["single_wallet", "multi_wallet"];

export const DEFAULT_RATE_LIMIT_PER_MIN = 600;

export interface Partner {
  readonly id: string;
  readonly name: string;
  readonly kind: PartnerKind;
  /** multi_wallet only in effect; single_wallet partners always need a KYC'd wallet. */
  readonly requirePerWalletKyc: boolean;
  readonly rateLimitPerMin: number;
  /** Lowercase 0x-hex, or null. */
  readonly associatedWallet: string | null;
  readonly suspended: boolean;
  readonly createdAtMs: number;
}

export interface PartnerInput {
  id: string;
  name: string;
  kind: PartnerKind;
  requirePerWalletKyc?: boolean;
  rateLimitPerMin?: number;
  associatedWallet?: string | null;
  suspended?: boolean;
}

export type PartnerPatch = Partial<Pick<PartnerInput, "name" | "kind" | "requirePerWalletKyc" | "rateLimitPerMin" | "associatedWallet" | "suspended">>;

function normaliseWallet(w: string | null | undefined): string | null {
  if (w === null || w === undefined) return null;
  if (!isWalletAddress(w)) throw new PlatformSetupError(`associatedWallet must be 0x + 40 hex, got ${JSON.stringify(w)}`);
  return w.toLowerCase();
}

function checkRate(n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new PlatformSetupError(`rateLimitPerMin must be a positive integer, got ${n}`);
  return n;
}

export class PartnerRegistry {
  private readonly byId = new Map<string, Partner>();

  add(input: PartnerInput, nowMs: number): Partner {
    if (this.byId.has(input.id)) throw new PlatformSetupError(`duplicate partner id ${JSON.stringify(input.id)}`);
    const p: Partner = Object.freeze({
      id: input.id,
      name: input.name,
      kind: input.kind,
      requirePerWalletKyc: input.requirePerWalletKyc ?? true,
      rateLimitPerMin: checkRate(input.rateLimitPerMin ?? DEFAULT_RATE_LIMIT_PER_MIN),
      associatedWallet: normaliseWallet(input.associatedWallet),
      suspended: input.suspended ?? false,
      createdAtMs: nowMs,
    });
    this.byId.set(p.id, p);
    return p;
  }

  get(id: string): Partner | undefined {
    return this.byId.get(id);
  }

  require(id: string): Partner {
    const p = this.byId.get(id);
    if (!p) throw new PlatformSetupError(`unknown partner ${JSON.stringify(id)}`);
    return p;
  }

  list(): Partner[] {
    return [...this.byId.values()];
  }

  /** Replace fields; records are immutable snapshots, so holders of the old one keep it. */
  update(id: string, patch: PartnerPatch): Partner {
    const old = this.require(id);
    const next: Partner = Object.freeze({
      ...old,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.kind !== undefined ? { kind: patch.kind } : {}),
      ...(patch.requirePerWalletKyc !== undefined ? { requirePerWalletKyc: patch.requirePerWalletKyc } : {}),
      ...(patch.rateLimitPerMin !== undefined ? { rateLimitPerMin: checkRate(patch.rateLimitPerMin) } : {}),
      ...(patch.associatedWallet !== undefined ? { associatedWallet: normaliseWallet(patch.associatedWallet) } : {}),
      ...(patch.suspended !== undefined ? { suspended: patch.suspended } : {}),
    });
    this.byId.set(id, next);
    return next;
  }

  suspend(id: string): Partner {
    return this.update(id, { suspended: true });
  }

  unsuspend(id: string): Partner {
    return this.update(id, { suspended: false });
  }
}
