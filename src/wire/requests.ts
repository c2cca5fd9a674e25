/**
 * Request bodies and query strings, validated by the simulator on the way in (and by the client
 * before sending). Strict: unknown keys and wrong types are refused, each failure names its field.
 * `checkRequest` turns a failure into the spec's error code plus `details.fields`.
 */
import { z } from "zod";
import { isValidPrice } from "../core/amounts.js";
import { describeZodError, formatPath, issuesOf, type ValidationIssue } from "../core/validation.js";
import { ORDER_STATUSES, ORDER_TYPES, SIDES, orderType, side, timeInForce, type OrderType, type TimeInForce } from "./enums.js";
import { errorEnvelope, type ErrorEnvelope } from "./errors.js";
import { signedOrder } from "./orders.js";
import { address, caseInsensitiveEnum, micros, nonNegativeInt, positiveAmountString } from "./primitives.js";
import { isNonEmptyString, isPlain, onlyKey, registerQuick, safeParseQuick } from "./quick.js";

/** Printable ASCII without spaces, 1..64 chars (format not shown; our choice). */
export const CLIENT_ORDER_ID_RE = /^[\x21-\x7e]{1,64}$/;
export const clientOrderId = z.string().regex(CLIENT_ORDER_ID_RE, { error: "expected 1..64 printable ASCII characters without spaces" });

/** A price on the 0.001 grid in [0.001, 0.999] (docs/spec-gaps.md). */
export const requestPrice = micros(isValidPrice, "price must be a multiple of 0.001 between 0.001 and 0.999");

export const MAX_PLACE_BATCH = 15;
export const MAX_CANCEL_BATCH = 100;

/** `POST /api/orders/place` (docs/spec-gaps.md). `postOnly` defaults to false. */
export const placeBody = z.strictObject({
  order: signedOrder,
  maker: address,
  clientOrderId: clientOrderId.optional(),
  marketId: z.string().min(1).optional(),
  outcome: nonNegativeInt.optional(),
  side,
  price: requestPrice,
  quantity: positiveAmountString,
  type: orderType,
  timeInForce: timeInForce.optional(),
  postOnly: z.boolean().default(false),
});
/** What the client sends. */
export type PlaceBodyInput = z.input<typeof placeBody>;
/** What the simulator reads (defaults applied). */
export type PlaceBody = z.output<typeof placeBody>;

/** `market` defaults to IOC, `limit` to GTC (docs/spec-gaps.md). */
export function effectiveTimeInForce(type: OrderType, tif: TimeInForce | undefined): TimeInForce {
  return tif ?? (type === "market" ? "IOC" : "GTC");
}

export const placeBatchBody = z.strictObject({
  orders: z.array(placeBody).min(1).max(MAX_PLACE_BATCH),
});
export type PlaceBatchBodyInput = z.input<typeof placeBatchBody>;
export type PlaceBatchBody = z.output<typeof placeBatchBody>;

/**
 * The batch without entry validation, so the simulator can validate each entry with `placeBody`
 * and answer a bad entry per entry (a maker mismatch is a per-entry REJECTED, spec 4.6).
 */
export const placeBatchEnvelope = z.strictObject({
  orders: z.array(z.unknown()).min(1).max(MAX_PLACE_BATCH),
});

export const cancelBody = z.strictObject({ orderId: z.string().min(1) });
export type CancelBody = z.infer<typeof cancelBody>;

export const cancelBatchBody = z.strictObject({
  orderIds: z.array(z.string().min(1)).min(1).max(MAX_CANCEL_BATCH),
});
export type CancelBatchBody = z.infer<typeof cancelBatchBody>;

// The cancel bodies are on the order hot path: quick checks (quick.ts) beside the schemas.
registerQuick(cancelBody, (v) => (isPlain(v) && onlyKey(v, "orderId") && isNonEmptyString(v["orderId"]) ? { orderId: v["orderId"] } : undefined));
registerQuick(cancelBatchBody, (v) => {
  if (!isPlain(v) || !onlyKey(v, "orderIds")) return undefined;
  const ids = v["orderIds"];
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_CANCEL_BATCH) return undefined;
  for (const id of ids) if (!isNonEmptyString(id)) return undefined;
  return { orderIds: ids.slice() };
});

