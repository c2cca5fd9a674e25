/**
 * Review fixes in the tracker: "not recorded" is a soft ending (a lookup can race the platform),
 * a lookup 404 ends an order only long enough after its last send, placement answers whose
 * `orderStatus` says the order already ended end it, and placement trade rows are read leniently.
 */
import { describe, expect, it } from "vitest";
import { NOT_RECORDED_TRANSITIONS, ORDER_EVENTS, TRANSITIONS } from "../../../src/bot/orders/order-states.js";
import { NOT_RECORDED_AFTER_MS, OrderTracker, type OrderIntent, type TrackerEvent } from "../../../src/bot/orders/order-tracker.js";
import { parseMicros } from "../../../src/core/money.js";
import type { OrderStatus } from "../../../src/wire/enums.js";
import { placementResult, type OrderRecord, type PlacementResult } from "../../../src/wire/orders.js";
import { W, orderRecord } from "./order-tracker-fixtures.js";

const m = parseMicros;
const HASH = "0x" + "11".repeat(32);

function intent(): OrderIntent {
  return { marketId: "MKT", outcome: 0, side: "BUY", price: m("0.5"), size: m("10"), postOnly: true };
}

/** A tracker with order "a" sent at `sentAt` whose placement outcome is unknown. */
function unknownOrder(sentAt = 1_000, opts: ConstructorParameters<typeof OrderTracker>[1] = {}): OrderTracker {
  const tr = new OrderTracker(W, opts);
  tr.apply({ kind: "sent", clientOrderId: "a", orderHash: HASH, intent: intent(), nowMs: sentAt });
  tr.apply({ kind: "ack_unknown", clientOrderId: "a", reason: "timeout" });
  return tr;
}

/** Order "a" ended as not recorded by a conclusive lookup (no `nowMs`: the caller vouches). */
function notRecorded(): OrderTracker {
  const tr = unknownOrder();
  expect(tr.apply({ kind: "lookup_not_found", clientOrderId: "a", serverTimeMs: 5_000 })).toMatchObject({ outcome: "applied", to: "rejected" });
  expect(tr.get("a")).toMatchObject({ state: "rejected", rejectCode: "not_recorded", finalConfirmed: true });
  return tr;
}

function rec(status: OrderStatus, filled = "0"): OrderRecord {
  return orderRecord({ id: "o1", clientOrderId: "a", orderHash: HASH, status, filledQty: filled });
}

const read = (status: OrderStatus, filled = "0", ts = 6_000): TrackerEvent => ({ kind: "read", record: rec(status, filled), serverTimeMs: ts });

function frame(type: "order_placed" | "order_cancelled", ts: number, cid: string | null = "a"): TrackerEvent {
  const base = { channel: "user_orders" as const, serverTs: ts, walletAddress: W, orderId: "o1", clientOrderId: cid, marketId: "MKT", originalQuantity: "10", remainingQty: "10" };
  if (type === "order_cancelled") return { kind: "frame", frame: { ...base, type, status: "CANCELLED" } };
  return { kind: "frame", frame: { ...base, type, tokenId: "1", outcome: 0, side: "BUY", price: "0.5", status: "OPEN" } };
}

function fill(ts: number, qty = "3", filled = qty): TrackerEvent {
  return {
    kind: "frame",
    frame: {
      type: "user_fill",
      channel: "user_orders",
      serverTs: ts,
      walletAddress: W,
      orderId: "o1",
      clientOrderId: "a",
      marketId: "MKT",
      tradeId: `t${ts}`,
      tokenId: "1",
      outcome: 0,
      side: "BUY",
      price: "0.5",
      quantity: qty,
      fee: "0",
      role: "maker",
      orderStatus: "PARTIAL",
      filledQty: filled,
      remainingQty: "7",
    },
  };
}

function ackOf(result: PlacementResult, ts = 1_010): TrackerEvent {
  return { kind: "ack", clientOrderId: "a", result, serverTimeMs: ts };
}

