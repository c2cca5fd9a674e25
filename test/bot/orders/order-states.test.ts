/**
 * The transition table of order-states.ts, pair by pair: every (state, event), and every event on
 * a `rejected` order ended as not recorded, has the target written here or is illegal (refused).
 * This is a second, independent copy of the table on purpose: a change to a transition has to be
 * made twice, here deliberately. (order-tracker.table.test.ts drives the same pairs through the
 * real tracker.)
 */
import { describe, expect, it } from "vitest";
import {
  NOT_RECORDED_TRANSITIONS,
  ORDER_EVENTS,
  ORDER_STATES,
  TABLE_COLUMNS,
  TRANSITIONS,
  TRANSITION_TABLE,
  ackEventOf,
  frameEventOf,
  readEventOf,
  targetOf,
  type OrderEventKind,
  type TableColumn,
  type Target,
} from "../../../src/bot/orders/order-states.js";
import { ORDER_STATUSES, type OrderStatus } from "../../../src/wire/enums.js";

/** Legal transitions by column; every pair not listed is illegal. */
const EXPECTED: Record<TableColumn, Partial<Record<OrderEventKind, Target>>> = {
  sent: {
    resent: "same", send_failed: "rejected", ack_open: "open", ack_partial: "partial", ack_filled: "filled", ack_rejected: "rejected",
    ack_unknown: "unknown", ack_cancelled: "cancelled", ack_expired: "expired", placed: "open", fill: "partial", filled: "filled",
    cancelled: "cancelled", expired: "expired", rejected: "rejected", read_open: "open", read_partial: "partial", read_filled: "filled",
    read_cancelled: "cancelled", read_expired: "expired", read_rejected: "rejected",
  },
  unknown: {
    resent: "sent", ack_open: "open", ack_partial: "partial", ack_filled: "filled", ack_rejected: "rejected", ack_unknown: "same",
    ack_cancelled: "cancelled", ack_expired: "expired", placed: "open", fill: "partial", filled: "filled", cancelled: "cancelled",
    expired: "expired", rejected: "rejected", read_open: "open", read_partial: "partial", read_filled: "filled", read_cancelled: "cancelled",
    read_expired: "expired", read_rejected: "rejected", lookup_not_found: "rejected",
  },
  open: {
    ack_open: "same", ack_partial: "live", ack_filled: "filled", ack_unknown: "same", ack_cancelled: "cancelled", ack_expired: "expired",
    placed: "same", fill: "live", filled: "filled", cancelled: "cancelled", expired: "expired", cancel_requested: "cancel_requested",
    read_open: "same", read_partial: "live", read_filled: "filled", read_cancelled: "cancelled", read_expired: "expired",
  },
  partial: {
    ack_open: "same", ack_partial: "same", ack_filled: "filled", ack_unknown: "same", ack_cancelled: "cancelled", ack_expired: "expired",
    placed: "same", fill: "same", filled: "filled", cancelled: "cancelled", expired: "expired", cancel_requested: "cancel_requested",
    read_open: "same", read_partial: "same", read_filled: "filled", read_cancelled: "cancelled", read_expired: "expired",
  },
  cancel_requested: {
    ack_open: "same", ack_partial: "same", ack_filled: "filled", ack_unknown: "same", ack_cancelled: "cancelled", ack_expired: "expired",
    placed: "same", fill: "same", filled: "filled", cancelled: "cancelled", expired: "expired", cancel_cancelled: "cancelled",
    cancel_filled: "filled", cancel_pending: "cancel_pending", cancel_not_cancellable: "unknown", cancel_not_found: "unknown",
    cancel_failed: "live", read_open: "same", read_partial: "same", read_filled: "filled", read_cancelled: "cancelled",
    read_expired: "expired",
  },
  cancel_pending: {
    ack_open: "same", ack_partial: "same", ack_filled: "filled", ack_unknown: "same", ack_cancelled: "cancelled", ack_expired: "expired",
    placed: "same", fill: "same", filled: "filled", cancelled: "cancelled", expired: "expired", cancel_requested: "same",
    cancel_cancelled: "cancelled", cancel_filled: "filled", cancel_pending: "cancel_pending", cancel_not_cancellable: "unknown",
    cancel_not_found: "unknown", cancel_failed: "same", read_open: "same", read_partial: "same", read_filled: "filled",
    read_cancelled: "cancelled", read_expired: "expired",
  },
  filled: {
    send_failed: "late", ack_open: "late", ack_partial: "late", ack_filled: "same", ack_rejected: "late", ack_unknown: "same",
    ack_cancelled: "late", ack_expired: "late", placed: "late", fill: "same", filled: "same", cancelled: "late", expired: "late",
    rejected: "late", cancel_requested: "late", cancel_cancelled: "late", cancel_filled: "same", cancel_pending: "late",
    cancel_not_cancellable: "same", cancel_not_found: "late", cancel_failed: "same", read_open: "late", read_partial: "late",
    read_filled: "same", read_cancelled: "late", read_expired: "late", read_rejected: "late",
  },
  cancelled: {
    send_failed: "late", ack_open: "late", ack_partial: "late", ack_filled: "late", ack_rejected: "late", ack_unknown: "same",
    ack_cancelled: "same", ack_expired: "late", placed: "late", fill: "late", filled: "late", cancelled: "same", expired: "late",
    rejected: "late", cancel_requested: "late", cancel_cancelled: "same", cancel_filled: "filled", cancel_pending: "late",
    cancel_not_cancellable: "same", cancel_not_found: "late", cancel_failed: "same", read_open: "late", read_partial: "late",
    read_filled: "filled", read_cancelled: "same", read_expired: "late", read_rejected: "late",
  },
  expired: {
    send_failed: "late", ack_open: "late", ack_partial: "late", ack_filled: "late", ack_rejected: "late", ack_unknown: "same",
    ack_cancelled: "late", ack_expired: "same", placed: "late", fill: "late", filled: "late", cancelled: "late", expired: "same",
    rejected: "late", cancel_requested: "late", cancel_cancelled: "late", cancel_filled: "filled", cancel_pending: "late",
    cancel_not_cancellable: "same", cancel_not_found: "late", cancel_failed: "same", read_open: "late", read_partial: "late",
    read_filled: "filled", read_cancelled: "late", read_expired: "same", read_rejected: "late",
  },
  rejected: {
    send_failed: "same", ack_open: "late", ack_partial: "late", ack_filled: "late", ack_rejected: "same", ack_unknown: "same",
    ack_cancelled: "late", ack_expired: "late", placed: "late", fill: "late", filled: "late", cancelled: "late", expired: "late",
    rejected: "same", cancel_requested: "late", cancel_cancelled: "late", cancel_filled: "late", cancel_pending: "late",
    cancel_not_cancellable: "same", cancel_not_found: "late", cancel_failed: "same", read_open: "late", read_partial: "late",
    read_filled: "late", read_cancelled: "late", read_expired: "late", read_rejected: "same", lookup_not_found: "same",
  },
  not_recorded: {
    send_failed: "same", ack_open: "open", ack_partial: "partial", ack_filled: "filled", ack_rejected: "rejected", ack_unknown: "same",
    ack_cancelled: "cancelled", ack_expired: "expired", placed: "open", fill: "partial", filled: "filled", cancelled: "cancelled",
    expired: "expired", rejected: "rejected", cancel_requested: "late", cancel_cancelled: "late", cancel_filled: "late",
    cancel_pending: "late", cancel_not_cancellable: "same", cancel_not_found: "late", cancel_failed: "same", read_open: "open",
    read_partial: "partial", read_filled: "filled", read_cancelled: "cancelled", read_expired: "expired", read_rejected: "rejected",
    lookup_not_found: "same",
  },
};

