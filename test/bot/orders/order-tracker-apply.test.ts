/**
 * applyEvent on one record, without the tracker around it: the fill path (trade total, fill
 * report, the table's target), duplicates, the clamp at the size, stamps, the cancel that needs
 * an orderId and the early lookup 404. Table-driven: each case is a record reached by a few
 * events, one more event, and what the transition and the record must then say.
 */
import { describe, expect, it } from "vitest";
import { applyEvent, type ApplyContext } from "../../../src/bot/orders/order-tracker-apply.js";
import { newRecord, type Rec } from "../../../src/bot/orders/order-tracker-index.js";
import { emptyCounters, type TrackerEvent, type TrackedOrder, type Transition } from "../../../src/bot/orders/order-tracker-types.js";
import { parseMicros } from "../../../src/core/money.js";
import type { OrderStatus } from "../../../src/wire/enums.js";
import { W } from "./order-tracker-fixtures.js";

const m = parseMicros;
const CID = "c1";
const OID = "o1";

function ctx(): ApplyContext {
  return { counters: emptyCounters(), timing: { notRecordedAfterMs: 20_000, lookupRetryMs: 2_000 } };
}

function sentRecord(): Rec {
  return newRecord({
    kind: "sent",
    clientOrderId: CID,
    orderHash: "0x" + "11".repeat(32),
    intent: { marketId: "MKT", outcome: 0, side: "BUY", price: m("0.5"), size: m("10"), postOnly: true },
    nowMs: 1_000,
  });
}

const ackOpen = (ts: number): TrackerEvent => ({
  kind: "ack",
  clientOrderId: CID,
  result: { orderId: OID, status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] },
  serverTimeMs: ts,
});

function fill(tradeId: string, qty: string, filled: string, ts: number, status: OrderStatus = "PARTIAL"): TrackerEvent {
  return {
    kind: "frame",
    frame: {
      type: "user_fill",
      channel: "user_orders",
      serverTs: ts,
      walletAddress: W,
      orderId: OID,
      clientOrderId: CID,
      marketId: "MKT",
      tradeId,
      tokenId: "1",
      outcome: 0,
      side: "BUY",
      price: "0.5",
      quantity: qty,
      fee: "0",
      role: "maker",
      orderStatus: status,
      filledQty: filled,
      remainingQty: "0",
    },
  };
}

const trade = (tradeId: string, qty: string, ts: number): TrackerEvent => ({ kind: "trade", fill: { tradeId, orderId: OID, qty: m(qty), ts } });

interface Case {
  name: string;
  /** Events that bring the record where the case starts (the facade would have learnt the orderId). */
  before: TrackerEvent[];
  event: TrackerEvent;
  want: Partial<Transition>;
  record: Partial<TrackedOrder>;
  counters?: Partial<ReturnType<typeof emptyCounters>>;
}

const CASES: Case[] = [
  {
    name: "a user_fill on an open order: trade counted, partial",
    before: [ackOpen(2_000)],
    event: fill("t1", "4", "4", 2_010),
    want: { event: "fill", outcome: "applied", from: "open", to: "partial" },
    record: { state: "partial", filledQty: m("4"), tradeQty: m("4"), lastServerTs: 2_010 },
  },
  {
    name: "a user_fill whose total covers the size: filled, final total not yet confirmed",
    before: [ackOpen(2_000), fill("t1", "4", "4", 2_010)],
    event: fill("t2", "6", "10", 2_020, "FILLED"),
    want: { event: "filled", outcome: "applied", from: "partial", to: "filled" },
    record: { state: "filled", filledQty: m("10"), tradeQty: m("10"), finalConfirmed: false },
  },
  {
    name: "the same user_fill again: a duplicate, nothing added",
    before: [ackOpen(2_000), fill("t1", "4", "4", 2_010)],
    event: fill("t1", "4", "4", 2_010),
    want: { outcome: "duplicate", to: "partial" },
    record: { filledQty: m("4"), tradeQty: m("4") },
  },
  {
    name: "a fill report above the size: clamped at the size and counted; the order is filled",
    before: [ackOpen(2_000)],
    event: fill("t1", "4", "12", 2_010),
    want: { event: "filled", outcome: "applied", to: "filled" },
    record: { filledQty: m("10"), tradeQty: m("4") },
    counters: { overfill: 1 },
  },
  {
    name: "a trade row seen before: a duplicate",
    before: [ackOpen(2_000), trade("t1", "4", 2_010)],
    event: trade("t1", "4", 2_010),
    want: { event: "trade", outcome: "duplicate", from: "partial", to: "partial" },
    record: { tradeQty: m("4") },
  },
  {
    name: "an older stamp may not move the order back",
    before: [ackOpen(2_000), fill("t1", "4", "4", 2_010), { kind: "cancel_requested", clientOrderId: CID, nowMs: 3_000 }],
    event: fill("t2", "1", "5", 1_990),
    want: { outcome: "same", from: "cancel_requested", to: "cancel_requested" },
    record: { state: "cancel_requested", filledQty: m("5"), lastServerTs: 2_010 },
  },
  {
    name: "a cancel before the acknowledgement: refused, the record untouched",
    before: [],
    event: { kind: "cancel_requested", clientOrderId: CID, nowMs: 1_500 },
    want: { event: "cancel_requested", outcome: "impossible", to: "sent" },
    record: { state: "sent", cancelAttempts: 0 },
  },
  {
    name: "a lookup 404 too soon after the send: still unknown, looked up again",
    before: [{ kind: "ack_unknown", clientOrderId: CID }],
    event: { kind: "lookup_not_found", clientOrderId: CID, serverTimeMs: 5_050, nowMs: 5_000 },
    want: { event: "lookup_not_found", outcome: "same", to: "unknown" },
    record: { state: "unknown", needsRead: "unknown", nextReadAtMs: 7_000 },
    counters: { notFoundTooSoon: 1 },
  },
  {
    name: "a lookup 404 late enough: rejected as not recorded",
    before: [{ kind: "ack_unknown", clientOrderId: CID }],
    event: { kind: "lookup_not_found", clientOrderId: CID, serverTimeMs: 30_050, nowMs: 30_000 },
    want: { outcome: "applied", from: "unknown", to: "rejected" },
    record: { state: "rejected", rejectCode: "not_recorded", finalConfirmed: true },
  },
];

describe("applyEvent on one record", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const r = sentRecord();
      const cx = ctx();
      for (const ev of c.before) {
        if (ev.kind === "ack" && ev.result.orderId !== null) r.orderId = ev.result.orderId;
        applyEvent(r, ev, cx);
      }
      const t = applyEvent(r, c.event, cx);
      expect(t).toMatchObject(c.want);
      expect(r).toMatchObject(c.record);
      if (c.counters !== undefined) expect(cx.counters).toMatchObject(c.counters);
    });
  }
});
