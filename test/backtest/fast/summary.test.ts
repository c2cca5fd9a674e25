/**
 * The text and JSON of a fast-engine run (fast/summary.ts), from a hand-made report: the source,
 * queue model and hours of data, event and order counts (reject codes when there were any), one
 * row per market with its positions by outcome label and a total row, the note on how net is
 * marked, the series lines when there is a series; the JSON two-space indented with a newline.
 */
import { describe, expect, it } from "vitest";
import type { FastReport } from "../../../src/backtest/fast/engine.js";
import { fastReportJson, formatFastSummary } from "../../../src/backtest/fast/summary.js";
import type { SeriesReport } from "../../../src/backtest/series.js";

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);

const row = (symbol: string, fills: number, maker: number, taker: number, volume: string, fees: string, net: string, positions: Record<string, string>) => ({
  symbol,
  fills,
  makerFills: maker,
  takerFills: taker,
  volume,
  boughtShares: "0",
  soldShares: "0",
  buyNotional: "0",
  sellNotional: "0",
  fees,
  realised: "0",
  unrealised: "0",
  net,
  positions,
});

function report(over: Partial<FastReport> = {}): FastReport {
  return {
    engine: "fast",
    source: "recorded: /data/day1",
    queueModel: "risk-averse",
    events: { market: 3, book: 100, trade: 20, other: 0 },
    cycles: 50,
    orders: { placed: 10, accepted: 8, rejected: 2, rejectCodes: { post_only_would_cross: 2 }, cancels: 4, rateDeferred: 1 },
    markets: [row("AAA", 5, 3, 2, "12.5", "0.02", "1.5", { "0": "5", "1": "-2" }), row("BBB", 0, 0, 0, "0", "0", "0", {})],
    totals: { fills: 5, volume: "12.5", fees: "0.02", realised: "1", unrealised: "0.52", net: "1.5" },
    firstTs: T0,
    lastTs: T0 + 9_000_000, // 2.5 h
    ...over,
  };
}

describe("the fast engine's summary", () => {
  it("states the run, a row per market with labelled positions, a total row and the marking note", () => {
    const series = {
      horizonsMs: [1_000],
      markets: [{ marketId: "AAA", labels: ["Up", "Down"] }],
      drawdown: { max: "0.3", at: null, peakAt: null },
      pnlDecomposition: { spreadCaptured: "1", inventoryMarkToMarket: "0.52", fees: "0.02", settlement: "0", net: "1.5", fillsWithoutMid: 0 },
      markouts: [],
    } as unknown as SeriesReport;
    const lines = formatFastSummary(report({ series })).split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "fast engine: recorded: /data/day1; queue model risk-averse; 2.50 h of data",
      "events: 100 books, 20 trades, 3 market rows; 50 quote cycles",
      "orders: 10 placed, 8 accepted, 2 rejected (post_only_would_cross 2), 4 cancels, 1 deferred by the rate buckets",
      "",
    ]);
    expect(lines[4]!.trim().split(/\s{2,}/)).toEqual(["market", "fills", "maker", "taker", "volume", "fees", "net", "position"]);
    expect(lines[5]!.trim().split(/\s{2,}/)).toEqual(["AAA", "5", "3", "2", "12.5", "0.02", "1.5", "Up 5, Down -2"]);
    expect(lines[6]!.trim().split(/\s{2,}/)).toEqual(["BBB", "0", "0", "0", "0", "0", "0", "flat"]);
    // The total row leaves maker, taker and position empty.
    expect(lines[7]).toMatch(/^total\s+5\s{2,}12\.5\s+0\.02\s+1\.5$/);
    expect(lines.slice(8)).toEqual([
      "net = realised + unrealised (marked at the last recorded mid) - fees; decimal units of the settlement token",
      "max drawdown 0.30; PnL = spread captured +1.00 + inventory mark-to-market +0.52 - fees 0.02 + settlement 0.00 = +1.50 (to the end of trading, at the mids)",
      "markout per share, all fills (mid after the fill against its price, + good for us): 1s -",
      "",
    ]);
  });

  it("labels outcomes by number without a series, and says nothing of rejections or series when there are none", () => {
    const text = formatFastSummary(report({ orders: { placed: 0, accepted: 0, rejected: 0, rejectCodes: {}, cancels: 0, rateDeferred: 0 }, firstTs: null, lastTs: null }));
    expect(text).toContain("; 0.00 h of data\n");
    expect(text).toContain("\norders: 0 placed, 0 accepted, 0 rejected, 0 cancels, 0 deferred by the rate buckets\n");
    expect(text).toContain("outcome 0 5, outcome 1 -2");
    expect(text).not.toContain("max drawdown");
    expect(text.endsWith("decimal units of the settlement token\n")).toBe(true);
  });
});

describe("the fast engine's JSON", () => {
  it("is the report, two-space indented, with one trailing newline", () => {
    const r = report();
    const json = fastReportJson(r);
    expect(JSON.parse(json)).toEqual(r);
    expect(json.startsWith('{\n  "engine": "fast",\n')).toBe(true);
    expect(json.endsWith("}\n")).toBe(true);
    expect(json.endsWith("\n\n")).toBe(false);
  });
});
