/**
 * The order lifecycle as data: our states, the events that move them, and the transition table
 * (state x event -> target). The tracker (order-tracker.ts and its parts) is the only reader.
 *
 * Our states are finer than the platform's `status` (spec 3.3: PENDING, OPEN, PARTIAL, then
 * FILLED / CANCELLED / EXPIRED / REJECTED) because they also say what WE know:
 *   sent              placement request sent, no answer yet
 *   unknown           the outcome of a request is not known (timeout, 5xx, "may have been recorded",
 *                     a cancel answered 404/409): it leaves this state only on platform evidence
 *                     (a read, a lookup, a frame, a late answer naming the order), never on a timer
 *   open, partial     resting; `partial` is `open` with a fill (the tracker resolves "live" to one
 *                     of the two from the fill total)
 *   cancel_requested  a cancel is in flight
 *   cancel_pending    the platform recorded the cancel without an answer (202): repeat after Retry-After
 *   filled, cancelled, expired, rejected   terminal
 *
 * "Not recorded" is a soft ending. A lookup that answers 404 ends an unknown order as `rejected`
 * with rejectCode `not_recorded`, but the platform can still record it afterwards (it re-sends a
 * place itself for up to ~6 s on shard_owner_unavailable; idempotency_race means a request with
 * that id may still be in flight). Such an order follows NOT_RECORDED_TRANSITIONS instead of the
 * `rejected` row: authoritative platform evidence (a read or lookup hit, a frame, a fill, a late
 * placement answer) moves it to what the platform says, counted as `resurrected`; a platform
 * REJECTED makes it final. Any other reject (a business reject, send_failed) stays final. The tracker only concludes "not recorded"
 * from a lookup made long enough after the last send (TrackerOptions.notRecordedAfterMs).
 *
 * Targets: a state; "same" (benign, nothing changes: duplicate or older evidence); "late" (evidence
 * that arrives after the order is terminal: never applied to the state, counted, fill quantities
 * still merged); "live" (back to open/partial by the fill total, after a cancel attempt that
 * recorded nothing). A missing entry is an IMPOSSIBLE transition: refused and counted.
 *
 * Terminal corrections. Terminal is final, except the soft "not recorded" ending above and one
 * exception the platform itself defines: a cancel
 * outcome is CANCELLED or FILLED (spec 3.3) and `originalQuantity - remainingQty` of order_cancelled /
 * order_expired is not a final total (spec 6). So cancelled/expired -> filled is allowed, but only on
 * an authoritative answer (an order read, or the cancel call's own 200 FILLED), never on a frame.
 *
 * The tracker's vocabulary (the events it consumes, the answers and views it gives) is in
 * order-tracker-types.ts, re-exported from here.
 */
import type { OrderStatus } from "../../wire/enums.js";

export * from "./order-tracker-types.js";

export const ORDER_STATES = [
  "sent",
  "unknown",
  "open",
  "partial",
  "cancel_requested",
  "cancel_pending",
  "filled",
  "cancelled",
  "expired",
  "rejected",
] as const;
export type OrderState = (typeof ORDER_STATES)[number];

export const TERMINAL_STATES: ReadonlySet<OrderState> = new Set<OrderState>(["filled", "cancelled", "expired", "rejected"]);
export function isTerminal(s: OrderState): boolean {
  return TERMINAL_STATES.has(s);
}

export const ORDER_EVENTS = [
  // our own requests
  "resent", // same clientOrderId and hash sent again (spec 7.3 trading_temporarily_unavailable)
  "send_failed", // the request is known NOT to have been recorded (429, 400, shard_owner_unavailable)
  // placement answer
  "ack_open",
  "ack_partial",
  "ack_filled",
  "ack_rejected",
  "ack_unknown",
  // accepted, but the answer's orderStatus says the order already ended within the call
  // (PARTIAL + orderStatus CANCELLED: an IOC remainder or a self-trade stop; docs/spec-gaps.md)
  "ack_cancelled",
  "ack_expired",
  // platform evidence from frames and trade rows
  "placed",
  "fill",
  "filled",
  "cancelled",
  "expired",
  "rejected",
  // cancels
  "cancel_requested",
  "cancel_cancelled",
  "cancel_filled",
  "cancel_pending",
  "cancel_not_cancellable",
  "cancel_not_found",
  "cancel_failed",
  // authoritative reads (GET /orders/{id}, lookup)
  "read_open",
  "read_partial",
  "read_filled",
  "read_cancelled",
  "read_expired",
  "read_rejected",
  "lookup_not_found",
] as const;
export type OrderEventKind = (typeof ORDER_EVENTS)[number];

export type Target = OrderState | "same" | "late" | "live";
export type TransitionRow = Partial<Record<OrderEventKind, Target>>;

