/**
 * The one failure shape every platform-layer check returns (auth, wallet gates, lifecycle,
 * admission). It carries what the HTTP layer needs to build the spec 7.1 envelope
 * `{status, error: {code, message, details?, retryable?, retryAfterSec?}}`, or, for order
 * placement, a REJECTED placement result with the same code and details.
 */

export interface PlatformFailure {
  readonly ok: false;
  /** HTTP status the route answers with when it answers with an error envelope. */
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
  readonly retryable?: boolean;
  readonly retryAfterSec?: number;
}

export interface PlatformOk {
  readonly ok: true;
}

export const OK: PlatformOk = Object.freeze({ ok: true as const });

export function failure(
  status: number,
  code: string,
  message: string,
  details?: Record<string, unknown>,
  extra?: { retryable?: boolean; retryAfterSec?: number },
): PlatformFailure {
  const out: {
    ok: false;
    status: number;
    code: string;
    message: string;
    details?: Record<string, unknown>;
    retryable?: boolean;
    retryAfterSec?: number;
  } = { ok: false, status, code, message };
  if (details !== undefined) out.details = details;
  if (extra?.retryable !== undefined) out.retryable = extra.retryable;
  if (extra?.retryAfterSec !== undefined) out.retryAfterSec = extra.retryAfterSec;
  return out;
}

/** Thrown by registry mutations given impossible input (a programming or scenario error). */
export class PlatformSetupError extends Error {
  override readonly name = "PlatformSetupError";
}
