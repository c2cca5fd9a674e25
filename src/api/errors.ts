/**
 * The one error class of the client. Whatever went wrong (an HTTP error envelope, a transport
 * failure, a response that does not match the wire schema, a local refusal such as an open
 * circuit) surfaces as an `ApiError` carrying the code, the handling class of spec 7.4 and what
 * is needed to act on it.
 *
 * An ApiError never carries request headers, so the API key cannot leak through it; every text
 * that went into it is also scrubbed of the key by the client before construction.
 */
import type { HandlingClass, NormalizedError, UpstreamInfo } from "../wire/index.js";
import { classifyCode } from "../wire/index.js";
import type { ValidationIssue } from "../core/validation.js";
import type { ResponseMeta } from "./meta.js";
import type { HttpMethod, TransportError } from "../wire/transport.js";

/**
 * Where the error came from:
 * - http       the platform answered with an error (any shape of spec 7.1);
 * - transport  no HTTP answer arrived (refused, reset, timeout, aborted);
 * - schema     an answer arrived but does not match the wire schema (or is not JSON);
 * - local      refused before sending (invalid request body, bad wallet address);
 * - circuit    refused before sending because the circuit breaker is open.
 */
export type ApiErrorSource = "http" | "transport" | "schema" | "local" | "circuit";

/** Codes the client itself produces (never sent by the platform). */
export const LOCAL_CODES = {
  circuitOpen: "circuit_open",
  withdrawn: "withdrawn",
  invalidResponse: "invalid_response",
  transportTimeout: "transport_timeout",
  transportConnect: "transport_connect",
  transportReset: "transport_reset",
  transportAborted: "transport_aborted",
  transportOther: "transport_other",
} as const;

export interface ApiErrorInit {
  source: ApiErrorSource;
  /** HTTP status; 0 when no answer arrived (transport, local, circuit). */
  status: number;
  code: string;
  message: string;
  method: HttpMethod;
  /** Request path with its query string (never headers). */
  path: string;
  handling?: HandlingClass;
  traceId?: string;
  retryAfterSec?: number;
  retryable?: boolean;
  details?: Record<string, unknown>;
  upstream?: UpstreamInfo;
  /** Transport failures: whether the request may have reached the platform. */
  maybeDelivered?: boolean;
  /** Schema failures: every bad path. */
  issues?: readonly ValidationIssue[];
  attempts?: number;
  meta?: ResponseMeta;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly source: ApiErrorSource;
  readonly status: number;
  readonly code: string;
  /** The platform's own message (the `message` property adds method, path, status and code). */
  readonly detail: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** What to do about it (spec 7.4), from `classifyCode` unless the client set it. */
  readonly handling: HandlingClass;
  /** Whether the code is in the spec's catalogue (local codes are not). */
  readonly known: boolean;
  readonly traceId: string | undefined;
  readonly retryAfterSec: number | undefined;
  readonly retryable: boolean | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** `details.upstream` of a flattened downstream error (spec 7.1.2). */
  readonly upstream: UpstreamInfo | undefined;
  readonly maybeDelivered: boolean | undefined;
  readonly issues: readonly ValidationIssue[] | undefined;
  readonly attempts: number;
  readonly meta: ResponseMeta | undefined;

  constructor(init: ApiErrorInit) {
    const statusText = init.status > 0 ? ` (HTTP ${init.status})` : "";
    super(`${init.method} ${init.path}: ${init.code}${statusText}: ${init.message}`, init.cause === undefined ? undefined : { cause: init.cause });
    const cls = classifyCode(init.code, init.status > 0 ? init.status : undefined);
    this.source = init.source;
    this.status = init.status;
    this.code = init.code;
    this.detail = init.message;
    this.method = init.method;
    this.path = init.path;
    this.handling = init.handling ?? cls.handling;
    this.known = cls.known;
    this.traceId = init.traceId;
    this.retryAfterSec = init.retryAfterSec;
    this.retryable = init.retryable;
    this.details = init.details;
    this.upstream = init.upstream;
    this.maybeDelivered = init.maybeDelivered;
    this.issues = init.issues;
    this.attempts = init.attempts ?? 1;
    this.meta = init.meta;
  }

