import { describe, expect, it } from "vitest";
import { NOT_RECORDED_AFTER_MS, OrderTracker, cancelOutcomeOf, type OrderIntent, type TrackerEvent } from "../../../src/bot/orders/order-tracker.js";
import { parseMicros } from "../../../src/core/money.js";
import type { OrderStatus } from "../../../src/wire/enums.js";
import type { OrderCancelledFrame, OrderPlacedFrame, UserFillFrame } from "../../../src/wire/frames.js";
import type { OrderRecord, PlacementResult, Trade } from "../../../src/wire/orders.js";
import { W, orderRecord } from "./order-tracker-fixtures.js";

const m = parseMicros;
const OTHER = "0x" + "cd".repeat(20);
const hash = (n: number): string => "0x" + n.toString(16).padStart(64, "0");

function intent(over: Partial<OrderIntent> = {}): OrderIntent {
  return { marketId: "MKT", outcome: 0, side: "BUY", price: m("0.5"), size: m("10"), postOnly: true, ...over };
}

function sent(tr: OrderTracker, cid: string, n = 1, nowMs = 1_000, over: Partial<OrderIntent> = {}): void {
  expect(tr.apply({ kind: "sent", clientOrderId: cid, orderHash: hash(n), intent: intent(over), nowMs }).outcome).toBe("applied");
}

function ack(cid: string, orderId: string, status: "OPEN" | "PARTIAL" | "FILLED", filled = "0", ts = 1_010, trades: Trade[] = []): TrackerEvent {
  const result: PlacementResult = { orderId, status, filledQty: filled, remainingQty: "0", trades };
  return { kind: "ack", clientOrderId: cid, result, serverTimeMs: ts };
}

function placedFrame(orderId: string, cid: string | null, ts: number, status: OrderStatus = "OPEN"): TrackerEvent {
  const frame: OrderPlacedFrame = {
    type: "order_placed",
    channel: "user_orders",
    serverTs: ts,
    walletAddress: W,
    orderId,
    clientOrderId: cid,
    marketId: "MKT",
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    price: "0.5",
    originalQuantity: "10",
    remainingQty: "10",
    status,
  };
  return { kind: "frame", frame };
}

interface FillArgs {
  tradeId: string;
  orderId: string;
  cid?: string | null;
  qty: string;
  filled: string;
  ts: number;
  status?: OrderStatus;
  wallet?: string;
}
function fillFrame(a: FillArgs): TrackerEvent {
  const frame: UserFillFrame = {
    type: "user_fill",
    channel: "user_orders",
    serverTs: a.ts,
    walletAddress: a.wallet ?? W,
    orderId: a.orderId,
    clientOrderId: a.cid === undefined ? null : a.cid,
    marketId: "MKT",
    tradeId: a.tradeId,
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    price: "0.5",
    quantity: a.qty,
    fee: "0",
    role: "maker",
    orderStatus: a.status ?? "PARTIAL",
    filledQty: a.filled,
    remainingQty: "0",
  };
  return { kind: "frame", frame };
}

function endedFrame(type: "order_cancelled" | "order_expired", orderId: string, cid: string | null, remaining: string, ts: number, status: OrderStatus): TrackerEvent {
  const frame: OrderCancelledFrame | { type: "order_expired" } & Omit<OrderCancelledFrame, "type"> = {
    type,
    channel: "user_orders",
    serverTs: ts,
    walletAddress: W,
    orderId,
    clientOrderId: cid,
    marketId: "MKT",
    originalQuantity: "10",
    remainingQty: remaining,
    status,
  };
  return { kind: "frame", frame } as TrackerEvent;
}

function record(orderId: string, cid: string | null, n: number, status: OrderStatus, filled: string): OrderRecord {
  return orderRecord({ id: orderId, clientOrderId: cid, orderHash: hash(n), status, filledQty: filled });
}

const read = (rec: OrderRecord, ts: number): TrackerEvent => ({ kind: "read", record: rec, serverTimeMs: ts });

