/** Sweep tests' inputs: hand-made results (results.jsonl lines, rankings, sweep.html) and a short point to run. */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { PointResult } from "../../src/sweep/run-point.js";
import type { PointTask } from "../../src/sweep/spec.js";

/** Point #index (id `p<index>`, seed 7) with the objective `value` (also its pnl; "0" when null). */
export function pointResult(index: number, value: string | null, over: Partial<PointResult> = {}): PointResult {
  return {
    id: `p${index}`,
    index,
    seed: 7,
    params: { "strategy.params.halfSpreadTicks": index, "risk.maxOrderSize": "10" },
    metrics: { pnl: value ?? "0", maxDrawdown: "0.5", fills: index * 3, volume: "100", fees: "0.1", markoutValue: null, markoutAdjustedPnl: null },
    objective: { name: "pnl", value },
    elapsedMs: 1_000 + index,
    ...over,
  };
}

/** A point of the demo config (configs/demo.yaml), seed 9, `durationMs` of synthetic data. */
export function pointTask(durationMs = 5_000): PointTask {
  const config = resolve("configs/demo.yaml");
  return {
    id: "abc",
    index: 3,
    seed: 9,
    params: { "strategy.params.halfSpreadTicks": 2 },
    configText: readFileSync(config, "utf8"),
    configName: config,
    baseDir: dirname(config),
    durationMs,
    queue: "risk-averse",
    latency: { entryMs: 20, responseMs: 20 },
    objective: "pnl_over_drawdown",
    markoutHorizonMs: 1_000,
  };
}