describe("not recorded is a soft ending", () => {
  it("a read (lookup hit) after the 404 brings the order back, counted as resurrected", () => {
    const tr = notRecorded();
    // Stamped before the 404's server time: the evidence still wins (the 404 said nothing about the order).
    const t = tr.apply(read("PARTIAL", "2", 4_000));
    expect(t).toMatchObject({ outcome: "applied", from: "rejected", to: "partial", anomaly: "resurrected" });
    expect(tr.get("a")).toMatchObject({ state: "partial", orderId: "o1", filledQty: m("2"), finalConfirmed: false });
    expect(tr.get("a")!.rejectCode).toBeUndefined();
    expect(tr.counters.resurrected).toBe(1);
    expect(tr.liveOrders("MKT")).toMatchObject([{ clientOrderId: "a", orderId: "o1", state: "partial", remaining: m("8") }]);
  });

  it("an order_placed frame naming our clientOrderId brings it back open, and it can then be cancelled", () => {
    const tr = notRecorded();
    expect(tr.apply(frame("order_placed", 7_000))).toMatchObject({ outcome: "applied", to: "open", anomaly: "resurrected" });
    expect(tr.canCancel("a", 7_001)).toBe(true);
    expect(tr.apply({ kind: "cancel_requested", clientOrderId: "a", nowMs: 7_002 }).outcome).toBe("applied");
  });

  it("a fill brings it back partial with the fill counted; a cancelled frame ends it cancelled (total unsettled)", () => {
    const tr = notRecorded();
    expect(tr.apply(fill(7_000, "3"))).toMatchObject({ to: "partial", anomaly: "resurrected" });
    expect(tr.get("a")).toMatchObject({ filledQty: m("3"), tradeQty: m("3") });
    expect(tr.apply(frame("order_cancelled", 7_100))).toMatchObject({ outcome: "applied", to: "cancelled" });
    expect(tr.get("a")).toMatchObject({ state: "cancelled", finalConfirmed: false });
    expect(tr.counters.resurrected).toBe(1);
  });

  it("a trade fact from a trades pull (by clientOrderId) brings it back", () => {
    const tr = notRecorded();
    const t = tr.apply({ kind: "trade", fill: { tradeId: "t1", orderId: "o1", clientOrderId: "a", qty: m("10"), ts: 7_000 } });
    expect(t).toMatchObject({ to: "filled", anomaly: "resurrected" });
    expect(tr.get("a")).toMatchObject({ orderId: "o1", filledQty: m("10") });
  });

  it("a late placement answer brings it back, with the answer's fill total and trades", () => {
    const tr = notRecorded();
    const t = tr.apply(ackOf({ orderId: "o1", status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] }, 8_000));
    expect(t).toMatchObject({ to: "open", anomaly: "resurrected" });
  });

  it("the platform saying REJECTED makes the reject final: later evidence is then late", () => {
    const tr = notRecorded();
    expect(tr.apply(read("REJECTED", "0", 7_000))).toMatchObject({ outcome: "same", to: "rejected" });
    expect(tr.get("a")!.rejectCode).toBe("platform_rejected");
    expect(tr.apply(frame("order_placed", 7_100)).outcome).toBe("late");
    expect(tr.get("a")).toMatchObject({ state: "rejected", needsRead: "contradiction" });
    expect(tr.counters.resurrected).toBe(0);
  });

  it("repeats of 'not recorded' change nothing", () => {
    const tr = notRecorded();
    expect(tr.apply({ kind: "lookup_not_found", clientOrderId: "a", serverTimeMs: 9_000 }).outcome).toBe("same");
    expect(tr.apply({ kind: "ack_unknown", clientOrderId: "a" }).outcome).toBe("same");
    expect(tr.get("a")).toMatchObject({ state: "rejected", rejectCode: "not_recorded" });
  });

  it("the soft row differs from the rejected row only where platform evidence of the order brings it back", () => {
    for (const ev of ORDER_EVENTS) {
      const soft = NOT_RECORDED_TRANSITIONS[ev];
      const hard = TRANSITIONS.rejected[ev];
      // A platform rejection keeps the state (it only makes the reject final).
      if (soft === hard || (soft === "rejected" && hard === "same")) continue;
      expect(ev).toMatch(/^(ack_(open|partial|filled|cancelled|expired)|placed|fill|filled|cancelled|expired|read_(open|partial|filled|cancelled|expired))$/);
      expect(["open", "partial", "filled", "cancelled", "expired"]).toContain(soft);
    }
    // Our own requests and cancels never bring it back.
    for (const ev of ["resent", "cancel_requested", "cancel_cancelled", "cancel_filled", "cancel_pending", "cancel_not_found"] as const) {
      expect(NOT_RECORDED_TRANSITIONS[ev]).toBe(TRANSITIONS.rejected[ev]);
    }
  });
});