describe("OrderTracker lifecycle", () => {
  it("maps states to the reconciler's LiveOrder: pending, open, partial, cancelling; terminal orders leave", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 1, 500);
    expect(tr.liveOrders("MKT")).toEqual([
      { clientOrderId: "a", outcome: 0, side: "BUY", price: m("0.5"), size: m("10"), remaining: m("10"), postOnly: true, createdAtMs: 500, state: "pending" },
    ]);
    tr.apply(ack("a", "o1", "OPEN"));
    expect(tr.liveOrders("MKT")[0]).toMatchObject({ orderId: "o1", state: "open" });
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "4", filled: "4", ts: 1_020 }));
    expect(tr.liveOrders("MKT")[0]).toMatchObject({ state: "partial", remaining: m("6") });
    tr.apply({ kind: "cancel_requested", clientOrderId: "a", nowMs: 2_000 });
    expect(tr.liveOrders("MKT")[0]).toMatchObject({ state: "cancelling" });
    tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "done", status: "CANCELLED", filledQty: m("4") }, serverTimeMs: 2_010, nowMs: 2_010 });
    expect(tr.liveOrders("MKT")).toEqual([]);
    expect(tr.get("a")).toMatchObject({ state: "cancelled", filledQty: m("4"), tradeQty: m("4") });
    expect(tr.liveOrders("OTHER")).toEqual([]);
  });

  it("counts orders per state and lists the in-flight ones", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 1);
    sent(tr, "b", 2);
    sent(tr, "c", 3);
    tr.apply(ack("b", "ob", "OPEN"));
    tr.apply({ kind: "ack_unknown", clientOrderId: "c" });
    expect(tr.counts()).toMatchObject({ sent: 1, open: 1, unknown: 1, filled: 0 });
    expect(tr.inFlight().map((o) => o.clientOrderId).sort()).toEqual(["a", "c"]);
    expect(tr.unknownOrders().map((o) => o.clientOrderId)).toEqual(["c"]);
  });

  it("refuses a clientOrderId reused for a different order hash, and a cancel before the orderId is known", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 1);
    const t = tr.apply({ kind: "sent", clientOrderId: "a", orderHash: hash(2), intent: intent(), nowMs: 1 });
    expect(t.outcome).toBe("impossible");
    const c = tr.apply({ kind: "cancel_requested", clientOrderId: "a", nowMs: 2 });
    expect(c.outcome).toBe("impossible");
    expect(tr.counters.impossible).toBe(2);
    expect(tr.get("a")!.state).toBe("sent");
  });

  it("indexes by orderId and by order hash (any case)", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 0xabc);
    tr.apply(ack("a", "o1", "OPEN"));
    expect(tr.getByOrderId("o1")?.clientOrderId).toBe("a");
    expect(tr.getByHash(hash(0xabc).toUpperCase().replace("0X", "0x"))?.clientOrderId).toBe("a");
  });
});

