/**
 * Applying an event to a record: the one place a tracked order's state changes. The tracker has
 * already found the record (order-tracker.ts); `applyEvent` names the event's kind in the table's
 * terms (from the wire answer, and for a fill from the fill total), records the fill facts it
 * carries, and `step` looks (state, kind) up in the table of order-states.ts and writes the target,
 * with the ordering, fill-total and needs-read rules listed in the header of order-tracker.ts.
 * Pure: the record and the tracker's counters are all it touches.
 *
 * Read top to bottom: applyEvent; fills (applyFrame, applyTrade, addTrade, fillEvent); step and
 * what it writes; then the other events (resends, placement answers, cancels, reads, lookups).
 */
import { maxMicros, minMicros, parseMicros, type Micros } from "../../core/money.js";
import { placementTradeRow, type OrderRecord, type PlacementResult } from "../../wire/orders.js";
import { FINAL_TOTAL_EVENTS, NOT_RECORDED, STATE_RANK, ackEventOf, frameEventOf, isTerminal, readEventOf, targetOf, type OrderEventKind, type OrderState } from "./order-states.js";
import type { Rec } from "./order-tracker-index.js";
import type { CancelOutcome, OrderFrame, TrackerCounters, TrackerEvent, TradeFact, Transition } from "./order-tracker-types.js";

/** When a lookup 404 may conclude "never recorded" (TrackerOptions), and when to look up again. */
export interface LookupTiming {
  notRecordedAfterMs: number;
  lookupRetryMs: number;
}

export interface ApplyContext {
  counters: TrackerCounters;
  timing: LookupTiming;
}

/** Apply one event to the record it is about (the caller found it and learnt its orderId). */
export function applyEvent(r: Rec, ev: TrackerEvent, ctx: ApplyContext): Transition {
  const c = ctx.counters;
  switch (ev.kind) {
    case "frame":
      return applyFrame(r, ev.frame, c);
    case "trade":
      return applyTrade(r, ev.fill, c);
    case "sent":
      return applyResent(r, ev, c);
    case "send_failed":
      return step(r, "send_failed", { rejectCode: ev.code }, c);
    case "ack":
      return applyAck(r, ev.result, ev.serverTimeMs, c);
    case "ack_unknown":
      return step(r, "ack_unknown", {}, c);
    case "cancel_requested":
      return applyCancelRequested(r, c);
    case "cancel_result":
      return applyCancelResult(r, ev, c);
    case "read":
      return applyRead(r, ev.record, ev.serverTimeMs, c);
    case "lookup_not_found":
      return notFoundTooSoon(r, ev, ctx) ?? step(r, "lookup_not_found", { ts: ev.serverTimeMs, rejectCode: NOT_RECORDED }, c);
  }
}

// ---- fills ------------------------------------------------------------------------------------

/**
 * A frame. A `user_fill` adds its trade to the order's trade total, then its `filledQty` (the
 * platform's cumulative total) is the fill report; it is `filled` when it says so or covers the
 * size. A repeated fill that changes nothing is a duplicate. Other frames report the quantity
 * gone from the book (not a final total: spec 6).
 */
function applyFrame(r: Rec, frame: OrderFrame, c: TrackerCounters): Transition {
  if (frame.type === "user_fill") {
    const dup = r.tradeIds.has(frame.tradeId);
    addTrade(r, frame.tradeId, parseMicros(frame.quantity), c);
    const filled = parseMicros(frame.filledQty);
    const kind = fillEvent(r, filled, frame.orderStatus === "FILLED");
    const t = step(r, kind, { ts: frame.serverTs, filled }, c);
    return dup && t.outcome === "same" ? { ...t, outcome: "duplicate" } : t;
  }
  const filled = maxMicros(0n, parseMicros(frame.originalQuantity) - parseMicros(frame.remainingQty));
  return step(r, frameEventOf(frame.status), { ts: frame.serverTs, filled }, c);
}

