/**
 * The order lifecycle as data: our states, the events that move them, and ONE transition table,
 * (state, event) -> target. Nothing else in the tracker decides where an order goes: the step of
 * order-tracker-apply.ts looks the pair up here and writes what it finds.
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
 * that id may still be in flight). Such an order reads the table's `not_recorded` column instead
 * of the `rejected` one: authoritative platform evidence (a read or lookup hit, a frame, a fill, a
 * late placement answer) moves it to what the platform says, counted as `resurrected`; a platform
 * REJECTED makes it final. Any other reject (a business reject, send_failed) stays final. The
 * tracker only concludes "not recorded" from a lookup made long enough after the last send
 * (TrackerOptions.notRecordedAfterMs).
 *
 * Targets: a state; "same" (benign, nothing changes: duplicate or older evidence); "late" (evidence
 * that arrives after the order is terminal: never applied to the state, counted, fill quantities
 * still merged); "live" (back to open/partial by the fill total, after a cancel attempt that
 * recorded nothing); "-" an IMPOSSIBLE transition: refused and counted.
 *
 * Terminal corrections. Terminal is final, except the soft "not recorded" ending above and one
 * exception the platform itself defines: a cancel outcome is CANCELLED or FILLED (spec 3.3) and
 * `originalQuantity - remainingQty` of order_cancelled / order_expired is not a final total (spec
 * 6). So cancelled/expired -> filled is allowed, but only on an authoritative answer (an order
 * read, or the cancel call's own 200 FILLED), never on a frame.
 *
 * The tracker's vocabulary (the events it consumes, the answers and views it gives) is in
 * order-tracker-types.ts, which reads this file (never the other way round).
 */
import type { OrderStatus } from "../../wire/enums.js";

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

export type Target = OrderState | "same" | "late" | "live";

/** The table's columns: every state, then `rejected` ended as not recorded (the soft ending above). */
export const TABLE_COLUMNS = [...ORDER_STATES, "not_recorded"] as const;
export type TableColumn = (typeof TABLE_COLUMNS)[number];
/** A cell: the target, or "-" for an impossible transition. */
export type Cell = Target | "-";
type CellsOf<T extends readonly unknown[]> = { readonly [I in keyof T]: Cell };
/** One event's row: a cell per column, in TABLE_COLUMNS order. */
export type TableRow = CellsOf<typeof TABLE_COLUMNS>;

/**
 * THE transition table: a row per event, a column per state. The event kinds:
 *   resent          the same clientOrderId and hash sent again (spec 7.3 trading_temporarily_unavailable);
 *                   from `unknown` it is `sent` again: a resend is answered with the original order
 *   send_failed     the request is known NOT to have been recorded (429, 400, shard_owner_unavailable)
 *   ack_*           the placement answer; ack_cancelled / ack_expired: accepted, but its orderStatus
 *                   says the order already ended within the call (PARTIAL + orderStatus CANCELLED: an
 *                   IOC remainder or a self-trade stop; docs/spec-gaps.md)
 *   placed .. rejected   what a frame or a trade row says (evidence, never authoritative for totals)
 *   cancel_*        our cancel and its answer; in cancel_pending a repeated cancel is `same`: it is
 *                   safe and cannot cancel twice (spec 4.6)
 *   read_*, lookup_not_found   authoritative reads (GET /orders/{id}, the lookup)
 * Reading down a column: a resting order (open, partial) takes every ending and the cancel request;
 * while a cancel is in flight or recorded, resting evidence changes nothing and ends still end;
 * after a terminal state everything is late except what agrees with it (same).
 */