describe("terminal finality", () => {
  it("a late order_placed after a cancel does not reopen the order", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "OPEN", "0", 1_010));
    tr.apply(endedFrame("order_cancelled", "o1", "a", "10", 1_100, "CANCELLED"));
    const t = tr.apply(placedFrame("o1", "a", 1_005));
    expect(t).toMatchObject({ outcome: "late", from: "cancelled", to: "cancelled" });
    const t2 = tr.apply(ack("a", "o1", "OPEN", "0", 1_200));
    expect(t2.outcome).toBe("late");
    expect(tr.get("a")!.state).toBe("cancelled");
    expect(tr.counters.late).toBe(2);
    expect(tr.liveOrders("MKT")).toEqual([]);
  });

  it("a late fill for a cancelled order is counted, flags a read, and only the read moves it to filled", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "OPEN"));
    // order_cancelled says 3 had filled by then: not a final total (spec 6).
    tr.apply(endedFrame("order_cancelled", "o1", "a", "7", 1_100, "CANCELLED"));
    expect(tr.get("a")).toMatchObject({ state: "cancelled", filledQty: m("3"), finalConfirmed: false });
    const late = tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "10", filled: "10", ts: 1_090, status: "FILLED" }));
    expect(late.outcome).toBe("late");
    expect(tr.get("a")).toMatchObject({ state: "cancelled", filledQty: m("10"), tradeQty: m("10"), needsRead: "final_fill_total" });
    expect(tr.ordersNeedingRead(2_000)).toEqual([{ clientOrderId: "a", orderId: "o1", orderHash: hash(1), reason: "final_fill_total", via: "id" }]);
    const r = tr.apply(read(record("o1", "a", 1, "FILLED", "10"), 2_000));
    expect(r).toMatchObject({ outcome: "applied", from: "cancelled", to: "filled" });
    expect(tr.get("a")).toMatchObject({ state: "filled", finalConfirmed: true });
    expect(tr.get("a")!.needsRead).toBeUndefined();
  });

  it("a read confirming CANCELLED settles the doubt without changing the state", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "OPEN"));
    tr.apply(endedFrame("order_cancelled", "o1", "a", "10", 1_100, "CANCELLED"));
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "2", filled: "2", ts: 1_050 }));
    expect(tr.get("a")!.needsRead).toBe("final_fill_total");
    tr.apply(read(record("o1", "a", 1, "CANCELLED", "2"), 2_000));
    expect(tr.get("a")).toMatchObject({ state: "cancelled", filledQty: m("2"), finalConfirmed: true });
    expect(tr.ordersNeedingRead(3_000)).toEqual([]);
  });

  it("a business reject stays final: an order that later shows up is a contradiction to read, not a reopening", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply({ kind: "ack", clientOrderId: "a", result: { orderId: null, status: "REJECTED", code: "insufficient_funds", message: "no" }, serverTimeMs: 1_500 });
    expect(tr.apply(placedFrame("o1", "a", 1_600)).outcome).toBe("late");
    expect(tr.get("a")).toMatchObject({ state: "rejected", rejectCode: "insufficient_funds", needsRead: "contradiction" });
    expect(tr.apply(read(record("o1", "a", 1, "OPEN", "0"), 1_700)).outcome).toBe("late");
    expect(tr.get("a")!.state).toBe("rejected");
    expect(tr.counters.resurrected).toBe(0);
  });
});

