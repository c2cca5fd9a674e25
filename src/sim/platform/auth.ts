/**
 * Request authentication in the exact order of spec 5.2:
 *
 *   1. no key -> 401 auth_required; bad shape -> 401 api_key_bad_format
 *   2. unknown keyId -> 401 api_key_unknown_key
 *   3. constant-time hash comparison -> 401 api_key_bad_secret
 *   4. revoked -> api_key_revoked; expired -> api_key_expired; partner suspended ->
 *      api_key_suspended; source IP outside the key's allowlist -> api_key_ip_denied
 *   5. effective wallet (5.3)
 *   6. scopes -> 403 api_key_scope_missing {requiredScope, have}
 *
 * The order is observable and matters: a wrong secret answers api_key_bad_secret even for a
 * revoked key, so a caller without the secret learns nothing about the key's state.
 * `Authorization: Bearer` is a web-session token, never a partner credential: alone it counts
 * as no key; with X-Api-Key it is ignored.
 */
import { failure, type PlatformFailure } from "./errors.js";
import { isWalletAddress } from "./derive.js";
import { keyState, parseApiKey, type ApiKeyRecord, type KeyStore, type Scope } from "./keys.js";
import type { Partner, PartnerRegistry } from "./partners.js";

/** A header as node:http hands it over (string, repeated header, or absent). */
export type HeaderValue = string | readonly string[] | null | undefined;

export interface AuthRequest {
  apiKeyHeader: HeaderValue;
  userWalletHeader?: HeaderValue;
  /** Accepted and ignored: a Bearer token is not a partner credential (spec 5.1). */
  authorizationHeader?: HeaderValue;
  ip?: string | null;
  /** Every listed scope is required. */
  requiredScopes: readonly Scope[];
  nowMs: number;
  /**
   * False for partner-level endpoints that do not act for a wallet: a multi_wallet partner may
   * then omit X-User-Wallet (wallet null). A malformed header is still refused. Default true.
   */
  walletRequired?: boolean;
}

export interface WsAuthRequest {
  apiKeyHeader: HeaderValue;
  /** `?key=<token>` of the upgrade URL (browsers cannot set headers). The header wins. */
  queryKey?: string | null;
  userWalletHeader?: HeaderValue;
  ip?: string | null;
  nowMs: number;
  /** Default ["orders:read"]: the user stream carries order data. */
  requiredScopes?: readonly Scope[];
}

export interface AuthSuccess {
  readonly ok: true;
  readonly partner: Partner;
  readonly key: ApiKeyRecord;
  /** Lowercase 0x-hex effective wallet; null only when the request allowed no wallet. */
  readonly wallet: string | null;
}

export type AuthResult = AuthSuccess | PlatformFailure;

type Single = { kind: "absent" } | { kind: "many" } | { kind: "one"; value: string };

function single(h: HeaderValue): Single {
  if (h === null || h === undefined) return { kind: "absent" };
  if (typeof h === "string") return h.trim() === "" ? { kind: "absent" } : { kind: "one", value: h.trim() };
  const present = h.map((v) => v.trim()).filter((v) => v !== "");
  if (present.length === 0) return { kind: "absent" };
  if (present.length > 1) return { kind: "many" };
  return { kind: "one", value: present[0]! };
}

const unauthorized = (code: string, message: string, details?: Record<string, unknown>): PlatformFailure =>
  failure(401, code, message, details);

export class Authenticator {
  constructor(
    private readonly keys: KeyStore,
    private readonly partners: PartnerRegistry,
  ) {}

  authenticate(req: AuthRequest): AuthResult {
    const keyed = this.checkKey(single(req.apiKeyHeader), req.nowMs);
    if (!keyed.ok) return keyed;
    const wallet = resolveRestWallet(keyed.partner, single(req.userWalletHeader), req.walletRequired ?? true);
    if (typeof wallet !== "string" && wallet !== null) return wallet;
    const scoped = checkScopes(keyed.key, req.requiredScopes);
    if (scoped) return scoped;
    return { ok: true, partner: keyed.partner, key: keyed.key, wallet };
  }

