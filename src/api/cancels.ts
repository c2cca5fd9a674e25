/**
 * Cancels (spec 4.6, docs/spec-gaps.md). A cancel that is recorded but not yet answered comes back
 * as 202 `cancel_pending` (or 503 `cancel_unanswered` from older exchange nodes, or a batch entry
 * with either code or `lock_invariant`): a result with status "pending", repeated after
 * Retry-After with a single cancel or a cancel-batch of exactly the pending ids, never another
 * cancel-all. `cancelUntilFinal` does that loop.
 *
 * Single cancel and cancel-batch are idempotent ("repeating a cancel_pending cancel is safe and
 * cannot cancel twice"), so 5xx and transport failures are retried with backoff; cancel-all is
 * sent once (only a 429, which was not processed, is resent).
 *
 * All three are risk-reducing: an open circuit breaker never refuses them (docs/client.md).
 */
import type { CancelDone, CancelManyResult, HandlingClass, NotCancelledEntry } from "../wire/index.js";
import { MAX_CANCEL_BATCH, cancelAllBody, cancelBatchBody, cancelBody, cancelManyResult, cancelResult } from "../wire/index.js";
import type { ApiCore, CallSpec, Exchange } from "./core.js";
import { RESEND_SAME_CODES } from "./core.js";
import { answerError, isAuthRefusal, isSuccess, parseBody, schemaError } from "./decode.js";
import type { ApiError } from "./errors.js";
import { isApiError } from "./errors.js";
import type { ResponseMeta } from "./meta.js";
import type { CallOptions } from "./results.js";
import { assertBody } from "./validate.js";

/** Codes meaning "recorded, no answer yet: repeat the cancel after Retry-After". */
export const CANCEL_PENDING_CODES: ReadonlySet<string> = new Set(["cancel_pending", "cancel_unanswered", "lock_invariant"]);

/** Retry-After of a pending cancel when the answer names none (the spec's value). */
export const DEFAULT_CANCEL_RETRY_SEC = 5;

export type CancelOutcome =
  | { status: "done"; orderId: string; final: CancelDone["status"]; data: CancelDone; meta: ResponseMeta }
  | { status: "pending"; orderId: string; code: string; retryAfterSec: number; meta: ResponseMeta }
  | {
      status: "rejected";
      orderId: string;
      code: string;
      message: string;
      details: Record<string, unknown> | undefined;
      handling: HandlingClass;
      httpStatus: number;
      meta: ResponseMeta;
    }
  | { status: "unknown"; orderId: string; lastError: ApiError; meta: ResponseMeta | undefined };

export type CancelManyOutcome =
  | {
      status: "answered";
      cancelled: string[];
      /** Recorded, no answer yet: repeat for exactly these ids (never with cancel-all). */
      pending: NotCancelledEntry[];
      /** Definite refusals (not_cancellable, order_not_found, forbidden, ...). */
      failed: NotCancelledEntry[];
      /** Retry-After of the answer, when it named one. */
      retryAfterSec: number | undefined;
      data: CancelManyResult | undefined;
      meta: ResponseMeta;
    }
  | {
      status: "rejected";
      code: string;
      message: string;
      details: Record<string, unknown> | undefined;
      handling: HandlingClass;
      httpStatus: number;
      meta: ResponseMeta;
    }
  | { status: "unknown"; lastError: ApiError; meta: ResponseMeta | undefined };

function spec(wallet: string | undefined, path: string, body: unknown, policy: CallSpec["policy"], opts?: CallOptions): CallSpec {
  const s: CallSpec = {
    method: "POST",
    path,
    wallet,
    auth: true,
    policy,
    body: JSON.stringify(body),
    answerCodes: ["cancel_unanswered"],
    riskReducing: true,
  };
  if (opts?.signal) s.signal = opts.signal;
  return s;
}

/** A failure that proves the request was not processed (or cannot be processed): thrown. */
function mustThrow(ex: Exchange, e: ApiError): boolean {
  if (ex.kind === "no_answer") return ex.error.maybeDelivered === false;
  return ex.status === 429 || ex.status === 501 || isAuthRefusal(e) || (ex.status >= 500 && RESEND_SAME_CODES.has(e.code));
}

function pendingWait(e: { retryAfterSec?: number | undefined } | undefined, meta: ResponseMeta): number {
  return e?.retryAfterSec ?? meta.retryAfterSec ?? DEFAULT_CANCEL_RETRY_SEC;
}