/** A trade row (a pull of /api/me/trades, a placement's trades): a trade id seen before is a duplicate. */
function applyTrade(r: Rec, fill: TradeFact, c: TrackerCounters): Transition {
  if (r.tradeIds.has(fill.tradeId)) {
    return { event: "trade", outcome: "duplicate", clientOrderId: r.clientOrderId, orderId: fill.orderId, from: r.state, to: r.state };
  }
  addTrade(r, fill.tradeId, fill.qty, c);
  return step(r, fillEvent(r, undefined, false), { ts: fill.ts }, c);
}

/** Add a distinct trade to the order's trade total (a trade id seen before adds nothing). */
function addTrade(r: Rec, tradeId: string, qty: Micros, c: TrackerCounters): void {
  if (r.tradeIds.has(tradeId)) return;
  r.tradeIds.add(tradeId);
  r.tradeQty += qty;
  mergeFilled(r, r.tradeQty, c);
}

/** The event a fill report amounts to: the whole size (or a FILLED status) is `filled`. */
function fillEvent(r: Rec, reported: Micros | undefined, statusFilled: boolean): OrderEventKind {
  const total = maxMicros(r.tradeQty, reported ?? 0n);
  return statusFilled || total >= r.size ? "filled" : "fill";
}

// ---- the step: the table, then what the target writes ----------------------------------------

interface StepOpts {
  /** serverTs / X-Server-Time of the evidence; undefined when it carries none. */
  ts?: number | undefined;
  /** A cumulative fill total the evidence reports. */
  filled?: Micros | undefined;
  rejectCode?: string;
}

/** rejectCode given to a not-recorded order that the platform itself reports rejected: final. */
const PLATFORM_REJECTED = "platform_rejected";

/** Ended by a lookup that did not find it: the soft ending of order-states.ts. */
function isNotRecorded(r: Rec): boolean {
  return r.state === "rejected" && r.rejectCode === NOT_RECORDED;
}

/** One step's transition, built in one go (the hot path: several per order). */
function transitionOf(ev: OrderEventKind, r: Rec, orderId: string | undefined, from: OrderState, outcome: Transition["outcome"], to: OrderState): Transition {
  return { event: ev, clientOrderId: r.clientOrderId, orderId, from, outcome, to };
}

function step(r: Rec, ev: OrderEventKind, o: StepOpts, c: TrackerCounters): Transition {
  const from = r.state;
  const orderId = r.orderId;
  const notRecorded = isNotRecorded(r);
  const target = targetOf(from, ev, notRecorded);
  if (target === undefined) {
    const t = transitionOf(ev, r, orderId, from, "impossible", from);
    t.message = `${ev} is impossible in ${from}`;
    return t;
  }
  // Fill reports are facts whatever the state: the total only grows, capped at the size.
  if (o.filled !== undefined) mergeFilled(r, o.filled, c);
  if (target === "late") {
    flagLate(r, ev);
    return transitionOf(ev, r, orderId, from, "late", from);
  }
  let to = target === "same" ? from : target === "live" ? liveState(r) : target;
  if (to === "open" && r.filledQty > 0n) to = "partial";
  // The platform has an order we concluded it never recorded: the lookup raced it. Whatever the
  // stamps say (the 404's stamp said nothing about the order), the evidence wins.
  const resurrected = notRecorded && to !== "rejected";
  const stale = !resurrected && o.ts !== undefined && r.lastServerTs !== null && o.ts < r.lastServerTs;
  // Terminal answers are timeless; "unknown" only ever asks for a read, so it is never dropped.
  if (stale && to !== from && !isTerminal(to) && to !== "unknown" && STATE_RANK[to] <= STATE_RANK[from]) {
    const t = transitionOf(ev, r, orderId, from, "stale", from);
    t.message = `stamped ${o.ts} < ${r.lastServerTs}`;
    return t;
  }
  if (resurrected) {
    r.lastServerTs = o.ts ?? r.lastServerTs;
    r.finalConfirmed = false;
    r.rejectCode = undefined;
    c.resurrected++;
  } else if (o.ts !== undefined && (r.lastServerTs === null || o.ts > r.lastServerTs)) r.lastServerTs = o.ts;
  r.state = to;
  if (to !== "unknown" || from !== "unknown") r.nextReadAtMs = undefined;
  if (isTerminal(to)) {
    if (FINAL_TOTAL_EVENTS.has(ev)) r.finalConfirmed = true;
    if (to === "filled") r.filledQty = r.size;
    // The first reject's code stays, unless the platform itself answers with one (it may harden
    // a not-recorded ending); a repeat of "nothing recorded" says nothing new.
    if (to === "rejected" && o.rejectCode !== undefined && (from !== "rejected" || ev === "ack_rejected")) r.rejectCode = o.rejectCode;
    else if (notRecorded && (ev === "rejected" || ev === "read_rejected")) r.rejectCode = PLATFORM_REJECTED;
    r.cancelRetryAtMs = undefined;
    if (r.needsRead === "unknown" || r.needsRead === "cancel_retry" || r.needsRead === "missing_from_walk") r.needsRead = undefined;
  } else if (to === "unknown") {
    r.needsRead = "unknown";
  } else if (r.needsRead === "unknown") {
    r.needsRead = undefined;
  }
  const t = transitionOf(ev, r, orderId, from, to === from ? "same" : "applied", to);
  if (resurrected) {
    t.anomaly = "resurrected";
    t.message = `${ev}: the platform has an order a lookup had not found`;
  }
  return t;
}

