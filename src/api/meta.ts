/**
 * What every answer carries besides its body (spec 4 common rules, 8.1, 9): the API version tag,
 * the server's receive time, the request and trace ids and the rate-limit headers. Kept on every
 * result so a caller can order REST answers against stream frames (`X-Server-Time` vs `serverTs`)
 * and quote the ids when asking the platform about a request.
 */
import { getHeader, parseRetryAfter } from "../wire/index.js";

export interface RateLimitInfo {
  /** `X-RateLimit-Limit`. */
  limit: number | undefined;
  /** `X-RateLimit-Remaining`. */
  remaining: number | undefined;
  /** `X-RateLimit-Reset`: delta-seconds until the window refills (not an epoch). */
  resetSec: number | undefined;
}

export interface ResponseMeta {
  status: number;
  /** `X-API-Version` (a date string today). */
  apiVersion: string | undefined;
  /** `X-Server-Time` as a millisecond epoch (comparable with stream `serverTs`). */
  serverTime: number | undefined;
  /** `X-Request-Id`. */
  requestId: string | undefined;
  /** `X-Trace-Id` (repeated as `trace_id` in error bodies). */
  traceId: string | undefined;
  /** Undefined when the answer carried no rate-limit header at all. */
  rateLimit: RateLimitInfo | undefined;
  /** `Retry-After` in seconds, when present. */
  retryAfterSec: number | undefined;
  /** How many times the request was sent to get this answer. */
  attempts: number;
}

function intOf(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** An ISO-8601 date (2026-01-01...) or an HTTP date (Thu, 01 Jan 2026 ...): what a date header looks like. */
const DATE_SHAPE = /^(?:\d{4}-\d{2}-\d{2}|[A-Za-z]{3},\s*\d{1,2}\s+[A-Za-z]{3}\s+\d{4})/;

/**
 * Digits are a millisecond epoch (seconds when too small to be one); else an ISO-8601 or HTTP
 * date. Anything else is unreadable (Date.parse alone would take "-5" for a day of 2001).
 */
export function parseServerTime(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const t = v.trim();
  if (/^\d+(?:\.\d+)?$/.test(t)) {
    const n = Number(t);
    return n < 1e11 ? Math.round(n * 1000) : Math.round(n);
  }
  if (!DATE_SHAPE.test(t)) return undefined;
  const parsed = Date.parse(t);
  return Number.isNaN(parsed) ? undefined : parsed;
}

export function readMeta(status: number, headers: Readonly<Record<string, string>>, attempts: number): ResponseMeta {
  const limit = intOf(getHeader(headers, "x-ratelimit-limit"));
  const remaining = intOf(getHeader(headers, "x-ratelimit-remaining"));
  const resetSec = intOf(getHeader(headers, "x-ratelimit-reset"));
  const any = limit !== undefined || remaining !== undefined || resetSec !== undefined;
  return {
    status,
    apiVersion: getHeader(headers, "x-api-version"),
    serverTime: parseServerTime(getHeader(headers, "x-server-time")),
    requestId: getHeader(headers, "x-request-id"),
    traceId: getHeader(headers, "x-trace-id"),
    rateLimit: any ? { limit, remaining, resetSec } : undefined,
    retryAfterSec: parseRetryAfter(getHeader(headers, "retry-after")),
    attempts,
  };
}
