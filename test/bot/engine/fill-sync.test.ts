import type { TrackerOptions } from "../../../src/bot/orders/order-tracker.js";
import { describe, expect, it } from "vitest";
import { pullTrades, syncWallet } from "../../../src/bot/engine/fill-sync.js";
import type { OrderRecord } from "../../../src/wire/index.js";
import { T0, WALLET, clientHarness, json, orderRecord, syncContext, type ClientHarness } from "./fakes.js";

function context(h: ClientHarness, foreign: OrderRecord[] = [], trackerOpts: TrackerOptions = {}) {
  return syncContext(h, (rec) => foreign.push(rec), trackerOpts);
}

function myTrade(id: string, orderId: string, at: number, qty = "2") {
  return {
    id,
    marketId: "MKT",
    tokenId: "11",
    outcome: 0,
    side: "BUY",
    price: "0.5",
    quantity: qty,
    fee: "0",
    feeRateBps: 100,
    makerOrderId: orderId,
    takerOrderId: "ox",
    makerWallet: WALLET,
    takerWallet: "0x3333333333333333333333333333333333333333",
    createdAt: new Date(at).toISOString(),
    role: "maker",
    orderId,
  };
}

describe("open-order reconciliation and adoption", () => {
  it("adopts this instance's orders from earlier sessions, hands foreign ones to the policy, reads missing ones", async () => {
    const h = clientHarness();
    const foreign: OrderRecord[] = [];
    const { ctx, tracker } = context(h, foreign);
    // A resting order we placed this session that the walk no longer lists (it filled meanwhile).
    tracker.apply({ kind: "sent", clientOrderId: "t1-0-now-1", orderHash: `0x${"01".repeat(32)}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: T0 - 5_000 });
    tracker.apply({ kind: "ack", clientOrderId: "t1-0-now-1", result: { orderId: "o-mine", status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] } });
    const oldSession = orderRecord({ clientOrderId: "t1-0-old-7", id: "o-old" });
    const otherBot = orderRecord({ clientOrderId: "t2-0-old-1", id: "o-other" });
    const anonymous = orderRecord({ clientOrderId: null, id: "o-anon" });
    h.transport.on("GET", /^\/api\/orders\/open/, json(200, { walletAddress: WALLET, orders: [oldSession, otherBot, anonymous], nextCursor: null }));
    h.transport.on("GET", /^\/api\/orders\/o-mine$/, json(200, orderRecord({ id: "o-mine", clientOrderId: "t1-0-now-1", orderHash: `0x${"01".repeat(32)}`, status: "FILLED", filledQty: "10", remainingQty: "0" })));
    h.transport.on("GET", /^\/api\/me\/trades/, json(200, { trades: [], nextCursor: null }));
    h.transport.on("GET", /^\/api\/orders\/o-mine\/fills$/, json(200, { orderId: "o-mine", fills: [] }));

    const r = await syncWallet(ctx, { unknownGraceMs: 0, unknownSince: new Map() });
    expect(r).toMatchObject({ open: 3, adopted: 1, foreign: 2, missing: 1 });
    expect(tracker.get("t1-0-old-7")).toMatchObject({ state: "open", orderId: "o-old" });
    expect(foreign.map((f) => f.id)).toEqual(["o-other", "o-anon"]);
    // The missing order was read by id: its final status and total are now known.
    expect(tracker.get("t1-0-now-1")).toMatchObject({ state: "filled", filledQty: 10_000_000n });
    // Adopted orders are live to the reconciler (it keeps or cancels them like its own).
    expect(tracker.liveOrders("MKT").map((o) => o.clientOrderId)).toEqual(["t1-0-old-7"]);
  });

  it("walks every page of open orders until nextCursor is null", async () => {
    const h = clientHarness();
    const { ctx, tracker } = context(h);
    const pages: Record<string, unknown> = {
      "": { walletAddress: WALLET, orders: [orderRecord({ clientOrderId: "t1-0-a-1" })], nextCursor: "c1" },
      c1: { walletAddress: WALLET, orders: [orderRecord({ clientOrderId: "t1-0-a-2" })], nextCursor: "c2" },
      c2: { walletAddress: WALLET, orders: [orderRecord({ clientOrderId: "t1-0-a-3" })], nextCursor: null },
    };
    h.transport.on("GET", /^\/api\/orders\/open/, (req) => json(200, pages[new URL(req.path, "http://x").searchParams.get("cursor") ?? ""]));
    h.transport.on("GET", /^\/api\/me\/trades/, json(200, { trades: [], nextCursor: null }));
    const r = await syncWallet(ctx, { unknownGraceMs: 0, unknownSince: new Map() });
    expect(r.adopted).toBe(3);
    expect(tracker.all().map((o) => o.clientOrderId).sort()).toEqual(["t1-0-a-1", "t1-0-a-2", "t1-0-a-3"]);
  });

  it("looks up unknown placements only after the grace period", async () => {
    const h = clientHarness();
    const { ctx, tracker } = context(h);
    tracker.apply({ kind: "sent", clientOrderId: "t1-0-s-1", orderHash: `0x${"02".repeat(32)}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: T0 });
    tracker.apply({ kind: "ack_unknown", clientOrderId: "t1-0-s-1" });
    h.transport.on("GET", /^\/api\/orders\/open/, json(200, { walletAddress: WALLET, orders: [], nextCursor: null }));
    h.transport.on("GET", /^\/api\/me\/trades/, json(200, { trades: [], nextCursor: null }));
    h.transport.on("GET", /^\/api\/orders\/lookup/, json(404, { status: 404, error: { code: "order_not_found", message: "none" } }));
    const since = new Map([["t1-0-s-1", T0]]);
    await syncWallet(ctx, { unknownGraceMs: 2_000, unknownSince: since });
    expect(h.transport.count("GET", /lookup/)).toBe(0);
    await h.clock.advance(2_000);
    await syncWallet(ctx, { unknownGraceMs: 2_000, unknownSince: since });
    expect(h.transport.count("GET", /lookup/)).toBe(1);
    // A 404 two seconds after the send proves nothing (the platform may still record it).
    expect(tracker.get("t1-0-s-1")).toMatchObject({ state: "unknown", nextReadAtMs: T0 + 4_000 });
    expect(tracker.counters.notFoundTooSoon).toBe(1);
    expect(tracker.nextReadDueMs()).toBe(T0 + 4_000);
    await h.clock.advance(1_000);
    await syncWallet(ctx, { unknownGraceMs: 2_000, unknownSince: since });
    expect(h.transport.count("GET", /lookup/)).toBe(1); // not before the tracker's retry time
  });

  it("concludes never recorded only from a lookup sent 10 s after the send", async () => {
    const h = clientHarness();
    // A 10 s window set directly (the daemon derives it from platform.requestTimeoutMs).
    const { ctx, tracker } = context(h, [], { notRecordedAfterMs: 10_000 });
    tracker.apply({ kind: "sent", clientOrderId: "t1-0-s-2", orderHash: `0x${"03".repeat(32)}`, intent: { marketId: "MKT", outcome: 0, side: "BUY", price: 500_000n, size: 10_000_000n, postOnly: true }, nowMs: T0 });
    tracker.apply({ kind: "ack_unknown", clientOrderId: "t1-0-s-2" });
    h.transport.on("GET", /^\/api\/orders\/open/, json(200, { walletAddress: WALLET, orders: [], nextCursor: null }));
    h.transport.on("GET", /^\/api\/me\/trades/, json(200, { trades: [], nextCursor: null }));
    h.transport.on("GET", /^\/api\/orders\/lookup/, json(404, { status: 404, error: { code: "order_not_found", message: "none" } }));
    const since = new Map([["t1-0-s-2", T0]]);
    const states: string[] = [];
    for (let i = 0; i < 12; i++) {
      await h.clock.advance(1_000);
      await syncWallet(ctx, { unknownGraceMs: 1_000, unknownSince: since });
      states.push(`${h.clock.now() - T0}:${tracker.get("t1-0-s-2")!.state}`);
    }
    // Looked up at +1, +3, +5, +7, +9 (404 too soon each time), then +10: conclusive.
    expect(h.transport.count("GET", /lookup/)).toBe(6);
    expect(states.filter((s) => s.endsWith(":unknown")).map((s) => Number(s.split(":")[0]))).toEqual([1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000]);
    expect(tracker.get("t1-0-s-2")).toMatchObject({ state: "rejected", rejectCode: "not_recorded" });
    expect(tracker.counters.notFoundTooSoon).toBe(5);
  });
});

describe("trade pull", () => {
  it("pulls down to the session start first, then only down to the last trade pulled", async () => {
    const h = clientHarness();
    const { ctx, ledger } = context(h);
    let rows = [myTrade("t3", "o1", T0 - 1_000), myTrade("t2", "o1", T0 - 5_000), myTrade("t1", "o1", T0 - 60_000)];
    h.transport.on("GET", /^\/api\/me\/trades/, () => json(200, { trades: rows, nextCursor: null }));
    expect(await pullTrades(ctx)).toBe(2); // t1 is older than the session start (T0 - 10 s)
    expect(ledger.fills(WALLET).map((f) => f.tradeId)).toEqual(["t2", "t3"]);
    rows = [myTrade("t5", "o1", T0 + 2_000), myTrade("t4", "o1", T0 + 1_000), ...rows];
    expect(await pullTrades(ctx)).toBe(2);
    expect(ledger.fills(WALLET).map((f) => f.tradeId)).toEqual(["t2", "t3", "t4", "t5"]);
    // Idempotent: pulling again adds nothing.
    expect(await pullTrades(ctx)).toBe(0);
  });
});
