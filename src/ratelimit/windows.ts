/**
 * Fixed-window arithmetic shared by the platform side (fixed-window.ts) and the client side
 * (window-ledger.ts): both must cut time at the same instants or the client's pacing drifts across the
 * platform's windows. A window of W ms covers [k*W + phase, (k+1)*W + phase) on the epoch clock; the
 * platform uses phase 0 (spec 8.1: fixed windows), the client may learn a non-zero phase from
 * `X-RateLimit-Reset` when its clock and the platform's disagree.
 */

import { getHeader, type HeaderBag } from "../wire/errors.js";

export function windowStart(nowMs: number, windowMs: number, phaseMs = 0): number {
  return Math.floor((nowMs - phaseMs) / windowMs) * windowMs + phaseMs;
}

/** Whole seconds until `untilMs`, rounded up, at least 1 (Retry-After / X-RateLimit-Reset are delta-seconds). */
export function deltaSeconds(untilMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
}

/** Values of the three rate-limit headers of spec 8.1. `resetSec` is delta-seconds, not an epoch. */
export interface RateLimitHeaderValues {
  readonly limit: number;
  readonly remaining: number;
  readonly resetSec: number;
}

export const HEADER_LIMIT = "X-RateLimit-Limit";
export const HEADER_REMAINING = "X-RateLimit-Remaining";
export const HEADER_RESET = "X-RateLimit-Reset";
export const HEADER_RETRY_AFTER = "Retry-After";

/** Header name -> value, for a response. `retryAfterSec` adds `Retry-After` (429 answers). */
export function formatRateLimitHeaders(h: RateLimitHeaderValues, retryAfterSec?: number): Record<string, string> {
  const out: Record<string, string> = {
    [HEADER_LIMIT]: String(h.limit),
    [HEADER_REMAINING]: String(h.remaining),
    [HEADER_RESET]: String(h.resetSec),
  };
  if (retryAfterSec !== undefined) out[HEADER_RETRY_AFTER] = String(retryAfterSec);
  return out;
}

export type HeaderSource = HeaderBag;

/** Case-insensitive header read over the shapes a transport may hand over (wire/errors.ts getHeader). */
export const headerValue: (headers: HeaderSource | undefined, name: string) => string | undefined = getHeader;

/** A non-negative integer header, or undefined when absent or malformed. */
export function intHeader(headers: HeaderSource | undefined, name: string): number | undefined {
  const v = headerValue(headers, name)?.trim();
  if (v === undefined || !/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The three rate headers when all are present and well-formed. */
export function parseRateLimitHeaders(headers: HeaderSource | undefined): RateLimitHeaderValues | undefined {
  const limit = intHeader(headers, HEADER_LIMIT);
  const remaining = intHeader(headers, HEADER_REMAINING);
  const resetSec = intHeader(headers, HEADER_RESET);
  if (limit === undefined || remaining === undefined || resetSec === undefined) return undefined;
  return { limit, remaining, resetSec };
}
