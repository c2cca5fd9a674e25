/**
 * The report's checks and marks on hand-made inputs: the exact inventory check catches a fill the
 * inventory skipped (at its start-up anchor) and a position that differs, where a tolerance would
 * not; marks fall back per outcome and say when a price is from; settled positions are valued at
 * exactly what the platform pays; halts are summed per reason; the summary rounds uptime down.
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros, type Micros } from "../../src/core/money.js";
import { Inventory, type InventoryFill } from "../../src/bot/fills/inventory.js";
import type { Simulator } from "../../src/sim/simulator.js";
import { haltSummary, inventoryCheck, marketMark, marketPnl, problemsAndWarnings, type BacktestReport } from "../../src/backtest/index.js";
import { formatMark } from "../../src/backtest/marks.js";

const W = "0x00000000000000000000000000000000000000aa";

function fill(over: Partial<InventoryFill>): InventoryFill {
  return { tradeId: "t1", wallet: W, orderId: "o1", marketId: "M", outcome: 0, side: "BUY", price: parseMicros("0.4"), qty: 10n * ONE, fee: 0n, ts: 1_000, ...over };
}

/** The simulator's books as inventoryCheck reads them. */
function simBooks(cash: Micros, positions: { marketId: string; outcome: number; quantity: Micros }[]): Simulator {
  return { engine: { balance: () => ({ total: cash }), positions: () => positions } } as unknown as Simulator;
}

describe("the exact inventory check", () => {
  it("passes when cash and positions equal the simulator's to the micro", () => {
    const inv = new Inventory();
    inv.applyFill(fill({}));
    const c = inventoryCheck(simBooks(1_000n * ONE - 4n * ONE, [{ marketId: "M", outcome: 0, quantity: 10n * ONE }]), inv, W, 1_000n * ONE);
    expect(c).toMatchObject({ ok: true, cashDifference: "0", inventoryCashDelta: "-4", platformCashDelta: "-4", positionsCompared: 1, positionDifferenceCount: 0 });
  });

  it("fails on a fill the inventory skipped at its anchor, even a tiny one", () => {
    const inv = new Inventory();
    inv.anchor(W, 1_000, [], 1_000n * ONE);
    // Stamped at the anchor: ignored by the inventory, but the platform booked it (0.004 of cash).
    expect(inv.applyFill(fill({ qty: 10_000n, ts: 1_000 }))).toBe(false);
    const c = inventoryCheck(simBooks(1_000n * ONE - 4_000n, [{ marketId: "M", outcome: 0, quantity: 10_000n }]), inv, W, 1_000n * ONE);
    expect(c.ok).toBe(false);
    expect(c.cashDifference).toBe("0.004");
    expect(c.positionDifferences).toEqual([{ marketId: "M", outcome: 0, inventory: "0", platform: "0.01" }]);
    const wallet = { name: "w", inventoryCheck: c, platformCheck: null, platformCheckSkipped: "test", totals: { pnl: { net: "0" } } } as unknown as BacktestReport["wallets"][number];
    const run = { startup: { wallets: [] }, shutdown: { wallets: [] } } as unknown as BacktestReport["run"];
    const v = problemsAndWarnings({ run, consistency: { ok: true } as BacktestReport["consistency"], wallets: [wallet], markets: [] });
    expect(v.problems).toEqual([
      "wallet w: the daemon's inventory moved 0 of cash, the simulator -0.004 (difference 0.004)",
      "wallet w: 1 position(s) differ from the simulator's, e.g. M outcome 0: inventory 0, simulator 0.01",
    ]);
    expect(v.warnings).toEqual(["wallet w: PnL cross-check skipped: test"]);
  });

  it("compares wallets that started with positions through the anchor", () => {
    const inv = new Inventory();
    inv.anchor(W, 500, [{ marketId: "M", outcome: 1, qty: 5n * ONE, avgPrice: parseMicros("0.3") }], 1_000n * ONE);
    inv.applyFill(fill({ ts: 1_000 }));
    const sim = simBooks(1_000n * ONE - 4n * ONE, [
      { marketId: "M", outcome: 0, quantity: 10n * ONE },
      { marketId: "M", outcome: 1, quantity: 5n * ONE },
    ]);
    expect(inventoryCheck(sim, inv, W, 1_000n * ONE)).toMatchObject({ ok: true, positionsCompared: 2 });
    const off = simBooks(1_000n * ONE - 4n * ONE, [{ marketId: "M", outcome: 0, quantity: 10n * ONE }]);
    expect(inventoryCheck(off, inv, W, 1_000n * ONE)).toMatchObject({ ok: false, positionDifferenceCount: 1 });
  });
});