/** A fill report above the order's size is clamped and counted. */
function mergeFilled(r: Rec, reported: Micros, c: TrackerCounters): void {
  if (reported > r.size) c.overfill++;
  r.filledQty = maxMicros(r.filledQty, minMicros(reported, r.size));
}

function liveState(r: Rec): OrderState {
  return r.filledQty > 0n ? "partial" : "open";
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

// ---- the other events -------------------------------------------------------------------------

/** The same clientOrderId sent again: only with the same order hash. */
function applyResent(r: Rec, ev: Extract<TrackerEvent, { kind: "sent" }>, c: TrackerCounters): Transition {
  if (r.orderHash !== ev.orderHash) {
    return { event: "sent", outcome: "impossible", clientOrderId: ev.clientOrderId, message: "clientOrderId reused for a different order" };
  }
  const t = step(r, "resent", {}, c);
  if (t.outcome !== "impossible") r.lastSentAtMs = Math.max(r.lastSentAtMs, ev.nowMs);
  return t;
}

/** The event of a placement answer (order-states.ts ackEventOf). */
export function ackKindOf(res: PlacementResult): OrderEventKind {
  return res.status === "REJECTED" ? ackEventOf(res.status) : ackEventOf(res.status, res.orderStatus);
}

/**
 * A placement answer. Its `trades[]` rows are counted first (an order that ended within the call
 * is final once stepped), one by one, best effort: a row without a readable id and quantity is
 * skipped and counted (wire/orders.ts placementTradeRow), never the whole answer.
 */
function applyAck(r: Rec, res: PlacementResult, ts: number | undefined, c: TrackerCounters): Transition {
  const filled = res.filledQty !== undefined ? parseMicros(res.filledQty) : undefined;
  const opts: StepOpts = { ts, filled };
  if (res.status === "REJECTED") opts.rejectCode = res.code;
  if (res.status !== "REJECTED") {
    for (const row of res.trades) {
      const p = placementTradeRow.safeParse(row);
      if (p.success) addTrade(r, p.data.id, parseMicros(p.data.quantity), c);
      else c.unreadableTrades++;
    }
  }
  return step(r, ackKindOf(res), opts, c);
}

/** A cancel needs the platform's id: before the acknowledgement it is refused, not stepped. */
function applyCancelRequested(r: Rec, c: TrackerCounters): Transition {
  const target = targetOf(r.state, "cancel_requested");
  if (r.orderId === undefined && target !== undefined && target !== "late") {
    return { event: "cancel_requested", outcome: "impossible", clientOrderId: r.clientOrderId, from: r.state, to: r.state, message: "no orderId yet: a cancel needs the acknowledgement" };
  }
  const t = step(r, "cancel_requested", {}, c);
  if (t.outcome === "applied" || t.outcome === "same") {
    r.cancelRequested = true;
    r.cancelAttempts++;
    r.cancelRetryAtMs = undefined;
    if (r.needsRead === "cancel_retry") r.needsRead = undefined;
  }
  return t;
}

const CANCEL_EVENT: Readonly<Record<Exclude<CancelOutcome["kind"], "done">, OrderEventKind>> = {
  pending: "cancel_pending",
  not_cancellable: "cancel_not_cancellable",
  not_found: "cancel_not_found",
  failed: "cancel_failed",
};

/** The event of a cancel answer. */
export function cancelKindOf(res: CancelOutcome): OrderEventKind {
  return res.kind === "done" ? (res.status === "FILLED" ? "cancel_filled" : "cancel_cancelled") : CANCEL_EVENT[res.kind];
}

/** A cancel answer; a 202 sets when to repeat the cancel (Retry-After). */
function applyCancelResult(r: Rec, ev: Extract<TrackerEvent, { kind: "cancel_result" }>, c: TrackerCounters): Transition {
  const res = ev.result;
  // A failure carries no server time: it must not be dropped as stale.
  const ts = res.kind === "failed" ? undefined : ev.serverTimeMs;
  const filled = res.kind === "done" ? (res.status === "FILLED" ? r.size : res.filledQty) : undefined;
  const t = step(r, cancelKindOf(res), { ts, filled }, c);
  if (res.kind === "pending" && r.state === "cancel_pending") r.cancelRetryAtMs = ev.nowMs + res.retryAfterMs;
  return t;
}

/** An order read: authoritative, it answers whatever read the order was waiting for. */
function applyRead(r: Rec, rec: OrderRecord, ts: number, c: TrackerCounters): Transition {
  const t = step(r, readEventOf(rec.status), { ts, filled: parseMicros(rec.filledQty) }, c);
  if (t.outcome !== "impossible") r.needsRead = undefined;
  return t;
}

/**
 * A lookup 404 too soon to conclude "never recorded" (see the header of order-states.ts): only a
 * lookup sent `notRecordedAfterMs` after the order's last send may. The platform re-sends a place
 * itself for up to ~6 s (shard_owner_unavailable) and a request under the same clientOrderId may
 * still be in flight (idempotency_race), so an earlier 404 proves nothing: the order stays unknown
 * (its slot held) and is looked up again, never later than the time a 404 becomes conclusive.
 * Undefined when the 404 may end the order: no `nowMs` (the caller vouches), an order that is not
 * unknown (the table decides), or late enough.
 */
function notFoundTooSoon(r: Rec, ev: Extract<TrackerEvent, { kind: "lookup_not_found" }>, ctx: ApplyContext): Transition | undefined {
  if (ev.nowMs === undefined || r.state !== "unknown") return undefined;
  const conclusiveAt = r.lastSentAtMs + ctx.timing.notRecordedAfterMs;
  if (ev.nowMs >= conclusiveAt) return undefined;
  r.needsRead = "unknown";
  r.nextReadAtMs = Math.min(ev.nowMs + ctx.timing.lookupRetryMs, conclusiveAt);
  ctx.counters.notFoundTooSoon++;
  const t: Transition = { event: "lookup_not_found", outcome: "same", clientOrderId: r.clientOrderId, from: r.state, to: r.state };
  if (r.orderId !== undefined) t.orderId = r.orderId;
  t.message = `not found ${ev.nowMs - r.lastSentAtMs} ms after the send: looked up again at ${r.nextReadAtMs}`;
  return t;
}
