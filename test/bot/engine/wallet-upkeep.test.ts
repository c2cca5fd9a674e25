/**
 * The background work of one wallet (src/bot/engine/wallet-upkeep.ts) over a scripted transport and
 * a real order tracker: re-cancels past their Retry-After grouped by market, frames buffered for
 * unknown order ids claimed (ours adopted, foreign ones dropped and handled by the policy, failed
 * reads retried with a growing delay, unclaimed ones dropped after FORGET_MS), and the inventory
 * check (a difference confirmed after a sync, with the fills the platform's read could not see yet).
 * The inventory is a recording fake: its own comparison is inventory.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { CLAIM_RETRY_MS, FORGET_MS, WalletUpkeep, fillsAfter, type UpkeepContext } from "../../../src/bot/engine/wallet-upkeep.js";
import type { ForeignOrderPolicy } from "../../../src/bot/engine/shutdown.js";
import type { Fill } from "../../../src/bot/fills/fill-ledger.js";
import type { DriftReport, Inventory } from "../../../src/bot/fills/inventory.js";
import type { EngineEvent } from "../../../src/bot/observer.js";
import { parseMicros } from "../../../src/core/money.js";
import { orderPlacedFrame } from "../../../src/wire/frames.js";
import type { Position } from "../../../src/wire/index.js";
import { T0, WALLET, clientHarness, envelope, json, orderRecord, silentLogger, syncContext } from "./fakes.js";

const m = parseMicros;
const CLEAN: DriftReport = { clean: true, positions: [] };

function drifted(markets: string[]): DriftReport {
  return { clean: false, positions: markets.map((marketId) => ({ marketId, outcome: 0, ours: m("1"), theirs: 0n })), cash: undefined } as unknown as DriftReport;
}

function setup(opts: { foreign?: ForeignOrderPolicy; checks?: DriftReport[] } = {}) {
  const h = clientHarness();
  const { ctx: sync, tracker, ledger } = syncContext(h);
  const events: EngineEvent[] = [];
  const calls: string[] = [];
  const compared: Position[][] = [];
  const checks = [...(opts.checks ?? [])];
  const inventory = {
    checkAgainst: (_w: string, positions: readonly Position[]) => {
      compared.push([...positions]);
      return checks.shift() ?? CLEAN;
    },
  } as unknown as Inventory;
  const ctx: UpkeepContext = {
    wallet: WALLET,
    api: h.client.forWallet(WALLET),
    tracker,
    sync,
    inventory,
    observer: { onEvent: (e) => events.push(e) },
    log: silentLogger(),
    clock: h.clock,
    instanceId: "t1",
    foreignOrders: opts.foreign ?? "cancel",
    unknownGraceMs: 1_000,
    unknownSince: new Map(),
    symbolOf: (id) => id,
    cancel: (orders, symbol) => (calls.push(`cancel ${symbol}: ${orders.map((o) => o.clientOrderId).join(",")}`), Promise.resolve()),
    prune: (now) => calls.push(`prune@${now - T0}`),
    refreshMarkets: (symbols) => (calls.push(`refresh ${symbols.join(",")}`), Promise.resolve()),
  };
  return { ...h, ctx, tracker, ledger, events, calls, compared, upkeep: new WalletUpkeep(ctx) };
}

/** A frame for an order id the tracker does not know: it is buffered until claimed. */
function bufferFrame(s: ReturnType<typeof setup>, orderId: string, clientOrderId: string | null): void {
  const frame = orderPlacedFrame.parse({
    type: "order_placed",
    channel: "user_orders",
    serverTs: T0,
    walletAddress: WALLET,
    orderId,
    clientOrderId,
    marketId: "MKT",
    tokenId: "11",
    outcome: 0,
    side: "BUY",
    price: "0.5",
    originalQuantity: "10",
    remainingQty: "10",
    status: "OPEN",
  });
  s.tracker.apply({ kind: "frame", frame });
}

function pendingCancel(s: ReturnType<typeof setup>, cid: string, market: string, retryMs: number): void {
  const rec = orderRecord({ clientOrderId: cid, marketId: market });
  s.tracker.adopt(rec, T0, T0);
  s.tracker.apply({ kind: "cancel_requested", clientOrderId: cid, orderId: rec.id, nowMs: T0 });
  s.tracker.apply({ kind: "cancel_result", clientOrderId: cid, orderId: rec.id, result: { kind: "pending", retryAfterMs: retryMs }, nowMs: T0 });
}

