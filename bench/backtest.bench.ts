/**
 * Backtest speed: virtual hours per wall second of `runBacktest` on the demo config
 * (configs/demo.yaml: three wallets, six markets of the default scenario, ladder) over two
 * virtual hours (BENCH_BACKTEST_HOURS to change). The baseline, measured in the same run, is the
 * same simulator (same scenario, seed and wallets, built by the same startEmbeddedSimulator)
 * with only its synthetic flow running for the same virtual time and the same clock steps, no
 * daemon: ratio = backtest speed / flow-only speed, i.e. the share of the simulator's own pace
 * the daemon leaves (the daemon, its signing and the simulator's handling of its requests cost
 * the rest). Wall time, so a busy machine reads slower.
 */
import { performance } from "node:perf_hooks";
import { VirtualClock } from "../src/core/clock.js";
import { loadConfig } from "../src/config/index.js";
import { defaultDemoConfigPath, startEmbeddedSimulator } from "../src/bot/engine/demo.js";
import { DEFAULT_STEP_MS, prepareBacktest, runPrepared } from "../src/backtest/index.js";

const HOURS = Number(process.env.BENCH_BACKTEST_HOURS ?? 2);

async function flowOnly(durationMs: number, stepMs: number, startMs: number): Promise<{ wallMs: number; trades: number }> {
  const config = loadConfig(defaultDemoConfigPath());
  if (config.mode !== "simulator") throw new Error("the demo config is not in simulator mode");
  const clock = new VirtualClock(startMs);
  const t0 = performance.now();
  const embedded = startEmbeddedSimulator(config, clock);
  for (let t = 0; t < durationMs; t += stepMs) await clock.advance(stepMs);
  const wallMs = performance.now() - t0;
  const trades = embedded.sim.engine.ledger.trades().length;
  embedded.stop();
  return { wallMs, trades };
}

export async function run(): Promise<void> {
  const durationMs = Math.round(HOURS * 3_600_000);
  const prepared = prepareBacktest({ configPath: defaultDemoConfigPath(), durationMs });
  const base = await flowOnly(durationMs, DEFAULT_STEP_MS, prepared.startMs);
  const t0 = performance.now();
  const report = await runPrepared(prepared);
  const wallMs = performance.now() - t0;
  const speed = HOURS / (wallMs / 1000);
  const baseSpeed = HOURS / (base.wallMs / 1000);
  console.log(
    `# ${HOURS} virtual h, demo config: backtest ${(wallMs / 1000).toFixed(1)} s wall (${report.totals.fills.count} fills, ${report.totals.orders.placed} orders, consistency ${report.consistency.ok ? "OK" : "FAILED"}); ` +
      `flow only ${(base.wallMs / 1000).toFixed(1)} s wall (${base.trades} trades)`,
  );
  console.log(`BENCH backtest_virtual_hours_per_wall_second ${speed.toFixed(4)} x ratio=${(speed / baseSpeed).toFixed(4)}`);
  console.log(`BENCH backtest_flow_only_virtual_hours_per_wall_second ${baseSpeed.toFixed(4)} x`);
}