// Shared fragments (still data): what evidence does to an order not yet acknowledged.
const EVIDENCE_BEFORE_ACK = {
  placed: "open",
  fill: "partial",
  filled: "filled",
  cancelled: "cancelled",
  expired: "expired",
  rejected: "rejected",
} as const satisfies TransitionRow;
const READS_BEFORE_ACK = {
  read_open: "open",
  read_partial: "partial",
  read_filled: "filled",
  read_cancelled: "cancelled",
  read_expired: "expired",
  read_rejected: "rejected",
} as const satisfies TransitionRow;
const ACKS_BEFORE_ACK = {
  ack_open: "open",
  ack_partial: "partial",
  ack_filled: "filled",
  ack_rejected: "rejected",
  ack_cancelled: "cancelled",
  ack_expired: "expired",
} as const satisfies TransitionRow;

/** Resting order, whether or not it has filled yet. */
const RESTING = {
  ack_open: "same",
  ack_partial: "live",
  ack_filled: "filled",
  ack_cancelled: "cancelled",
  ack_expired: "expired",
  ack_unknown: "same",
  placed: "same",
  fill: "live",
  filled: "filled",
  cancelled: "cancelled",
  expired: "expired",
  cancel_requested: "cancel_requested",
  read_open: "same",
  read_partial: "live",
  read_filled: "filled",
  read_cancelled: "cancelled",
  read_expired: "expired",
} as const satisfies TransitionRow;

/** A cancel is in flight or recorded: resting evidence changes nothing, ends still end. */
const CANCELLING = {
  ack_open: "same",
  ack_partial: "same",
  ack_filled: "filled",
  ack_cancelled: "cancelled",
  ack_expired: "expired",
  ack_unknown: "same",
  placed: "same",
  fill: "same",
  filled: "filled",
  cancelled: "cancelled",
  expired: "expired",
  cancel_cancelled: "cancelled",
  cancel_filled: "filled",
  cancel_pending: "cancel_pending",
  cancel_not_cancellable: "unknown",
  cancel_not_found: "unknown",
  read_open: "same",
  read_partial: "same",
  read_filled: "filled",
  read_cancelled: "cancelled",
  read_expired: "expired",
} as const satisfies TransitionRow;

/** Everything after a terminal state is late, except agreeing evidence (same). */
const AFTER_TERMINAL = {
  send_failed: "late",
  ack_open: "late",
  ack_partial: "late",
  ack_filled: "late",
  ack_rejected: "late",
  ack_unknown: "same",
  ack_cancelled: "late",
  ack_expired: "late",
  placed: "late",
  fill: "late",
  filled: "late",
  cancelled: "late",
  expired: "late",
  rejected: "late",
  cancel_requested: "late",
  cancel_cancelled: "late",
  cancel_filled: "late",
  cancel_pending: "late",
  cancel_not_cancellable: "same",
  cancel_not_found: "late",
  cancel_failed: "same",
  read_open: "late",
  read_partial: "late",
  read_filled: "late",
  read_cancelled: "late",
  read_expired: "late",
  read_rejected: "late",
} as const satisfies TransitionRow;

export const TRANSITIONS: Readonly<Record<OrderState, Readonly<TransitionRow>>> = {
  sent: {
    resent: "same",
    send_failed: "rejected",
    ...ACKS_BEFORE_ACK,
    ack_unknown: "unknown",
    ...EVIDENCE_BEFORE_ACK,
    ...READS_BEFORE_ACK,
  },
  unknown: {
    // A resend under the same clientOrderId is answered with the original order (deduplication).
    resent: "sent",
    ...ACKS_BEFORE_ACK,
    ack_unknown: "same",
    ...EVIDENCE_BEFORE_ACK,
    ...READS_BEFORE_ACK,
    lookup_not_found: "rejected",
  },
  open: { ...RESTING },
  partial: { ...RESTING, ack_partial: "same", fill: "same", read_partial: "same" },
  cancel_requested: { ...CANCELLING, cancel_failed: "live" },
  // A repeated cancel is safe and cannot cancel twice (spec 4.6).
  cancel_pending: { ...CANCELLING, cancel_requested: "same", cancel_failed: "same" },
  filled: { ...AFTER_TERMINAL, ack_filled: "same", fill: "same", filled: "same", cancel_filled: "same", read_filled: "same" },
  cancelled: {
    ...AFTER_TERMINAL,
    ack_cancelled: "same",
    cancelled: "same",
    cancel_cancelled: "same",
    read_cancelled: "same",
    cancel_filled: "filled",
    read_filled: "filled",
  },
  expired: {
    ...AFTER_TERMINAL,
    ack_expired: "same",
    expired: "same",
    read_expired: "same",
    cancel_filled: "filled",
    read_filled: "filled",
  },
  rejected: {
    ...AFTER_TERMINAL,
    send_failed: "same",
    ack_rejected: "same",
    rejected: "same",
    read_rejected: "same",
    lookup_not_found: "same",
  },
};