describe("maintain: re-cancels", () => {
  it("repeats the cancels past their Retry-After, one call per market; reports unknown orders and prunes", async () => {
    const s = setup();
    pendingCancel(s, "a1", "A", 1_000);
    pendingCancel(s, "a2", "A", 2_000);
    pendingCancel(s, "b1", "B", 1_000);
    pendingCancel(s, "c1", "C", 60_000);
    await s.clock.advance(2_000);
    await s.upkeep.maintain();
    expect(s.calls).toEqual(["cancel A: a1,a2", "cancel B: b1", "prune@2000"]);
    expect(s.events).toEqual([{ type: "unknown_orders", wallet: WALLET, count: 0 }]);
  });

  it("a second maintain while one runs does nothing", async () => {
    const s = setup();
    pendingCancel(s, "a1", "A", 0);
    let release!: () => void;
    s.ctx.cancel = (orders, symbol) => {
      s.calls.push(`cancel ${symbol}`);
      return new Promise<void>((r) => (release = r));
    };
    const first = s.upkeep.maintain();
    await Promise.resolve();
    await s.upkeep.maintain();
    release();
    await first;
    expect(s.calls).toEqual(["cancel A", "prune@0"]);
  });

  it("a failing step is logged, not thrown, and the next round runs", async () => {
    const s = setup();
    pendingCancel(s, "a1", "A", 0);
    s.ctx.cancel = () => Promise.reject(new Error("boom"));
    await expect(s.upkeep.maintain()).resolves.toBeUndefined();
    s.ctx.cancel = (o, symbol) => (s.calls.push(`cancel ${symbol}`), Promise.resolve());
    await s.upkeep.maintain();
    expect(s.calls).toEqual(["cancel A", "prune@0"]);
  });
});

