/**
 * Partner API keys (spec 5.1): `<key_prefix>_<env>_<keyId>_<secret>`, each part [A-Za-z0-9]+
 * (docs/spec-gaps.md). The simulator issues `pmk_sim_<16 hex keyId>_<32 base62 secret>`;
 * scenarios may register a given plaintext key so tests and the demo can use it.
 *
 * Only a peppered SHA-256 of the secret is kept (HMAC-SHA256 keyed by a per-instance pepper)
 * and it is compared with crypto.timingSafeEqual. The plaintext leaves the store once, in
 * the return value of issue().
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Rng } from "../../core/rng.js";
import { PlatformSetupError } from "./errors.js";
import type { Partner } from "./partners.js";

export const SCOPES = ["orders:read", "orders:write", "portfolio:read", "vault:write"] as const;
export type Scope = (typeof SCOPES)[number];
/** The set a partner gets on day one (spec 5.4). */
export const DAY_ONE_SCOPES: readonly Scope[] = ["orders:write", "orders:read", "portfolio:read"];
/** Scopes whose keys pin the partner's kind, KYC policy and associated wallet (spec 5.3). */
export const WRITE_SCOPES: readonly Scope[] = ["orders:write", "vault:write"];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}

/** Canonical order (the order of SCOPES), duplicates removed. */
export function sortScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set(scopes);
  return SCOPES.filter((s) => set.has(s));
}

export const KEY_PART_RE = /^[A-Za-z0-9]+$/;
/** Headers longer than this are refused as malformed before any work is done on them. */
export const MAX_KEY_LENGTH = 512;

export interface ParsedApiKey {
  readonly prefix: string;
  readonly env: string;
  readonly keyId: string;
  readonly secret: string;
}

export function parseApiKey(text: string): ParsedApiKey | undefined {
  if (text.length === 0 || text.length > MAX_KEY_LENGTH) return undefined;
  const parts = text.split("_");
  if (parts.length !== 4 || !parts.every((p) => KEY_PART_RE.test(p))) return undefined;
  const [prefix, env, keyId, secret] = parts as [string, string, string, string];
  return { prefix, env, keyId, secret };
}

export function formatApiKey(k: ParsedApiKey): string {
  return `${k.prefix}_${k.env}_${k.keyId}_${k.secret}`;
}

export interface ApiKeyRecord {
  readonly keyId: string;
  readonly prefix: string;
  readonly env: string;
  readonly partnerId: string;
  readonly scopes: readonly Scope[];
  readonly createdAtMs: number;
  readonly expiresAtMs: number | null;
  readonly revokedAtMs: number | null;
  /** Null: no allowlist. Entries are exact IPs or IPv4 CIDR blocks. */
  readonly ipAllowlist: readonly string[] | null;
  readonly label: string | null;
}

export interface KeyOptions {
  nowMs: number;
  expiresAtMs?: number | null;
  ipAllowlist?: readonly string[] | null;
  label?: string | null;
  /** Register the key already revoked (scenarios exercising `api_key_revoked`). */
  revokedAtMs?: number | null;
}

export interface IssuedKey {
  /** The full key; shown once, never stored. */
  readonly plaintext: string;
  readonly record: ApiKeyRecord;
}

export type SecretCompare = (a: Uint8Array, b: Uint8Array) => boolean;

export interface KeyStoreOptions {
  /** Pepper of the secret hash; random per instance when omitted. */
  pepper?: Uint8Array;
  /** Source of issued key ids and secrets (seeded: same seed, same keys). */
  rng?: Rng;
  prefix?: string;
  env?: string;
  /** The constant-time comparison; tests may wrap it. */
  compare?: SecretCompare;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

interface StoredKey {
  record: ApiKeyRecord;
  secretHash: Buffer;
}

export class KeyStore {
  readonly prefix: string;
  readonly env: string;
  private readonly pepper: Buffer;
  private readonly rng: Rng | undefined;
  private readonly compare: SecretCompare;
  private readonly byKeyId = new Map<string, StoredKey>();

  constructor(opts: KeyStoreOptions = {}) {
    this.prefix = opts.prefix ?? "pmk";
    this.env = opts.env ?? "sim";
    // The pepper is key material, not simulation randomness: nothing observable depends on
    // its value, so it comes from the OS unless a test pins it.
    this.pepper = Buffer.from(opts.pepper ?? randomBytes(32));
    this.rng = opts.rng;
    this.compare = opts.compare ?? timingSafeEqual;
  }

  private hash(secret: string): Buffer {
    return createHmac("sha256", this.pepper).update(secret, "utf8").digest();
  }

  /** Issue a fresh `pmk_sim_<16 hex>_<32 base62>` key. Needs the store's Rng. */
  issue(partnerId: string, scopes: readonly Scope[], opts: KeyOptions): IssuedKey {
    const rng = this.rng;
    if (!rng) throw new PlatformSetupError("KeyStore.issue needs an Rng");
    let keyId: string;
    do keyId = rng.hex(8).slice(2);
    while (this.byKeyId.has(keyId));
    let secret = "";
    for (let i = 0; i < 32; i++) secret += BASE62[rng.int(62)];
    const plaintext = formatApiKey({ prefix: this.prefix, env: this.env, keyId, secret });
    return { plaintext, record: this.register(plaintext, partnerId, scopes, opts) };
  }

