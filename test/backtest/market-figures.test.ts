/**
 * The per-market report rows of the fast engine and paper trading (market-figures.ts), from
 * hand-made fill tallies: counts as given, shares and notionals as decimal strings (notionals from
 * micros squared, rounded down to the micro), PnL as given, rows in the order given, and totals
 * that are the exact sums of the rows.
 */
import { describe, expect, it } from "vitest";
import { emptyTotals, type FillTotals } from "../../src/bot/fills/fill-totals.js";
import { marketFigures, type MarketFigureInput } from "../../src/backtest/market-figures.js";

const sums = (over: Partial<FillTotals>): FillTotals => ({ ...emptyTotals(), ...over });

describe("market figures", () => {
  it("format each row and sum the totals exactly, rows in the order given", () => {
    const rows: MarketFigureInput[] = [
      {
        symbol: "Z-MKT",
        // bought 10 at 0.49, sold 4.000001 at 0.515 (2.060000515 -> 2.06)
        sums: sums({ fills: 3, maker: 2, taker: 1, bought: 10_000_000n, sold: 4_000_001n, buyNotional2: 10_000_000n * 490_000n, sellNotional2: 4_000_001n * 515_000n, fees: 12_345n }),
        pnl: { realised: 100_000n, unrealised: -50_000n, net: 37_655n },
        positions: { "0": "5.999999" },
      },
      { symbol: "A-MKT", sums: emptyTotals(), pnl: { realised: 0n, unrealised: 0n, net: 0n }, positions: {} },
      {
        symbol: "M-MKT",
        // one micro-share sold at 0.999999: a notional under a micro, 0
        sums: sums({ fills: 1, taker: 1, sold: 1n, sellNotional2: 999_999n }),
        pnl: { realised: -1n, unrealised: 0n, net: -1n },
        positions: { "1": "-0.000001" },
      },
    ];
    const { markets, totals } = marketFigures(rows);
    expect(markets).toEqual([
      {
        symbol: "Z-MKT",
        fills: 3,
        makerFills: 2,
        takerFills: 1,
        volume: "14.000001",
        boughtShares: "10",
        soldShares: "4.000001",
        buyNotional: "4.9",
        sellNotional: "2.06",
        fees: "0.012345",
        realised: "0.1",
        unrealised: "-0.05",
        net: "0.037655",
        positions: { "0": "5.999999" },
      },
      { symbol: "A-MKT", fills: 0, makerFills: 0, takerFills: 0, volume: "0", boughtShares: "0", soldShares: "0", buyNotional: "0", sellNotional: "0", fees: "0", realised: "0", unrealised: "0", net: "0", positions: {} },
      {
        symbol: "M-MKT",
        fills: 1,
        makerFills: 0,
        takerFills: 1,
        volume: "0.000001",
        boughtShares: "0",
        soldShares: "0.000001",
        buyNotional: "0",
        sellNotional: "0",
        fees: "0",
        realised: "-0.000001",
        unrealised: "0",
        net: "-0.000001",
        positions: { "1": "-0.000001" },
      },
    ]);
    expect(totals).toEqual({ fills: 4, volume: "14.000002", fees: "0.012345", realised: "0.099999", unrealised: "-0.05", net: "0.037654" });
  });

  it("give zero totals and no rows for no markets", () => {
    expect(marketFigures([])).toEqual({ markets: [], totals: { fills: 0, volume: "0", fees: "0", realised: "0", unrealised: "0", net: "0" } });
  });
});