describe("maintain: frames buffered for unknown order ids", () => {
  it("an order of this instance is read, adopted, and its frames replayed", async () => {
    const s = setup();
    bufferFrame(s, "o-mine", "t1-0-old-3");
    expect(s.tracker.bufferedOrderIds()).toEqual(["o-mine"]);
    s.transport.on("GET", /^\/api\/orders\/o-mine$/, json(200, orderRecord({ id: "o-mine", clientOrderId: "t1-0-old-3" })));
    await s.upkeep.maintain();
    expect(s.tracker.getByOrderId("o-mine")).toMatchObject({ clientOrderId: "t1-0-old-3", state: "open" });
    expect(s.tracker.bufferedOrderIds()).toEqual([]);
    // Claimed: no mark is kept past the next round.
    await s.upkeep.maintain();
    expect(s.upkeep.sizes()).toEqual({ claims: 0, foreignSeen: 0 });
  });

  it("a foreign open order: its frames are dropped and it is cancelled (policy cancel), once", async () => {
    const s = setup();
    bufferFrame(s, "o-other", "t2-0-x-1");
    s.transport.on("GET", /^\/api\/orders\/o-other$/, json(200, orderRecord({ id: "o-other", clientOrderId: "t2-0-x-1" })));
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: "o-other", status: "CANCELLED", filledQty: "0", remainingQty: "10" }));
    await s.upkeep.maintain();
    expect(s.tracker.bufferedOrderIds()).toEqual([]);
    expect(s.tracker.getByOrderId("o-other")).toBeUndefined();
    expect(s.transport.count("POST", /^\/api\/orders\/cancel$/)).toBe(1);
    expect(s.upkeep.sizes().foreignSeen).toBe(1);
    // A new frame for it within a few seconds is dropped without a read or another cancel.
    bufferFrame(s, "o-other", "t2-0-x-1");
    await s.clock.advance(1_000);
    await s.upkeep.maintain();
    expect(s.tracker.bufferedOrderIds()).toEqual([]);
    expect(s.transport.count("GET", /^\/api\/orders\/o-other$/)).toBe(1);
    expect(s.transport.count("POST", /^\/api\/orders\/cancel$/)).toBe(1);
  });

  it("policy leave: a foreign open order is left alone; a foreign order already ended is not cancelled either way", async () => {
    const s = setup({ foreign: "leave" });
    bufferFrame(s, "o-other", null);
    s.transport.on("GET", /^\/api\/orders\/o-other$/, json(200, orderRecord({ id: "o-other", clientOrderId: null })));
    await s.upkeep.maintain();
    expect(s.transport.count("POST", /^\/api\/orders\/cancel$/)).toBe(0);
    expect(s.tracker.bufferedOrderIds()).toEqual([]);

    const t = setup();
    bufferFrame(t, "o-done", null);
    t.transport.on("GET", /^\/api\/orders\/o-done$/, json(200, orderRecord({ id: "o-done", clientOrderId: null, status: "CANCELLED", remainingQty: "0" })));
    await t.upkeep.maintain();
    expect(t.transport.count("POST", /^\/api\/orders\/cancel$/)).toBe(0);
    expect(t.tracker.bufferedOrderIds()).toEqual([]);
  });

  it("a failed read is retried after 5 s, then 10 s, ...; frames unclaimed for FORGET_MS are dropped", async () => {
    const s = setup();
    bufferFrame(s, "o-x", "t1-0-old-9");
    s.transport.on("GET", /^\/api\/orders\/o-x$/, envelope(404, "order_not_found"));
    const reads = () => s.transport.count("GET", /^\/api\/orders\/o-x$/);
    await s.upkeep.maintain();
    expect(reads()).toBe(1);
    await s.clock.advance(CLAIM_RETRY_MS - 1);
    await s.upkeep.maintain();
    expect(reads()).toBe(1);
    await s.clock.advance(1);
    await s.upkeep.maintain();
    expect(reads()).toBe(2);
    // Second failure: the wait doubles.
    await s.clock.advance(2 * CLAIM_RETRY_MS - 1);
    await s.upkeep.maintain();
    expect(reads()).toBe(2);
    await s.clock.advance(1);
    await s.upkeep.maintain();
    expect(reads()).toBe(3);
    expect(s.upkeep.sizes().claims).toBe(1);
    // Past FORGET_MS since the first look: the frames go, unread.
    await s.clock.advanceTo(T0 + FORGET_MS);
    await s.upkeep.maintain();
    expect(s.tracker.bufferedOrderIds()).toEqual([]);
    expect(s.upkeep.sizes().claims).toBe(0);
  });
});

describe("onForeign", () => {
  it("remembers a foreign order for FORGET_MS after last seen, then forgets it", async () => {
    const s = setup({ foreign: "leave" });
    await s.upkeep.onForeign(orderRecord({ id: "o-f" }));
    expect(s.upkeep.sizes().foreignSeen).toBe(1);
    await s.clock.advance(FORGET_MS);
    await s.upkeep.maintain();
    expect(s.upkeep.sizes().foreignSeen).toBe(0);
  });

  it("cancels again when seen again after the repeat window", async () => {
    const s = setup();
    s.transport.on("POST", /^\/api\/orders\/cancel$/, json(200, { orderId: "o-f", status: "CANCELLED", filledQty: "0", remainingQty: "10" }));
    await s.upkeep.onForeign(orderRecord({ id: "o-f" }));
    await s.upkeep.onForeign(orderRecord({ id: "o-f" }));
    expect(s.transport.count("POST", /^\/api\/orders\/cancel$/)).toBe(1);
    await s.clock.advance(5_000);
    await s.upkeep.onForeign(orderRecord({ id: "o-f" }));
    expect(s.transport.count("POST", /^\/api\/orders\/cancel$/)).toBe(2);
  });
});

