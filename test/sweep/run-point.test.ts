/**
 * One sweep point (sweep/run-point.ts): the figures ranked, from hand-made fast-engine reports
 * (net PnL, the series' drawdown, the all-fills markout value at the sweep's horizon and that less
 * the fees, none without a series), the three objectives (PnL over a drawdown floored at 0.01,
 * rounded towards zero to six places); and a short point run end to end in this thread: its
 * identity carried through, its objective from its own figures, the same figures every time.
 */
import { describe, expect, it } from "vitest";
import type { FastReport } from "../../src/backtest/fast/engine.js";
import type { MarkoutGroup } from "../../src/backtest/markouts.js";
import { metricsOf, objectiveValue, runPoint, runPointReport, type PointMetrics } from "../../src/sweep/run-point.js";
import { pointTask } from "./fixtures.js";

const metrics = (pnl: string, maxDrawdown: string, markoutAdjustedPnl: string | null = null): PointMetrics => ({ pnl, maxDrawdown, fills: 1, volume: "1", fees: "0", markoutValue: null, markoutAdjustedPnl });

function report(fills: number, markouts: MarkoutGroup[] | undefined): FastReport {
  return {
    totals: { fills, volume: "12.5", fees: "0.25", realised: "1", unrealised: "0.5", net: "1.25" },
    ...(markouts === undefined ? {} : { series: { drawdown: { max: "0.4", at: null, peakAt: null }, markouts } }),
  } as unknown as FastReport;
}
const group = (side: MarkoutGroup["side"], role: string, horizonMs: number, value: string): MarkoutGroup => ({ side, role, horizonMs, fills: 1, shares: "1", value, perShare: value });

describe("the objectives", () => {
  it("pnl and markout_adjusted_pnl are the figures as they are", () => {
    expect(objectiveValue("pnl", metrics("-3.5", "1"))).toBe("-3.5");
    expect(objectiveValue("markout_adjusted_pnl", metrics("1", "1", "0.75"))).toBe("0.75");
    expect(objectiveValue("markout_adjusted_pnl", metrics("1", "1", null))).toBeNull();
  });

  it("pnl_over_drawdown divides by the drawdown floored at 0.01, six places towards zero", () => {
    expect(objectiveValue("pnl_over_drawdown", metrics("1", "3"))).toBe("0.333333");
    expect(objectiveValue("pnl_over_drawdown", metrics("-1", "3"))).toBe("-0.333333");
    expect(objectiveValue("pnl_over_drawdown", metrics("2", "0"))).toBe("200");
    expect(objectiveValue("pnl_over_drawdown", metrics("2", "0.005"))).toBe("200");
    expect(objectiveValue("pnl_over_drawdown", metrics("2", "0.02"))).toBe("100");
  });
});

describe("a point's figures", () => {
  it("take net PnL, the drawdown and the all-fills markout value at the horizon, less the fees", () => {
    const r = report(4, [group("all", "all", 1_000, "9"), group("BUY", "maker", 60_000, "7"), group("all", "all", 60_000, "0.5")]);
    expect(metricsOf(r, 60_000)).toEqual({ pnl: "1.25", maxDrawdown: "0.4", fills: 4, volume: "12.5", fees: "0.25", markoutValue: "0.5", markoutAdjustedPnl: "0.25" });
  });

  it("have no markout figure at a horizon none was taken at, zero without fills, none without a series", () => {
    expect(metricsOf(report(4, [group("all", "all", 1_000, "9")]), 60_000)).toMatchObject({ markoutValue: null, markoutAdjustedPnl: null });
    expect(metricsOf(report(0, []), 60_000)).toMatchObject({ markoutValue: "0", markoutAdjustedPnl: "-0.25" });
    expect(metricsOf(report(4, undefined), 60_000)).toMatchObject({ maxDrawdown: "0", markoutValue: null, markoutAdjustedPnl: null });
  });
});

describe("running a point", () => {
  const task = pointTask();

  it("carries the point's identity, ranks it by its own figures, and repeats them exactly", async () => {
    const a = await runPoint(task);
    expect(a).toMatchObject({ id: "abc", index: 3, seed: 9, params: { "strategy.params.halfSpreadTicks": 2 } });
    // PnL 0.026375 over the drawdown 0.00555 floored at 0.01: 0.026375 / 0.01 = 2.6375.
    expect(a.metrics).toMatchObject({ pnl: "0.026375", maxDrawdown: "0.00555" });
    expect(a.objective).toEqual({ name: "pnl_over_drawdown", value: "2.6375" });
    const b = await runPoint(task);
    expect(b.metrics).toEqual(a.metrics);
    const full = await runPointReport(task);
    expect(full.series).toBeDefined();
    expect(metricsOf(full, 1_000)).toEqual(a.metrics);
  }, 60_000);

  it("refuses a point whose config does not load", async () => {
    await expect(runPointReport({ ...task, configText: "mode: simulator\nbogus: 1\n" })).rejects.toThrow(/bogus/);
  });
});