describe("fills before the acknowledgement", () => {
  it("buffers frames for an unknown orderId and replays them in serverTs order when the ack names it", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    // No clientOrderId on these frames: only the orderId links them, and we do not know it yet.
    expect(tr.apply(fillFrame({ tradeId: "t2", orderId: "o1", qty: "3", filled: "5", ts: 1_007 })).outcome).toBe("buffered");
    expect(tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", qty: "2", filled: "2", ts: 1_006 })).outcome).toBe("buffered");
    expect(tr.bufferedOrderIds()).toEqual(["o1"]);
    expect(tr.get("a")!.filledQty).toBe(0n);
    const t = tr.apply(ack("a", "o1", "OPEN", "0", 1_005));
    expect(t.to).toBe("open");
    expect(t.replayed?.map((x) => x.outcome)).toEqual(["applied", "same"]);
    expect(t.replayed?.map((x) => x.to)).toEqual(["partial", "partial"]);
    expect(tr.get("a")).toMatchObject({ state: "partial", filledQty: m("5"), tradeQty: m("5"), lastServerTs: 1_007 });
    expect(tr.bufferedOrderIds()).toEqual([]);
    expect(tr.counters).toMatchObject({ buffered: 2, replayed: 2 });
  });

  it("a fill carrying our clientOrderId applies at once and teaches the orderId", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    const t = tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "10", filled: "10", ts: 1_004, status: "FILLED" }));
    expect(t).toMatchObject({ outcome: "applied", from: "sent", to: "filled" });
    expect(tr.get("a")!.orderId).toBe("o1");
    // The acknowledgement then agrees, and its trade (same id) is not counted twice.
    const trade: Trade = {
      id: "t1",
      marketId: "MKT",
      tokenId: "1",
      outcome: 0,
      side: "BUY",
      price: "0.5",
      quantity: "10",
      fee: "0",
      feeRateBps: 0,
      makerOrderId: "x",
      takerOrderId: "o1",
      makerWallet: OTHER,
      takerWallet: W,
      createdAt: "2026-01-01T00:00:00Z",
    };
    expect(tr.apply(ack("a", "o1", "FILLED", "10", 1_003, [trade])).outcome).toBe("same");
    expect(tr.get("a")).toMatchObject({ filledQty: m("10"), tradeQty: m("10") });
  });

  it("a replayed frame is dropped when a read resolved the order first; a fill of a pruned order is late", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply({ kind: "ack_unknown", clientOrderId: "a" });
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", qty: "10", filled: "10", ts: 1_100, status: "FILLED" }));
    const r = tr.apply(read(record("o1", "a", 1, "FILLED", "10"), 1_200));
    expect(r.to).toBe("filled");
    expect(r.replayed?.[0]).toMatchObject({ outcome: "same" });
    expect(tr.get("a")).toMatchObject({ tradeQty: m("10"), finalConfirmed: true });
    expect(tr.prune(5_000)).toBe(1);
    expect(tr.get("a")).toBeUndefined();
    expect(tr.apply(fillFrame({ tradeId: "t9", orderId: "o1", qty: "1", filled: "10", ts: 6_000 })).outcome).toBe("late");
    expect(tr.bufferedOrderIds()).toEqual([]);
  });

  it("bounds the buffer, dropping the oldest frame", () => {
    const tr = new OrderTracker(W, { maxBuffered: 2 });
    tr.apply(fillFrame({ tradeId: "t1", orderId: "x1", qty: "1", filled: "1", ts: 10 }));
    tr.apply(fillFrame({ tradeId: "t2", orderId: "x2", qty: "1", filled: "1", ts: 20 }));
    tr.apply(fillFrame({ tradeId: "t3", orderId: "x3", qty: "1", filled: "1", ts: 30 }));
    expect(tr.bufferedOrderIds().sort()).toEqual(["x2", "x3"]);
    expect(tr.counters.bufferDropped).toBe(1);
  });

  it("ignores frames of another wallet", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    const t = tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "1", filled: "1", ts: 5, wallet: OTHER }));
    expect(t.outcome).toBe("wrong_wallet");
    expect(tr.get("a")!.state).toBe("sent");
  });
});

describe("unknown outcomes", () => {
  it("stay unknown until platform evidence; never resolved by time or by our own requests", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 7, 1_000);
    tr.apply({ kind: "ack_unknown", clientOrderId: "a", reason: "timeout" });
    expect(tr.liveOrders("MKT")[0]!.state).toBe("pending");
    expect(tr.apply({ kind: "cancel_requested", clientOrderId: "a", nowMs: 9_000_000 }).outcome).toBe("impossible");
    expect(tr.apply({ kind: "send_failed", clientOrderId: "a", code: "timeout" }).outcome).toBe("impossible");
    expect(tr.get("a")!.state).toBe("unknown");
    expect(tr.ordersNeedingRead(9_000_000)).toEqual([{ clientOrderId: "a", orderHash: hash(7), reason: "unknown", via: "lookup", conclusiveAtMs: 1_000 + NOT_RECORDED_AFTER_MS }]);
    const r = tr.apply(read(record("o1", "a", 7, "PENDING", "0"), 9_000_001));
    expect(r).toMatchObject({ outcome: "applied", to: "open" });
    expect(tr.get("a")).toMatchObject({ orderId: "o1" });
    expect(tr.ordersNeedingRead(9_000_002)).toEqual([]);
  });

  it("concludes never-recorded only from a lookup of an unknown order", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 1);
    sent(tr, "b", 2);
    tr.apply(ack("b", "ob", "OPEN"));
    expect(tr.apply({ kind: "lookup_not_found", clientOrderId: "a" }).outcome).toBe("impossible");
    expect(tr.apply({ kind: "lookup_not_found", orderHash: hash(2) }).outcome).toBe("impossible");
    tr.apply({ kind: "ack_unknown", clientOrderId: "a" });
    expect(tr.apply({ kind: "lookup_not_found", orderHash: hash(1) })).toMatchObject({ outcome: "applied", to: "rejected" });
    expect(tr.get("a")).toMatchObject({ finalConfirmed: true, rejectCode: "not_recorded" });
  });

  it("a resend under the same clientOrderId moves unknown back to sent", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 1);
    tr.apply({ kind: "ack_unknown", clientOrderId: "a" });
    expect(tr.apply({ kind: "sent", clientOrderId: "a", orderHash: hash(1), intent: intent(), nowMs: 2 })).toMatchObject({ outcome: "applied", to: "sent" });
    expect(tr.apply(ack("a", "o1", "OPEN")).to).toBe("open");
  });

  it("send_failed (nothing recorded) ends a sent order as rejected with its code", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 1);
    expect(tr.apply({ kind: "send_failed", clientOrderId: "a", code: "rate_limited" }).to).toBe("rejected");
    expect(tr.get("a")).toMatchObject({ rejectCode: "rate_limited" });
  });
});