  /** Plain data for logs: everything but the stack and the cause. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      source: this.source,
      status: this.status,
      code: this.code,
      handling: this.handling,
      method: this.method,
      path: this.path,
      traceId: this.traceId,
      retryAfterSec: this.retryAfterSec,
      retryable: this.retryable,
      details: this.details,
      upstream: this.upstream,
      maybeDelivered: this.maybeDelivered,
      issues: this.issues,
      attempts: this.attempts,
      meta: this.meta,
    };
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

interface Where {
  method: HttpMethod;
  path: string;
  attempts: number;
}

/** An error answer (any envelope shape) as an ApiError. */
export function errorFromAnswer(n: NormalizedError, where: Where, meta: ResponseMeta | undefined): ApiError {
  const init: ApiErrorInit = {
    source: "http",
    status: n.httpStatus,
    code: n.code,
    message: n.message,
    method: where.method,
    path: where.path,
    attempts: where.attempts,
  };
  if (n.traceId !== undefined) init.traceId = n.traceId;
  else if (meta?.traceId !== undefined) init.traceId = meta.traceId;
  if (n.retryAfterSec !== undefined) init.retryAfterSec = n.retryAfterSec;
  if (n.retryable !== undefined) init.retryable = n.retryable;
  if (n.details !== undefined) init.details = n.details;
  if (n.upstream !== undefined) init.upstream = n.upstream;
  if (meta !== undefined) init.meta = meta;
  return new ApiError(init);
}

const TRANSPORT_CODES: Record<TransportError["kind"], string> = {
  timeout: LOCAL_CODES.transportTimeout,
  connect: LOCAL_CODES.transportConnect,
  reset: LOCAL_CODES.transportReset,
  aborted: LOCAL_CODES.transportAborted,
  other: LOCAL_CODES.transportOther,
};

/**
 * A transport failure. Handling: when the request may have been delivered, a write's outcome is
 * unknown; when it surely was not (connection refused), resending is safe.
 */
export function errorFromTransport(te: TransportError, message: string, where: Where): ApiError {
  return new ApiError({
    source: "transport",
    status: 0,
    code: TRANSPORT_CODES[te.kind],
    message,
    method: where.method,
    path: where.path,
    attempts: where.attempts,
    handling: te.maybeDelivered ? "unknown_outcome" : "retry_backoff",
    maybeDelivered: te.maybeDelivered,
    cause: te,
  });
}

/**
 * The same error with another handling class. A write's 5xx is "retry_backoff" in the catalogue
 * (right for reads) but, since a write is never retried blindly, its outcome is unknown.
 */
export function withHandling(e: ApiError, handling: ApiError["handling"]): ApiError {
  if (e.handling === handling) return e;
  const init: ApiErrorInit = {
    source: e.source,
    status: e.status,
    code: e.code,
    message: e.detail,
    method: e.method,
    path: e.path,
    handling,
    attempts: e.attempts,
  };
  if (e.traceId !== undefined) init.traceId = e.traceId;
  if (e.retryAfterSec !== undefined) init.retryAfterSec = e.retryAfterSec;
  if (e.retryable !== undefined) init.retryable = e.retryable;
  if (e.details !== undefined) init.details = e.details;
  if (e.upstream !== undefined) init.upstream = e.upstream;
  if (e.maybeDelivered !== undefined) init.maybeDelivered = e.maybeDelivered;
  if (e.issues !== undefined) init.issues = e.issues;
  if (e.meta !== undefined) init.meta = e.meta;
  if (e.cause !== undefined) init.cause = e.cause;
  return new ApiError(init);
}

/** 401 codes about the key itself: every wallet is refused alike. */
export const KEY_REFUSAL_CODES: ReadonlySet<string> = new Set([
  "auth_required",
  "api_key_bad_format",
  "api_key_unknown_key",
  "api_key_bad_secret",
  "api_key_revoked",
  "api_key_expired",
  "api_key_suspended",
  "api_key_ip_denied",
]);

/** 401 codes about the wallet a request acts for (spec 5.3). */
export const WALLET_REFUSAL_CODES: ReadonlySet<string> = new Set([
  "api_key_no_associated_wallet",
  "api_key_user_wallet_required",
  "api_key_user_wallet_invalid",
]);

/** A 401 code of spec 5.2 / 5.3 (the key or the wallet header refused); not 403 scope_missing. */
export function isKeyRefusalCode(code: string): boolean {
  return KEY_REFUSAL_CODES.has(code) || WALLET_REFUSAL_CODES.has(code);
}
