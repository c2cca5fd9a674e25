/**
 * What the tracker says about its records: views, the reconciler's live orders, state counts,
 * what must be read or re-cancelled, fill gaps, and the comparison with a complete open-orders
 * walk (which flags reads, the only change a query makes). Functions over the records; the tracker
 * owns them (order-tracker-index.ts) and the apply step changes them (order-tracker-apply.ts).
 */
import type { Micros } from "../../core/money.js";
import type { LiveOrder } from "../quote/quotes.js";
import { ORDER_STATES, isTerminal, type OrderState } from "./order-states.js";
import type { Rec } from "./order-tracker-index.js";
import type { ReadNeed, TrackedOrder, WalkDiff } from "./order-tracker-types.js";

/** The public copy of a record. */
export function view(r: Rec): TrackedOrder {
  const { tradeIds: _t, cancelRequested: _c, seq: _s, ...rest } = r;
  return { ...rest };
}

export function selectViews(records: Iterable<Rec>, pred: (r: Rec) => boolean): TrackedOrder[] {
  const out: TrackedOrder[] = [];
  for (const r of records) if (pred(r)) out.push(view(r));
  return out;
}

/** Records in the reconciler's terms (the caller passes the live ones: OrderIndex.liveOf). */
export function liveOrderViews(records: Iterable<Rec>): LiveOrder[] {
  const out: LiveOrder[] = [];
  for (const r of records) {
    const lo: LiveOrder = {
      clientOrderId: r.clientOrderId,
      outcome: r.outcome,
      side: r.side,
      price: r.price,
      size: r.size,
      remaining: r.size - r.filledQty,
      postOnly: r.postOnly,
      createdAtMs: r.createdAtMs,
      state: liveStateOf(r),
    };
    if (r.orderId !== undefined) lo.orderId = r.orderId;
    out.push(lo);
  }
  return out;
}

function liveStateOf(r: Rec): LiveOrder["state"] {
  switch (r.state) {
    case "open":
      return "open";
    case "partial":
      return "partial";
    case "cancel_requested":
    case "cancel_pending":
      return "cancelling";
    case "unknown":
      // After a cancel answered 404/409 the order is probably terminal, but until a read says so
      // it may still rest: "cancelling" (never cancelled again; its remaining size still counts
      // against its slot in the reconciler).
      return r.cancelRequested ? "cancelling" : "pending";
    default:
      return "pending";
  }
}

export function stateCounts(records: Iterable<Rec>): Record<OrderState, number> {
  const out = Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>;
  for (const r of records) out[r.state]++;
  return out;
}

/** A cancel may be sent now: resting, or a recorded cancel past its Retry-After. */
export function cancellable(r: Rec | undefined, nowMs: number): boolean {
  if (r === undefined || r.orderId === undefined) return false;
  if (r.state === "open" || r.state === "partial") return true;
  return r.state === "cancel_pending" && (r.cancelRetryAtMs === undefined || nowMs >= r.cancelRetryAtMs);
}

/**
 * What to read (by id or lookup) or re-cancel now. An order waiting after an early lookup 404
 * (`nextReadAtMs`) is left out until then; an unknown order looked up carries `conclusiveAtMs`.
 */
export function readNeedsOf(records: Iterable<Rec>, nowMs: number, notRecordedAfterMs?: number): ReadNeed[] {
  const out: ReadNeed[] = [];
  for (const r of records) {
    let reason = r.needsRead;
    if (r.state === "cancel_pending" && r.cancelRetryAtMs !== undefined && nowMs >= r.cancelRetryAtMs) reason ??= "cancel_retry";
    if (reason === undefined) continue;
    if (r.nextReadAtMs !== undefined && nowMs < r.nextReadAtMs) continue;
    const need: ReadNeed = { clientOrderId: r.clientOrderId, orderHash: r.orderHash, reason, via: r.orderId === undefined ? "lookup" : "id" };
    if (r.orderId !== undefined) need.orderId = r.orderId;
    if (r.state === "unknown" && need.via === "lookup" && notRecordedAfterMs !== undefined) need.conclusiveAtMs = r.lastSentAtMs + notRecordedAfterMs;
    out.push(need);
  }
  return out;
}

/** Earliest future time a waiting read (early 404, cancel Retry-After) becomes due. */
export function nextReadDueOf(records: Iterable<Rec>): number | undefined {
  let due: number | undefined;
  for (const r of records) {
    const at = r.state === "unknown" ? r.nextReadAtMs : r.state === "cancel_pending" ? r.cancelRetryAtMs : undefined;
    if (at !== undefined && (due === undefined || at < due)) due = at;
  }
  return due;
}

/** Orders whose reported fill total exceeds the trades seen. */
export function fillGapsOf(records: Iterable<Rec>): { order: TrackedOrder; missingQty: Micros }[] {
  const out: { order: TrackedOrder; missingQty: Micros }[] = [];
  for (const r of records) if (r.filledQty > r.tradeQty) out.push({ order: view(r), missingQty: r.filledQty - r.tradeQty });
  return out;
}

/**
 * See OrderTracker.reconcileOpenWalk; `tracked` says whether an orderId belongs to a record, and
 * `flagged` is told of every record this marks for a read.
 */
export function diffOpenWalk(
  records: Iterable<Rec>,
  tracked: (orderId: string) => boolean,
  openOrderIds: Iterable<string>,
  walkStartedAtMs: number,
  flagged: (r: Rec) => void,
): WalkDiff {
  const listed = new Set(openOrderIds);
  const missing: TrackedOrder[] = [];
  const terminalButOpen: TrackedOrder[] = [];
  for (const r of records) {
    if (r.orderId === undefined) continue;
    if (r.createdAtMs >= walkStartedAtMs) continue;
    const resting = r.state === "open" || r.state === "partial" || r.state === "cancel_requested" || r.state === "cancel_pending";
    if (resting && !listed.has(r.orderId)) {
      r.needsRead ??= "missing_from_walk";
      flagged(r);
      missing.push(view(r));
    } else if (isTerminal(r.state) && listed.has(r.orderId)) {
      r.needsRead ??= "contradiction";
      flagged(r);
      terminalButOpen.push(view(r));
    }
  }
  const foreign = [...listed].filter((id) => !tracked(id));
  return { missing, foreign, terminalButOpen };
}
