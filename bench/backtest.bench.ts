/**
 * Backtest speed: virtual hours per wall second of `runBacktest` on the demo config
 * (configs/demo.yaml: three wallets, six markets of the default scenario, ladder) over two
 * virtual hours (BENCH_BACKTEST_HOURS to change). The baseline, measured in the same run, is the
 * same simulator (same scenario, seed and wallets, built by the same startEmbeddedSimulator)
 * with only its synthetic flow running for the same virtual time and the same clock steps, no
 * daemon: ratio = backtest speed / flow-only speed, i.e. the share of the simulator's own pace
 * the daemon leaves (the daemon, its signing and the simulator's handling of its requests cost
 * the rest). Wall time, so a busy machine reads slower.
 *
 * Then the same run with signatures off (`mm backtest --signatures off`: the simulator does not
 * verify, the daemon signs nothing and pre-signs nothing), and both as x real time (virtual ms
 * per wall ms), with ratio = off / on measured in the same process: the targets are
 * >= 1000x off and >= 2x today's ~165x on. The two runs must give the same fills (checked).
 *
 * The work asked of the simulator is printed with it (requests it answered, orders placed and
 * fills, per virtual hour) and the CPU per request, so a run that got slower because it does more
 * (a scenario with more flow, a daemon polling more) can be told from slower code.
 */
import { performance } from "node:perf_hooks";
import { VirtualClock } from "../src/core/clock.js";
import { loadConfig } from "../src/config/index.js";
import { defaultDemoConfigPath, startEmbeddedSimulator } from "../src/bot/engine/demo.js";
import { DEFAULT_STEP_MS, prepareBacktest, runPrepared } from "../src/backtest/index.js";

const HOURS = Number(process.env.BENCH_BACKTEST_HOURS ?? 2);

function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

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
  const c0 = process.cpuUsage();
  let requests = 0;
  const report = await runPrepared(prepared, { onFinish: (r) => (requests = r.requests) });
  const wallMs = performance.now() - t0;
  const cpuMs = cpuSince(c0);
  const speed = HOURS / (wallMs / 1000);
  const baseSpeed = HOURS / (base.wallMs / 1000);
  console.log(
    `# ${HOURS} virtual h, demo config: backtest ${(wallMs / 1000).toFixed(1)} s wall (${report.totals.fills.count} fills, ${report.totals.orders.placed} orders, consistency ${report.consistency.ok ? "OK" : "FAILED"}); ` +
      `flow only ${(base.wallMs / 1000).toFixed(1)} s wall (${base.trades} trades)`,
  );
  console.log(`BENCH backtest_virtual_hours_per_wall_second ${speed.toFixed(4)} x ratio=${(speed / baseSpeed).toFixed(4)}`);
  console.log(`BENCH backtest_flow_only_virtual_hours_per_wall_second ${baseSpeed.toFixed(4)} x`);

  const unsigned = prepareBacktest({ configPath: defaultDemoConfigPath(), durationMs, signatures: "off" });
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  let offRequests = 0;
  const off = await runPrepared(unsigned, { onFinish: (r) => (offRequests = r.requests) });
  const offWallMs = performance.now() - t1;
  const offCpuMs = cpuSince(c1);
  const onX = durationMs / wallMs;
  const offX = durationMs / offWallMs;
  const same = JSON.stringify(off.totals) === JSON.stringify(report.totals) && JSON.stringify(off.markets) === JSON.stringify(report.markets);
  console.log(
    `# signatures off: ${(offWallMs / 1000).toFixed(1)} s wall (${off.totals.fills.count} fills, ${off.totals.orders.placed} orders, consistency ${off.consistency.ok ? "OK" : "FAILED"}); ` +
      `totals and markets ${same ? "equal to" : "DIFFERENT from"} the signed run's; targets >= 1000x off, >= 330x on`,
  );
  // CPU time of this process (all its threads): what the run costs, whatever else loads the machine.
  console.log(`# by CPU time: on ${(cpuMs / 1000).toFixed(1)} s = ${(durationMs / cpuMs).toFixed(1)}x, off ${(offCpuMs / 1000).toFixed(1)} s = ${(durationMs / offCpuMs).toFixed(1)}x, ratio ${(cpuMs / offCpuMs).toFixed(3)}`);
  const perHour = (n: number): string => (n / HOURS).toFixed(0);
  console.log(
    `# work per virtual h: ${perHour(requests)} requests answered by the simulator, ${perHour(report.totals.orders.placed)} orders placed, ${perHour(report.totals.fills.count)} fills; ` +
      `CPU per request on ${(cpuMs / requests).toFixed(3)} ms, off ${(offCpuMs / offRequests).toFixed(3)} ms`,
  );
  console.log(`BENCH backtest_requests_per_virtual_hour ${perHour(requests)} requests`);
  console.log(`BENCH backtest_cpu_per_request_signatures_on ${(cpuMs / requests).toFixed(4)} ms`);
  console.log(`BENCH backtest_cpu_per_request_signatures_off ${(offCpuMs / offRequests).toFixed(4)} ms ratio=${(offCpuMs / offRequests / (cpuMs / requests)).toFixed(3)}`);
  console.log(`BENCH backtest_real_time_multiple_signatures_on ${onX.toFixed(1)} x`);
  console.log(`BENCH backtest_real_time_multiple_signatures_off ${offX.toFixed(1)} x ratio=${(offX / onX).toFixed(3)}`);
}
