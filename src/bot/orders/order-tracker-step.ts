/**
 * The one place a tracked order's state changes: an event kind applied to one record through the
 * table of order-states.ts, with the ordering, fill-total and needs-read rules listed in the header
 * of order-tracker.ts. Pure: the record and the overfill counter are the only things it touches.
 */
import { maxMicros, minMicros, parseMicros, type Micros } from "../../core/money.js";
import { placementTradeRow, type OrderRecord } from "../../wire/orders.js";
import { FINAL_TOTAL_EVENTS, NOT_RECORDED, STATE_RANK, isTerminal, targetOf, type OrderEventKind, type OrderState } from "./order-states.js";
import type { CancelOutcome, OrderIntent, OrderRef, TrackedOrder, TrackerCounters, Transition } from "./order-tracker-types.js";

/** A tracked order plus what only the tracker itself reads. */
export interface Rec extends TrackedOrder {
  tradeIds: Set<string>;
  cancelRequested: boolean;
}

export interface StepOpts {
  ts?: number | undefined;
  filled?: Micros | undefined;
  rejectCode?: string;
}

/** Where a fill report above the order's size (and a resurrection) is counted. */
export type OverfillCounter = Pick<TrackerCounters, "overfill"> & Partial<Pick<TrackerCounters, "resurrected">>;

/** rejectCode given to a not-recorded order that the platform itself reports rejected: final. */
const PLATFORM_REJECTED = "platform_rejected";

/** Ended by a lookup that did not find it: the soft ending of order-states.ts. */
export function isNotRecorded(r: Pick<TrackedOrder, "state" | "rejectCode">): boolean {
  return r.state === "rejected" && r.rejectCode === NOT_RECORDED;
}

export function stepOrder(r: Rec, ev: OrderEventKind, o: StepOpts, counters: OverfillCounter): Transition {
  const from = r.state;
  const notRecorded = isNotRecorded(r);
  const target = targetOf(from, ev, notRecorded);
  const base = { event: ev, clientOrderId: r.clientOrderId, orderId: r.orderId, from };
  if (target === undefined) return { ...base, outcome: "impossible", to: from, message: `${ev} is impossible in ${from}` };
  // Fill reports are facts whatever the state: the total only grows, capped at the size.
  if (o.filled !== undefined) mergeFilled(r, o.filled, counters);
  if (target === "late") {
    flagLate(r, ev);
    return { ...base, outcome: "late", to: from };
  }
  let to = target === "same" ? from : target === "live" ? liveState(r) : target;
  if (to === "open" && r.filledQty > 0n) to = "partial";
  // The platform has an order we concluded it never recorded: the lookup raced it. Whatever the
  // stamps say (the 404's stamp said nothing about the order), the evidence wins.
  const resurrected = notRecorded && to !== "rejected";
  const stale = !resurrected && o.ts !== undefined && r.lastServerTs !== null && o.ts < r.lastServerTs;
  // Terminal answers are timeless; "unknown" only ever asks for a read, so it is never dropped.
  if (stale && to !== from && !isTerminal(to) && to !== "unknown" && STATE_RANK[to] <= STATE_RANK[from]) {
    return { ...base, outcome: "stale", to: from, message: `stamped ${o.ts} < ${r.lastServerTs}` };
  }
  if (resurrected) {
    r.lastServerTs = o.ts ?? r.lastServerTs;
    r.finalConfirmed = false;
    delete r.rejectCode;
    if (counters.resurrected !== undefined) counters.resurrected++;
  } else if (o.ts !== undefined && (r.lastServerTs === null || o.ts > r.lastServerTs)) r.lastServerTs = o.ts;
  r.state = to;
  if (to !== "unknown" || from !== "unknown") delete r.nextReadAtMs;
  if (isTerminal(to)) {
    if (FINAL_TOTAL_EVENTS.has(ev)) r.finalConfirmed = true;
    if (to === "filled") r.filledQty = r.size;
    // The first reject's code stays, unless the platform itself answers with one (it may harden
    // a not-recorded ending); a repeat of "nothing recorded" says nothing new.
    if (to === "rejected" && o.rejectCode !== undefined && (from !== "rejected" || ev === "ack_rejected")) r.rejectCode = o.rejectCode;
    else if (notRecorded && (ev === "rejected" || ev === "read_rejected")) r.rejectCode = PLATFORM_REJECTED;
    delete r.cancelRetryAtMs;
    if (r.needsRead === "unknown" || r.needsRead === "cancel_retry" || r.needsRead === "missing_from_walk") delete r.needsRead;
  } else if (to === "unknown") {
    r.needsRead = "unknown";
  } else if (r.needsRead === "unknown") {
    delete r.needsRead;
  }
  const t: Transition = { ...base, outcome: to === from ? "same" : "applied", to };
  if (resurrected) {
    t.anomaly = "resurrected";
    t.message = `${ev}: the platform has an order a lookup had not found`;
  }
  return t;
}

