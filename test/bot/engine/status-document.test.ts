/**
 * The GET /status document (src/bot/engine/status-document.ts) from hand-built parts: orders that
 * are not terminal, sorted; non-zero positions; PnL at the books' mids; the markets selected or
 * holding one of our orders, with their phase; totals; halts with free text scrubbed.
 */
import { describe, expect, it } from "vitest";
import type { DaemonStatus } from "../../../src/bot/engine/status.js";
import { statusDocument, type StatusDocumentParts } from "../../../src/bot/engine/status-document.js";
import type { LeaseView } from "../../../src/bot/guards/wallet-lease.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import type { MarketDataSource } from "../../../src/bot/market/market-data.js";
import type { MarketRegistry } from "../../../src/bot/market/market-registry.js";
import type { OrderState } from "../../../src/bot/orders/order-states.js";
import { newRecord } from "../../../src/bot/orders/order-tracker-index.js";
import { view } from "../../../src/bot/orders/order-tracker-queries.js";
import type { TrackedOrder } from "../../../src/bot/orders/order-tracker-types.js";
import { parseMicros as m } from "../../../src/core/money.js";
import { API_KEY, T0, marketRow } from "./fakes.js";

const ALPHA = "0xaaaa000000000000000000000000000000000001";
const BETA = "0xbbbb000000000000000000000000000000000002";

function order(id: string, marketId: string, side: "BUY" | "SELL", price: string, state: OrderState, over: Partial<TrackedOrder> = {}): TrackedOrder {
  const r = newRecord({ kind: "sent", clientOrderId: id, orderHash: `0x${id}`, intent: { marketId, outcome: 0, side, price: m(price), size: m("10"), postOnly: true }, nowMs: T0 - 1_000 });
  return { ...view(r), state, ...over };
}

const ROWS = {
  // selected, owned by alpha: quoted
  A: { row: marketRow({ symbol: "A" }), selected: true, wallet: 0 },
  // not selected, but alpha still has an order there
  B: { row: marketRow({ symbol: "B", status: "PAUSED" }), selected: false, wallet: undefined },
  // not selected, nothing of ours: left out
  C: { row: marketRow({ symbol: "C" }), selected: false, wallet: undefined },
  // selected, no wallet assigned; closes in 30 s: pull phase
  D: { row: marketRow({ symbol: "D", tradingWindow: { preMarketStartsAt: null, opensAt: new Date(T0 - 3_600_000).toISOString(), closesAt: new Date(T0 + 30_000).toISOString() } }), selected: true, wallet: undefined },
};
const registry = {
  get: (s: string) => ROWS[s as keyof typeof ROWS],
  all: () => [ROWS.D, ROWS.C, ROWS.B, ROWS.A],
} as unknown as MarketRegistry;
// A's YES book: bid 0.48, ask 0.52 (mid 0.50); no other book read
const data = {
  book: (s: string, outcome: number) => (s === "A" && outcome === 0 ? { view: { bids: [{ price: m("0.48"), size: m("1") }], asks: [{ price: m("0.52"), size: m("1") }], updatedAtMs: T0 } } : undefined),
} as unknown as MarketDataSource;

function parts(over: Partial<StatusDocumentParts> = {}): StatusDocumentParts {
  const inventory = new Inventory();
  const fill = (tradeId: string, marketId: string, side: "BUY" | "SELL", price: string, qty: string, fee = "0") =>
    inventory.applyFill({ tradeId, orderId: `o-${tradeId}`, wallet: ALPHA, marketId, outcome: 0, side, price: m(price), qty: m(qty), fee: m(fee), ts: T0 - 500 });
  fill("t1", "A", "BUY", "0.40", "10", "0.01");
  // a round trip on C: a zero position, not shown
  fill("t2", "C", "BUY", "0.30", "5");
  fill("t3", "C", "SELL", "0.35", "5");
  const alphaOrders = [
    order("a1", "B", "BUY", "0.40", "open"),
    order("a2", "A", "SELL", "0.60", "partial", { orderId: "ord-2", filledQty: m("2") }),
    order("a3", "A", "BUY", "0.45", "cancel_pending"),
    order("a4", "A", "BUY", "0.47", "open"),
    order("a5", "A", "BUY", "0.49", "filled"),
    order("a6", "C", "BUY", "0.10", "cancelled"),
  ];
  const status: DaemonStatus = {
    at: T0,
    running: true,
    markets: { selected: 2, quoted: 1 },
    wallets: [{ name: "alpha", wallet: ALPHA, state: "ready", vault: undefined, liveOrders: 4, unknownOrders: 1, streamSubscribed: true, markets: ["A"] }],
    openOrders: 4,
    unknownOrders: 1,
    fills: 3,
    positions: 1,
    sharesHeld: m("10"),
    pnl: { realised: m("0.25"), unrealised: m("1"), fees: m("0.01"), net: m("1.24") },
    halts: [],
  };
  return {
    config: { instance: { id: "inst-1" }, quoting: { pullBeforeCloseSec: 60 } } as StatusDocumentParts["config"],
    nowMs: T0,
    ready: true,
    status,
    runners: [
      { name: "alpha", wallet: ALPHA, tracker: { all: () => alphaOrders } },
      { name: "beta", wallet: BETA, tracker: { all: () => [] } },
    ],
    registry,
    data,
    inventory,
    halts: [{ scope: { kind: "market", market: "A" }, reason: "stale_market_data", sinceMs: T0 - 2_000, detail: "book 31 s old" }],
    hookHalts: [`vendor check failed for ${API_KEY}`],
    ...over,
  };
}

