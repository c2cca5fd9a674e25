/**
 * The error-code catalogue of spec 7.3 as data, with the handling class of spec 7.4 for each
 * code. `classifyCode` also gives unknown codes a class, from the HTTP status they came with.
 */

/**
 * What a client does about a code:
 * - fix_request       4xx: the request is wrong; do not resend it unchanged.
 * - auth              401/403 key or scope problem; nothing works until the key is fixed.
 * - business_reject   a definite refusal (200/201 with a code, or a business 4xx); do not retry.
 * - wait_retry_after  429: wait Retry-After seconds, never sooner.
 * - resend_same       nothing was recorded: resend the SAME signed order under the same
 *                     clientOrderId (do not re-sign) after Retry-After / a short backoff.
 * - retry_backoff     transient 5xx: idempotent calls (GET, DELETE, cancels) retry with backoff
 *                     (200 ms start, 10 s cap, 3 attempts); a place / withdrawal is not retried
 *                     automatically and its outcome counts as unknown.
 * - unknown_outcome   the write may have taken effect: look the order up (id, clientOrderId,
 *                     orderHash) or repeat the cancel after Retry-After; never assume failure.
 * - onboarding_wait   the wallet is still being set up (vault deployment, limits): retry in seconds.
 * - unsupported       disabled in this environment; do not retry.
 */
export const HANDLING_CLASSES = [
  "fix_request",
  "auth",
  "business_reject",
  "wait_retry_after",
  "resend_same",
  "retry_backoff",
  "unknown_outcome",
  "onboarding_wait",
  "unsupported",
] as const;
export type HandlingClass = (typeof HANDLING_CLASSES)[number];

/**
 * HTTP status of a code: a number, or where the spec gives none:
 * "envelope-200" (HTTP 200 with the code), "rejection" (a REJECTED placement result, HTTP 201),
 * "per-entry" (inside a batch result only).
 */
export type CodeHttp = number | "envelope-200" | "rejection" | "per-entry";

export interface CodeInfo {
  code: string;
  http: CodeHttp;
  /** Other statuses the same code arrives with on some endpoints. */
  alsoHttp?: readonly CodeHttp[];
  meaning: string;
  handling: HandlingClass;
}

type Row = [code: string, http: CodeHttp, handling: HandlingClass, meaning: string, alsoHttp?: readonly CodeHttp[]];

const AUTH_401 = "API key or effective wallet refused (spec 5.2, 5.3)";

