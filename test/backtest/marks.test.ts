/**
 * Marks on hand-made inputs: they fall back per outcome and say when a price is from; settled
 * positions are valued at exactly what the platform pays.
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros, type Micros } from "../../src/core/money.js";
import { Inventory, type InventoryFill } from "../../src/bot/fills/inventory.js";
import type { Simulator } from "../../src/sim/simulator.js";
import { marketMark, marketPnl } from "../../src/backtest/index.js";
import { formatMark } from "../../src/backtest/marks.js";

const W = "0x00000000000000000000000000000000000000aa";

function fill(over: Partial<InventoryFill>): InventoryFill {
  return { tradeId: "t1", wallet: W, orderId: "o1", marketId: "M", outcome: 0, side: "BUY", price: parseMicros("0.4"), qty: 10n * ONE, fee: 0n, ts: 1_000, ...over };
}

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