  /** The WebSocket upgrade: same checks; a multi_wallet partner's associated wallet binds the stream. */
  authenticateWs(req: WsAuthRequest): AuthResult {
    let key = single(req.apiKeyHeader);
    if (key.kind === "absent" && req.queryKey) key = single(req.queryKey);
    const keyed = this.checkKey(key, req.nowMs);
    if (!keyed.ok) return keyed;
    const p = keyed.partner;
    const wallet =
      p.kind === "multi_wallet" && p.associatedWallet !== null
        ? p.associatedWallet
        : resolveRestWallet(p, single(req.userWalletHeader), true);
    if (wallet === null) return unauthorized("api_key_user_wallet_required", "X-User-Wallet header is required for multi_wallet partners");
    if (typeof wallet !== "string") return wallet;
    const scoped = checkScopes(keyed.key, req.requiredScopes ?? ["orders:read"]);
    if (scoped) return scoped;
    return { ok: true, partner: p, key: keyed.key, wallet };
  }

  /** Steps 1 to 4. */
  private checkKey(
    header: Single,
    nowMs: number,
  ): { ok: true; partner: Partner; key: ApiKeyRecord } | PlatformFailure {
    if (header.kind === "absent") return unauthorized("auth_required", "X-Api-Key header is required on this endpoint");
    if (header.kind === "many") return unauthorized("api_key_bad_format", "X-Api-Key must be sent once");
    const parsed = parseApiKey(header.value);
    if (!parsed) return unauthorized("api_key_bad_format", "X-Api-Key must be <key_prefix>_<env>_<keyId>_<secret>");
    const key = this.keys.find(parsed.keyId);
    // A key id issued under another prefix or environment is not a key of this environment.
    if (!key || key.prefix !== parsed.prefix || key.env !== parsed.env) {
      return unauthorized("api_key_unknown_key", "API key is not known");
    }
    if (!this.keys.secretMatches(parsed.keyId, parsed.secret)) {
      return unauthorized("api_key_bad_secret", "API key secret does not match");
    }
    const state = keyState(key, nowMs);
    if (state === "revoked") return unauthorized("api_key_revoked", "API key has been revoked");
    if (state === "expired") return unauthorized("api_key_expired", "API key has expired");
    const partner = this.partners.get(key.partnerId);
    if (!partner || partner.suspended) return unauthorized("api_key_suspended", "partner is suspended");
    // Spec 5.1: "IP allowlists are not offered; a key with one would be refused on every call".
    if (key.ipAllowlist !== null) {
      return unauthorized("api_key_ip_denied", "API keys with an IP allowlist are refused on every call (allowlists are not offered)");
    }
    return { ok: true, partner, key };
  }
}

/** Step 5 for REST (spec 5.3). Returns the wallet, null (no wallet, allowed) or a failure. */
function resolveRestWallet(partner: Partner, header: Single, walletRequired: boolean): string | null | PlatformFailure {
  if (partner.kind === "single_wallet") {
    if (partner.associatedWallet === null) {
      return unauthorized("api_key_no_associated_wallet", "partner has no associated wallet");
    }
    return partner.associatedWallet;
  }
  if (header.kind === "absent") {
    return walletRequired
      ? unauthorized("api_key_user_wallet_required", "X-User-Wallet header is required for multi_wallet partners")
      : null;
  }
  if (header.kind === "many" || !isWalletAddress(header.value)) {
    return unauthorized("api_key_user_wallet_invalid", "X-User-Wallet must be 0x followed by 40 hex characters");
  }
  return header.value.toLowerCase();
}

/** Step 6: the first missing scope, in the order the endpoint lists them. */
function checkScopes(key: ApiKeyRecord, required: readonly Scope[]): PlatformFailure | undefined {
  const missing = required.find((s) => !key.scopes.includes(s));
  if (missing === undefined) return undefined;
  return failure(403, "api_key_scope_missing", `API key lacks scope ${missing}`, {
    requiredScope: missing,
    have: [...key.scopes],
  });
}