const targetIn = (column: TableColumn, ev: OrderEventKind): Target | undefined =>
  column === "not_recorded" ? targetOf("rejected", ev, true) : targetOf(column, ev);

describe("the order transition table, pair by pair", () => {
  for (const column of TABLE_COLUMNS) {
    for (const ev of ORDER_EVENTS) {
      const want = EXPECTED[column][ev];
      it(`${column} x ${ev} -> ${want ?? "illegal"}`, () => {
        expect(targetIn(column, ev)).toBe(want);
      });
    }
  }

  it("has one row per event and one cell per column, each a target or '-'", () => {
    expect(Object.keys(TRANSITION_TABLE)).toEqual(ORDER_EVENTS);
    expect(ORDER_EVENTS).toHaveLength(29);
    const targets = new Set<string>([...ORDER_STATES, "same", "late", "live", "-"]);
    for (const ev of ORDER_EVENTS) {
      expect(TRANSITION_TABLE[ev]).toHaveLength(TABLE_COLUMNS.length);
      for (const cell of TRANSITION_TABLE[ev]) expect(targets.has(cell)).toBe(true);
    }
  });

  it("the by-state views are the table's columns", () => {
    for (const s of ORDER_STATES) expect(TRANSITIONS[s]).toEqual(EXPECTED[s]);
    expect(NOT_RECORDED_TRANSITIONS).toEqual(EXPECTED.not_recorded);
  });

  it("the not-recorded flag changes only the rejected column", () => {
    for (const s of ORDER_STATES) {
      if (s === "rejected") continue;
      for (const ev of ORDER_EVENTS) expect(targetOf(s, ev, true)).toBe(targetOf(s, ev));
    }
  });
});