/**
 * Late evidence after a terminal state. A fill after cancelled/expired puts the final total (and
 * so the status: it may have been FILLED) in doubt unless a read already settled it. An order
 * rejected for good (a business reject, not a lookup 404: that one is soft and comes back) that
 * shows up resting contradicts us: read it, and the open-orders walk will list it.
 */
function flagLate(r: Rec, ev: OrderEventKind): void {
  const fillAfterEnd = (ev === "fill" || ev === "filled") && (r.state === "cancelled" || r.state === "expired");
  const resting = ev === "placed" || ev === "ack_open" || ev === "ack_partial" || ev === "fill" || ev === "filled";
  if (fillAfterEnd && !r.finalConfirmed) r.needsRead = "final_fill_total";
  else if (resting && r.state === "rejected") r.needsRead = "contradiction";
}

/** The event a fill report amounts to: the whole size (or a FILLED status) is `filled`. */
export function fillEvent(r: Rec, reported: Micros | undefined, statusFilled: boolean): OrderEventKind {
  const total = maxMicros(r.tradeQty, reported ?? 0n);
  return statusFilled || total >= r.size ? "filled" : "fill";
}

function liveState(r: Rec): OrderState {
  return r.filledQty > 0n ? "partial" : "open";
}

function mergeFilled(r: Rec, reported: Micros, counters: OverfillCounter): void {
  if (reported > r.size) counters.overfill++;
  r.filledQty = maxMicros(r.filledQty, minMicros(reported, r.size));
}

/** Add a distinct trade to the order's trade total (a trade id seen before adds nothing). */
export function addTrade(r: Rec, tradeId: string, qty: Micros, counters: OverfillCounter): void {
  if (r.tradeIds.has(tradeId)) return;
  r.tradeIds.add(tradeId);
  r.tradeQty += qty;
  mergeFilled(r, r.tradeQty, counters);
}

/**
 * Placement `trades[]` rows, read one by one (wire/orders.ts placementTradeRow): a row without a
 * readable id and quantity is skipped and counted, never the whole answer.
 */
export function addPlacementTrades(r: Rec, rows: readonly unknown[], counters: Pick<TrackerCounters, "overfill" | "unreadableTrades">): void {
  for (const row of rows) {
    const p = placementTradeRow.safeParse(row);
    if (p.success) addTrade(r, p.data.id, parseMicros(p.data.quantity), counters);
    else counters.unreadableTrades++;
  }
}

/** The public copy of a record. */
export function view(r: Rec): TrackedOrder {
  const { tradeIds: _t, cancelRequested: _c, ...rest } = r;
  return { ...rest };
}

/** The `sent` an adopted order is tracked under: its clientOrderId (or `adopted:<id>`) and intent. */
export function adoptionOf(rec: OrderRecord, nowMs: number): { clientOrderId: string; intent: OrderIntent; sentAtMs: number } {
  const created = Date.parse(rec.createdAt);
  return {
    clientOrderId: rec.clientOrderId ?? `adopted:${rec.id}`,
    intent: { marketId: rec.marketId, outcome: rec.outcome, side: rec.side, price: parseMicros(rec.price), size: parseMicros(rec.originalQuantity), postOnly: rec.postOnly },
    sentAtMs: Number.isNaN(created) ? nowMs : created,
  };
}

export const CANCEL_EVENT: Readonly<Record<Exclude<CancelOutcome["kind"], "done">, OrderEventKind>> = {
  pending: "cancel_pending",
  not_cancellable: "cancel_not_cancellable",
  not_found: "cancel_not_found",
  failed: "cancel_failed",
};

export function unmatched(event: OrderEventKind, ref: OrderRef): Transition {
  const t: Transition = { event, outcome: "unmatched" };
  if (ref.clientOrderId !== undefined) t.clientOrderId = ref.clientOrderId;
  if (ref.orderId !== undefined) t.orderId = ref.orderId;
  return t;
}

export function refuse(r: Rec, event: OrderEventKind, message: string): Transition {
  return { event, outcome: "impossible", clientOrderId: r.clientOrderId, from: r.state, to: r.state, message };
}