describe("cancels", () => {
  function openOrder(): OrderTracker {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "OPEN"));
    return tr;
  }

  it("cancel pending (202) -> repeated after Retry-After -> CANCELLED", () => {
    const tr = openOrder();
    expect(tr.canCancel("a", 2_000)).toBe(true);
    tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 2_000 });
    expect(tr.canCancel("a", 2_000)).toBe(false);
    expect(tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 2_001 }).outcome).toBe("impossible");
    tr.apply({ kind: "cancel_result", orderId: "o1", result: cancelOutcomeOf({ status: "cancel_pending", code: "cancel_pending", orderId: "o1", message: "", retryAfterSec: 5 }), serverTimeMs: 2_010, nowMs: 2_010 });
    expect(tr.get("a")).toMatchObject({ state: "cancel_pending", cancelRetryAtMs: 7_010 });
    expect(tr.canCancel("a", 7_009)).toBe(false);
    expect(tr.ordersNeedingRead(7_009)).toEqual([]);
    expect(tr.canCancel("a", 7_010)).toBe(true);
    expect(tr.ordersNeedingRead(7_010)).toMatchObject([{ clientOrderId: "a", reason: "cancel_retry", via: "id" }]);
    expect(tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 7_010 }).outcome).toBe("same");
    expect(tr.get("a")!.cancelAttempts).toBe(2);
    tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "pending", retryAfterMs: 5_000 }, serverTimeMs: 7_020, nowMs: 7_020 });
    tr.apply({ kind: "cancel_result", orderId: "o1", result: cancelOutcomeOf({ orderId: "o1", status: "CANCELLED", filledQty: "0", remainingQty: "10" }), serverTimeMs: 12_030, nowMs: 12_030 });
    expect(tr.get("a")).toMatchObject({ state: "cancelled" });
    expect(tr.get("a")!.cancelRetryAtMs).toBeUndefined();
  });

  it("cancel pending -> FILLED (the order filled before the cancel completed)", () => {
    const tr = openOrder();
    tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 2_000 });
    tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "pending", retryAfterMs: 5_000 }, serverTimeMs: 2_010, nowMs: 2_010 });
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", qty: "6", filled: "6", ts: 2_020 }));
    expect(tr.get("a")).toMatchObject({ state: "cancel_pending", filledQty: m("6") });
    tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "done", status: "FILLED" }, serverTimeMs: 7_000, nowMs: 7_000 });
    expect(tr.get("a")).toMatchObject({ state: "filled", filledQty: m("10"), finalConfirmed: true });
    expect(tr.fillGaps()).toMatchObject([{ missingQty: m("4") }]);
  });

  it("a repeated cancel answered not_cancellable leaves the order unknown (no slot held) until a read", () => {
    const tr = openOrder();
    tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 2_000 });
    tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "pending", retryAfterMs: 5_000 }, serverTimeMs: 2_010, nowMs: 2_010 });
    tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 7_010 });
    tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "not_cancellable" }, serverTimeMs: 7_020, nowMs: 7_020 });
    expect(tr.get("a")!.state).toBe("unknown");
    expect(tr.liveOrders("MKT")[0]!.state).toBe("cancelling");
    expect(tr.ordersNeedingRead(7_030)).toMatchObject([{ reason: "unknown", via: "id", orderId: "o1" }]);
    tr.apply(read(record("o1", "a", 1, "CANCELLED", "0"), 7_040));
    expect(tr.get("a")!.state).toBe("cancelled");
  });

  it("a cancel answer stamped before a frame already applied still counts (answers to our requests are not stale)", () => {
    const tr = openOrder();
    tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 2_000 });
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", qty: "1", filled: "1", ts: 3_000 }));
    expect(tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "not_found" }, serverTimeMs: 2_800, nowMs: 3_100 }).to).toBe("unknown");
    const tr2 = openOrder();
    tr2.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 2_000 });
    tr2.apply(fillFrame({ tradeId: "t1", orderId: "o1", qty: "1", filled: "1", ts: 3_000 }));
    expect(tr2.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "pending", retryAfterMs: 5_000 }, serverTimeMs: 2_800, nowMs: 3_100 }).to).toBe("cancel_pending");
    expect(tr2.get("a")!.lastServerTs).toBe(3_000);
  });

  it("a cancel that failed without being recorded returns the order to resting", () => {
    const tr = openOrder();
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", qty: "1", filled: "1", ts: 1_500 }));
    tr.apply({ kind: "cancel_requested", orderId: "o1", nowMs: 2_000 });
    expect(tr.apply({ kind: "cancel_result", orderId: "o1", result: { kind: "failed", code: "shard_owner_unavailable" }, nowMs: 2_010 }).to).toBe("partial");
    expect(tr.canCancel("a", 2_010)).toBe(true);
  });

  it("a cancel answer for an order we do not track is unmatched", () => {
    const tr = openOrder();
    expect(tr.apply({ kind: "cancel_result", orderId: "zzz", result: { kind: "not_found" }, nowMs: 1 }).outcome).toBe("unmatched");
    expect(tr.counters.unmatched).toBe(1);
  });
});