/** A simulator with one market: `books[o]` per outcome book, `status` its lifecycle status. */
function simMarket(outcomeCount: number, books: { bid?: string; ask?: string; last?: string }[], status = "OPEN", closedAtMs: number | null = null): Simulator {
  const p = (s: string | undefined): Micros | null => (s === undefined ? null : parseMicros(s));
  return {
    settlements: new Map(),
    market: () => ({ id: "m-1" }),
    platform: { catalogue: { lifecycle: () => ({ status, closedAtMs, pausedAtMs: null, updatedAtMs: closedAtMs ?? 0 }) } },
    engine: {
      market: () => ({ outcomeCount }),
      book: (_m: string, o: number) => ({ bestBid: p(books[o]?.bid), bestAsk: p(books[o]?.ask), lastTradePrice: p(books[o]?.last) }),
    },
  } as unknown as Simulator;
}

describe("marks", () => {
  it("fall back per outcome: one unpriced outcome does not unmark the others", () => {
    const sim = simMarket(3, [{ bid: "0.4", ask: "0.5" }, { bid: "0.3", last: "0.28" }, {}]);
    const m = marketMark({ sim, reportAtMs: 10_000, lastTradeAt: new Map([["M|1", 4_000]]) }, "M");
    expect(m.sources).toEqual(["book_mid", "last_trade", "none"]);
    expect(m.prices).toEqual([parseMicros("0.45"), parseMicros("0.28"), undefined]);
    const f = formatMark(m, 10_000);
    expect(f).toMatchObject({ source: "mixed", prices: ["0.45", "0.28", null], asOf: new Date(4_000).toISOString(), ageMs: 6_000, stale: false });
  });

  it("date a closed market's book at its close and flag it stale", () => {
    const sim = simMarket(2, [{ bid: "0.4", ask: "0.44" }], "CLOSED", 1_000);
    const m = marketMark({ sim, reportAtMs: 3_600_000, lastTradeAt: new Map() }, "M");
    expect(m.prices).toEqual([parseMicros("0.42"), parseMicros("0.58")]);
    expect(formatMark(m, 3_600_000)).toMatchObject({ source: "book_mid", asOf: new Date(1_000).toISOString(), ageMs: 3_599_000, stale: true });
    const open = marketMark({ sim: simMarket(2, [{ bid: "0.4", ask: "0.44" }]), reportAtMs: 3_600_000, lastTradeAt: new Map() }, "M");
    expect(formatMark(open, 3_600_000)).toMatchObject({ ageMs: 0, stale: false });
  });

  it("value a settled position at exactly what the platform pays, not a rounded price per share", () => {
    const inv = new Inventory();
    inv.applyFill(fill({ qty: 10n * ONE, price: parseMicros("0.3") }));
    // Void of a three-outcome market: 10 shares pay floor(10 / 3) = 3.333333, not 10 x 0.333333.
    const pnl = marketPnl(inv, W, "M", { prices: [333_333n, 333_333n, 333_333n], settlement: { nums: [1n, 1n, 1n], den: 3n } });
    expect(pnl.unrealised).toBe(3_333_333n - 3n * ONE);
    expect(pnl.unmarked).toEqual([]);
    const perShare = marketPnl(inv, W, "M", { prices: [333_333n, 333_333n, 333_333n] });
    expect(perShare.unrealised).toBe(3_333_330n - 3n * ONE);
  });
});

describe("warnings", () => {
  it("name every held position left out of unrealised PnL", () => {
    const m = {
      marketId: "M",
      status: "OPEN",
      mark: { source: "mixed", prices: ["0.45", null, null], stale: false, ageMs: 0, asOf: null },
      figures: { pnl: { unmarked: 1 }, inventory: [{ outcome: 0, final: "3" }, { outcome: 2, final: "5" }] },
    } as unknown as BacktestReport["markets"][number];
    const run = { startup: { wallets: [] }, shutdown: { wallets: [{ name: "w", leftover: 0, unresolved: 0, unconfirmed: [], finalWalkOk: true, platformOpenOrders: 2 }] } } as unknown as BacktestReport["run"];
    const v = problemsAndWarnings({ run, consistency: { ok: true } as BacktestReport["consistency"], wallets: [], markets: [m] });
    expect(v.warnings).toEqual(["market M: 1 position(s) without a mark (outcome 2): unrealised PnL leaves them out"]);
    expect(v.problems).toEqual(["wallet w: the simulator still has 2 open order(s) of the wallet after shutdown"]);
  });
});

describe("halts", () => {
  it("are summed per reason, a halt never cleared lasting to the end of trading", () => {
    const h = (at: number, action: string, target: string, reason: string) => ({ at, action, scope: "market", target, reason });
    const s = haltSummary(
      [
        h(1_000, "raised", "A", "stale_market_data"),
        h(61_000, "cleared", "A", "stale_market_data"),
        h(2_000, "raised", "B", "stale_market_data"),
        h(5_000, "raised", "all", "reconciliation_drift"),
        h(500_000, "raised", "C", "daily_loss"),
      ],
      100_000,
    );
    expect(s).toEqual([
      { reason: "daily_loss", raised: 1, haltedMs: 0, openAtEnd: 0 },
      { reason: "reconciliation_drift", raised: 1, haltedMs: 95_000, openAtEnd: 1 },
      { reason: "stale_market_data", raised: 2, haltedMs: 60_000 + 98_000, openAtEnd: 1 },
    ]);
  });
});
