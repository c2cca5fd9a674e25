/**
 * The fast engine's series probe (series-fast.ts) over hand-made market states: each outcome's
 * mid from its own recorded book, a binary outcome without one at 1 - the other's mid, none for a
 * one-sided or crossed book; markets sorted (and re-read when one appears); labels from the market
 * row when complete; PnL per market at those mids, summed; positions from the inventory; the
 * tracker's live orders; tradable only while OPEN or PRE_MARKET.
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros as m } from "../../src/core/money.js";
import { Levels } from "../../src/data/levels.js";
import { Inventory } from "../../src/bot/fills/inventory.js";
import type { OrderTracker } from "../../src/bot/orders/order-tracker.js";
import { fastSeries, fastSeriesProbe, type FastMarketView, type FastSeriesParts } from "../../src/backtest/series-fast.js";

const W = "0x00000000000000000000000000000000000000aa";

const book = (bid: string | null, ask: string | null) => ({ bids: bid === null ? Levels.EMPTY : Levels.of([[m(bid), ONE]]), asks: ask === null ? Levels.EMPTY : Levels.of([[m(ask), ONE]]) });

function market(status: string, outcomeCount: number, books: [number, ReturnType<typeof book>][], labels?: string[]): FastMarketView {
  return { row: { status, outcomeLabels: labels }, outcomeCount, books: new Map(books) };
}

function parts(): FastSeriesParts & { markets: Map<string, FastMarketView> } {
  const inventory = new Inventory();
  // 10 YES of BIN at 0.4, 4 of outcome 2 of TRI at 0.2.
  inventory.applyFill({ tradeId: "t1", wallet: W, orderId: "o1", marketId: "BIN", outcome: 0, side: "BUY", price: m("0.4"), qty: 10n * ONE, fee: m("0.01"), ts: 1 });
  inventory.applyFill({ tradeId: "t2", wallet: W, orderId: "o2", marketId: "TRI", outcome: 2, side: "BUY", price: m("0.2"), qty: 4n * ONE, fee: 0n, ts: 2 });
  const tracker = { liveOrders: (id: string) => (id === "BIN" ? [{ outcome: 0, side: "BUY", price: m("0.41") }] : []) } as unknown as OrderTracker;
  const markets = new Map<string, FastMarketView>([
    ["TRI", market("PRE_MARKET", 3, [[0, book("0.3", "0.31")], [1, book("0.5", null)], [2, book("0.25", "0.25")]], ["a", "b"])],
    ["BIN", market("OPEN", 2, [[1, book("0.5", "0.56")]], ["Yes", "No"])],
    ["OLD", market("CLOSED", 2, [[0, book("0.1", "0.2")]])],
  ]);
  return { wallet: W, inventory, tracker, markets };
}

describe("the fast engine's series probe", () => {
  it("marks each outcome at its own book's mid, a binary one without a book at 1 - the other's", () => {
    const p = fastSeriesProbe(parts());
    // BIN has only a NO book: 0.53, so YES is 0.47.
    expect(p.mid("BIN", 1)).toBe(m("0.53"));
    expect(p.mid("BIN", 0)).toBe(m("0.47"));
    // (0.3 + 0.31) / 2 = 0.305
    expect(p.mid("TRI", 0)).toBe(m("0.305"));
    // one-sided, locked: no mid; a three-outcome market has no complement to fall back on
    expect(p.mid("TRI", 1)).toBeUndefined();
    expect(p.mid("TRI", 2)).toBeUndefined();
    expect(p.mid("OLD", 1)).toBe(m("0.85"));
    expect(p.mid("NOPE", 0)).toBeUndefined();
  });

  it("lists the markets sorted, re-reading them when one appears", () => {
    const x = parts();
    const p = fastSeriesProbe(x);
    expect(p.markets()).toEqual(["BIN", "OLD", "TRI"]);
    x.markets.set("AAA", market("OPEN", 2, []));
    expect(p.markets()).toEqual(["AAA", "BIN", "OLD", "TRI"]);
  });

  it("labels outcomes from the row when it names them all, else by number", () => {
    const p = fastSeriesProbe(parts());
    expect(p.labels("BIN")).toEqual(["Yes", "No"]);
    expect(p.labels("TRI")).toEqual(["outcome 0", "outcome 1", "outcome 2"]);
    expect(p.labels("OLD")).toEqual(["outcome 0", "outcome 1"]);
    expect(p.labels("NOPE")).toEqual([]);
  });

  it("sums the PnL per market at the mids, and reads positions, quotes and status", () => {
    const p = fastSeriesProbe(parts());
    // BIN: 10 x 0.47 - 4 = 0.7 unrealised, fee 0.01; TRI outcome 2 has no mid: left out.
    expect(p.pnl()).toEqual({ realised: 0n, unrealised: m("0.7"), fees: m("0.01"), net: m("0.69") });
    expect(p.position("BIN", 0)).toBe(10n * ONE);
    expect(p.position("BIN", 1)).toBe(0n);
    expect(p.position("TRI", 2)).toBe(4n * ONE);
    expect([...p.quotes("BIN")]).toEqual([{ outcome: 0, side: "BUY", price: m("0.41") }]);
    expect([...p.quotes("TRI")]).toEqual([]);
    expect([p.tradable("BIN"), p.tradable("TRI"), p.tradable("OLD"), p.tradable("NOPE")]).toEqual([true, true, false, false]);
  });

  it("feeds a series recorder", () => {
    const r = fastSeries(parts(), { stepMs: 1_000 });
    r.advance(10_000);
    const out = r.finish(12_000);
    expect(out.markets).toEqual([
      { marketId: "BIN", labels: ["Yes", "No"] },
      { marketId: "OLD", labels: ["outcome 0", "outcome 1"] },
      { marketId: "TRI", labels: ["outcome 0", "outcome 1", "outcome 2"] },
    ]);
    expect(out.samples.t).toEqual([10_000, 11_000, 12_000]);
    expect(out.samples.netPnl).toEqual(["0.69", "0.69", "0.69"]);
    expect(out.samples.quoting).toEqual([
      { marketId: "BIN", values: [1, 1, 1] },
      { marketId: "OLD", values: [null, null, null] },
      { marketId: "TRI", values: [0, 0, 0] },
    ]);
  });
});