export const cancelAllBody = z.strictObject({ marketId: z.string().min(1).optional() });
export type CancelAllBody = z.infer<typeof cancelAllBody>;

// ---- query strings (spec 4.6: undefined parameters are `invalid_request`) -----------------

const digits = z.string().regex(/^\d{1,9}$/, { error: "expected a non-negative integer" }).transform(Number);

export const OPEN_ORDERS_MAX_LIMIT = 500;
export const HISTORY_DEFAULT_LIMIT = 100;
export const HISTORY_MAX_LIMIT = 200;

const orderFilters = {
  marketId: z.string().min(1).optional(),
  side: caseInsensitiveEnum(SIDES).optional(),
  outcome: digits.optional(),
  type: caseInsensitiveEnum(ORDER_TYPES).optional(),
  cursor: z.string().min(1).optional(),
};

/** `GET /api/orders/open`: limit 1..500, omitted gives a first page of 500. */
export const openOrdersQuery = z.strictObject({
  ...orderFilters,
  limit: digits
    .pipe(z.number().min(1, { error: "expected 1..500" }).max(OPEN_ORDERS_MAX_LIMIT, { error: "expected 1..500" }))
    .default(OPEN_ORDERS_MAX_LIMIT),
});
export type OpenOrdersQuery = z.output<typeof openOrdersQuery>;

/** `GET /api/orders/history`: limit default 100, values above 200 clamped. */
export const orderHistoryQuery = z.strictObject({
  ...orderFilters,
  limit: digits
    .pipe(z.number().min(1, { error: "expected a limit >= 1" }))
    .transform((n) => Math.min(n, HISTORY_MAX_LIMIT))
    .default(HISTORY_DEFAULT_LIMIT),
  status: caseInsensitiveEnum(ORDER_STATUSES).optional(),
});
export type OrderHistoryQuery = z.output<typeof orderHistoryQuery>;

/** A query string as an object; a repeated key becomes an array (and so fails a string field). */
export type QueryInput = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

export function queryToObject(query: QueryInput): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const add = (key: string, value: string): void => {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  };
  if (query instanceof URLSearchParams) {
    for (const [k, v] of query) add(k, v);
  } else {
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined) continue;
      if (typeof v === "string") add(k, v);
      else for (const item of v) add(k, item);
    }
  }
  return out;
}

// ---- turning a failure into the spec's error -----------------------------------------------

export type RequestCheck<T> =
  | { ok: true; value: T }
  | { ok: false; code: string; message: string; fields: string[]; issues: ValidationIssue[] };

/** Fields whose failure has its own code (spec 7.3): bad price/quantity is `invalid_amounts`. */
export function placeFieldCode(field: string): string | undefined {
  if (field === "price" || field === "quantity") return "invalid_amounts";
  if (field === "outcome") return "invalid_outcome";
  return undefined;
}

function failingFields(error: z.ZodError): string[] {
  const fields: string[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields.push(formatPath([...issue.path, key]));
    } else {
      fields.push(formatPath(issue.path));
    }
  }
  return [...new Set(fields)];
}

/**
 * Validate a request body or query. On failure the code is the one `codeFor` gives the first
 * failing field, else `invalid_request`; `fields` lists every failing field.
 */
export function checkRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  codeFor: (field: string) => string | undefined = () => undefined,
): RequestCheck<z.output<S>> {
  const result = safeParseQuick(schema, value);
  if (result.success) return { ok: true, value: result.data };
  const fields = failingFields(result.error);
  const code = (fields[0] !== undefined ? codeFor(fields[0]) : undefined) ?? "invalid_request";
  return { ok: false, code, message: describeZodError(result.error), fields, issues: issuesOf(result.error) };
}

export function checkPlaceBody(value: unknown): RequestCheck<PlaceBody> {
  return checkRequest(placeBody, value, placeFieldCode);
}

export function checkQuery<S extends z.ZodType>(schema: S, query: QueryInput): RequestCheck<z.output<S>> {
  return checkRequest(schema, queryToObject(query));
}

/** The 400 envelope for a failed check: `details.fields` (and `details.field`, the first). */
export function requestErrorEnvelope(failure: { code: string; message: string; fields: string[] }): ErrorEnvelope {
  return errorEnvelope(400, failure.code, failure.message, {
    details: { fields: failure.fields, field: failure.fields[0] ?? null },
  });
}
