/**
 * `mm backtest --html FILE`: one self-contained HTML file. uPlot (its minified script and CSS, read
 * from the installed package) is inlined, the report's data sits in a JSON block, and client.ts
 * draws it: no network is needed to open the file.
 *
 * uPlot rather than ECharts or Vega-Lite: ~50 kB against ~1 MB, canvas line charts that draw
 * 10^5 points in milliseconds, and no runtime dependencies; we need time series, steps, dots and
 * a few bars, which it covers.
 *
 * Size: the samples are bounded by the recorder (series.ts, at most 2000 per line); fills drawn
 * are capped at MAX_FILLS_DRAWN (evenly strided, the count shown); the JSON report keeps them all.
 * Quote charts are drawn for the QUOTE_CHARTS market outcomes with the most fills.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { FastReport } from "../fast/engine.js";
import type { SeriesReport } from "../series.js";
import type { BacktestReport } from "../types.js";
import { CLIENT_JS } from "./client.js";

export const MAX_FILLS_DRAWN = 5_000;
export const QUOTE_CHARTS = 8;

export interface HtmlReportInput {
  title: string;
  /** Lines under the title (engine, span, seed, strategy). */
  facts: string[];
  /** Headline figures, exact strings. */
  totals: { label: string; value: string }[];
  marketHead: string[];
  marketRows: (string | number)[][];
  series: SeriesReport;
}

let assets: { js: string; css: string } | undefined;

/** uPlot's minified script and stylesheet, from the installed package. */
function uplotAssets(): { js: string; css: string } {
  if (assets !== undefined) return assets;
  const req = createRequire(import.meta.url);
  const pkg = req.resolve("uplot/package.json");
  const dir = pkg.slice(0, pkg.length - "package.json".length);
  assets = { js: readFileSync(`${dir}dist/uPlot.iife.min.js`, "utf8"), css: readFileSync(`${dir}dist/uPlot.min.css`, "utf8") };
  return assets;
}

const escapeHtml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");

/** The fills to draw: all when few, else every k-th (their columns only). */
function drawnFills(f: SeriesReport["fills"]): { cols: Pick<SeriesReport["fills"], "t" | "marketId" | "outcome" | "side" | "role" | "price">; shown: number } {
  const n = f.t.length;
  const step = Math.max(1, Math.ceil(n / MAX_FILLS_DRAWN));
  const idx: number[] = [];
  for (let i = 0; i < n; i += step) idx.push(i);
  const pick = <T>(a: T[]): T[] => (step === 1 ? a : idx.map((i) => a[i]!));
  return { cols: { t: pick(f.t), marketId: pick(f.marketId), outcome: pick(f.outcome), side: pick(f.side), role: pick(f.role), price: pick(f.price) }, shown: idx.length };
}

