/**
 * The tracker's per-market live index: whatever sequence of events the tracker sees (acks, frames,
 * cancels, reads, lookups that end an order as not recorded and reads that bring it back), its
 * `liveOrders(market)` is exactly the non-terminal orders of that market among `all()`. And pruned
 * order ids are remembered for a bounded time only.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderTracker, isTerminal, type TrackedOrder, type TrackerEvent } from "../../../src/bot/orders/order-tracker.js";
import { parseMicros } from "../../../src/core/money.js";
import type { OrderStatus } from "../../../src/wire/enums.js";
import { W, orderRecord } from "./order-tracker-fixtures.js";

const m = parseMicros;
const MARKETS = ["MKT", "OTHER"] as const;
const N = 6;
const cid = (i: number): string => `c${i}`;
const oid = (i: number): string => `o${i}`;
const hash = (i: number): string => "0x" + (i + 1).toString(16).padStart(64, "0");
const market = (i: number): string => MARKETS[i % 2]!;

/** One event about order i (the generator picks the kind, the order and a time). */
function event(kind: number, i: number, ts: number): TrackerEvent {
  const statuses: OrderStatus[] = ["OPEN", "PARTIAL", "FILLED", "CANCELLED", "EXPIRED", "REJECTED"];
  switch (kind) {
    case 0:
      return { kind: "sent", clientOrderId: cid(i), orderHash: hash(i), intent: { marketId: market(i), outcome: 0, side: "BUY", price: m("0.5"), size: m("10"), postOnly: true }, nowMs: ts };
    case 1:
      return { kind: "ack", clientOrderId: cid(i), result: { orderId: oid(i), status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] }, serverTimeMs: ts };
    case 2:
      return { kind: "ack_unknown", clientOrderId: cid(i), reason: "timeout" };
    case 3:
      return { kind: "lookup_not_found", clientOrderId: cid(i), serverTimeMs: ts };
    case 4:
      return { kind: "cancel_requested", clientOrderId: cid(i), nowMs: ts };
    case 5:
      return { kind: "cancel_result", clientOrderId: cid(i), result: { kind: "pending", retryAfterMs: 1_000 }, serverTimeMs: ts, nowMs: ts };
    case 6:
      return { kind: "cancel_result", clientOrderId: cid(i), result: { kind: "done", status: "CANCELLED", filledQty: 0n }, serverTimeMs: ts, nowMs: ts };
    case 7:
      return { kind: "send_failed", clientOrderId: cid(i), code: "rate_limited" };
    default: {
      const status = statuses[kind % statuses.length]!;
      const filled = status === "FILLED" ? "10" : status === "PARTIAL" ? "4" : "0";
      const record = orderRecord({ id: oid(i), clientOrderId: cid(i), orderHash: hash(i), status, filledQty: filled, marketId: market(i) });
      return { kind: "read", record, serverTimeMs: ts };
    }
  }
}

function liveByScan(tr: OrderTracker, mkt: string): string[] {
  return tr
    .all()
    .filter((o) => o.marketId === mkt && !isTerminal(o.state))
    .map((o) => o.clientOrderId)
    .sort();
}