describe("reconcileInventory", () => {
  function portfolio(s: ReturnType<typeof setup>, serverTime = T0) {
    s.transport.on("GET", /^\/api\/me\/positions/, json(200, { walletAddress: WALLET, positions: [], nextCursor: null }, { "x-server-time": String(serverTime) }));
    s.transport.on("GET", /^\/api\/me\/balances$/, json(200, { walletAddress: WALLET, vaultAddress: WALLET, collateral: { total: "100", locked: "0", available: "100" } }));
  }

  it("clean at the first look: one reconciliation event with nothing drifted, no sync", async () => {
    const s = setup();
    portfolio(s);
    let synced = 0;
    await s.upkeep.reconcileInventory(() => Promise.resolve(synced++));
    expect(synced).toBe(0);
    expect(s.events).toEqual([{ type: "reconciliation", wallet: WALLET, positions: 0, cash: 0, at: T0 }]);
  });

  it("a difference: re-reads the drifted markets' rows, syncs, looks again, and counts only what survives", async () => {
    const s = setup({ checks: [drifted(["A", "B", "A"]), drifted(["B"])] });
    portfolio(s);
    const order: string[] = [];
    s.ctx.refreshMarkets = (symbols) => (order.push(`refresh ${symbols.join(",")}`), Promise.resolve());
    await s.upkeep.reconcileInventory(() => (order.push("sync"), Promise.resolve()));
    expect(order).toEqual(["refresh A,B", "sync"]);
    expect(s.events).toEqual([
      { type: "drift", wallet: WALLET, kind: "positions", count: 1 },
      { type: "reconciliation", wallet: WALLET, positions: 1, cash: 0, at: T0 },
    ]);
  });

  it("a difference a fill in flight explained: the confirmed look is clean", async () => {
    const s = setup({ checks: [drifted(["A"]), CLEAN] });
    portfolio(s);
    await s.upkeep.reconcileInventory(() => Promise.resolve());
    expect(s.events).toEqual([{ type: "reconciliation", wallet: WALLET, positions: 0, cash: 0, at: T0 }]);
  });

  it("the confirmed look adds to the platform's side the fills stamped after its read", async () => {
    const s = setup({ checks: [drifted(["MKT"]), CLEAN] });
    portfolio(s, T0 - 1_000);
    s.ledger.add({ tradeId: "late", wallet: WALLET, orderId: "o1", marketId: "MKT", outcome: 0, side: "BUY", price: m("0.5"), qty: m("3"), fee: 0n, role: "maker", ts: T0 - 500, source: "stream" });
    s.ledger.add({ tradeId: "early", wallet: WALLET, orderId: "o1", marketId: "MKT", outcome: 0, side: "BUY", price: m("0.5"), qty: m("2"), fee: 0n, role: "maker", ts: T0 - 2_000, source: "stream" });
    await s.upkeep.reconcileInventory(() => Promise.resolve());
    expect(s.compared[0]).toEqual([]);
    expect(s.compared[1]).toEqual([{ marketId: "MKT", tokenId: "", outcome: 0, quantity: "3", locked: "0", avgPrice: null }]);
  });

  it("a read that fails reports nothing", async () => {
    const s = setup();
    s.transport.on("GET", /^\/api\/me\/positions/, envelope(400, "invalid_request"));
    await s.upkeep.reconcileInventory(() => Promise.resolve());
    expect(s.events).toEqual([]);
    expect(s.compared).toEqual([]);
  });
});

describe("fillsAfter", () => {
  const fill = (id: string, ts: number, side: "BUY" | "SELL", qty: string, over: Partial<Fill> = {}): Fill => ({
    tradeId: id,
    wallet: WALLET,
    orderId: "o",
    marketId: "MKT",
    outcome: 0,
    side,
    price: m("0.5"),
    qty: m(qty),
    fee: 0n,
    role: "maker",
    ts,
    source: "stream",
    ...over,
  });

  it("nets the fills strictly after the time per market and outcome, drops the ones that cancel out", () => {
    const rows = fillsAfter(
      [
        fill("a", 100, "BUY", "5"),
        fill("b", 101, "BUY", "2"),
        fill("c", 102, "SELL", "0.5"),
        fill("d", 103, "BUY", "1", { outcome: 1 }),
        fill("e", 104, "SELL", "1", { outcome: 1 }),
        fill("f", 105, "SELL", "4", { marketId: "OTHER" }),
      ],
      100,
    );
    expect(rows).toEqual([
      { marketId: "MKT", tokenId: "", outcome: 0, quantity: "1.5", locked: "0", avgPrice: null },
      { marketId: "OTHER", tokenId: "", outcome: 0, quantity: "-4", locked: "0", avgPrice: null },
    ]);
    expect(fillsAfter([fill("a", 100, "BUY", "5")], 100)).toEqual([]);
  });
});