const CSS = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 20px; color: #222; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 4px; border-bottom: 1px solid #ddd; } h3 { font-size: 14px; margin: 12px 0 2px; }
.facts { color: #555; margin: 0 0 12px; } .note { color: #666; font-size: 12px; margin: 2px 0 6px; }
table { border-collapse: collapse; margin: 6px 0; font-size: 13px; } th, td { border: 1px solid #ddd; padding: 2px 8px; } th { background: #f4f4f4; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.top { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
`;

export function renderHtmlReport(input: HtmlReportInput): string {
  const { js, css } = uplotAssets();
  const fills = drawnFills(input.series.fills);
  // The series without the full fill columns (drawn fills go separately, capped).
  const series: SeriesReport = { ...input.series, fills: { ...input.series.fills, t: [], marketId: [], outcome: [], label: [], side: [], role: [], price: [], qty: [], fee: [], mid: [], markouts: [] } };
  const data = { totals: input.totals, marketHead: input.marketHead, marketRows: input.marketRows, series, fills: fills.cols, fillsShown: fills.shown, fillsTotal: input.series.fills.t.length, quoteCharts: QUOTE_CHARTS };
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${css}</style>
<style>${CSS}</style>
</head>
<body>
<h1>${escapeHtml(input.title)}</h1>
<div class="facts">${input.facts.map((f) => `<div>${escapeHtml(f)}</div>`).join("")}</div>
<div class="top"><div id="headline"></div><div id="markets"></div></div>
<div id="charts"></div>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${js}</script>
<script>${CLIENT_JS}</script>
</body>
</html>
`;
}

function requireSeries(s: SeriesReport | undefined): SeriesReport {
  if (s === undefined) throw new Error("the report has no time series (run with series kept: --html turns them on)");
  return s;
}

const inventoryText = (positions: Record<string, string>, labels: readonly string[] | undefined): string =>
  Object.entries(positions)
    .map(([o, q]) => `${labels?.[Number(o)] ?? `outcome ${o}`} ${q}`)
    .join(", ") || "flat";

/** The full engine's report as HTML. */
export function htmlFromBacktest(r: BacktestReport): string {
  const s = requireSeries(r.series);
  const labels = new Map(s.markets.map((m) => [m.marketId, m.labels]));
  return renderHtmlReport({
    title: `Backtest: ${r.run.strategy.name}, ${r.run.duration}`,
    facts: [
      `full engine, ${r.run.virtualStart} .. ${r.run.virtualEnd}, seed ${r.run.seed}`,
      `config ${r.run.config}, scenario ${r.run.scenario}${r.run.data !== undefined ? `, replay of ${r.run.data.dir}` : ""}`,
      r.ok ? "checks OK" : `PROBLEMS: ${r.problems.join("; ")}`,
    ],
    totals: [
      { label: "net PnL", value: r.totals.pnl.net },
      { label: "realised", value: r.totals.pnl.realised },
      { label: "unrealised", value: r.totals.pnl.unrealised },
      { label: "fees", value: r.totals.pnl.fees },
      { label: "fills (maker/taker)", value: `${r.totals.fills.count} (${r.totals.fills.maker}/${r.totals.fills.taker})` },
      { label: "volume", value: r.totals.fills.volume },
      { label: "max drawdown", value: s.drawdown.max },
    ],
    marketHead: ["market", "fills", "volume", "fees", "net", "final inventory", "uptime"],
    marketRows: r.markets.map((m) => {
      const pos: Record<string, string> = {};
      for (const i of m.figures.inventory) if (i.final !== "0") pos[String(i.outcome)] = i.final;
      return [m.marketId, m.figures.fills.count, m.figures.fills.volume, m.figures.pnl.fees, m.figures.pnl.net, inventoryText(pos, labels.get(m.marketId)), m.figures.quoteUptime ?? "-"];
    }),
    series: s,
  });
}

/** The fast engine's report as HTML. */
export function htmlFromFast(r: FastReport): string {
  const s = requireSeries(r.series);
  const labels = new Map(s.markets.map((m) => [m.marketId, m.labels]));
  const span = r.firstTs === null || r.lastTs === null ? "no data" : `${new Date(r.firstTs).toISOString()} .. ${new Date(r.lastTs).toISOString()}`;
  return renderHtmlReport({
    title: `Backtest (fast engine): ${r.source}`,
    facts: [`fast engine, ${span}, queue model ${r.queueModel}`, `${r.events.book} books, ${r.events.trade} trades, ${r.cycles} quote cycles, ${r.orders.placed} orders placed`],
    totals: [
      { label: "net PnL", value: r.totals.net },
      { label: "realised", value: r.totals.realised },
      { label: "unrealised", value: r.totals.unrealised },
      { label: "fees", value: r.totals.fees },
      { label: "fills", value: String(r.totals.fills) },
      { label: "shares traded", value: r.totals.volume },
      { label: "max drawdown", value: s.drawdown.max },
    ],
    marketHead: ["market", "fills", "maker", "taker", "shares", "fees", "net", "final inventory"],
    marketRows: r.markets.map((m) => [m.symbol, m.fills, m.makerFills, m.takerFills, m.volume, m.fees, m.net, inventoryText(m.positions, labels.get(m.symbol))]),
    series: s,
  });
}