describe("OrderTracker live index", () => {
  it("liveOrders(market) always equals the non-terminal orders of all() on that market", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(14), fc.nat(N - 1), fc.integer({ min: 0, max: 50 })), { maxLength: 120 }), (steps) => {
        const tr = new OrderTracker(W, { notRecordedAfterMs: 0 });
        let ts = 1_000;
        for (const [kind, i, dt] of steps) {
          ts += dt;
          tr.apply(event(kind, i, ts));
          for (const mkt of MARKETS) {
            expect(tr.liveOrders(mkt).map((o) => o.clientOrderId).sort()).toEqual(liveByScan(tr, mkt));
          }
        }
      }),
      { seed: 20261121, numRuns: 300 },
    );
  });

  it("liveVersion(market): equal before and after an event only if liveOrders(market) reads the same; 0 with nothing live", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(16), fc.nat(N - 1), fc.integer({ min: 0, max: 800 })), { maxLength: 120 }), (steps) => {
        const tr = new OrderTracker(W, { notRecordedAfterMs: 0, lookupRetryMs: 300 });
        const seen = new Map<string, number[]>(MARKETS.map((mkt) => [mkt, []]));
        let ts = 1_000;
        for (const [kind, i, dt] of steps) {
          const before = MARKETS.map((mkt) => ({ v: tr.liveVersion(mkt), live: JSON.stringify(tr.liveOrders(mkt), (_k, x: unknown) => (typeof x === "bigint" ? String(x) : x)) }));
          ts += dt;
          if (kind === 15) tr.reconcileOpenWalk([0, 2, 4].map(oid), ts);
          else if (kind === 16) tr.prune(ts - 500);
          else tr.apply(event(kind, i, ts));
          MARKETS.forEach((mkt, k) => {
            const v = tr.liveVersion(mkt);
            const live = JSON.stringify(tr.liveOrders(mkt), (_k, x: unknown) => (typeof x === "bigint" ? String(x) : x));
            if (v === before[k]!.v) expect(live).toBe(before[k]!.live);
            if (tr.liveOrders(mkt).length === 0) expect(v).toBe(0);
            // A version once left is never shown again (a consumer's kept figure can never look current by accident).
            const history = seen.get(mkt)!;
            if (v !== 0 && v !== history[history.length - 1]) {
              expect(history).not.toContain(v);
              history.push(v);
            }
          });
        }
      }),
      { seed: 20261128, numRuns: 300 },
    );
  });

  it("the indexed queries (live markets and count, reads due, next read, unknown, in flight) equal a scan of all(), through walks and prunes", () => {
    const due = (o: TrackedOrder, now: number): boolean =>
      (o.needsRead !== undefined || (o.state === "cancel_pending" && o.cancelRetryAtMs !== undefined && now >= o.cancelRetryAtMs)) &&
      !(o.nextReadAtMs !== undefined && now < o.nextReadAtMs);
    const nextDue = (os: TrackedOrder[]): number | undefined => {
      const ats = os.map((o) => (o.state === "unknown" ? o.nextReadAtMs : o.state === "cancel_pending" ? o.cancelRetryAtMs : undefined)).filter((x): x is number => x !== undefined);
      return ats.length === 0 ? undefined : Math.min(...ats);
    };
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(16), fc.nat(N - 1), fc.integer({ min: 0, max: 800 })), { maxLength: 120 }), (steps) => {
        const tr = new OrderTracker(W, { notRecordedAfterMs: 0, lookupRetryMs: 300 });
        let ts = 1_000;
        for (const [kind, i, dt] of steps) {
          ts += dt;
          // 15: an open-orders walk listing the even ids (flags missing and contradictions); 16: a prune.
          if (kind === 15) tr.reconcileOpenWalk([0, 2, 4].map(oid), ts);
          else if (kind === 16) tr.prune(ts - 500);
          else tr.apply(event(kind, i, ts));
          const all = tr.all();
          const live = all.filter((o) => !isTerminal(o.state));
          expect(tr.liveMarkets().sort()).toEqual([...new Set(live.map((o) => o.marketId))].sort());
          expect(tr.liveCount()).toBe(live.length);
          expect(tr.ordersNeedingRead(ts).map((n) => n.clientOrderId)).toEqual(all.filter((o) => due(o, ts)).map((o) => o.clientOrderId));
          expect(tr.nextReadDueMs()).toBe(nextDue(all));
          expect(tr.unknownOrders().map((o) => o.clientOrderId)).toEqual(all.filter((o) => o.state === "unknown").map((o) => o.clientOrderId));
          expect(tr.inFlight().map((o) => o.clientOrderId)).toEqual(
            all.filter((o) => o.state === "sent" || o.state === "unknown" || o.state === "cancel_requested" || o.state === "cancel_pending").map((o) => o.clientOrderId),
          );
          for (const o of all) expect(tr.peek(o.clientOrderId)).toMatchObject(o);
        }
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });

  it("prune removes exactly the settled terminal orders stamped before the horizon (a scan's answer), whatever order the stamps came in", () => {
    // Platform stamps may be older than the local creation time (clock skew): `back` shifts them.
    const settled = (o: TrackedOrder): boolean => o.needsRead === undefined && (o.finalConfirmed || o.filledQty <= o.tradeQty);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(15), fc.nat(N - 1), fc.integer({ min: 0, max: 800 }), fc.integer({ min: 0, max: 2_000 })), { maxLength: 150 }), (steps) => {
        const tr = new OrderTracker(W, { notRecordedAfterMs: 0, lookupRetryMs: 300 });
        let ts = 5_000;
        for (const [kind, i, dt, back] of steps) {
          ts += dt;
          if (kind === 15) {
            const horizon = ts - back;
            const gone = tr
              .all()
              .filter((o) => isTerminal(o.state) && (o.lastServerTs ?? o.createdAtMs) < horizon && settled(o))
              .map((o) => o.clientOrderId)
              .sort();
            const kept = tr.all().map((o) => o.clientOrderId).filter((c) => !gone.includes(c)).sort();
            expect(tr.prune(horizon)).toBe(gone.length);
            expect(tr.all().map((o) => o.clientOrderId).sort()).toEqual(kept);
          } else {
            const ev = event(kind, i, ts);
            tr.apply("serverTimeMs" in ev && ev.serverTimeMs !== undefined ? { ...ev, serverTimeMs: ev.serverTimeMs - back } : ev);
          }
        }
      }),
      { seed: 20261127, numRuns: 300 },
    );
  });

  it("a settled order stamped again after it ended is pruned by its newest stamp, not the first", () => {
    const tr = new OrderTracker(W);
    tr.apply(event(0, 0, 1_000));
    tr.apply(event(1, 0, 1_010));
    tr.apply(event(4, 0, 1_015));
    tr.apply(event(6, 0, 1_020)); // cancelled, stamped 1_020
    tr.apply(event(9, 0, 1_600)); // a read saying CANCELLED, stamped 1_600
    expect(tr.peek(cid(0))?.lastServerTs).toBe(1_600);
    expect(tr.prune(1_200)).toBe(0);
    expect(tr.prune(1_500)).toBe(0);
    expect(tr.prune(1_601)).toBe(1);
    expect(tr.peek(cid(0))).toBeUndefined();
  });

  it("a cancel answered 202 is watched: its re-cancel falls due at its Retry-After, not before", () => {
    const tr = new OrderTracker(W);
    for (const [k, ts] of [[0, 1], [1, 2], [4, 3], [5, 4]] as const) tr.apply(event(k, 0, ts));
    expect(tr.peek(cid(0))?.state).toBe("cancel_pending");
    expect(tr.nextReadDueMs()).toBe(1_004);
    expect(tr.ordersNeedingRead(1_003)).toEqual([]);
    expect(tr.ordersNeedingRead(1_004).map((n) => [n.clientOrderId, n.reason])).toEqual([[cid(0), "cancel_retry"]]);
    expect(tr.inFlight().map((o) => o.clientOrderId)).toEqual([cid(0)]);
  });

  it("an order ended as not recorded and brought back by a read is live again", () => {
    const tr = new OrderTracker(W, { notRecordedAfterMs: 0 });
    tr.apply(event(0, 0, 1_000));
    tr.apply(event(2, 0, 1_000));
    expect(tr.apply(event(3, 0, 2_000))).toMatchObject({ to: "rejected" });
    expect(tr.liveOrders("MKT")).toEqual([]);
    expect(tr.apply(event(12, 0, 3_000))).toMatchObject({ to: "open", anomaly: "resurrected" }); // a read: OPEN
    expect(tr.liveOrders("MKT").map((o) => o.clientOrderId)).toEqual(["c0"]);
  });

  it("remembers a pruned order id for retiredKeepMs past the prune horizon, then forgets it", () => {
    const tr = new OrderTracker(W, { retiredKeepMs: 10_000 });
    tr.apply(event(0, 0, 1_000));
    tr.apply(event(1, 0, 1_010));
    tr.apply(event(4, 0, 1_015));
    expect(tr.apply(event(6, 0, 1_020))).toMatchObject({ to: "cancelled" });
    expect(tr.prune(2_000)).toBe(1);
    const lateFill: TrackerEvent = {
      kind: "frame",
      frame: { type: "user_fill", channel: "user_orders", serverTs: 3_000, walletAddress: W, orderId: oid(0), clientOrderId: cid(0), marketId: "MKT", tradeId: "t1", tokenId: "1", outcome: 0, side: "BUY", price: "0.5", quantity: "1", fee: "0", role: "maker", orderStatus: "CANCELLED", filledQty: "1", remainingQty: "0" },
    };
    expect(tr.apply(lateFill).outcome).toBe("late");
    tr.prune(11_999); // retired under the 2 s horizon: kept until a prune past 12 s
    expect(tr.apply(lateFill).outcome).toBe("late");
    tr.prune(12_001);
    expect(tr.apply(lateFill).outcome).toBe("buffered");
  });

  it("keeps the id of an order pruned long after its last event for the whole retiredKeepMs", () => {
    const tr = new OrderTracker(W, { retiredKeepMs: 10_000 });
    tr.apply(event(0, 0, 1_000));
    tr.apply(event(1, 0, 1_010));
    tr.apply(event(4, 0, 1_015));
    tr.apply(event(6, 0, 1_020));
    // First pruned at 100 s (it could have been held by a read): its last event is 99 s older.
    expect(tr.prune(100_000)).toBe(1);
    const frame: TrackerEvent = { kind: "frame", frame: { type: "order_cancelled", channel: "user_orders", serverTs: 100_500, walletAddress: W, orderId: oid(0), clientOrderId: cid(0), marketId: "MKT", originalQuantity: "10", remainingQty: "10", status: "CANCELLED" } };
    expect(tr.apply(frame).outcome).toBe("late");
  });

  it("keeps the retired ids it must: an id stamped inside the window survives a later prune", () => {
    const tr = new OrderTracker(W, { retiredKeepMs: 10_000 });
    tr.apply(event(0, 0, 1_000));
    tr.apply(event(1, 0, 5_000));
    tr.apply(event(4, 0, 5_000));
    tr.apply(event(6, 0, 5_000));
    expect(tr.prune(6_000)).toBe(1);
    tr.prune(14_000); // forget before 4 s: the id was stamped at 5 s
    const frame: TrackerEvent = { kind: "frame", frame: { type: "order_cancelled", channel: "user_orders", serverTs: 15_000, walletAddress: W, orderId: oid(0), clientOrderId: cid(0), marketId: "MKT", originalQuantity: "10", remainingQty: "10", status: "CANCELLED" } };
    expect(tr.apply(frame).outcome).toBe("late");
  });
});