describe("ordering and fill totals", () => {
  it("older frames never regress the state; the newest stamp is kept", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "OPEN", "0", 100));
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "4", filled: "4", ts: 200 }));
    expect(tr.apply(placedFrame("o1", "a", 150)).outcome).toBe("same");
    expect(tr.apply(read(record("o1", "a", 1, "OPEN", "0"), 180)).outcome).toBe("same");
    expect(tr.get("a")).toMatchObject({ state: "partial", filledQty: m("4"), lastServerTs: 200 });
    // A terminal answer is timeless even when stamped earlier.
    expect(tr.apply(endedFrame("order_expired", "o1", "a", "6", 190, "EXPIRED")).to).toBe("expired");
    expect(tr.get("a")).toMatchObject({ state: "expired", lastServerTs: 200 });
  });

  it("the fill total never decreases and never exceeds the size (excess counted)", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "PARTIAL", "6"));
    tr.apply(read(record("o1", "a", 1, "PARTIAL", "2"), 2_000));
    expect(tr.get("a")!.filledQty).toBe(m("6"));
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "9", filled: "12", ts: 2_100 }));
    expect(tr.get("a")).toMatchObject({ filledQty: m("10"), state: "filled" });
    expect(tr.counters.overfill).toBeGreaterThanOrEqual(1);
  });

  it("counts the same trade once, from a frame and from a pulled trade", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "OPEN"));
    tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "3", filled: "3", ts: 2_000 }));
    expect(tr.apply(fillFrame({ tradeId: "t1", orderId: "o1", cid: "a", qty: "3", filled: "3", ts: 2_000 })).outcome).toBe("duplicate");
    expect(tr.apply({ kind: "trade", fill: { tradeId: "t1", orderId: "o1", qty: m("3"), ts: 1_999 } }).outcome).toBe("duplicate");
    expect(tr.apply({ kind: "trade", fill: { tradeId: "t2", orderId: "o1", qty: m("7"), ts: 2_500 } }).to).toBe("filled");
    expect(tr.get("a")).toMatchObject({ tradeQty: m("10"), filledQty: m("10") });
  });

  it("reports fill gaps: a reported total above the trades seen", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "PARTIAL", "4"));
    expect(tr.fillGaps()).toMatchObject([{ order: { clientOrderId: "a" }, missingQty: m("4") }]);
    tr.apply({ kind: "trade", fill: { tradeId: "t1", orderId: "o1", qty: m("4"), ts: 1_020 } });
    expect(tr.fillGaps()).toEqual([]);
  });

  it("refuses an orderId that conflicts with the one we hold", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a");
    tr.apply(ack("a", "o1", "OPEN"));
    const t = tr.apply(placedFrame("o2", "a", 2_000));
    expect(t.outcome).toBe("conflict");
    expect(tr.get("a")!.orderId).toBe("o1");
  });
});