const TABLE = {
  //                       sent         unknown      open                partial             cancel_requested  cancel_pending    filled  cancelled expired   rejected not_recorded
  // our own requests
  resent:                 ["same",      "sent",      "-",                "-",                "-",              "-",              "-",    "-",      "-",      "-",     "-"],
  send_failed:            ["rejected",  "-",         "-",                "-",                "-",              "-",              "late", "late",   "late",   "same",  "same"],
  // placement answers
  ack_open:               ["open",      "open",      "same",             "same",             "same",           "same",           "late", "late",   "late",   "late",  "open"],
  ack_partial:            ["partial",   "partial",   "live",             "same",             "same",           "same",           "late", "late",   "late",   "late",  "partial"],
  ack_filled:             ["filled",    "filled",    "filled",           "filled",           "filled",         "filled",         "same", "late",   "late",   "late",  "filled"],
  ack_rejected:           ["rejected",  "rejected",  "-",                "-",                "-",              "-",              "late", "late",   "late",   "same",  "rejected"],
  ack_unknown:            ["unknown",   "same",      "same",             "same",             "same",           "same",           "same", "same",   "same",   "same",  "same"],
  ack_cancelled:          ["cancelled", "cancelled", "cancelled",        "cancelled",        "cancelled",      "cancelled",      "late", "same",   "late",   "late",  "cancelled"],
  ack_expired:            ["expired",   "expired",   "expired",          "expired",          "expired",        "expired",        "late", "late",   "same",   "late",  "expired"],
  // platform evidence: frames and trade rows
  placed:                 ["open",      "open",      "same",             "same",             "same",           "same",           "late", "late",   "late",   "late",  "open"],
  fill:                   ["partial",   "partial",   "live",             "same",             "same",           "same",           "same", "late",   "late",   "late",  "partial"],
  filled:                 ["filled",    "filled",    "filled",           "filled",           "filled",         "filled",         "same", "late",   "late",   "late",  "filled"],
  cancelled:              ["cancelled", "cancelled", "cancelled",        "cancelled",        "cancelled",      "cancelled",      "late", "same",   "late",   "late",  "cancelled"],
  expired:                ["expired",   "expired",   "expired",          "expired",          "expired",        "expired",        "late", "late",   "same",   "late",  "expired"],
  rejected:               ["rejected",  "rejected",  "-",                "-",                "-",              "-",              "late", "late",   "late",   "same",  "rejected"],
  // cancels
  cancel_requested:       ["-",         "-",         "cancel_requested", "cancel_requested", "-",              "same",           "late", "late",   "late",   "late",  "late"],
  cancel_cancelled:       ["-",         "-",         "-",                "-",                "cancelled",      "cancelled",      "late", "same",   "late",   "late",  "late"],
  cancel_filled:          ["-",         "-",         "-",                "-",                "filled",         "filled",         "same", "filled", "filled", "late",  "late"],
  cancel_pending:         ["-",         "-",         "-",                "-",                "cancel_pending", "cancel_pending", "late", "late",   "late",   "late",  "late"],
  cancel_not_cancellable: ["-",         "-",         "-",                "-",                "unknown",        "unknown",        "same", "same",   "same",   "same",  "same"],
  cancel_not_found:       ["-",         "-",         "-",                "-",                "unknown",        "unknown",        "late", "late",   "late",   "late",  "late"],
  cancel_failed:          ["-",         "-",         "-",                "-",                "live",           "same",           "same", "same",   "same",   "same",  "same"],
  // authoritative reads (GET /orders/{id}, lookup)
  read_open:              ["open",      "open",      "same",             "same",             "same",           "same",           "late", "late",   "late",   "late",  "open"],
  read_partial:           ["partial",   "partial",   "live",             "same",             "same",           "same",           "late", "late",   "late",   "late",  "partial"],
  read_filled:            ["filled",    "filled",    "filled",           "filled",           "filled",         "filled",         "same", "filled", "filled", "late",  "filled"],
  read_cancelled:         ["cancelled", "cancelled", "cancelled",        "cancelled",        "cancelled",      "cancelled",      "late", "same",   "late",   "late",  "cancelled"],
  read_expired:           ["expired",   "expired",   "expired",          "expired",          "expired",        "expired",        "late", "late",   "same",   "late",  "expired"],
  read_rejected:          ["rejected",  "rejected",  "-",                "-",                "-",              "-",              "late", "late",   "late",   "same",  "rejected"],
  lookup_not_found:       ["-",         "rejected",  "-",                "-",                "-",              "-",              "-",    "-",      "-",      "same",  "same"],
} as const satisfies Record<string, TableRow>;

export type OrderEventKind = keyof typeof TABLE;
/** Every event kind, in the table's row order. */
export const ORDER_EVENTS: readonly OrderEventKind[] = Object.keys(TABLE) as OrderEventKind[];
export const TRANSITION_TABLE: Readonly<Record<OrderEventKind, TableRow>> = TABLE;

export type TransitionRow = Partial<Record<OrderEventKind, Target>>;

/** One column of the table as a row keyed by event (the "-" cells left out). */
function columnOf(column: TableColumn): TransitionRow {
  const i = TABLE_COLUMNS.indexOf(column);
  const row: TransitionRow = {};
  for (const ev of ORDER_EVENTS) {
    const cell = TABLE[ev][i];
    if (cell !== undefined && cell !== "-") row[ev] = cell;
  }
  return row;
}

/** The table by state (each state's column), built once: what targetOf reads. */
export const TRANSITIONS: Readonly<Record<OrderState, Readonly<TransitionRow>>> = Object.fromEntries(
  ORDER_STATES.map((s) => [s, columnOf(s)]),
) as Record<OrderState, TransitionRow>;
/** The `not_recorded` column: a `rejected` order whose rejectCode is NOT_RECORDED. */
export const NOT_RECORDED_TRANSITIONS: Readonly<TransitionRow> = columnOf("not_recorded");

/** rejectCode of an order ended by a lookup that did not find it: the soft ending (see header). */
export const NOT_RECORDED = "not_recorded";

/** `notRecorded`: the order is `rejected` with rejectCode NOT_RECORDED (the `not_recorded` column). */
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
