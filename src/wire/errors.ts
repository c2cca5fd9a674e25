/**
 * Error envelopes of spec 7.1 (five shapes), one normaliser that reads the code from whichever
 * shape arrived, and the builders the simulator uses to produce them.
 *
 *   1. standard    {status, error: {code, message, trace_id?, retryAfterSec?, retryable?, details?}}
 *   2. upstream    the standard envelope with details.upstream = {status, body}
 *   3. placement   HTTP 201 placement result with status REJECTED + code/message/details
 *   4. business    HTTP 200 (any 2xx) carrying a code; or a flat {code, message, details?} body
 *   5. 429         standard envelope, code rate_limited, wait in the Retry-After header
 */
import { z } from "zod";
import { int } from "./primitives.js";

const detailsRecord = z.record(z.string(), z.unknown());

export const errorObject = z.looseObject({
  code: z.string(),
  message: z.string(),
  trace_id: z.string().optional(),
  retryAfterSec: z.number().nonnegative().optional(),
  retryable: z.boolean().optional(),
  details: detailsRecord.optional(),
});
export type ErrorObject = z.infer<typeof errorObject>;

export const errorEnvelopeSchema = z.looseObject({ status: int, error: errorObject });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const upstreamInfo = z.looseObject({ status: int, body: z.unknown() });
export type UpstreamInfo = z.infer<typeof upstreamInfo>;

export const flatErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  details: detailsRecord.optional(),
});
export type FlatError = z.infer<typeof flatErrorSchema>;

/** Fallback code for unstructured downstream replies (spec 7.1.2). */
export const UPSTREAM_FALLBACK_CODE = "exchange_upstream_error";

// ---- builders (simulator side) --------------------------------------------------------------

export interface ErrorExtras {
  traceId?: string;
  retryAfterSec?: number;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export function errorEnvelope(status: number, code: string, message: string, extras: ErrorExtras = {}): ErrorEnvelope {
  const error: ErrorObject = { code, message };
  if (extras.traceId !== undefined) error.trace_id = extras.traceId;
  if (extras.retryAfterSec !== undefined) error.retryAfterSec = extras.retryAfterSec;
  if (extras.retryable !== undefined) error.retryable = extras.retryable;
  if (extras.details !== undefined) error.details = extras.details;
  return { status, error };
}

/** Shape 2: a downstream error flattened; `code` defaults to `exchange_upstream_error`. */
export function upstreamErrorEnvelope(
  status: number,
  upstream: UpstreamInfo,
  code: string = UPSTREAM_FALLBACK_CODE,
  message = "upstream service error",
  extras: ErrorExtras = {},
): ErrorEnvelope {
  return errorEnvelope(status, code, message, { ...extras, details: { ...extras.details, upstream } });
}

/** Shape 5: the seconds to wait go in the Retry-After header, not in the body. */
export function rateLimitedEnvelope(message = "rate limit exceeded", extras: ErrorExtras = {}): ErrorEnvelope {
  return errorEnvelope(429, "rate_limited", message, extras);
}

/** Shape 4, flat form. */
export function flatError(code: string, message: string, details?: Record<string, unknown>): FlatError {
  return details === undefined ? { code, message } : { code, message, details };
}

// ---- normaliser (client side) -------------------------------------------------------------

export type ErrorShape =
  | "standard"
  | "upstream"
  | "rate_limited"
  | "placement_reject"
  | "business"
  | "flat"
  | "unstructured";

export interface NormalizedError {
  httpStatus: number;
  code: string;
  message: string;
  shape: ErrorShape;
  traceId?: string;
  /** From the Retry-After header when present, else the body's `retryAfterSec`. */
  retryAfterSec?: number;
  /** `error.retryable`, else `details.retryable` (journal_intent_not_durable puts it there). */
  retryable?: boolean;
  details?: Record<string, unknown>;
  upstream?: UpstreamInfo;
}

/** The shapes a transport may hand headers over in: fetch Headers, a Map, a plain record (node's may hold arrays). */
export type HeaderBag = Headers | ReadonlyMap<string, string> | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Case-insensitive header read (the first value of a repeated one). Header names are
 * case-insensitive, so a bag holds each name once: the exact and the lower-cased key are tried
 * first (transports hand them over lower-cased), then every key.
 */
export function getHeader(headers: HeaderBag | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Map) {
    const map = headers as ReadonlyMap<string, string>;
    return map.get(name) ?? map.get(name.toLowerCase()) ?? scan(map.entries(), name);
  }
  // fetch Headers, or anything shaped like it (another realm's), reads case-insensitively itself.
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const direct = own(bag, name) ?? own(bag, name.toLowerCase());
  return direct !== undefined ? direct : scan(Object.entries(bag), name);
}