/** rejectCode of an order ended by a lookup that did not find it: the soft ending (see header). */
export const NOT_RECORDED = "not_recorded";

/**
 * The row of a `rejected` order whose rejectCode is NOT_RECORDED. Evidence that the platform has
 * the order moves it to what that evidence says (like an order not yet acknowledged); a platform
 * rejection makes the reject final; what only repeats "not recorded" changes nothing.
 */
export const NOT_RECORDED_TRANSITIONS: Readonly<TransitionRow> = {
  ...AFTER_TERMINAL,
  ...ACKS_BEFORE_ACK,
  ...EVIDENCE_BEFORE_ACK,
  ...READS_BEFORE_ACK,
  send_failed: "same",
  ack_unknown: "same",
  lookup_not_found: "same",
};

/** `notRecorded`: the order is `rejected` with rejectCode NOT_RECORDED (NOT_RECORDED_TRANSITIONS). */
export function targetOf(state: OrderState, event: OrderEventKind, notRecorded = false): Target | undefined {
  if (notRecorded && state === "rejected") return NOT_RECORDED_TRANSITIONS[event];
  return TRANSITIONS[state][event];
}

/**
 * Progress rank for ordering. An event stamped older than the last one applied to the order may
 * only move it forward (higher rank); terminal targets are timeless (a terminal status never changes
 * on the platform, so a terminal answer is never outdated), and so is `unknown` (it only asks for a
 * read: a cancel answered 404/409 must never be dropped because a frame was stamped after it).
 */
export const STATE_RANK: Readonly<Record<OrderState, number>> = {
  sent: 0,
  unknown: 0,
  open: 1,
  partial: 2,
  cancel_requested: 3,
  cancel_pending: 4,
  filled: 5,
  cancelled: 5,
  expired: 5,
  rejected: 5,
};

// ---- wire status -> event kind ----------------------------------------------------------------

export function readEventOf(status: OrderStatus): OrderEventKind {
  switch (status) {
    case "PENDING":
    case "OPEN":
      return "read_open";
    case "PARTIAL":
      return "read_partial";
    case "FILLED":
      return "read_filled";
    case "CANCELLED":
      return "read_cancelled";
    case "EXPIRED":
      return "read_expired";
    case "REJECTED":
      return "read_rejected";
  }
}

/** What a frame's `status` says, as evidence (frames are never authoritative for final totals). */
export function frameEventOf(status: OrderStatus): OrderEventKind {
  switch (status) {
    case "PENDING":
    case "OPEN":
      return "placed";
    case "PARTIAL":
      return "fill";
    case "FILLED":
      return "filled";
    case "CANCELLED":
      return "cancelled";
    case "EXPIRED":
      return "expired";
    case "REJECTED":
      return "rejected";
  }
}

/**
 * The event of a placement answer. An accepted answer whose `orderStatus` says the order already
 * ended (docs/spec-gaps.md: partly filled then ended is PARTIAL + orderStatus CANCELLED) is that
 * ending. An accepted order the platform reports REJECTED after trading is treated as cancelled:
 * it rests nowhere, and its fill total is what the answer reports.
 */
export function ackEventOf(status: "OPEN" | "PARTIAL" | "FILLED" | "REJECTED", orderStatus?: OrderStatus | null): OrderEventKind {
  if (status !== "REJECTED") {
    switch (orderStatus) {
      case "FILLED":
        return "ack_filled";
      case "CANCELLED":
      case "REJECTED":
        return "ack_cancelled";
      case "EXPIRED":
        return "ack_expired";
      default:
        break;
    }
  }
  switch (status) {
    case "OPEN":
      return "ack_open";
    case "PARTIAL":
      return "ack_partial";
    case "FILLED":
      return "ack_filled";
    case "REJECTED":
      return "ack_rejected";
  }
}

/**
 * Events that settle a terminal order's final fill total: an order read (spec 4.6 "final status,
 * including the final fill total"), an answer that can only mean "all of it" (FILLED) or "none of
 * it" (REJECTED, never recorded), a placement answer for an order that ended within the call (its
 * filledQty is all it will ever fill). A frame or a 200 CANCELLED is not among them (spec 6).
 */
export const FINAL_TOTAL_EVENTS: ReadonlySet<OrderEventKind> = new Set<OrderEventKind>([
  "send_failed",
  "ack_filled",
  "ack_rejected",
  "ack_cancelled",
  "ack_expired",
  "cancel_filled",
  "read_filled",
  "read_cancelled",
  "read_expired",
  "read_rejected",
  "lookup_not_found",
]);
