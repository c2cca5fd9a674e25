/**
 * Cancels of one wallet's orders (spec 4.6): a cancel-batch of up to 100 ids, or a single cancel
 * for one. The tracker hears `cancel_requested` before the request and the answer after it:
 *
 *   cancelled / 200            -> done (CANCELLED or FILLED, with the fill total of a single cancel)
 *   cancel_pending (or an id the batch answer does not mention, or a lost answer)
 *                              -> pending: repeated after Retry-After (repeating is safe, spec 4.6)
 *   not_cancellable            -> the order is already terminal: read it for its final state
 *   order_not_found, forbidden -> not ours / unknown: read it
 *   thrown by the client       -> nothing was recorded: the order rests again
 */
import type { CancelManyOutcome, CancelOutcome as ApiCancelOutcome, WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import { parseMicros } from "../../core/money.js";
import type { Logger } from "../../log/index.js";
import { isTerminal, type CancelOutcome, type OrderTracker, type TrackerEvent, type Transition } from "../orders/order-tracker.js";
import { codeOf, errorText } from "./errors.js";
import type { EngineObserver } from "../observer.js";

export const MAX_CANCEL_BATCH = 100;
/** Wait before repeating a cancel whose answer was lost (it may have been recorded). */
export const UNKNOWN_CANCEL_RETRY_MS = 1_000;

export interface CancelContext {
  wallet: string;
  api: WalletClient;
  clock: Clock;
  log: Logger;
  observer: EngineObserver;
  track(ev: TrackerEvent): Transition;
}

type Ids = { clientOrderId: string; orderId: string };

/** Cancel orders (with ids) of one market; returns how many cancels were sent. */
export async function sendCancels(c: CancelContext, orders: readonly { clientOrderId: string; orderId?: string | undefined }[], symbol: string): Promise<number> {
  const now = c.clock.now();
  const go: { clientOrderId: string; orderId: string }[] = [];
  for (const o of orders) {
    if (o.orderId === undefined) continue;
    const t = c.track({ kind: "cancel_requested", clientOrderId: o.clientOrderId, orderId: o.orderId, nowMs: now });
    if (t.outcome === "applied" || t.outcome === "same") go.push({ clientOrderId: o.clientOrderId, orderId: o.orderId });
  }
  for (let i = 0; i < go.length; i += MAX_CANCEL_BATCH) {
    const chunk = go.slice(i, i + MAX_CANCEL_BATCH);
    if (chunk.length === 1) await cancelOne(c, chunk[0]!, symbol);
    else await cancelMany(c, chunk, symbol);
  }
  return go.length;
}

async function cancelOne(c: CancelContext, o: Ids, symbol: string): Promise<void> {
  let r: ApiCancelOutcome;
  try {
    r = await c.api.orders.cancel(o.orderId);
  } catch (e) {
    cancelResult(c, o, symbol, { kind: "failed", code: codeOf(e) }, undefined, e);
    return;
  }
  switch (r.status) {
    case "done":
      cancelResult(c, o, symbol, { kind: "done", status: r.final, filledQty: parseMicros(r.data.filledQty) }, r.meta.serverTime);
      return;
    case "pending":
      cancelResult(c, o, symbol, { kind: "pending", retryAfterMs: r.retryAfterSec * 1000 }, r.meta.serverTime);
      return;
    case "rejected":
      cancelResult(c, o, symbol, refusalOutcome(r.code), r.meta.serverTime);
      return;
    case "unknown":
      cancelResult(c, o, symbol, { kind: "pending", retryAfterMs: UNKNOWN_CANCEL_RETRY_MS }, undefined, r.lastError);
      return;
  }
}

async function cancelMany(c: CancelContext, chunk: Ids[], symbol: string): Promise<void> {
  let r: CancelManyOutcome;
  try {
    r = await c.api.orders.cancelBatch(chunk.map((o) => o.orderId));
  } catch (e) {
    for (const o of chunk) cancelResult(c, o, symbol, { kind: "failed", code: codeOf(e) }, undefined, e);
    return;
  }
  if (r.status === "rejected") {
    for (const o of chunk) cancelResult(c, o, symbol, refusalOutcome(r.code), r.meta.serverTime);
    return;
  }
  if (r.status === "unknown") {
    for (const o of chunk) cancelResult(c, o, symbol, { kind: "pending", retryAfterMs: UNKNOWN_CANCEL_RETRY_MS }, undefined, r.lastError);
    return;
  }
  const cancelled = new Set(r.cancelled);
  const pending = new Set(r.pending.map((p) => p.orderId));
  const failed = new Map(r.failed.map((f) => [f.orderId, f.code]));
  const retryMs = (r.retryAfterSec ?? 5) * 1000;
  for (const o of chunk) {
    const code = failed.get(o.orderId);
    if (cancelled.has(o.orderId)) cancelResult(c, o, symbol, { kind: "done", status: "CANCELLED" }, r.meta.serverTime);
    else if (code !== undefined) cancelResult(c, o, symbol, refusalOutcome(code), r.meta.serverTime);
    // Pending, or not mentioned at all: repeat later (safe, spec 4.6).
    else cancelResult(c, o, symbol, { kind: "pending", retryAfterMs: pending.has(o.orderId) ? retryMs : UNKNOWN_CANCEL_RETRY_MS }, r.meta.serverTime);
  }
}

function cancelResult(c: CancelContext, o: Ids, symbol: string, result: CancelOutcome, serverTimeMs: number | undefined, error?: unknown): void {
  const ev = { kind: "cancel_result" as const, clientOrderId: o.clientOrderId, orderId: o.orderId, result, nowMs: c.clock.now() };
  c.track(serverTimeMs === undefined ? ev : { ...ev, serverTimeMs });
  const fields = { market: symbol, clientOrderId: o.clientOrderId, orderId: o.orderId, result: result.kind };
  if (result.kind === "done" || result.kind === "pending") {
    c.observer.onEvent({
      type: "order_cancelled",
      wallet: c.wallet,
      marketId: symbol,
      clientOrderId: o.clientOrderId,
      orderId: o.orderId,
      result: result.kind === "done" ? result.status : "pending",
    });
    c.log.debug(fields, result.kind === "done" ? "order cancelled" : "cancel pending");
  } else if (result.kind === "failed") {
    c.log.warn({ ...fields, code: result.code, err: errorText(error) }, "cancel not done: the order rests again");
  } else {
    // Already terminal or unknown to the platform (a fill won the race): the order is read next.
    // A routine race (debug): the order ended on its own before the cancel arrived.
    c.log.debug(fields, "cancel refused: reading the order");
  }
}

function refusalOutcome(code: string): CancelOutcome {
  return endedByRefusal(code) ?? (code === "forbidden" ? { kind: "not_found" } : { kind: "failed", code });
}

/** Cancel refusals that say the order no longer rests: already terminal, or unknown to the platform. */
export function endedByRefusal(code: string | undefined): CancelOutcome | undefined {
  if (code === "not_cancellable") return { kind: "not_cancellable" };
  if (code === "order_not_found") return { kind: "not_found" };
  return undefined;
}

/**
 * A cancel's answer obtained outside the executor (cancel-all, cancelUntilFinal) into the tracker,
 * which takes an answer only after the cancel itself (open -> cancel_requested). No-op for an
 * order it does not know or already holds terminal.
 */
export function trackCancelAnswer(tracker: OrderTracker, track: (ev: TrackerEvent) => Transition, orderId: string, result: CancelOutcome, nowMs: number): void {
  const o = tracker.getByOrderId(orderId);
  if (o === undefined || isTerminal(o.state)) return;
  if (o.state === "open" || o.state === "partial") track({ kind: "cancel_requested", clientOrderId: o.clientOrderId, orderId, nowMs });
  track({ kind: "cancel_result", clientOrderId: o.clientOrderId, orderId, result, nowMs });
}