export async function cancelOrder(core: ApiCore, wallet: string | undefined, orderId: string, opts?: CallOptions): Promise<CancelOutcome> {
  const s = spec(wallet, "/api/orders/cancel", { orderId }, "idempotent", opts);
  assertBody(core, s, cancelBody, { orderId });
  const ex = await core.exchange(s);
  if (ex.kind === "no_answer") {
    if (mustThrow(ex, ex.error)) throw ex.error;
    return { status: "unknown", orderId, lastError: ex.error, meta: undefined };
  }
  if (isSuccess(ex.status)) {
    const parsed = parseBody(cancelResult, ex);
    if (parsed.ok) {
      const d = parsed.data;
      if (d.status === "cancel_pending") return { status: "pending", orderId: d.orderId, code: d.code, retryAfterSec: pendingWait(ex.error, ex.meta), meta: ex.meta };
      return { status: "done", orderId: d.orderId, final: d.status, data: d, meta: ex.meta };
    }
    if (ex.error !== undefined && CANCEL_PENDING_CODES.has(ex.error.code)) {
      return { status: "pending", orderId, code: ex.error.code, retryAfterSec: pendingWait(ex.error, ex.meta), meta: ex.meta };
    }
    if (ex.error === undefined) return { status: "unknown", orderId, lastError: schemaError(core, s, ex, parsed.error, "unknown_outcome"), meta: ex.meta };
  }
  const e = answerError(s, ex);
  if (CANCEL_PENDING_CODES.has(e.code)) {
    return { status: "pending", orderId, code: e.code, retryAfterSec: pendingWait(e, ex.meta), meta: ex.meta };
  }
  if (mustThrow(ex, e)) throw e;
  if (isSuccess(ex.status) || (ex.status >= 400 && ex.status < 500)) {
    return { status: "rejected", orderId, code: e.code, message: e.detail, details: e.details, handling: e.handling, httpStatus: ex.status, meta: ex.meta };
  }
  return { status: "unknown", orderId, lastError: e, meta: ex.meta };
}

function manyOutcome(core: ApiCore, s: CallSpec, ex: Exchange, requested: readonly string[] | undefined): CancelManyOutcome {
  if (ex.kind === "no_answer") {
    if (mustThrow(ex, ex.error)) throw ex.error;
    return { status: "unknown", lastError: ex.error, meta: undefined };
  }
  if (isSuccess(ex.status)) {
    const parsed = parseBody(cancelManyResult, ex);
    if (parsed.ok) {
      const pending = parsed.data.notCancelled.filter((n) => CANCEL_PENDING_CODES.has(n.code));
      const failed = parsed.data.notCancelled.filter((n) => !CANCEL_PENDING_CODES.has(n.code));
      return { status: "answered", cancelled: parsed.data.cancelled, pending, failed, retryAfterSec: ex.meta.retryAfterSec, data: parsed.data, meta: ex.meta };
    }
    if (ex.error === undefined) return { status: "unknown", lastError: schemaError(core, s, ex, parsed.error, "unknown_outcome"), meta: ex.meta };
  }
  const e = answerError(s, ex);
  if (CANCEL_PENDING_CODES.has(e.code) && requested !== undefined) {
    // The whole batch is recorded but unanswered: every id is pending.
    const pending = requested.map((orderId) => ({ orderId, code: e.code, message: e.detail }));
    return { status: "answered", cancelled: [], pending, failed: [], retryAfterSec: pendingWait(e, ex.meta), data: undefined, meta: ex.meta };
  }
  if (mustThrow(ex, e)) throw e;
  if (isSuccess(ex.status) || (ex.status >= 400 && ex.status < 500)) {
    return { status: "rejected", code: e.code, message: e.detail, details: e.details, handling: e.handling, httpStatus: ex.status, meta: ex.meta };
  }
  return { status: "unknown", lastError: e, meta: ex.meta };
}

export async function cancelOrderBatch(core: ApiCore, wallet: string | undefined, orderIds: readonly string[], opts?: CallOptions): Promise<CancelManyOutcome> {
  const body = { orderIds: [...orderIds] };
  const s = spec(wallet, "/api/orders/cancel-batch", body, "idempotent", opts);
  assertBody(core, s, cancelBatchBody, body);
  return manyOutcome(core, s, await core.exchange(s), orderIds);
}