describe("open-orders walk", () => {
  it("finds tracked-open orders missing from the walk, foreign orders, and terminal orders still listed", () => {
    const tr = new OrderTracker(W);
    sent(tr, "a", 1, 100);
    sent(tr, "b", 2, 100);
    sent(tr, "c", 3, 100);
    sent(tr, "late", 4, 5_000);
    tr.apply(ack("a", "oa", "OPEN"));
    tr.apply(ack("b", "ob", "OPEN"));
    tr.apply(ack("c", "oc", "FILLED", "10"));
    tr.apply(ack("late", "olate", "OPEN"));
    const diff = tr.reconcileOpenWalk(["ob", "oc", "ozz"], 4_000);
    expect(diff.missing.map((o) => o.clientOrderId)).toEqual(["a"]);
    expect(diff.foreign).toEqual(["ozz"]);
    expect(diff.terminalButOpen.map((o) => o.clientOrderId)).toEqual(["c"]);
    const needs = tr.ordersNeedingRead(6_000);
    expect(needs.map((n) => [n.clientOrderId, n.reason]).sort()).toEqual([
      ["a", "missing_from_walk"],
      ["c", "contradiction"],
    ]);
    tr.apply(read(record("oa", "a", 1, "CANCELLED", "0"), 6_100));
    expect(tr.get("a")!.state).toBe("cancelled");
    expect(tr.ordersNeedingRead(6_200).map((n) => n.clientOrderId)).toEqual(["c"]);
  });

  it("a read of an order we never sent is unmatched (foreign); adopting it tracks it from the record", () => {
    const tr = new OrderTracker(W);
    expect(tr.apply(read(record("ox", null, 9, "OPEN", "0"), 1)).outcome).toBe("unmatched");
    tr.apply(fillFrame({ tradeId: "t1", orderId: "ox", qty: "3", filled: "3", ts: 5 }));
    const t = tr.adopt(record("ox", null, 9, "PARTIAL", "3"), 10, 99);
    expect(t).toMatchObject({ event: "read_partial", outcome: "applied", to: "partial" });
    expect(t.replayed).toHaveLength(1);
    expect(tr.get("adopted:ox")).toMatchObject({ orderId: "ox", filledQty: m("3"), tradeQty: m("3"), size: m("10"), createdAtMs: Date.UTC(2026, 0, 1) });
    expect(tr.liveOrders("MKT")).toMatchObject([{ clientOrderId: "adopted:ox", state: "partial", remaining: m("7") }]);
    expect(tr.reconcileOpenWalk(["ox"], 100).foreign).toEqual([]);
    // Adopting an order we already track is just a read.
    expect(tr.adopt(record("ox", null, 9, "CANCELLED", "3"), 20, 100)).toMatchObject({ to: "cancelled" });
  });
});