describe("statusDocument", () => {
  const doc = statusDocument(parts());

  it("stamps version, time, instance and the running / ready flags", () => {
    expect(doc).toMatchObject({ version: 1, at: new Date(T0).toISOString(), instance: "inst-1", running: true, ready: true });
    expect(statusDocument(parts({ ready: false })).ready).toBe(false);
  });

  it("a wallet's orders: terminal ones left out, by market, outcome, side, then price high to low, money as decimals", () => {
    const alpha = doc.wallets[0]!;
    expect(alpha.orders.map((o) => [o.clientOrderId, o.market, o.side, o.price])).toEqual([
      ["a4", "A", "BUY", "0.47"],
      ["a3", "A", "BUY", "0.45"],
      ["a2", "A", "SELL", "0.6"],
      ["a1", "B", "BUY", "0.4"],
    ]);
    expect(alpha.orders[2]).toEqual({ orderId: "ord-2", clientOrderId: "a2", market: "A", outcome: 0, side: "SELL", price: "0.6", size: "10", filled: "2", state: "partial", createdAt: new Date(T0 - 1_000).toISOString() });
    expect(alpha.orders[0]!.orderId).toBeNull();
    expect(alpha.openOrders).toBe(4);
  });

  it("a wallet's state, stream and markets from the one-line status; a wallet missing there is unknown", () => {
    expect(doc.wallets.map((w) => [w.name, w.address, w.state, w.streamSubscribed, w.markets, w.unknownOrders])).toEqual([
      ["alpha", ALPHA, "ready", true, ["A"], 1],
      ["beta", BETA, "unknown", false, [], 0],
    ]);
  });

  it("positions: non-zero only; PnL at the books' mids", () => {
    const alpha = doc.wallets[0]!;
    expect(alpha.positions).toEqual([{ market: "A", outcome: 0, qty: "10", avgCost: "0.4", realised: "0", fees: "0.01" }]);
    // 10 YES bought at 0.40, marked at the 0.50 mid: +1 unrealised; C's round trip realised +0.25
    expect(alpha.pnl).toEqual({ realised: "0.25", unrealised: "1", fees: "0.01", net: "1.24" });
    expect(doc.wallets[1]!.positions).toEqual([]);
    expect(doc.wallets[1]!.pnl).toEqual({ realised: "0", unrealised: "0", fees: "0", net: "0" });
  });

  it("markets: selected or holding one of our live orders, by symbol, with phase, owner and live order count", () => {
    expect(doc.markets).toEqual([
      { symbol: "A", status: "OPEN", phase: "open", wallets: ["alpha"], openOrders: 3 },
      { symbol: "B", status: "PAUSED", phase: "pull", wallets: [], openOrders: 1 },
      { symbol: "D", status: "OPEN", phase: "pull", wallets: [], openOrders: 0 },
    ]);
  });

  it("totals: open orders counted from the wallets, the rest from the one-line status", () => {
    expect(doc.totals).toEqual({ openOrders: 4, unknownOrders: 1, fills: 3, positions: 1, sharesHeld: "10", pnl: { realised: "0.25", unrealised: "1", fees: "0.01", net: "1.24" } });
  });

  it("halts: the facade's, then the hook's as text with secrets scrubbed", () => {
    expect(doc.halts).toHaveLength(2);
    expect(doc.halts[0]).toEqual({ scope: "market", target: "A", reason: "stale_market_data", detail: "book 31 s old", since: new Date(T0 - 2_000).toISOString() });
    expect(doc.halts[1]).toMatchObject({ scope: "hook", target: "", reason: "risk_hook", since: null });
    expect(doc.halts[1]!.detail).toMatch(/^vendor check failed for /);
    expect(doc.halts[1]!.detail).not.toContain(API_KEY);
    expect(JSON.stringify(doc)).not.toContain(API_KEY);
  });

  it("shard.lease: each wallet's lease (state, holder, last successful write and its age, losses, error scrubbed); none without leases", () => {
    expect(doc.wallets.every((w) => w.lease === undefined)).toBe(true);
    const views: Record<string, LeaseView> = {
      [ALPHA]: { wallet: ALPHA, name: `mm-${ALPHA}`, state: "held", holder: "mm-s0", renewedAtMs: T0 - 2_500, sinceMs: T0 - 60_000, losses: 0, error: undefined },
      [BETA]: { wallet: BETA, name: `mm-${BETA}`, state: "lost", holder: "mm-s1", renewedAtMs: T0 - 20_000, sinceMs: T0 - 7_000, losses: 2, error: `GET lease: HTTP 503 (${API_KEY})` },
    };
    const withLeases = statusDocument(parts({ lease: (w) => views[w] }));
    expect(withLeases.wallets[0]!.lease).toEqual({ name: `mm-${ALPHA}`, state: "held", holder: "mm-s0", renewedAt: new Date(T0 - 2_500).toISOString(), renewAgeSec: 2.5, since: new Date(T0 - 60_000).toISOString(), losses: 0, error: null });
    expect(withLeases.wallets[1]!.lease).toMatchObject({ state: "lost", holder: "mm-s1", renewAgeSec: 20, losses: 2 });
    expect(withLeases.wallets[1]!.lease!.error).toMatch(/^GET lease: HTTP 503 /);
    expect(JSON.stringify(withLeases)).not.toContain(API_KEY);
    const never = statusDocument(parts({ lease: (w) => (w === BETA ? { ...views[BETA]!, state: "waiting", holder: undefined, renewedAtMs: undefined, losses: 0, error: undefined } : undefined) }));
    expect(never.wallets[0]!.lease).toBeUndefined();
    expect(never.wallets[1]!.lease).toMatchObject({ state: "waiting", holder: null, renewedAt: null, renewAgeSec: null });
  });
});
