/**
 * Order placement (spec 4.6, 7.1.3, 7.4). The three outcomes a caller must handle:
 *
 * - accepted  the order exists (OPEN, PARTIAL or FILLED);
 * - rejected  the platform answered and refused it: a 201 REJECTED result, a 2xx carrying a code,
 *             a refused batch entry, or a non-auth 4xx. Nothing was placed;
 * - unknown   the order may exist: a timeout, a connection lost after sending, a 5xx other than
 *             the "nothing recorded" ones (`exchange_unavailable`, `idempotency_race`, a bare 500),
 *             a 2xx that cannot be read, or any result, batch entry or 2xx coded answer whose code
 *             the catalogue classes `unknown_outcome` (`idempotency_race`, `exchange_unavailable`,
 *             `exchange_upstream_error`...). The result carries `clientOrderId` / `orderHash` to
 *             look the order up (`orders.lookup`); it is never turned into a guessed reject.
 *
 * A thrown ApiError means the order was certainly NOT placed: circuit open, auth refusal, 429 still
 * answered after its waits, `not_implemented`, `shard_owner_unavailable` /
 * `trading_temporarily_unavailable` still answered after the resends, a connection that never
 * carried the request, or a body refused locally before sending.
 *
 * Resends (the only automatic ones) reuse the serialised body text, so the platform sees the SAME
 * signed order under the same clientOrderId; the client never re-signs.
 */
import type { PlaceRequestBody } from "../signing/order-builder.js";
import type { WireSignedOrder } from "../signing/types.js";
import type { AcceptedPlacement, HandlingClass, RejectedPlacement } from "../wire/index.js";
import { MAX_PLACE_BATCH, placeBatchResult, placementResult, rejectedPlacement, type PlaceBatchEntry } from "../wire/index.js";
import type { Answer, ApiCore, CallSpec, Exchange } from "./core.js";
import { RESEND_SAME_CODES } from "./core.js";
import { answerError, handlingOf, isAuthRefusal, isSuccess, parseBody, schemaError } from "./decode.js";
import { ApiError, withHandling } from "./errors.js";
import type { ResponseMeta } from "./meta.js";
import type { CallOptions } from "./results.js";
import { assertPlaceBody } from "./validate.js";

/** The `order` object: uint256 fields as decimal strings, small integers as numbers. */
export type WireOrder = WireSignedOrder;

/**
 * The place body (docs/spec-gaps.md), declared once in the signing module that builds it. Both the
 * wire's `PlaceBodyInput` and the signing module's `PlaceOrderBody` fit this type.
 */
export type { PlaceRequestBody };

/** What a place and a place-batch also take (see PlaceOptions.stillWanted). */
export interface PlaceCallOptions extends CallOptions {
  /**
   * Asked right before each request leaves, after any wait (the rate gate, a 429's Retry-After, a
   * nothing-recorded answer): false ends the call with a local `withdrawn` error instead. Every
   * resend follows an answer that recorded nothing, so a withdrawn order was not placed. For
   * orders whose market may have closed, or whose wallet was halted, in the meantime.
   */
  stillWanted?: () => boolean;
}

export interface PlaceOptions extends PlaceCallOptions {
  /** The EIP-712 order hash computed when signing; carried into an unknown outcome for lookup. */
  orderHash?: string;
}

export interface PlaceBatchOptions extends PlaceCallOptions {
  /** One per order, in request order. */
  orderHashes?: readonly (string | undefined)[];
}

export interface PlaceIds {
  clientOrderId: string | undefined;
  orderHash: string | undefined;
}

export interface PlaceAccepted extends PlaceIds {
  outcome: "accepted";
  orderId: string;
  status: AcceptedPlacement["status"];
  result: AcceptedPlacement;
  meta: ResponseMeta;
}

export interface PlaceRejected extends PlaceIds {
  outcome: "rejected";
  /** Null/undefined when nothing was recorded. */
  orderId: string | null | undefined;
  code: string;
  message: string;
  details: Record<string, unknown> | undefined;
  /** What to do (spec 7.4): business_reject, fix_request, resend_same (journal_intent_not_durable), onboarding_wait... */
  handling: HandlingClass;
  /** HTTP status of the answer (201 for REJECTED results and batch entries). */
  httpStatus: number;
  /** The REJECTED placement body when the answer had that shape. */
  result: RejectedPlacement | undefined;
  meta: ResponseMeta;
}

export interface PlaceUnknown extends PlaceIds {
  outcome: "unknown";
  /** Why the outcome is unknown (timeout, 5xx, unreadable answer). */
  lastError: ApiError;
  meta: ResponseMeta | undefined;
}

export type PlaceOutcome = PlaceAccepted | PlaceRejected | PlaceUnknown;

