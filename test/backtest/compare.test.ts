/** compareReports (src/backtest/compare.ts): exact differences per market and in total, markets in one report only. */
import { describe, expect, it } from "vitest";
import { compareReports, formatComparison } from "../../src/backtest/compare.js";
import type { FastMarketFigures, FastReport } from "../../src/backtest/fast/engine.js";
import type { BacktestReport, MarketFigures } from "../../src/backtest/types.js";

function fullMarket(id: string, over: { count: number; bought: string; buyNotional: string; net: string; final: string }): { marketId: string; figures: MarketFigures } {
  return {
    marketId: id,
    figures: {
      marketId: id,
      fills: { count: over.count, maker: over.count, taker: 0, unknownRole: 0, boughtShares: over.bought, soldShares: "0", buyNotional: over.buyNotional, sellNotional: "0", volume: over.buyNotional },
      orders: { placed: 0, cancelled: 0, cancelTooLate: 0, cancelledBySettlement: 0, rejected: {}, rejectedTotal: 0, unknown: 0 },
      pnl: { fees: "0", realised: "0", unrealised: over.net, net: over.net, unmarked: 0 },
      inventory: [{ outcome: 0, final: over.final, maxAbs: over.final, avgCost: null }],
      grossFinalShares: over.final,
      quoteUptime: null,
    },
  };
}

function fastMarket(symbol: string, over: { fills: number; bought: string; buyNotional: string; net: string; pos: string }): FastMarketFigures {
  return { symbol, fills: over.fills, makerFills: over.fills, takerFills: 0, volume: over.bought, boughtShares: over.bought, soldShares: "0", buyNotional: over.buyNotional, sellNotional: "0", fees: "0", realised: "0", unrealised: over.net, net: over.net, positions: { "0": over.pos } };
}

describe("compareReports", () => {
  it("gives fast - full exactly, average prices from notionals, and names markets found in one report only", () => {
    const full = { markets: [fullMarket("A", { count: 4, bought: "40", buyNotional: "19.6", net: "1.1", final: "40" }), fullMarket("B", { count: 1, bought: "10", buyNotional: "5", net: "0.3", final: "10" })] } as unknown as BacktestReport;
    const fast = { markets: [fastMarket("A", { fills: 3, bought: "30", buyNotional: "14.61", net: "1.000001", pos: "30" }), fastMarket("C", { fills: 2, bought: "5", buyNotional: "2.5", net: "0", pos: "5" })] } as unknown as FastReport;
    const c = compareReports(full, fast);
    const a = c.markets.find((m) => m.symbol === "A")!;
    const get = (name: string) => a.figures.find((f) => f.name === name)!;
    expect(get("fills")).toEqual({ name: "fills", full: "4", fast: "3", diff: "-1" });
    expect(get("avgBuyPrice")).toEqual({ name: "avgBuyPrice", full: "0.49", fast: "0.487", diff: "-0.003" });
    expect(get("net").diff).toBe("-0.099999");
    expect(get("position o0")).toEqual({ name: "position o0", full: "40", fast: "30", diff: "-10" });
    expect(c.markets.find((m) => m.symbol === "B")!.onlyIn).toBe("full");
    expect(c.markets.find((m) => m.symbol === "C")!.onlyIn).toBe("fast");
    expect(c.totals.find((f) => f.name === "fills")).toEqual({ name: "fills", full: "5", fast: "5", diff: "0" });
    expect(c.totals.find((f) => f.name === "net")!.diff).toBe("-0.399999");
    expect(formatComparison(c)).toContain("fast - full");
  });
});