describe("a lookup 404 is conclusive only long enough after the last send", () => {
  it("too soon: the order stays unknown (holding its slot) and is looked up again later", () => {
    const tr = unknownOrder(1_000);
    expect(tr.ordersNeedingRead(2_000)).toEqual([{ clientOrderId: "a", orderHash: HASH, reason: "unknown", via: "lookup", conclusiveAtMs: 1_000 + NOT_RECORDED_AFTER_MS }]);
    const t = tr.apply({ kind: "lookup_not_found", clientOrderId: "a", serverTimeMs: 2_050, nowMs: 2_000 });
    expect(t).toMatchObject({ outcome: "same", from: "unknown", to: "unknown" });
    expect(tr.get("a")).toMatchObject({ state: "unknown", needsRead: "unknown", nextReadAtMs: 4_000 });
    expect(tr.counters.notFoundTooSoon).toBe(1);
    expect(tr.liveOrders("MKT")).toMatchObject([{ clientOrderId: "a", state: "pending" }]);
    // Not due until the retry time; the tracker says when.
    expect(tr.ordersNeedingRead(3_999)).toEqual([]);
    expect(tr.nextReadDueMs()).toBe(4_000);
    expect(tr.ordersNeedingRead(4_000).map((n) => n.clientOrderId)).toEqual(["a"]);
    // The retry never goes past the time a 404 becomes conclusive.
    const conclusive = 1_000 + NOT_RECORDED_AFTER_MS;
    tr.apply({ kind: "lookup_not_found", clientOrderId: "a", nowMs: conclusive - 1_000 });
    expect(tr.get("a")!.nextReadAtMs).toBe(conclusive);
    // At the conclusive time a 404 ends it (softly).
    expect(tr.apply({ kind: "lookup_not_found", clientOrderId: "a", serverTimeMs: conclusive + 50, nowMs: conclusive })).toMatchObject({ outcome: "applied", to: "rejected" });
    expect(tr.get("a")).toMatchObject({ state: "rejected", rejectCode: "not_recorded" });
    expect(tr.get("a")!.nextReadAtMs).toBeUndefined();
    expect(tr.nextReadDueMs()).toBeUndefined();
  });

  it("the order found by a later lookup resolves as usual", () => {
    const tr = unknownOrder(1_000);
    tr.apply({ kind: "lookup_not_found", clientOrderId: "a", nowMs: 2_000 });
    expect(tr.apply(read("OPEN", "0", 4_100))).toMatchObject({ outcome: "applied", to: "open" });
    expect(tr.get("a")!.nextReadAtMs).toBeUndefined();
    expect(tr.counters.resurrected).toBe(0);
  });

  it("a resend restarts the wait; the window and the retry are options", () => {
    const tr = unknownOrder(1_000, { notRecordedAfterMs: 3_000, lookupRetryMs: 500 });
    tr.apply({ kind: "sent", clientOrderId: "a", orderHash: HASH, intent: intent(), nowMs: 2_500 });
    tr.apply({ kind: "ack_unknown", clientOrderId: "a" });
    expect(tr.get("a")!.lastSentAtMs).toBe(2_500);
    expect(tr.apply({ kind: "lookup_not_found", clientOrderId: "a", nowMs: 4_500 }).outcome).toBe("same");
    expect(tr.get("a")!.nextReadAtMs).toBe(5_000);
    expect(tr.apply({ kind: "lookup_not_found", clientOrderId: "a", nowMs: 5_500 }).to).toBe("rejected");
  });
});