export type PlaceBatchOutcome =
  /** One outcome per order, in request order; an entry whose code leaves it open is "unknown". */
  | { outcome: "answered"; entries: PlaceOutcome[]; meta: ResponseMeta }
  | { outcome: "unknown"; entries: PlaceIds[]; lastError: ApiError; meta: ResponseMeta | undefined };

function rejectedOf(ids: PlaceIds, e: ApiError, meta: ResponseMeta, result: RejectedPlacement | undefined): PlaceRejected {
  return {
    ...ids,
    outcome: "rejected",
    orderId: result?.orderId,
    code: e.code,
    message: e.detail,
    details: e.details,
    handling: e.handling,
    httpStatus: e.status,
    result,
    meta,
  };
}

/** Where an answer came from, to build the error of an unknown entry. */
interface AnswerContext {
  spec: CallSpec;
  status: number;
  attempts: number;
  meta: ResponseMeta;
}

/** A code the catalogue classes `unknown_outcome`: the order may exist whatever the answer's shape. */
function leavesOutcomeOpen(code: string, status: number): boolean {
  return handlingOf(code, status) === "unknown_outcome";
}

function unknownFromCode(
  ids: PlaceIds,
  ctx: AnswerContext,
  e: { code: string; message: string; details?: Record<string, unknown> | undefined },
): PlaceUnknown {
  const lastError = new ApiError({
    source: "http",
    status: ctx.status,
    code: e.code,
    message: e.message,
    method: ctx.spec.method,
    path: ctx.spec.path,
    handling: "unknown_outcome",
    attempts: ctx.attempts,
    meta: ctx.meta,
    ...(e.details !== undefined ? { details: e.details } : {}),
    ...(ctx.meta.traceId !== undefined ? { traceId: ctx.meta.traceId } : {}),
  });
  return { ...ids, outcome: "unknown", lastError, meta: ctx.meta };
}

function fromPlacement(ids: PlaceIds, r: AcceptedPlacement | RejectedPlacement, ctx: AnswerContext): PlaceOutcome {
  const { status, meta } = ctx;
  if (r.status === "REJECTED") {
    if (leavesOutcomeOpen(r.code, status)) return unknownFromCode(ids, ctx, r);
    return {
      ...ids,
      outcome: "rejected",
      orderId: r.orderId,
      code: r.code,
      message: r.message,
      details: r.details,
      handling: handlingOf(r.code, status),
      httpStatus: status,
      result: r,
      meta,
    };
  }
  return { ...ids, outcome: "accepted", orderId: r.orderId, status: r.status, result: r, meta };
}

/**
 * What a non-2xx answer to a write means: "throw" (certainly not processed), "rejected"
 * (a definite refusal) or "unknown".
 */
function classifyFailure(a: Answer, e: ApiError): "throw" | "rejected" | "unknown" {
  if (a.status === 429 || isAuthRefusal(e) || a.status === 501) return "throw";
  if (a.status >= 400 && a.status < 500) return "rejected";
  if (a.status >= 500 && RESEND_SAME_CODES.has(e.code)) return "throw";
  return "unknown";
}

function noAnswer(ex: Extract<Exchange, { kind: "no_answer" }>): ApiError | undefined {
  // A connection that never carried the request: certainly not placed.
  return ex.error.maybeDelivered === false ? ex.error : undefined;
}

export async function placeOrder(core: ApiCore, wallet: string | undefined, body: PlaceRequestBody, opts: PlaceOptions = {}): Promise<PlaceOutcome> {
  const spec: CallSpec = { method: "POST", path: "/api/orders/place", wallet, auth: true, policy: "write" };
  if (opts.signal) spec.signal = opts.signal;
  if (opts.stillWanted) spec.stillWanted = opts.stillWanted;
  assertPlaceBody(core, spec, body);
  spec.body = JSON.stringify(body);
  const ids: PlaceIds = { clientOrderId: body.clientOrderId, orderHash: opts.orderHash };

  const ex = await core.exchange(spec);
  if (ex.kind === "no_answer") {
    const certain = noAnswer(ex);
    if (certain) throw certain;
    return { ...ids, outcome: "unknown", lastError: ex.error, meta: undefined };
  }
  if (isSuccess(ex.status)) {
    const parsed = parseBody(placementResult, ex);
    if (parsed.ok) return fromPlacement(ids, parsed.data, contextOf(spec, ex));
    if (ex.error !== undefined) {
      const e = answerError(spec, ex);
      if (e.handling === "unknown_outcome") return { ...ids, outcome: "unknown", lastError: e, meta: ex.meta };
      return rejectedOf(ids, e, ex.meta, undefined);
    }
    return { ...ids, outcome: "unknown", lastError: schemaError(core, spec, ex, parsed.error, "unknown_outcome"), meta: ex.meta };
  }
  const e = answerError(spec, ex);
  const verdict = classifyFailure(ex, e);
  if (verdict === "throw") throw e;
  if (verdict === "rejected") {
    // order_signed_with_floor_notional arrives as a 400 carrying a REJECTED placement body.
    const asResult = parseBody(rejectedPlacement, ex);
    return rejectedOf(ids, e, ex.meta, asResult.ok ? asResult.data : undefined);
  }
  return { ...ids, outcome: "unknown", lastError: withHandling(e, "unknown_outcome"), meta: ex.meta };
}

