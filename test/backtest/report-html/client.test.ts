/**
 * The HTML report's browser script (report-html/client.ts), run in a bare V8 context against a
 * small stand-in DOM and a stand-in uPlot that records each chart (the real browser run is
 * test/backtest/report/report-fast.test.ts): from a hand-made data block it draws the headline and
 * market tables and every chart, with the points each chart got in data-ready (quote charts merge
 * the samples and the fills on one time axis, markets with the most fills first); the
 * decomposition, markout, uptime and day tables show the exact strings; an empty run still draws
 * a chart of each kind; errors and console.error calls land in data-errors.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { CLIENT_JS } from "../../../src/backtest/report-html/client.js";

class El {
  readonly attrs: Record<string, string> = {};
  readonly children: El[] = [];
  textContent = "";
  constructor(readonly tag: string) {}
  setAttribute(k: string, v: unknown): void {
    this.attrs[k] = String(v);
  }
  getAttribute(k: string): string | null {
    return this.attrs[k] ?? null;
  }
  appendChild(c: El): El {
    this.children.push(c);
    return c;
  }
}

const all = (e: El): El[] => [e, ...e.children.flatMap(all)];
/** A table's cells, row by row. */
const cells = (t: El): string[][] => t.children.map((tr) => tr.children.map((c) => c.textContent));
/** The section headed `title`. */
const section = (charts: El, title: string): El => charts.children.find((s) => s.children[0]?.textContent === title)!;

interface Page {
  body: El;
  byId: Record<string, El>;
  charts: { id: string; opts: { series: { label?: string }[] }; cols: unknown[][] }[];
  listeners: Record<string, ((e: unknown) => void)[]>;
  console: { error: (...a: unknown[]) => void };
  logged: unknown[][];
}

function run(data: unknown): Page {
  const body = new El("body");
  const byId: Record<string, El> = {};
  for (const id of ["report-data", "headline", "markets", "charts"]) byId[id] = new El(id === "report-data" ? "script" : "div");
  byId["report-data"]!.textContent = JSON.stringify(data);
  const charts: Page["charts"] = [];
  const listeners: Page["listeners"] = {};
  const logged: unknown[][] = [];
  function uPlot(opts: { series: { label?: string }[] }, cols: unknown[][], box: El): void {
    charts.push({ id: box.attrs["id"]!.slice("chart-".length), opts, cols });
  }
  uPlot.paths = { bars: () => () => null, stepped: () => () => null };
  const sandbox = {
    document: { body: Object.assign(body, { clientWidth: 1200 }), createElement: (tag: string) => new El(tag), getElementById: (id: string) => byId[id] ?? null },
    window: { addEventListener: (type: string, fn: (e: unknown) => void) => void (listeners[type] ??= []).push(fn) },
    console: { error: (...a: unknown[]) => void logged.push(a) },
    performance: { now: () => 123.4 },
    uPlot,
  };
  runInNewContext(CLIENT_JS, sandbox);
  return { body, byId, charts, listeners, console: sandbox.console, logged };
}

const line = <T>(marketId: string, outcome: number, label: string, values: T[]) => ({ marketId, outcome, label, values });