  /** Store a key whose plaintext is given (scenario keys). */
  register(plaintext: string, partnerId: string, scopes: readonly Scope[], opts: KeyOptions): ApiKeyRecord {
    const parsed = parseApiKey(plaintext);
    if (!parsed) throw new PlatformSetupError("API key must be <prefix>_<env>_<keyId>_<secret>, each part [A-Za-z0-9]+");
    if (this.byKeyId.has(parsed.keyId)) throw new PlatformSetupError(`duplicate API key id ${parsed.keyId}`);
    for (const s of scopes) if (!isScope(s)) throw new PlatformSetupError(`unknown scope ${JSON.stringify(s)}`);
    const record: ApiKeyRecord = Object.freeze({
      keyId: parsed.keyId,
      prefix: parsed.prefix,
      env: parsed.env,
      partnerId,
      scopes: Object.freeze(sortScopes(scopes)),
      createdAtMs: opts.nowMs,
      expiresAtMs: opts.expiresAtMs ?? null,
      revokedAtMs: opts.revokedAtMs ?? null,
      ipAllowlist: opts.ipAllowlist ? Object.freeze([...opts.ipAllowlist]) : null,
      label: opts.label ?? null,
    });
    this.byKeyId.set(record.keyId, { record, secretHash: this.hash(parsed.secret) });
    return record;
  }

  find(keyId: string): ApiKeyRecord | undefined {
    return this.byKeyId.get(keyId)?.record;
  }

  /** Constant-time check of a presented secret against the stored hash. */
  secretMatches(keyId: string, secret: string): boolean {
    const stored = this.byKeyId.get(keyId);
    if (!stored) return false;
    // Both sides are 32-byte digests, so the comparison's length never varies with input.
    return this.compare(this.hash(secret), stored.secretHash);
  }

  /** Revocation is final (spec 5.6: re-enabling is not supported). */
  revoke(keyId: string, nowMs: number): ApiKeyRecord {
    const stored = this.byKeyId.get(keyId);
    if (!stored) throw new PlatformSetupError(`unknown API key id ${keyId}`);
    if (stored.record.revokedAtMs === null) stored.record = Object.freeze({ ...stored.record, revokedAtMs: nowMs });
    return stored.record;
  }

  list(): ApiKeyRecord[] {
    return [...this.byKeyId.values()].map((s) => s.record);
  }

  listByPartner(partnerId: string): ApiKeyRecord[] {
    return this.list().filter((r) => r.partnerId === partnerId);
  }

  /** Keys that are neither revoked nor expired at `nowMs`. */
  activeKeys(partnerId: string, nowMs: number): ApiKeyRecord[] {
    return this.listByPartner(partnerId).filter((r) => keyState(r, nowMs) === "active");
  }

  activeWriteKeys(partnerId: string, nowMs: number): ApiKeyRecord[] {
    return this.activeKeys(partnerId, nowMs).filter((r) => r.scopes.some((s) => WRITE_SCOPES.includes(s)));
  }

  /** What an operator may see: records and the hex of the stored hash, never a secret. */
  dump(): Array<ApiKeyRecord & { secretHashHex: string }> {
    return [...this.byKeyId.values()].map((s) => ({ ...s.record, secretHashHex: s.secretHash.toString("hex") }));
  }
}

export type KeyState = "active" | "revoked" | "expired";

export function keyState(r: ApiKeyRecord, nowMs: number): KeyState {
  if (r.revokedAtMs !== null) return "revoked";
  if (r.expiresAtMs !== null && nowMs >= r.expiresAtMs) return "expired";
  return "active";
}

/** Facts about the partner's wallets that the issuance rules of spec 5.3 need. */
export interface IssuanceFacts {
  /** The associated wallet exists and is KYC APPROVED with tier >= 1. */
  associatedWalletKycApproved: boolean;
  /** Wallets registered to the partner that can trade (not banned; KYC'd when the partner requires it). */
  activeTradingWallets: number;
}

/**
 * Why spec 5.3 forbids issuing these scopes to this partner, or undefined when it allows it:
 * single_wallet write keys need a KYC'd associated wallet; a multi_wallet `orders:write` key
 * needs at least one active trading wallet.
 */
export function keyIssuanceProblem(partner: Partner, scopes: readonly Scope[], facts: IssuanceFacts): string | undefined {
  const writes = scopes.some((s) => WRITE_SCOPES.includes(s));
  if (partner.kind === "single_wallet" && writes) {
    if (partner.associatedWallet === null) return "a single_wallet partner needs an associated wallet before a write-scope key is issued";
    if (!facts.associatedWalletKycApproved) return "the associated wallet must be KYC APPROVED with tier >= 1 before a write-scope key is issued";
  }
  if (partner.kind === "multi_wallet" && scopes.includes("orders:write") && facts.activeTradingWallets < 1) {
    return "an orders:write key is issued only to a multi_wallet partner with at least one active trading wallet";
  }
  return undefined;
}
