/**
 * The order tracker's vocabulary: the events it consumes (wire types where the wire has them) and
 * the answers and views it gives. Re-exported by order-tracker.ts.
 */
import type { Side } from "../../core/amounts.js";
import { parseMicros, type Micros } from "../../core/money.js";
import type { OrderCancelledFrame, OrderExpiredFrame, OrderPlacedFrame, UserFillFrame } from "../../wire/frames.js";
import type { CancelResult, OrderRecord, PlacementResult } from "../../wire/orders.js";
import type { OrderEventKind, OrderState } from "./order-states.js";

export interface OrderIntent {
  /** Market symbol (the `marketId` of frames and trade rows). */
  marketId: string;
  outcome: number;
  side: Side;
  price: Micros;
  size: Micros;
  postOnly: boolean;
}

export type OrderFrame = OrderPlacedFrame | OrderCancelledFrame | OrderExpiredFrame | UserFillFrame;

/** A fill from any source, reduced to what the order's fill total needs. */
export interface TradeFact {
  tradeId: string;
  orderId: string;
  clientOrderId?: string;
  qty: Micros;
  ts: number;
}

export type CancelOutcome =
  | { kind: "done"; status: "CANCELLED" | "FILLED"; filledQty?: Micros }
  | { kind: "pending"; retryAfterMs: number }
  | { kind: "not_cancellable" }
  | { kind: "not_found" }
  /** Nothing is known to have been recorded (transport error, shard_owner_unavailable). */
  | { kind: "failed"; code?: string };

export interface OrderRef {
  clientOrderId?: string;
  orderId?: string;
  orderHash?: string;
}

export type TrackerEvent =
  | { kind: "sent"; clientOrderId: string; orderHash: string; intent: OrderIntent; nowMs: number }
  | { kind: "send_failed"; clientOrderId: string; code: string }
  | { kind: "ack"; clientOrderId: string; result: PlacementResult; serverTimeMs?: number }
  | { kind: "ack_unknown"; clientOrderId: string; reason?: string }
  | { kind: "frame"; frame: OrderFrame }
  | { kind: "trade"; fill: TradeFact }
  | ({ kind: "cancel_requested"; nowMs: number } & OrderRef)
  | ({ kind: "cancel_result"; result: CancelOutcome; serverTimeMs?: number; nowMs: number } & OrderRef)
  | { kind: "read"; record: OrderRecord; serverTimeMs: number }
  /**
   * A lookup answered 404. `nowMs` (local clock) is when the lookup was SENT: it ends an unknown
   * order only when at least TrackerOptions.notRecordedAfterMs after the order's last send, else
   * the order stays unknown and is looked up again. Without `nowMs` it ends the order at once
   * (the caller vouches that nothing can still record it, e.g. at shutdown).
   */
  | ({ kind: "lookup_not_found"; serverTimeMs?: number; nowMs?: number } & OrderRef);

export type Outcome =
  | "applied"
  | "same"
  | "stale"
  | "late"
  | "impossible"
  | "buffered"
  | "duplicate"
  | "unmatched"
  | "wrong_wallet"
  | "conflict";

export interface Transition {
  event: OrderEventKind | "sent" | "trade";
  outcome: Outcome;
  clientOrderId?: string;
  orderId?: string;
  from?: OrderState;
  to?: OrderState;
  message?: string;
  /** Buffered frames replayed because this event taught us the orderId. */
  replayed?: Transition[];
  /**
   * Set when an order ended as not recorded came back on platform evidence: the lookup raced the
   * platform. Applied (the state changed) but worth reporting.
   */
  anomaly?: "resurrected";
}

export type ReadReason = "unknown" | "cancel_retry" | "missing_from_walk" | "final_fill_total" | "contradiction";

export interface ReadNeed {
  clientOrderId: string;
  orderId?: string;
  orderHash: string;
  reason: ReadReason;
  /** By id when we have one, else GET /orders/lookup by clientOrderId / orderHash. */
  via: "id" | "lookup";
  /**
   * Unknown outcome looked up: from this local time on, a lookup answering 404 ends the order as
   * not recorded; before it, the order stays unknown and is looked up again.
   */
  conclusiveAtMs?: number;
}