/** Sent once: a cancel-all is never repeated (its pending ids are repeated with cancel / cancel-batch). */
export async function cancelAllOrders(core: ApiCore, wallet: string | undefined, q: { marketId?: string } = {}, opts?: CallOptions): Promise<CancelManyOutcome> {
  const body = q.marketId !== undefined ? { marketId: q.marketId } : {};
  const s = spec(wallet, "/api/orders/cancel-all", body, "once", opts);
  assertBody(core, s, cancelAllBody, body);
  return manyOutcome(core, s, await core.exchange(s), undefined);
}

export interface CancelFinal {
  orderId: string;
  /** CANCELLED or FILLED when the platform said so; undefined when the cancel was refused (see code). */
  status: CancelDone["status"] | undefined;
  /** The refusal code (not_cancellable: already terminal, read the order; order_not_found; forbidden...). */
  code: string | undefined;
}

export interface CancelUntilFinalReport {
  final: CancelFinal[];
  /** Still pending (or unanswered) at the deadline. */
  pending: string[];
  rounds: number;
  deadlineReached: boolean;
  /** The last failure seen while some ids stayed pending. */
  lastError: ApiError | undefined;
}

export interface CancelUntilFinalOptions extends CallOptions {
  /** Time budget from the call, on the client's clock. */
  deadlineMs: number;
  /** Wait before repeating when an answer names no Retry-After. Default 5 s. */
  defaultWaitMs?: number;
}

/**
 * Cancel `orderIds` and repeat for the ids still pending after each answer's Retry-After (a single
 * cancel for one id, cancel-batch of exactly those ids for several) until every id has a final
 * answer or the next round would start after the deadline. Never sends cancel-all.
 */
export async function cancelUntilFinal(
  core: ApiCore,
  wallet: string | undefined,
  orderIds: readonly string[],
  opts: CancelUntilFinalOptions,
): Promise<CancelUntilFinalReport> {
  const deadline = core.clock.now() + opts.deadlineMs;
  const defaultWait = opts.defaultWaitMs ?? DEFAULT_CANCEL_RETRY_SEC * 1000;
  const final = new Map<string, CancelFinal>();
  let pending = [...new Set(orderIds)];
  let rounds = 0;
  let lastError: ApiError | undefined;
  const callOpts: CallOptions = opts.signal ? { signal: opts.signal } : {};

  while (pending.length > 0) {
    rounds += 1;
    let waitMs = 0;
    const still = new Set<string>();
    const keep = (ids: readonly string[], ms: number): void => {
      if (ids.length === 0) return;
      ids.forEach((id) => still.add(id));
      waitMs = Math.max(waitMs, ms);
    };
    const chunks = pending.length === 1 ? [pending] : chunk(pending, MAX_CANCEL_BATCH);
    for (const ids of chunks) {
      try {
        if (ids.length === 1) {
          const id = ids[0]!;
          const r = await cancelOrder(core, wallet, id, callOpts);
          if (r.status === "done") final.set(id, { orderId: id, status: r.final, code: undefined });
          else if (r.status === "rejected") final.set(id, { orderId: id, status: undefined, code: r.code });
          else if (r.status === "pending") keep([id], r.retryAfterSec * 1000);
          else {
            lastError = r.lastError;
            keep([id], defaultWait);
          }
        } else {
          const r = await cancelOrderBatch(core, wallet, ids, callOpts);
          if (r.status === "answered") {
            for (const id of r.cancelled) final.set(id, { orderId: id, status: "CANCELLED", code: undefined });
            for (const f of r.failed) final.set(f.orderId, { orderId: f.orderId, status: undefined, code: f.code });
            const answered = new Set([...r.cancelled, ...r.failed.map((f) => f.orderId)]);
            // Pending ids, and any id the answer did not mention, are repeated.
            keep(ids.filter((id) => !answered.has(id)), (r.retryAfterSec ?? defaultWait / 1000) * 1000);
          } else if (r.status === "rejected") {
            for (const id of ids) final.set(id, { orderId: id, status: undefined, code: r.code });
          } else {
            lastError = r.lastError;
            keep(ids, defaultWait);
          }
        }
      } catch (e) {
        if (!isApiError(e) || e.handling === "auth") throw e;
        lastError = e;
        keep(ids, e.retryAfterSec !== undefined ? e.retryAfterSec * 1000 : defaultWait);
      }
    }
    pending = pending.filter((id) => still.has(id));
    if (pending.length === 0) break;
    if (core.clock.now() + waitMs > deadline) {
      return { final: [...final.values()], pending, rounds, deadlineReached: true, lastError };
    }
    await core.clock.sleep(waitMs, opts.signal);
  }
  return { final: [...final.values()], pending: [], rounds, deadlineReached: false, lastError: undefined };
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
