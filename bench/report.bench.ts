/**
 * The HTML report of a one-day fast-engine run (test/backtest/report/day-data.ts: 2 binary markets,
 * both outcomes' books every 30 s, a public trade about every 30 s per market, the ladder strategy):
 * its size, and its render time in headless Chromium as the page measures it (navigation start to
 * the end of drawing every chart: data-render-ms), against a blank page with the same inlined uPlot
 * opened the same way in the same run (ratio = report / blank). Targets (issue 13): under 2 s and
 * under 3 MB. Also the whole Chromium process's wall time (launch included, not the page's part).
 * Skipped with a notice when chromium is absent.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { runFastBacktest } from "../src/backtest/fast/engine.js";
import { constantLatency } from "../src/backtest/models/latency.js";
import { htmlFromFast, renderHtmlReport } from "../src/backtest/report-html/html.js";
import { SeriesRecorder } from "../src/backtest/series.js";
import { chromiumPath, openInChromium } from "../test/backtest/report/chromium.js";
import { dayConfig, dayEvents, daySource } from "../test/backtest/report/day-data.js";

export function run(): Promise<void> {
  measure();
  return Promise.resolve();
}

function measure(): void {
  const events = dayEvents({ durationMs: 86_400_000, markets: 2, bookEveryMs: 30_000 });
  const t0 = performance.now();
  const r = runFastBacktest({ config: dayConfig(), source: daySource(events, "synthetic day"), latency: constantLatency(20, 20), queue: { kind: "risk-averse" }, seed: 5, series: true });
  const engineMs = performance.now() - t0;
  const html = htmlFromFast(r);
  mkdirSync("test-artifacts", { recursive: true });
  writeFileSync("test-artifacts/bench-report.html", html);
  const bytes = Buffer.byteLength(html);
  console.log(`# one day: ${events.length} events, ${r.totals.fills} fills, ${r.series!.samples.t.length} samples every ${r.series!.stepMs} ms; engine ${Math.round(engineMs)} ms`);
  console.log(`BENCH report_size ${bytes} bytes ratio=${(bytes / 3_000_000).toFixed(3)} (of the 3 MB target)`);
  const chromium = chromiumPath();
  if (chromium === undefined) {
    console.log("# NOTICE: chromium not found: render time not measured (apt-get install -y chromium)");
    return;
  }
  // Baseline: the same page shell and inlined uPlot with an empty run.
  const blank = new SeriesRecorder({ markets: () => [], labels: () => [], mid: () => undefined, pnl: () => ({ realised: 0n, unrealised: 0n, fees: 0n }), position: () => 0n, quotes: () => [], tradable: () => false }).finish(0);
  writeFileSync("test-artifacts/bench-blank.html", renderHtmlReport({ title: "blank", facts: [], totals: [], marketHead: ["market"], marketRows: [], series: blank }));
  const base = openInChromium(chromium, "test-artifacts/bench-blank.html", "test-artifacts/bench-blank.png");
  const o = openInChromium(chromium, "test-artifacts/bench-report.html", "test-artifacts/bench-report.png");
  if (o.errors.length > 0) console.log(`# page errors: ${o.errors.join("; ")}`);
  const ms = o.renderMs ?? Number.NaN;
  console.log(`BENCH report_render ${ms} ms ratio=${(ms / (base.renderMs ?? Number.NaN)).toFixed(2)} (blank page ${base.renderMs} ms; target < 2000 ms)`);
  console.log(`BENCH report_chromium_wall ${Math.round(o.wallMs)} ms ratio=${(o.wallMs / base.wallMs).toFixed(2)} (launch to exit; blank ${Math.round(base.wallMs)} ms)`);
}