export interface TrackedOrder extends OrderIntent {
  clientOrderId: string;
  orderHash: string;
  orderId?: string;
  state: OrderState;
  /** Best known cumulative fill (max of every report and of the distinct trades seen). */
  filledQty: Micros;
  /** Sum of the distinct trades seen for this order. */
  tradeQty: Micros;
  /** The terminal fill total was settled by an authoritative answer (FINAL_TOTAL_EVENTS). */
  finalConfirmed: boolean;
  createdAtMs: number;
  /** Local time of the last send of the placement (the first one, or a resend). */
  lastSentAtMs: number;
  /** An inconclusive lookup (404 too soon after a send) was answered: read again from this time. */
  nextReadAtMs?: number;
  /** Newest serverTs / X-Server-Time applied. */
  lastServerTs: number | null;
  cancelAttempts: number;
  cancelRetryAtMs?: number;
  needsRead?: ReadReason;
  rejectCode?: string;
}

export interface WalkDiff {
  /** Tracked as resting (or being cancelled) but absent from the walk: read by id. */
  missing: TrackedOrder[];
  /** Listed open but not tracked: foreign orders, candidates to adopt or cancel. */
  foreign: string[];
  /** Listed open but terminal here: a contradiction to read (and probably cancel). */
  terminalButOpen: TrackedOrder[];
}

export type TrackerCounters = Record<Outcome, number> & {
  overfill: number;
  replayed: number;
  bufferDropped: number;
  /** Orders ended as not recorded that platform evidence brought back. */
  resurrected: number;
  /** Placement `trades[]` rows without a readable id and quantity (skipped). */
  unreadableTrades: number;
  /** Lookups that answered 404 too soon after a send to conclude anything. */
  notFoundTooSoon: number;
};

export function emptyCounters(): TrackerCounters {
  return {
    ...{ applied: 0, same: 0, stale: 0, late: 0, impossible: 0, buffered: 0, duplicate: 0, unmatched: 0, wrong_wallet: 0, conflict: 0 },
    ...{ overfill: 0, replayed: 0, bufferDropped: 0, resurrected: 0, unreadableTrades: 0, notFoundTooSoon: 0 },
  };
}

/** The platform re-sends a place itself for up to about this long (spec 7.3 shard_owner_unavailable). */
export const PLATFORM_RESEND_MS = 6_000;
/** Slack on top of the request timeout and the platform's re-sends (clock skew, queues). */
export const NOT_RECORDED_MARGIN_MS = 4_000;

/**
 * How long after a placement's last send a lookup 404 may conclude "never recorded": the request
 * may reach the platform any time until our timeout gives up on it, the platform may then re-send
 * it internally for up to ~6 s, plus a margin. Derived from platform.requestTimeoutMs (up to 300 s).
 */
export function notRecordedWindowMs(requestTimeoutMs: number): number {
  return requestTimeoutMs + PLATFORM_RESEND_MS + NOT_RECORDED_MARGIN_MS;
}

/** The window at the default request timeout (10 s): the tracker's default. */
export const NOT_RECORDED_AFTER_MS = notRecordedWindowMs(10_000);
/** After an inconclusive lookup, the next one waits this long (default; never past the conclusive time). */
export const LOOKUP_RETRY_MS = 2_000;

/** How long past the prune horizon a pruned orderId is remembered (TrackerOptions.retiredKeepMs default). */
export const RETIRED_KEEP_MS = 3_600_000;

/** What a tracker holds (memory figures). */
export interface TrackerSizes {
  /** Records: live ones and settled ones not pruned yet. */
  orders: number;
  /** Pruned orderIds still remembered (their late frames count as late). */
  retiredIds: number;
  /** Frames / trade rows held for orderIds not known yet, and those orderIds. */
  bufferedEvents: number;
  bufferedIds: number;
}

export interface TrackerOptions {
  /** Frames held for unknown orderIds, all ids together (oldest dropped first). Default 10_000. */
  maxBuffered?: number;
  /**
   * A lookup 404 ends an unknown order only when sent at least this long after the order's last
   * send (the platform re-sends a place itself for up to ~6 s). Default NOT_RECORDED_AFTER_MS; the
   * daemon passes notRecordedWindowMs(platform.requestTimeoutMs).
   */
  notRecordedAfterMs?: number;
  /** Wait between lookups of an order still unknown after an early 404. Default LOOKUP_RETRY_MS. */
  lookupRetryMs?: number;
  /**
   * A pruned order's id is remembered (its late frames are recognised as late, not buffered) for
   * this long past the prune horizon, then forgotten. Default 1 hour.
   */
  retiredKeepMs?: number;
}

/** The tracker's view of a wire cancel answer (200 or 202). */
export function cancelOutcomeOf(res: CancelResult): CancelOutcome {
  if (res.status === "cancel_pending") return { kind: "pending", retryAfterMs: Math.round(res.retryAfterSec * 1000) };
  return { kind: "done", status: res.status, filledQty: parseMicros(res.filledQty) };
}