function contextOf(spec: CallSpec, a: Answer): AnswerContext {
  return { spec, status: a.status, attempts: a.attempts, meta: a.meta };
}

function entryOutcome(ids: PlaceIds, entry: PlaceBatchEntry, ctx: AnswerContext): PlaceOutcome {
  const { status, meta } = ctx;
  if (entry.success === false) {
    const entryIds: PlaceIds = { clientOrderId: entry.clientOrderId ?? ids.clientOrderId, orderHash: ids.orderHash };
    // journal_intent_not_durable (resend_same) stays a rejected entry: nothing was recorded.
    if (leavesOutcomeOpen(entry.code, status)) return unknownFromCode(entryIds, ctx, entry);
    return {
      ...entryIds,
      outcome: "rejected",
      orderId: entry.orderId,
      code: entry.code,
      message: entry.message,
      details: entry.details,
      handling: handlingOf(entry.code, status),
      httpStatus: status,
      result: undefined,
      meta,
    };
  }
  return fromPlacement(ids, entry, ctx);
}

export async function placeOrderBatch(
  core: ApiCore,
  wallet: string | undefined,
  bodies: readonly PlaceRequestBody[],
  opts: PlaceBatchOptions = {},
): Promise<PlaceBatchOutcome> {
  const spec: CallSpec = { method: "POST", path: "/api/orders/place-batch", wallet, auth: true, policy: "write" };
  if (opts.signal) spec.signal = opts.signal;
  if (opts.stillWanted) spec.stillWanted = opts.stillWanted;
  if (core.validateRequests) {
    if (bodies.length < 1 || bodies.length > MAX_PLACE_BATCH) {
      throw new ApiError({
        source: "local",
        status: 0,
        code: "invalid_request",
        message: `request refused before sending: a batch holds 1..${MAX_PLACE_BATCH} orders, got ${bodies.length}`,
        method: spec.method,
        path: spec.path,
        handling: "fix_request",
        details: { fields: ["orders"] },
        attempts: 0,
      });
    }
    bodies.forEach((b, i) => assertPlaceBody(core, spec, b, `orders[${i}].`));
  }
  spec.body = JSON.stringify({ orders: bodies });
  const ids: PlaceIds[] = bodies.map((b, i) => ({ clientOrderId: b.clientOrderId, orderHash: opts.orderHashes?.[i] }));

  const ex = await core.exchange(spec);
  if (ex.kind === "no_answer") {
    const certain = noAnswer(ex);
    if (certain) throw certain;
    return { outcome: "unknown", entries: ids, lastError: ex.error, meta: undefined };
  }
  if (isSuccess(ex.status)) {
    const parsed = parseBody(placeBatchResult, ex);
    if (parsed.ok && parsed.data.results.length === bodies.length) {
      const ctx = contextOf(spec, ex);
      const entries = parsed.data.results.map((entry, i) => entryOutcome(ids[i]!, entry, ctx));
      return { outcome: "answered", entries, meta: ex.meta };
    }
    if (!parsed.ok && ex.error !== undefined) {
      const e = answerError(spec, ex);
      if (e.handling === "unknown_outcome") return { outcome: "unknown", entries: ids, lastError: e, meta: ex.meta };
      return { outcome: "answered", entries: ids.map((id) => rejectedOf(id, e, ex.meta, undefined)), meta: ex.meta };
    }
    const lastError = parsed.ok
      ? new ApiError({
          source: "schema",
          status: ex.status,
          code: "invalid_response",
          message: `place-batch answered ${parsed.data.results.length} results for ${bodies.length} orders`,
          method: spec.method,
          path: spec.path,
          handling: "unknown_outcome",
          attempts: ex.attempts,
          meta: ex.meta,
        })
      : schemaError(core, spec, ex, parsed.error, "unknown_outcome");
    return { outcome: "unknown", entries: ids, lastError, meta: ex.meta };
  }
  const e = answerError(spec, ex);
  const verdict = classifyFailure(ex, e);
  if (verdict === "throw") throw e;
  if (verdict === "rejected") {
    return { outcome: "answered", entries: ids.map((id) => rejectedOf(id, e, ex.meta, undefined)), meta: ex.meta };
  }
  return { outcome: "unknown", entries: ids, lastError: withHandling(e, "unknown_outcome"), meta: ex.meta };
}
