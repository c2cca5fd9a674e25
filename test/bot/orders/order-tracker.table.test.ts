/**
 * The whole transition table, driven through the real tracker: every state is reached from
 * `sent` by real events, then every event kind is applied to it and the result must be what the
 * table says (impossible -> refused and counted, late -> counted and not applied, same -> no change,
 * a state -> that state). order-states.test.ts pins each pair of the table itself.
 */
import { describe, expect, it } from "vitest";
import { NOT_RECORDED_TRANSITIONS, ORDER_EVENTS, ORDER_STATES, TRANSITIONS, type OrderEventKind, type OrderState } from "../../../src/bot/orders/order-states.js";
import { OrderTracker, type TrackerEvent } from "../../../src/bot/orders/order-tracker.js";
import { parseMicros } from "../../../src/core/money.js";
import type { OrderStatus } from "../../../src/wire/enums.js";
import type { OrderRecord, PlacementResult } from "../../../src/wire/orders.js";
import { W, orderRecord } from "./order-tracker-fixtures.js";

const CID = "c1";
const HASH = "0x" + "11".repeat(32);
const OID = "o1";
const SIZE = "10";

let ts = 1_000;
const next = (): number => (ts += 10);

function ack(status: "OPEN" | "PARTIAL" | "FILLED" | "REJECTED", filled = "0"): PlacementResult {
  if (status === "REJECTED") return { orderId: null, status, code: "insufficient_funds", message: "no" };
  const rem = (parseMicros(SIZE) - parseMicros(filled)).toString();
  return { orderId: OID, status, filledQty: filled, remainingQty: String(Number(rem) / 1e6), trades: [] };
}

function record(status: OrderStatus, filled = "0"): OrderRecord {
  return orderRecord({ id: OID, clientOrderId: CID, orderHash: HASH, status, filledQty: filled, originalQuantity: SIZE });
}

const base = { channel: "user_orders", walletAddress: W, orderId: OID, clientOrderId: CID, marketId: "MKT" };
let tradeSeq = 0;

