/**
 * The one place a tracked order's state changes: an event kind applied to one record through the
 * table of order-states.ts, with the ordering, fill-total and needs-read rules listed in the header
 * of order-tracker.ts. Pure: the record and the overfill counter are the only things it touches.
 */
import { maxMicros, minMicros, type Micros } from "../core/money.js";
import {
  FINAL_TOTAL_EVENTS,
  STATE_RANK,
  isTerminal,
  targetOf,
  type OrderEventKind,
  type OrderState,
  type TrackedOrder,
  type TrackerCounters,
  type Transition,
} from "./order-states.js";

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

/** Where a fill report above the order's size is counted. */
export type OverfillCounter = Pick<TrackerCounters, "overfill">;

export function stepOrder(r: Rec, ev: OrderEventKind, o: StepOpts, counters: OverfillCounter): Transition {
  const from = r.state;
  const target = targetOf(from, ev);
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
  const stale = o.ts !== undefined && r.lastServerTs !== null && o.ts < r.lastServerTs;
  // Terminal answers are timeless; "unknown" only ever asks for a read, so it is never dropped.
  if (stale && to !== from && !isTerminal(to) && to !== "unknown" && STATE_RANK[to] <= STATE_RANK[from]) {
    return { ...base, outcome: "stale", to: from, message: `stamped ${o.ts} < ${r.lastServerTs}` };
  }
  if (o.ts !== undefined && (r.lastServerTs === null || o.ts > r.lastServerTs)) r.lastServerTs = o.ts;
  r.state = to;
  if (isTerminal(to)) {
    if (FINAL_TOTAL_EVENTS.has(ev)) r.finalConfirmed = true;
    if (to === "filled") r.filledQty = r.size;
    if (to === "rejected" && o.rejectCode !== undefined) r.rejectCode = o.rejectCode;
    delete r.cancelRetryAtMs;
    if (r.needsRead === "unknown" || r.needsRead === "cancel_retry" || r.needsRead === "missing_from_walk") delete r.needsRead;
  } else if (to === "unknown") {
    r.needsRead = "unknown";
  } else if (r.needsRead === "unknown") {
    delete r.needsRead;
  }
  return { ...base, outcome: to === from ? "same" : "applied", to };
}

/**
 * Late evidence after a terminal state. A fill after cancelled/expired puts the final total (and
 * so the status: it may have been FILLED) in doubt unless a read already settled it. An order we
 * ended as rejected that shows up resting contradicts us whatever settled it (a lookup can race
 * the placement): read it, and the open-orders walk will list it.
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

/** The public copy of a record. */
export function view(r: Rec): TrackedOrder {
  const { tradeIds: _t, cancelRequested: _c, ...rest } = r;
  return { ...rest };
}
