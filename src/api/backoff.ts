/**
 * Retry budgets and waits of spec 7.4. All numbers are options with the spec's values as
 * defaults; the jitter draws from an injected Rng so a seeded run waits the same every time.
 */
import type { Rng } from "../core/rng.js";

export interface RetryOptions {
  /** Rule 3: attempts (first try included) for idempotent calls on 5xx and transport failures. Default 3. */
  maxAttempts: number;
  /** First backoff wait. Default 200 ms. */
  initialDelayMs: number;
  /** Longest backoff wait. Default 10 s. */
  maxDelayMs: number;
  /**
   * Jitter added on top of the exponential base, as a fraction of it: the n-th wait is
   * `base * (1 + jitter * u)`, u uniform in [0, 1), capped at maxDelayMs. Adding (not
   * subtracting) keeps the first wait at 200 ms or more and every wait longer than the one before.
   * Default 0.5.
   */
  jitter: number;
  /** Rule 2: how many times a 429 is waited out and resent before giving up. Default 3. */
  maxRateLimitRetries: number;
  /** A 429 asking for a longer wait than this is not waited out but returned. Default 60 s. */
  maxRetryAfterSec: number;
  /** Wait on a 429 without a Retry-After header (nor body retryAfterSec). Default 1 s. */
  defaultRetryAfterSec: number;
  /**
   * Resends of the SAME body after `shard_owner_unavailable` / `trading_temporarily_unavailable`
   * (nothing recorded) or after a connection that surely never carried the request. Default 3.
   */
  maxResends: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 3,
  initialDelayMs: 200,
  maxDelayMs: 10_000,
  jitter: 0.5,
  maxRateLimitRetries: 3,
  maxRetryAfterSec: 60,
  defaultRetryAfterSec: 1,
  maxResends: 3,
};

/** Wait before the `retry`-th retry (1-based). */
export function backoffDelay(retry: number, opts: RetryOptions, rng: Rng): number {
  const base = opts.initialDelayMs * 2 ** Math.max(0, retry - 1);
  const jittered = base * (1 + opts.jitter * rng.float());
  return Math.min(opts.maxDelayMs, Math.round(jittered));
}