const ROWS: readonly Row[] = [
  ["auth_required", 401, "auth", "key header missing"],
  ["api_key_bad_format", 401, "auth", `${AUTH_401}: key header is not <prefix>_<env>_<keyId>_<secret>`],
  ["api_key_unknown_key", 401, "auth", `${AUTH_401}: unknown keyId`],
  ["api_key_bad_secret", 401, "auth", `${AUTH_401}: secret does not match`],
  ["api_key_revoked", 401, "auth", `${AUTH_401}: key revoked (cannot be re-enabled)`],
  ["api_key_expired", 401, "auth", `${AUTH_401}: key expired`],
  ["api_key_suspended", 401, "auth", `${AUTH_401}: partner suspended`],
  ["api_key_ip_denied", 401, "auth", `${AUTH_401}: source IP outside the key's allowlist`],
  ["api_key_no_associated_wallet", 401, "auth", `${AUTH_401}: single_wallet partner has no associated wallet`],
  ["api_key_user_wallet_required", 401, "auth", `${AUTH_401}: multi_wallet call without X-User-Wallet`],
  ["api_key_user_wallet_invalid", 401, "auth", `${AUTH_401}: malformed X-User-Wallet`],
  ["api_key_scope_missing", 403, "auth", "key lacks the scope (body has requiredScope and have[])"],
  ["wallet_banned", 403, "business_reject", "effective wallet, or a withdrawal destination, is banned", ["envelope-200"]],
  ["invalid_amounts", 400, "fix_request", "price or quantity <= 0, off the 0.001 grid, or bad format"],
  ["invalid_tif", 400, "fix_request", "market order with GTC"],
  ["bad_signature", 400, "fix_request", "EIP-712 recovery failed; compare with details.platform_canonical_struct"],
  ["order_signed_with_floor_notional", 400, "fix_request", "BUY makerAmount floor-rounded; re-sign with CEIL", ["rejection"]],
  ["fee_too_high", 400, "fix_request", "feeRateBps above 1000"],
  ["expired", 400, "fix_request", "order expiration in the past"],
  ["invalid_outcome", 400, "fix_request", "outcome index out of range"],
  ["maker_mismatch", 400, "fix_request", "maker is neither the effective wallet nor its vault", [401]],
  ["wallet_mismatch", 401, "fix_request", "legacy alias of maker_mismatch (withdrawal, vault, position endpoints)"],
  ["insufficient_funds", "envelope-200", "business_reject", "balance overdraft"],
  ["market_not_open", 409, "business_reject", "market status is not OPEN"],
  ["idempotency_race", 500, "unknown_outcome", "internal race on (wallet, clientOrderId); look the order up"],
  ["matcher_error", "envelope-200", "business_reject", "matcher business error"],
  ["vault_not_deployed", "rejection", "onboarding_wait", "vault deployment still pending; retry in a few seconds"],
  ["kyc_blocked", "rejection", "onboarding_wait", "wallet limits still confirming; retry in a few seconds"],
  ["order_not_found", 404, "fix_request", "order unknown for this wallet"],
  ["not_cancellable", 409, "business_reject", "order already terminal; read it for the final state"],
  ["forbidden", 403, "fix_request", "order belongs to another wallet"],
  ["invalid_amount", 400, "fix_request", "withdrawal amount <= 0"],
  ["destination_not_cleared", "envelope-200", "business_reject", "new destination below the EDD threshold"],
  ["new_destination_edd", "envelope-200", "business_reject", "new destination above the threshold, sent to MLRO review"],
  ["aml_blocked", "envelope-200", "business_reject", "destination failed AML screening"],
  ["invalid_state", 409, "business_reject", "withdrawal cancel after SUBMITTED"],
  ["withdrawal_not_found", 404, "fix_request", "unknown withdrawal id or another wallet's"],
  ["not_found", 404, "fix_request", "upstream form of a not-found (withdrawal cancel)"],
  ["match_not_found", 404, "fix_request", "match slug unknown or without public markets"],
  ["market_not_found", 404, "fix_request", "market unknown"],
  ["event_not_found", 404, "fix_request", "event unknown"],
  ["invalid_limit", 400, "fix_request", "limit not digits or below 1"],
  ["ambiguous_pagination", 400, "fix_request", "from/to mixed with page/limit"],
  ["invalid_interval", 400, "fix_request", "unknown ohlc interval (accepted values in details.allowed)"],
  ["invalid_request", 400, "fix_request", "malformed request or undefined parameter (details.fields)"],
  ["bad_request", 400, "fix_request", "malformed leaderboard query"],
  ["rate_limited", 429, "wait_retry_after", "bucket exhausted; wait Retry-After seconds"],
  ["cancel_pending", 202, "unknown_outcome", "cancel recorded, no answer yet; repeat after Retry-After (5 s)", ["per-entry"]],
  ["cancel_unanswered", 503, "unknown_outcome", "older exchange nodes' cancel_pending; same handling"],
  ["lock_invariant", "per-entry", "unknown_outcome", "notCancelled entry from older exchange nodes; repeat the cancel"],
  ["shard_owner_unavailable", 503, "resend_same", "exchange node restarting, nothing recorded; resend (Retry-After 2)"],
  ["trading_temporarily_unavailable", 503, "resend_same", "exchange busy (retryable); resend the same signed order"],
  ["journal_intent_not_durable", "per-entry", "resend_same", "place-batch entry refused, details.retryable true"],
  ["lock_invariant_violation", 503, "retry_backoff", "vault state diverged from the off-chain mirror"],
  ["exchange_unavailable", 503, "unknown_outcome", "upstream unreachable; the write may have been recorded"],
  ["exchange_transport_error", 503, "retry_backoff", "connection to the exchange failed"],
  ["exchange_malformed_response", 503, "unknown_outcome", "non-JSON upstream reply; the write may have been recorded"],
  ["exchange_upstream_error", 502, "unknown_outcome", "unstructured downstream reply (details.upstream has its status)"],
  ["not_implemented", 501, "unsupported", "feature disabled in this environment"],
  ["post_only_would_cross", "rejection", "business_reject", "post-only order would take liquidity (ours)"],
];

export const ERROR_CODES: ReadonlyMap<string, CodeInfo> = new Map(
  ROWS.map(([code, http, handling, meaning, alsoHttp]) => [
    code,
    alsoHttp === undefined ? { code, http, handling, meaning } : { code, http, handling, meaning, alsoHttp },
  ]),
);

/** `too_many_<field>` (spec 4.2): a multi-value events filter with more than 20 values. */
export const TOO_MANY_PATTERN = /^too_many_[a-z0-9_]+$/;

export function lookupCode(code: string): CodeInfo | undefined {
  const known = ERROR_CODES.get(code);
  if (known !== undefined) return known;
  if (TOO_MANY_PATTERN.test(code)) {
    return { code, http: 400, handling: "fix_request", meaning: "more than 20 distinct values for one events filter" };
  }
  return undefined;
}

export interface CodeClass {
  code: string;
  known: boolean;
  handling: HandlingClass;
  info?: CodeInfo;
}

/** Class of a code this catalogue does not know, from the HTTP status it came with. */
export function classifyStatus(httpStatus: number | undefined): HandlingClass {
  if (httpStatus === undefined) return "unknown_outcome";
  if (httpStatus === 429) return "wait_retry_after";
  if (httpStatus === 401 || httpStatus === 403) return "auth";
  if (httpStatus === 202) return "unknown_outcome";
  if (httpStatus >= 200 && httpStatus < 300) return "business_reject";
  if (httpStatus >= 400 && httpStatus < 500) return "fix_request";
  if (httpStatus === 501) return "unsupported";
  if (httpStatus >= 500) return "retry_backoff";
  return "unknown_outcome";
}

/**
 * Handling class of a code. Known codes use the catalogue; an unknown code is classed by the
 * HTTP status it came with (unknown without a status: outcome unknown, the safe reading).
 */
export function classifyCode(code: string, httpStatus?: number): CodeClass {
  const info = lookupCode(code);
  if (info !== undefined) return { code, known: true, handling: info.handling, info };
  return { code, known: false, handling: classifyStatus(httpStatus) };
}