/** Three samples (0, 1, 2 s) of one binary market, two fills of its YES outcome at 0.5 s and 1.5 s. */
const DATA = {
  totals: [{ label: "net PnL", value: "1.5" }],
  marketHead: ["market", "fills"],
  marketRows: [["M", 2]],
  quoteCharts: 8,
  fillsShown: 2,
  fillsTotal: 3,
  fills: { t: [500, 1_500], marketId: ["M", "M"], outcome: [0, 0], side: ["BUY", "SELL"], role: ["maker", "taker"], price: ["0.49", "0.53"] },
  series: {
    horizonsMs: [1_000, 5_000],
    samples: {
      t: [0, 1_000, 2_000],
      netPnl: ["0", "1", "1.5"],
      realisedPnl: ["0", "0.5", "1"],
      unrealisedPnl: ["0", "0.55", "0.6"],
      feesPaid: ["0", "0.05", "0.1"],
      drawdown: ["0", "0", "0"],
      inventory: [line("M", 0, "Yes", ["0", "10", "6"]), line("M", 1, "No", ["0", "0", "0"])],
      mid: [line("M", 0, "Yes", ["0.5", null, "0.52"]), line("M", 1, "No", ["0.5", "0.5", "0.48"])],
      bid: [line("M", 0, "Yes", ["0.49", "0.49", null]), line("M", 1, "No", [null, null, null])],
      ask: [line("M", 0, "Yes", [null, "0.53", "0.53"]), line("M", 1, "No", ["0.51", null, null])],
      quoting: [{ marketId: "M", values: [1, 0, null] }],
    },
    pnlDecomposition: { spreadCaptured: "0.1", inventoryMarkToMarket: "1.45", fees: "0.05", settlement: "0", net: "1.5", fillsWithoutMid: 1 },
    drawdown: { max: "0", at: null, peakAt: null },
    markouts: [
      { side: "all", role: "all", horizonMs: 1_000, fills: 2, shares: "14", value: "0.14", perShare: "0.01" },
      { side: "all", role: "all", horizonMs: 5_000, fills: 0, shares: "0", value: "0", perShare: null },
      { side: "BUY", role: "maker", horizonMs: 1_000, fills: 1, shares: "10", value: "0.2", perShare: "0.02" },
    ],
    markoutsMissing: 2,
    uptime: [{ marketId: "M", samples: 2, live: 1, fraction: "0.5000" }],
    days: [{ day: "2026-06-01", coveredMs: 5_400_000, pnl: "1.5", volume: "7", fills: 2, fees: "0.05", maxDrawdown: "0.2" }],
    daily: { days: 1, meanPnl: "1.5", stdevPnl: null, meanOverStdev: null },
  },
};