function own(bag: Readonly<Record<string, unknown>>, key: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(bag, key) ? first(bag[key]) : undefined;
}

function first(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (Array.isArray(v) && typeof v[0] === "string") return v[0];
  return undefined;
}

function scan(entries: Iterable<[string, unknown]>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of entries) {
    if (k.toLowerCase() !== lower) continue;
    const value = first(v);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Retry-After as delta-seconds (spec 8.1); an HTTP-date form is not used by the platform. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+(?:\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function asDetails(v: unknown): Record<string, unknown> | undefined {
  return isRecord(v) ? v : undefined;
}

function fallbackCode(httpStatus: number): string {
  if (httpStatus === 429) return "rate_limited";
  return `http_${httpStatus}`;
}

/**
 * Read the error carried by a response, whatever its shape; undefined for a success body.
 * `body` may be parsed JSON or the raw text (an unparseable text body is "unstructured").
 */
export function readErrorBody(httpStatus: number, body: unknown, headers?: HeaderBag): NormalizedError | undefined {
  let parsed = body;
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body) as unknown;
    } catch {
      parsed = body;
    }
  }
  const headerRetry = parseRetryAfter(getHeader(headers, "retry-after"));
  const headerTrace = getHeader(headers, "x-trace-id");
  const success = httpStatus >= 200 && httpStatus < 300;

  const finish = (n: NormalizedError): NormalizedError => {
    if (headerRetry !== undefined) n.retryAfterSec = headerRetry;
    if (n.traceId === undefined && headerTrace !== undefined) n.traceId = headerTrace;
    if (n.retryable === undefined && typeof n.details?.retryable === "boolean") n.retryable = n.details.retryable;
    return n;
  };

  if (isRecord(parsed) && isRecord(parsed.error) && typeof parsed.error.code === "string") {
    const e = parsed.error;
    const details = asDetails(e.details);
    const up = upstreamInfo.safeParse(details?.upstream);
    const code = e.code as string;
    const shape: ErrorShape = up.success
      ? "upstream"
      : code === "rate_limited" || httpStatus === 429
        ? "rate_limited"
        : success
          ? "business"
          : "standard";
    const n: NormalizedError = { httpStatus, code, message: typeof e.message === "string" ? e.message : "", shape };
    if (typeof e.trace_id === "string") n.traceId = e.trace_id;
    if (typeof e.retryAfterSec === "number") n.retryAfterSec = e.retryAfterSec;
    if (typeof e.retryable === "boolean") n.retryable = e.retryable;
    if (details !== undefined) n.details = details;
    if (up.success) n.upstream = up.data;
    return finish(n);
  }

  if (isRecord(parsed) && typeof parsed.code === "string") {
    const shape: ErrorShape = parsed.status === "REJECTED" ? "placement_reject" : success ? "business" : "flat";
    const n: NormalizedError = {
      httpStatus,
      code: parsed.code,
      message: typeof parsed.message === "string" ? parsed.message : "",
      shape,
    };
    const details = asDetails(parsed.details);
    if (details !== undefined) n.details = details;
    if (typeof parsed.retryAfterSec === "number") n.retryAfterSec = parsed.retryAfterSec;
    if (typeof parsed.retryable === "boolean") n.retryable = parsed.retryable;
    return finish(n);
  }

  if (httpStatus < 400) return undefined;
  let message = `HTTP ${httpStatus}`;
  if (typeof parsed === "string" && parsed.trim() !== "") message = parsed.trim().slice(0, 200);
  else if (isRecord(parsed) && typeof parsed.error === "string") message = parsed.error;
  else if (isRecord(parsed) && typeof parsed.message === "string") message = parsed.message;
  const code = fallbackCode(httpStatus);
  return finish({ httpStatus, code, message, shape: code === "rate_limited" ? "rate_limited" : "unstructured" });
}