/** One event of each kind, for an order in any state. */
function eventOf(kind: OrderEventKind): TrackerEvent {
  const t = next();
  switch (kind) {
    case "resent":
      return { kind: "sent", clientOrderId: CID, orderHash: HASH, intent: intent(), nowMs: t };
    case "send_failed":
      return { kind: "send_failed", clientOrderId: CID, code: "rate_limited" };
    case "ack_open":
      return { kind: "ack", clientOrderId: CID, result: ack("OPEN"), serverTimeMs: t };
    case "ack_partial":
      return { kind: "ack", clientOrderId: CID, result: ack("PARTIAL", "1"), serverTimeMs: t };
    case "ack_filled":
      return { kind: "ack", clientOrderId: CID, result: ack("FILLED", SIZE), serverTimeMs: t };
    case "ack_rejected":
      return { kind: "ack", clientOrderId: CID, result: ack("REJECTED"), serverTimeMs: t };
    case "ack_unknown":
      return { kind: "ack_unknown", clientOrderId: CID };
    case "ack_cancelled":
      return { kind: "ack", clientOrderId: CID, result: { ...ack("PARTIAL", "1"), orderStatus: "CANCELLED" }, serverTimeMs: t };
    case "ack_expired":
      return { kind: "ack", clientOrderId: CID, result: { ...ack("PARTIAL", "1"), orderStatus: "EXPIRED" }, serverTimeMs: t };
    case "placed":
    case "rejected":
      return {
        kind: "frame",
        frame: { ...base, type: "order_placed", serverTs: t, tokenId: "1", outcome: 0, side: "BUY", price: "0.5", originalQuantity: SIZE, remainingQty: SIZE, status: kind === "placed" ? "OPEN" : "REJECTED" },
      };
    case "fill":
    case "filled":
      return {
        kind: "frame",
        frame: {
          ...base,
          type: "user_fill",
          serverTs: t,
          tradeId: `t${++tradeSeq}`,
          tokenId: "1",
          outcome: 0,
          side: "BUY",
          price: "0.5",
          quantity: "0.5",
          fee: "0",
          role: "maker",
          orderStatus: kind === "filled" ? "FILLED" : "PARTIAL",
          filledQty: kind === "filled" ? SIZE : "0.5",
          remainingQty: kind === "filled" ? "0" : "9.5",
        },
      };
    case "cancelled":
      return { kind: "frame", frame: { ...base, type: "order_cancelled", serverTs: t, originalQuantity: SIZE, remainingQty: SIZE, status: "CANCELLED" } };
    case "expired":
      return { kind: "frame", frame: { ...base, type: "order_expired", serverTs: t, originalQuantity: SIZE, remainingQty: SIZE, status: "EXPIRED" } };
    case "cancel_requested":
      return { kind: "cancel_requested", clientOrderId: CID, nowMs: t };
    case "cancel_cancelled":
      return { kind: "cancel_result", clientOrderId: CID, result: { kind: "done", status: "CANCELLED", filledQty: 0n }, serverTimeMs: t, nowMs: t };
    case "cancel_filled":
      return { kind: "cancel_result", clientOrderId: CID, result: { kind: "done", status: "FILLED" }, serverTimeMs: t, nowMs: t };
    case "cancel_pending":
      return { kind: "cancel_result", clientOrderId: CID, result: { kind: "pending", retryAfterMs: 5_000 }, serverTimeMs: t, nowMs: t };
    case "cancel_not_cancellable":
      return { kind: "cancel_result", clientOrderId: CID, result: { kind: "not_cancellable" }, serverTimeMs: t, nowMs: t };
    case "cancel_not_found":
      return { kind: "cancel_result", clientOrderId: CID, result: { kind: "not_found" }, serverTimeMs: t, nowMs: t };
    case "cancel_failed":
      return { kind: "cancel_result", clientOrderId: CID, result: { kind: "failed" }, nowMs: t };
    case "read_open":
      return { kind: "read", record: record("OPEN"), serverTimeMs: t };
    case "read_partial":
      return { kind: "read", record: record("PARTIAL", "1"), serverTimeMs: t };
    case "read_filled":
      return { kind: "read", record: record("FILLED", SIZE), serverTimeMs: t };
    case "read_cancelled":
      return { kind: "read", record: record("CANCELLED", "0"), serverTimeMs: t };
    case "read_expired":
      return { kind: "read", record: record("EXPIRED", "0"), serverTimeMs: t };
    case "read_rejected":
      return { kind: "read", record: record("REJECTED", "0"), serverTimeMs: t };
    case "lookup_not_found":
      return { kind: "lookup_not_found", clientOrderId: CID, serverTimeMs: t };
  }
}

function intent() {
  return { marketId: "MKT", outcome: 0, side: "BUY" as const, price: parseMicros("0.5"), size: parseMicros(SIZE), postOnly: true };
}

/** Paths from nothing to each state, made of real events. */
const PATHS: Record<OrderState, OrderEventKind[]> = {
  sent: [],
  unknown: ["ack_unknown"],
  open: ["ack_open"],
  partial: ["ack_partial"],
  cancel_requested: ["ack_open", "cancel_requested"],
  cancel_pending: ["ack_open", "cancel_requested", "cancel_pending"],
  filled: ["ack_filled"],
  cancelled: ["ack_open", "cancel_requested", "cancel_cancelled"],
  expired: ["ack_open", "expired"],
  rejected: ["ack_rejected"],
};

function reach(state: OrderState): OrderTracker {
  const tr = new OrderTracker(W);
  tr.apply({ kind: "sent", clientOrderId: CID, orderHash: HASH, intent: intent(), nowMs: next() });
  for (const k of PATHS[state]) {
    const t = tr.apply(eventOf(k));
    expect(t.outcome, `path to ${state}: ${k}`).toBe("applied");
  }
  expect(tr.get(CID)!.state).toBe(state);
  return tr;
}