describe("the report's browser script", () => {
  it("draws every chart and says how many points each got", () => {
    const p = run(DATA);
    expect(p.body.attrs["data-errors"]).toBe("[]");
    expect(p.body.attrs["data-render-ms"]).toBe("123");
    // equity 4 x 3; quotes of YES: mid 2 + bid 2 + ask 2 + a maker buy + a taker sell; of NO: mid 3 + ask 1;
    // markouts: one point per group with a per-share figure; uptime: the two open samples.
    expect(JSON.parse(p.body.attrs["data-ready"]!)).toEqual({ equity: 12, drawdown: 3, decomposition: 4, inventory: 6, "quotes-M-0": 8, "quotes-M-1": 4, markouts: 2, uptime: 2 });
    expect(p.charts.map((c) => c.id)).toEqual(["equity", "drawdown", "decomposition", "inventory", "quotes-M-0", "quotes-M-1", "markouts", "uptime"]);
  });

  it("puts samples and fills on one time axis in the quote chart, each fill in its side and role's series", () => {
    const q = run(DATA).charts.find((c) => c.id === "quotes-M-0")!;
    expect(q.opts.series.map((s) => s.label ?? "")).toEqual(["", "mid", "our bid", "our ask", "buy maker", "buy taker", "sell maker", "sell taker"]);
    expect(q.cols).toEqual([
      [0, 0.5, 1, 1.5, 2],
      [0.5, null, null, null, 0.52],
      [0.49, null, 0.49, null, null],
      [null, null, 0.53, null, 0.53],
      [null, 0.49, null, null, null],
      [null, null, null, null, null],
      [null, null, null, null, null],
      [null, null, null, 0.53, null],
    ]);
  });

  it("plots equity with fees as paid, and the drawdown below zero", () => {
    const c = run({ ...DATA, series: { ...DATA.series, samples: { ...DATA.series.samples, drawdown: ["0", "0.25", "0"] } } }).charts;
    expect(c.find((x) => x.id === "equity")!.cols).toEqual([[0, 1, 2], [0, 1, 1.5], [0, 0.5, 1], [0, 0.55, 0.6], [-0, -0.05, -0.1]]);
    expect(c.find((x) => x.id === "drawdown")!.cols[1]).toEqual([-0, -0.25, -0]);
  });

  it("shows the tables with the report's exact strings", () => {
    const p = run(DATA);
    expect(cells(all(p.byId["headline"]!).find((e) => e.tag === "table")!)).toEqual([["figure", "value"], ["net PnL", "1.5"]]);
    expect(cells(all(p.byId["markets"]!).find((e) => e.tag === "table")!)).toEqual([["market", "fills"], ["M", "2"]]);
    const charts = p.byId["charts"]!;
    const table = (title: string): string[][] => cells(section(charts, title).children.find((e) => e.tag === "table")!);
    expect(table("PnL decomposition")).toEqual([["part", "amount"], ["spread captured", "0.1"], ["inventory mark-to-market", "1.45"], ["fees", "-0.05"], ["settlement", "0"], ["net", "1.5"]]);
    expect(table("Markouts")).toEqual([
      ["fills", "horizon", "count", "shares", "per share", "value"],
      ["all fills", "1 s", "2", "14", "0.01", "0.14"],
      ["all fills", "5 s", "0", "0", "-", "0"],
      ["BUY maker", "1 s", "1", "10", "0.02", "0.2"],
    ]);
    expect(table("Quote uptime")).toEqual([["market", "samples", "live", "uptime"], ["M", "2", "1", "50.00%"]]);
    expect(table("Per day")).toEqual([["day", "hours", "PnL", "volume", "fills", "fees", "max drawdown"], ["2026-06-01", "1.50", "1.5", "7", "2", "0.05", "0.2"]]);
    const notes = all(charts).filter((e) => e.attrs["class"] === "note").map((e) => e.textContent);
    expect(notes).toContainEqual(expect.stringContaining("; 1 fill(s) without a mid: their spread is in mark-to-market"));
    expect(notes).toContainEqual(expect.stringContaining("; 2 of 3 fills drawn"));
    expect(notes).toContainEqual(expect.stringContaining("; 2 markout(s) not computed"));
    expect(notes).toContainEqual(expect.stringContaining("Daily PnL over 1 day(s): mean 1.5, stdev -, mean/stdev -"));
  });

  it("draws a placeholder line where a run has nothing to show", () => {
    const empty = {
      ...DATA,
      fills: { t: [], marketId: [], outcome: [], side: [], role: [], price: [] },
      fillsShown: 0,
      fillsTotal: 0,
      series: {
        ...DATA.series,
        samples: { ...DATA.series.samples, inventory: [], mid: [], bid: [], ask: [], quoting: [] },
        markouts: [],
        uptime: [],
        days: [],
        pnlDecomposition: { ...DATA.series.pnlDecomposition, fees: "0", fillsWithoutMid: 0 },
      },
    };
    const p = run(empty);
    expect(p.body.attrs["data-errors"]).toBe("[]");
    expect(JSON.parse(p.body.attrs["data-ready"]!)).toEqual({ equity: 12, drawdown: 3, decomposition: 4, inventory: 3, markouts: 2, uptime: 3 });
    const byId = (id: string) => p.charts.find((c) => c.id === id)!;
    expect(byId("inventory").opts.series.map((s) => s.label ?? "")).toEqual(["", "none"]);
    expect(byId("markouts").opts.series.map((s) => s.label ?? "")).toEqual(["", "no fills"]);
    expect(all(section(p.byId["charts"]!, "Quotes and fills")).some((e) => e.tag === "p" && e.textContent === "no market data")).toBe(true);
    const decomposition = cells(section(p.byId["charts"]!, "PnL decomposition").children.find((e) => e.tag === "table")!);
    expect(decomposition[3]).toEqual(["fees", "0"]);
  });

  it("draws at most the quote charts asked for, busiest market outcomes first", () => {
    const p = run({ ...DATA, quoteCharts: 1, fills: { ...DATA.fills, outcome: [1, 1] } });
    expect(p.charts.filter((c) => c.id.startsWith("quotes-")).map((c) => c.id)).toEqual(["quotes-M-1"]);
  });

  it("records page errors and console.error calls in data-errors", () => {
    const p = run(DATA);
    p.listeners["error"]![0]!({ message: "boom" });
    p.listeners["unhandledrejection"]![0]!({ reason: new Error("lost") });
    p.console.error("bad", 1);
    expect(JSON.parse(p.body.attrs["data-errors"]!)).toEqual(["boom", "unhandled rejection: lost", "bad 1"]);
    // console.error still reaches the console
    expect(p.logged).toEqual([["bad", 1]]);
  });
});
