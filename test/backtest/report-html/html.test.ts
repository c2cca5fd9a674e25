/**
 * The self-contained HTML report (report-html/html.ts), read as text (the browser test,
 * test/backtest/report/report-fast.test.ts, opens it in Chromium): uPlot and the client script
 * inlined, no network reference; the title and facts escaped; the data block valid JSON that
 * cannot end its script element early; fills drawn capped at MAX_FILLS_DRAWN by an even stride
 * with the count shown, the full fill columns left out; the full and fast engines' headline
 * figures and market rows; a report without a series refused.
 */
import { describe, expect, it } from "vitest";
import type { FastReport } from "../../../src/backtest/fast/engine.js";
import type { SeriesReport } from "../../../src/backtest/series.js";
import type { BacktestReport } from "../../../src/backtest/types.js";
import { CLIENT_JS } from "../../../src/backtest/report-html/client.js";
import { MAX_FILLS_DRAWN, QUOTE_CHARTS, htmlFromBacktest, htmlFromFast, renderHtmlReport } from "../../../src/backtest/report-html/html.js";

/** A series with `n` fills (every column filled), the rest empty. */
function series(n: number, markets: { marketId: string; labels: string[] }[] = []): SeriesReport {
  const col = <T>(f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
  return {
    stepMs: 1_000,
    horizonsMs: [1_000],
    markets,
    samples: { t: [], realisedPnl: [], unrealisedPnl: [], feesPaid: [], netPnl: [], drawdown: [], inventory: [], mid: [], bid: [], ask: [], quoting: [] },
    fills: {
      t: col((i) => 1_000 + i),
      marketId: col(() => "M"),
      outcome: col((i) => i % 2),
      label: col(() => "Yes"),
      side: col((i) => (i % 3 === 0 ? "SELL" : "BUY")),
      role: col(() => "maker"),
      price: col(() => "0.5"),
      qty: col(() => "1"),
      fee: col(() => "0"),
      mid: col(() => "0.5"),
      markouts: [col(() => "0")],
    },
    markouts: [],
    markoutsMissing: 0,
    pnlDecomposition: { spreadCaptured: "0", inventoryMarkToMarket: "0", fees: "0", settlement: "0", net: "0", fillsWithoutMid: 0 },
    drawdown: { max: "1.25", at: null, peakAt: null },
    uptime: [],
    days: [],
    daily: { days: 0, meanPnl: null, stdevPnl: null, meanOverStdev: null },
  };
}

interface Data {
  totals: { label: string; value: string }[];
  marketHead: string[];
  marketRows: (string | number)[][];
  series: SeriesReport;
  fills: { t: number[]; side: string[] };
  fillsShown: number;
  fillsTotal: number;
  quoteCharts: number;
}

/** The report's data block, parsed. */
function dataOf(html: string): Data {
  const open = '<script type="application/json" id="report-data">';
  const from = html.indexOf(open) + open.length;
  return JSON.parse(html.slice(from, html.indexOf("</script>", from))) as Data;
}

const input = (s: SeriesReport, title = "t") => ({ title, facts: [], totals: [], marketHead: [], marketRows: [], series: s });

describe("the HTML report", () => {
  it("is one page with uPlot and the client script inline and nothing to fetch", () => {
    const html = renderHtmlReport(input(series(0)));
    expect(html.startsWith("<!DOCTYPE html>\n")).toBe(true);
    expect(html).toContain(`<script>${CLIENT_JS}</script>`);
    expect(html).toContain("uPlot");
    // (uPlot's licence comment names its repository: a comment, not a fetch)
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=|url\(\s*["']?https?:|import\s*\(/);
    expect(dataOf(html).quoteCharts).toBe(QUOTE_CHARTS);
  });

  it("escapes the title and the facts", () => {
    const html = renderHtmlReport({ ...input(series(0), 'A & B <x> "q"'), facts: ["<script>alert(1)</script>"] });
    expect(html).toContain("<title>A &amp; B &lt;x&gt; &quot;q&quot;</title>");
    expect(html).toContain("<h1>A &amp; B &lt;x&gt; &quot;q&quot;</h1>");
    expect(html).toContain("<div>&lt;script&gt;alert(1)&lt;/script&gt;</div>");
    expect(html).not.toContain("<script>alert(1)");
  });

  it("keeps the data block inside its script element, whatever the strings hold", () => {
    const nasty = "</script><script>alert(1)</script>\u2028\u2029";
    const html = renderHtmlReport({ ...input(series(0)), totals: [{ label: nasty, value: "1" }], marketRows: [[nasty, 2]] });
    expect(html).not.toContain("</script><script>alert(1)");
    const d = dataOf(html);
    expect(d.totals).toEqual([{ label: nasty, value: "1" }]);
    expect(d.marketRows).toEqual([[nasty, 2]]);
  });

  it("draws every fill up to the cap and an even stride beyond it, the full columns left to the JSON report", () => {
    expect(MAX_FILLS_DRAWN).toBe(5_000);
    const all = dataOf(renderHtmlReport(input(series(5_000))));
    expect([all.fillsShown, all.fillsTotal, all.fills.t.length]).toEqual([5_000, 5_000, 5_000]);
    // 12,001 fills: every third (ceil(12001 / 5000) = 3), indexes 0, 3, ..., 12000: 4,001 drawn.
    const many = dataOf(renderHtmlReport(input(series(12_001))));
    expect([many.fillsShown, many.fillsTotal, many.fills.t.length]).toEqual([4_001, 12_001, 4_001]);
    expect(many.fills.t.slice(0, 3)).toEqual([1_000, 1_003, 1_006]);
    expect(many.fills.t[4_000]).toBe(13_000);
    expect(many.fills.side.slice(0, 2)).toEqual(["SELL", "SELL"]);
    expect(many.series.fills.t).toEqual([]);
    expect(many.series.fills.markouts).toEqual([]);
  });
});

describe("the engines' pages", () => {
  it("the full engine: strategy and span, the checks, headline figures, one row per market", () => {
    const r = {
      ok: false,
      problems: ["one", "two"],
      run: { strategy: { name: "ladder" }, duration: "3m", virtualStart: "S", virtualEnd: "E", seed: 3, config: "c.yaml", scenario: "s.yaml", data: { dir: "/rec" } },
      totals: { pnl: { net: "1.5", realised: "1", unrealised: "0.6", fees: "0.1" }, fills: { count: 9, maker: 6, taker: 3, volume: "4.2" } },
      markets: [
        { marketId: "M", figures: { fills: { count: 9, volume: "4.2" }, pnl: { fees: "0.1", net: "1.5" }, inventory: [{ outcome: 0, final: "0" }, { outcome: 1, final: "-3" }], quoteUptime: null } },
        { marketId: "N", figures: { fills: { count: 0, volume: "0" }, pnl: { fees: "0", net: "0" }, inventory: [], quoteUptime: "0.5" } },
      ],
      series: series(0, [{ marketId: "M", labels: ["Yes", "No"] }]),
    } as unknown as BacktestReport;
    const html = htmlFromBacktest(r);
    expect(html).toContain("<title>Backtest: ladder, 3m</title>");
    expect(html).toContain("<div>full engine, S .. E, seed 3</div><div>config c.yaml, scenario s.yaml, replay of /rec</div><div>PROBLEMS: one; two</div>");
    const d = dataOf(html);
    expect(d.totals).toEqual([
      { label: "net PnL", value: "1.5" },
      { label: "realised", value: "1" },
      { label: "unrealised", value: "0.6" },
      { label: "fees", value: "0.1" },
      { label: "fills (maker/taker)", value: "9 (6/3)" },
      { label: "volume", value: "4.2" },
      { label: "max drawdown", value: "1.25" },
    ]);
    expect(d.marketHead).toEqual(["market", "fills", "volume", "fees", "net", "final inventory", "uptime"]);
    expect(d.marketRows).toEqual([
      ["M", 9, "4.2", "0.1", "1.5", "No -3", "-"],
      ["N", 0, "0", "0", "0", "flat", "0.5"],
    ]);
    const ok = htmlFromBacktest({ ...r, ok: true, problems: [], run: { ...r.run, data: undefined } });
    expect(ok).toContain("<div>config c.yaml, scenario s.yaml</div><div>checks OK</div>");
  });

  it("the fast engine: source, span, counts, headline figures, one row per market", () => {
    const r = {
      source: "synthetic: demo",
      queueModel: "prob-log",
      firstTs: Date.UTC(2026, 0, 1),
      lastTs: Date.UTC(2026, 0, 1, 1),
      events: { book: 10, trade: 4 },
      cycles: 7,
      orders: { placed: 3 },
      totals: { net: "-0.5", realised: "0", unrealised: "-0.5", fees: "0", fills: 2, volume: "2" },
      markets: [{ symbol: "M", fills: 2, makerFills: 2, takerFills: 0, volume: "2", fees: "0", net: "-0.5", positions: { "0": "2", "2": "1" } }],
      series: series(0, [{ marketId: "M", labels: ["Yes", "No"] }]),
    } as unknown as FastReport;
    const html = htmlFromFast(r);
    expect(html).toContain("<title>Backtest (fast engine): synthetic: demo</title>");
    expect(html).toContain("<div>fast engine, 2026-01-01T00:00:00.000Z .. 2026-01-01T01:00:00.000Z, queue model prob-log</div><div>10 books, 4 trades, 7 quote cycles, 3 orders placed</div>");
    const d = dataOf(html);
    expect(d.totals.map((t) => `${t.label}=${t.value}`)).toEqual(["net PnL=-0.5", "realised=0", "unrealised=-0.5", "fees=0", "fills=2", "shares traded=2", "max drawdown=1.25"]);
    expect(d.marketRows).toEqual([["M", 2, 2, 0, "2", "0", "-0.5", "Yes 2, outcome 2 1"]]);
    expect(htmlFromFast({ ...r, firstTs: null })).toContain("<div>fast engine, no data, queue model prob-log</div>");
  });

  it("refuses a report without a time series", () => {
    const message = "the report has no time series (run with series kept: --html turns them on)";
    expect(() => htmlFromBacktest({ series: undefined } as unknown as BacktestReport)).toThrow(message);
    expect(() => htmlFromFast({ series: undefined } as unknown as FastReport)).toThrow(message);
  });
});