describe("what a wire status amounts to as an event", () => {
  const CASES: { status: OrderStatus; read: OrderEventKind; frame: OrderEventKind }[] = [
    { status: "PENDING", read: "read_open", frame: "placed" },
    { status: "OPEN", read: "read_open", frame: "placed" },
    { status: "PARTIAL", read: "read_partial", frame: "fill" },
    { status: "FILLED", read: "read_filled", frame: "filled" },
    { status: "CANCELLED", read: "read_cancelled", frame: "cancelled" },
    { status: "EXPIRED", read: "read_expired", frame: "expired" },
    { status: "REJECTED", read: "read_rejected", frame: "rejected" },
  ];
  it("covers every status", () => expect(CASES.map((c) => c.status)).toEqual([...ORDER_STATUSES]));
  for (const c of CASES) {
    it(`${c.status}: read -> ${c.read}, frame -> ${c.frame}`, () => {
      expect(readEventOf(c.status)).toBe(c.read);
      expect(frameEventOf(c.status)).toBe(c.frame);
    });
  }

  const ACKS: [status: "OPEN" | "PARTIAL" | "FILLED" | "REJECTED", orderStatus: OrderStatus | undefined, want: OrderEventKind][] = [
    ["OPEN", undefined, "ack_open"],
    ["PARTIAL", undefined, "ack_partial"],
    ["FILLED", undefined, "ack_filled"],
    ["REJECTED", undefined, "ack_rejected"],
    ["PARTIAL", "PARTIAL", "ack_partial"],
    ["PARTIAL", "FILLED", "ack_filled"],
    ["PARTIAL", "CANCELLED", "ack_cancelled"],
    ["PARTIAL", "REJECTED", "ack_cancelled"],
    ["PARTIAL", "EXPIRED", "ack_expired"],
    ["OPEN", "OPEN", "ack_open"],
    ["REJECTED", "FILLED", "ack_rejected"],
  ];
  for (const [status, orderStatus, want] of ACKS) {
    it(`placement ${status} (orderStatus ${orderStatus ?? "absent"}) -> ${want}`, () => {
      expect(ackEventOf(status, orderStatus)).toBe(want);
    });
  }
});
