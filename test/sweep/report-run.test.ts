/**
 * A sweep point run again for its HTML report (sweep/report-run.ts): the figures are the very ones
 * the point was ranked by (run-point.ts), and the page is the fast engine's report of that run.
 */
import { describe, expect, it } from "vitest";
import { reportRun } from "../../src/sweep/report-run.js";
import { runPoint } from "../../src/sweep/run-point.js";
import { pointTask } from "./fixtures.js";

describe("a point's report run", () => {
  it("gives the ranked figures and the fast engine's page of the same run", async () => {
    const task = pointTask(3_000);
    const ranked = await runPoint(task);
    const r = await reportRun(task);
    expect(r.metrics).toEqual(ranked.metrics);
    expect(r.html.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(r.html).toMatch(/<title>Backtest \(fast engine\): [^<]+<\/title>/);
    expect(r.html).toContain(`{"label":"net PnL","value":"${ranked.metrics.pnl}"}`);
    expect(r.html).toContain(`{"label":"max drawdown","value":"${ranked.metrics.maxDrawdown}"}`);
  }, 60_000);

  it("gives other figures for another seed's run", async () => {
    const a = await reportRun(pointTask(3_000));
    const b = await reportRun({ ...pointTask(3_000), seed: 10 });
    expect(a.metrics).toMatchObject({ pnl: "0.026375", fills: 2 });
    expect(b.metrics).toMatchObject({ pnl: "0.025", fills: 1 });
    expect(b.metrics).not.toEqual(a.metrics);
    // The pages' figures differ, not just their title and facts (which name the seed).
    const data = (html: string): string => /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)?.[1] ?? "";
    expect(data(a.html)).toContain(`{"label":"net PnL","value":"0.026375"}`);
    expect(data(b.html)).toContain(`{"label":"net PnL","value":"0.025"}`);
  }, 60_000);
});
