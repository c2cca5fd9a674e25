/**
 * Small helpers shared by the public read routes (markets, events, platform): response
 * builders, query-string readers and the parsers of the value forms these endpoints accept.
 */
import { errorEnvelope } from "../../../wire/index.js";
import type { RouteContext, SimResponse } from "../types.js";

export function ok(body: unknown, headers?: Record<string, string>): SimResponse {
  return headers === undefined ? { status: 200, body } : { status: 200, headers, body };
}

/** A standard error envelope (spec 7.1.1) carrying the request's trace id. */
export function fail(ctx: RouteContext, status: number, code: string, message: string, details?: Record<string, unknown>): SimResponse {
  return {
    status,
    body: errorEnvelope(status, code, message, { traceId: ctx.traceId, ...(details === undefined ? {} : { details }) }),
  };
}

/** A handler's early exit: either the parsed value or the response to send instead. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; response: SimResponse };

export function parsed<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

export function rejected<T>(response: SimResponse): Parsed<T> {
  return { ok: false, response };
}

/** First value of a query key; undefined when absent (an empty value is returned as ""). */
export function first(query: URLSearchParams, key: string): string | undefined {
  const v = query.get(key);
  return v === null ? undefined : v;
}

/**
 * Multi-value query parameter: repeated keys and comma-separated values, mixable
 * (`tag=a,b&tag=c`), trimmed, empties dropped, duplicates collapsed case-insensitively.
 * Values come back lower-cased: every multi-value filter of the simulator compares that way.
 */
export function multiValues(query: URLSearchParams, key: string): string[] {
  const out = new Set<string>();
  for (const raw of query.getAll(key)) {
    for (const part of raw.split(",")) {
      const v = part.trim().toLowerCase();
      if (v !== "") out.add(v);
    }
  }
  return [...out];
}

const DIGITS_RE = /^\d+$/;

export function isDigits(s: string): boolean {
  return DIGITS_RE.test(s);
}

/** A digits-only value as a number; Infinity past the safe range (only ever used as a bound). */
export function digitsValue(s: string): number {
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : Number.POSITIVE_INFINITY;
}

/** ISO-8601 form the events list accepts: must start YYYY-MM-DD (spec 4.2). */
const ISO_DATE_START_RE = /^\d{4}-\d{2}-\d{2}/;
const ISO_DATE_ONLY_RE = /^\d{4}-\d{2}-\d{2}$/;

export interface IsoInstant {
  ms: number;
  /** True for a bare `YYYY-MM-DD`. */
  dateOnly: boolean;
}

export function looksIso(s: string): boolean {
  return ISO_DATE_START_RE.test(s);
}

/** Parse an ISO-8601 date or date-time; a bare date is midnight UTC. Undefined when invalid. */
export function parseIso(s: string): IsoInstant | undefined {
  if (!ISO_DATE_START_RE.test(s)) return undefined;
  const dateOnly = ISO_DATE_ONLY_RE.test(s);
  const ms = Date.parse(dateOnly ? `${s}T00:00:00Z` : s);
  if (!Number.isFinite(ms)) return undefined;
  // Date.parse rolls 2026-02-31 over to March: refuse dates that do not round-trip.
  const iso = new Date(ms).toISOString();
  if (dateOnly && iso.slice(0, 10) !== s) return undefined;
  return { ms, dateOnly };
}

/** A time bound given as ISO-8601 or as epoch milliseconds (digits). */
export function parseTimeBound(s: string): number | undefined {
  if (isDigits(s)) {
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return parseIso(s)?.ms;
}

export { base64url, fromBase64url } from "../../desk/cursor.js";

/** `limit` in 1..max (400 invalid_limit outside) and `offset` >= 0 (400 invalid_request). */
export function limitOffset(req: { query: URLSearchParams }, ctx: RouteContext, dflt: number, max: number): Parsed<{ limit: number; offset: number }> {
  const limitText = first(req.query, "limit");
  let limit = dflt;
  if (limitText !== undefined) {
    const n = isDigits(limitText) ? digitsValue(limitText) : Number.NaN;
    if (!(n >= 1 && n <= max)) return rejected(fail(ctx, 400, "invalid_limit", `limit must be an integer in 1..${max}`, { min: 1, max }));
    limit = n;
  }
  const offsetText = first(req.query, "offset");
  let offset = 0;
  if (offsetText !== undefined) {
    if (!isDigits(offsetText)) return rejected(fail(ctx, 400, "invalid_request", "offset must be a non-negative integer", { field: "offset", fields: ["offset"] }));
    offset = digitsValue(offsetText);
  }
  return parsed({ limit, offset });
}

/** `limit` >= 1 clamped to `max` (400 invalid_limit when not a positive integer). */
export function clampedLimit(req: { query: URLSearchParams }, ctx: RouteContext, dflt: number, max: number): Parsed<number> {
  const text = first(req.query, "limit");
  if (text === undefined) return parsed(dflt);
  const n = isDigits(text) ? digitsValue(text) : Number.NaN;
  if (!(n >= 1)) return rejected(fail(ctx, 400, "invalid_limit", "limit must be a positive integer", { max }));
  return parsed(Math.min(n, max));
}