describe("order transition table", () => {
  it("reaches every state through real events", () => {
    for (const s of ORDER_STATES) {
      const tr = reach(s);
      expect(tr.counts()[s]).toBe(1);
    }
  });

  for (const state of ORDER_STATES) {
    for (const ev of ORDER_EVENTS) {
      const target = TRANSITIONS[state][ev];
      it(`${state} x ${ev} -> ${target ?? "impossible"}`, () => {
        const tr = reach(state);
        const before = tr.get(CID)!;
        const t = tr.apply(eventOf(ev));
        const after = tr.get(CID)!;
        if (target === undefined) {
          expect(t.outcome).toBe("impossible");
          expect(tr.counters.impossible).toBe(1);
          expect(after.state).toBe(state);
          expect(t.message).toBeTruthy();
        } else if (target === "late") {
          expect(t.outcome).toBe("late");
          expect(tr.counters.late).toBe(1);
          expect(after.state).toBe(state);
        } else if (target === "same") {
          expect(["same", "duplicate"]).toContain(t.outcome);
          expect(after.state).toBe(state);
        } else if (target === "live") {
          expect(after.state).toBe(after.filledQty > 0n ? "partial" : "open");
        } else {
          // "open" with a fill already counted is "partial" (one state split by the fill total).
          const want = target === "open" && after.filledQty > 0n ? "partial" : target;
          expect(after.state).toBe(want);
          expect(t.outcome).toBe(want === state ? "same" : "applied");
        }
        // Invariants whatever happened: the fill total never decreases nor exceeds the size.
        expect(after.filledQty >= before.filledQty).toBe(true);
        expect(after.filledQty <= after.size).toBe(true);
        if (after.state === "filled") expect(after.filledQty).toBe(after.size);
      });
    }
  }

  it("terminal rows only ever lead to terminal states", () => {
    for (const s of ["filled", "cancelled", "expired", "rejected"] as const) {
      for (const target of Object.values(TRANSITIONS[s])) {
        expect(["same", "late", "filled", "cancelled", "expired", "rejected"]).toContain(target);
      }
    }
    // The one correction: cancelled / expired -> filled, and only on authoritative answers.
    expect(TRANSITIONS.cancelled.filled).toBe("late");
    expect(TRANSITIONS.cancelled.read_filled).toBe("filled");
    expect(TRANSITIONS.cancelled.cancel_filled).toBe("filled");
    expect(TRANSITIONS.expired.filled).toBe("late");
    expect(TRANSITIONS.expired.read_filled).toBe("filled");
    expect(TRANSITIONS.filled.read_cancelled).toBe("late");
  });

  // "rejected" reached by a lookup 404 (rejectCode not_recorded) follows its own, soft row.
  for (const ev of ORDER_EVENTS) {
    const target = NOT_RECORDED_TRANSITIONS[ev];
    it(`rejected (not recorded) x ${ev} -> ${target ?? "impossible"}`, () => {
      const tr = reach("unknown");
      expect(tr.apply(eventOf("lookup_not_found")).to).toBe("rejected");
      const t = tr.apply(eventOf(ev));
      const after = tr.get(CID)!;
      if (target === undefined) {
        expect(t.outcome).toBe("impossible");
        expect(after.state).toBe("rejected");
      } else if (target === "late" || target === "same") {
        expect(["late", "same", "duplicate"]).toContain(t.outcome);
        expect(after).toMatchObject({ state: "rejected", rejectCode: "not_recorded" });
      } else if (target === "rejected") {
        expect(after.state).toBe("rejected");
        expect(after.rejectCode).not.toBe("not_recorded");
      } else {
        const want = target === "open" && after.filledQty > 0n ? "partial" : target;
        expect(after.state).toBe(want);
        expect(t).toMatchObject({ outcome: "applied", anomaly: "resurrected" });
        expect(tr.counters.resurrected).toBe(1);
      }
    });
  }

  it("never-recorded is concluded only by a lookup of an unknown order", () => {
    for (const s of ORDER_STATES) {
      const t = TRANSITIONS[s].lookup_not_found;
      if (s === "unknown") expect(t).toBe("rejected");
      else if (s === "rejected") expect(t).toBe("same");
      else expect(t).toBeUndefined();
    }
  });
});