describe("placement answers whose orderStatus says the order already ended", () => {
  it("PARTIAL + orderStatus CANCELLED (IOC remainder) ends the order cancelled with the answer's fill total", () => {
    const tr = new OrderTracker(W);
    tr.apply({ kind: "sent", clientOrderId: "a", orderHash: HASH, intent: intent(), nowMs: 1_000 });
    const body = { orderId: "o1", status: "PARTIAL", orderStatus: "CANCELLED", filledQty: "4", remainingQty: "0", trades: [{ id: "t1", quantity: "4" }] };
    const t = tr.apply(ackOf(placementResult.parse(body)));
    expect(t).toMatchObject({ event: "ack_cancelled", outcome: "applied", to: "cancelled" });
    expect(tr.get("a")).toMatchObject({ state: "cancelled", filledQty: m("4"), tradeQty: m("4"), finalConfirmed: true });
    expect(tr.liveOrders("MKT")).toEqual([]);
    expect(tr.ordersNeedingRead(2_000)).toEqual([]);
  });

  it("orderStatus EXPIRED and FILLED end it accordingly; a resting orderStatus changes nothing", () => {
    const cases: [string, string, string][] = [
      ["EXPIRED", "expired", "ack_expired"],
      ["FILLED", "filled", "ack_filled"],
      ["PARTIAL", "partial", "ack_partial"],
    ];
    for (const [orderStatus, state, event] of cases) {
      const tr = new OrderTracker(W);
      tr.apply({ kind: "sent", clientOrderId: "a", orderHash: HASH, intent: intent(), nowMs: 1_000 });
      const res = placementResult.parse({ orderId: "o1", status: "PARTIAL", orderStatus, filledQty: "4", remainingQty: "6", trades: [] });
      expect(tr.apply(ackOf(res)), orderStatus).toMatchObject({ event, to: state });
    }
  });

  it("ends an order already resting when a repeated answer says it ended", () => {
    const tr = new OrderTracker(W);
    tr.apply({ kind: "sent", clientOrderId: "a", orderHash: HASH, intent: intent(), nowMs: 1_000 });
    tr.apply(read("OPEN", "0", 1_005));
    const res = placementResult.parse({ orderId: "o1", status: "PARTIAL", orderStatus: "CANCELLED", filledQty: "2", remainingQty: "0", trades: [] });
    expect(tr.apply(ackOf(res, 1_010))).toMatchObject({ to: "cancelled" });
  });
});

describe("placement trade rows are read leniently", () => {
  it("counts the rows it can read; skips and counts the others; never refuses the answer", () => {
    const tr = new OrderTracker(W);
    tr.apply({ kind: "sent", clientOrderId: "a", orderHash: HASH, intent: intent(), nowMs: 1_000 });
    const rows = [
      { id: "t1", quantity: "2", price: 0.5, surprise: true }, // odd price type: still readable (id, quantity)
      { id: "t2", qty: "1" }, // no quantity
      "t3",
      null,
      { id: "t4", quantity: "1" },
    ];
    const res = placementResult.parse({ orderId: "o1", status: "PARTIAL", filledQty: "4", remainingQty: "6", trades: rows });
    expect(tr.apply(ackOf(res)).to).toBe("partial");
    expect(tr.get("a")).toMatchObject({ tradeQty: m("3"), filledQty: m("4") });
    expect(tr.counters.unreadableTrades).toBe(3);
    expect(tr.fillGaps()).toMatchObject([{ missingQty: m("1") }]);
  });
});
