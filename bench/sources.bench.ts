/**
 * Market-data sources of the fast backtester (src/backtest/fast/sources.ts).
 *
 * - `sources_synthetic_events_per_sec`: events per second out of `syntheticSource` on the default
 *   scenario (seed 42, books every 250 ms, depth 50, all six markets) over BENCH_SOURCES_MINUTES
 *   virtual minutes (default 60), best of 3. ratio = the simulator alone driven over the same
 *   steps on the same kind of clock (its flow, nothing observed) / the source: the share of the
 *   source's time that is the simulator itself (1 would mean observing costs nothing).
 * - `sources_synthetic_x_realtime`: virtual time generated per wall second.
 * - `sources_recorded_events_per_sec`: the same events written with DataSetWriter (sealed into
 *   Parquet), replayed through `recordedSource` (decode included), best of 3; ratio = against a
 *   bare DataSetReader cursor loop over the same directory (what the filter layer costs).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataSetReader, DataSetWriter, type NewEvent } from "../src/data/index.js";
import { recordedSource, StepClock, syntheticSource } from "../src/backtest/fast/sources.js";
import { defaultScenarioPath, loadScenario } from "../src/sim/platform/index.js";
import { Simulator } from "../src/sim/simulator.js";

const MINUTES = Number(process.env.BENCH_SOURCES_MINUTES ?? 60);
const START = Date.UTC(2026, 2, 1, 12, 0, 0);
const STEP = 250;
const SEED = 42;

function runSource(durationMs: number, keep: NewEvent[] | undefined): { n: number; ms: number } {
  const scenario = loadScenario(defaultScenarioPath());
  const t = performance.now();
  const src = syntheticSource({ scenario, seed: SEED, startMs: START, durationMs });
  let n = 0;
  for (let e = src.next(); e !== undefined; e = src.next()) {
    n += 1;
    if (keep !== undefined) {
      const { seq: _seq, ...rest } = e;
      keep.push(rest);
    }
  }
  return { n, ms: performance.now() - t };
}

function runSimOnly(durationMs: number): number {
  const scenario = loadScenario(defaultScenarioPath());
  const t = performance.now();
  const clock = new StepClock(START);
  const sim = new Simulator(scenario, { clock, seed: SEED, startMs: START, verifySignatures: false, pepper: new Uint8Array(32), recoveryCache: null });
  sim.start();
  for (let at = START; at <= START + durationMs; at += STEP) clock.advanceTo(at);
  sim.stop();
  return performance.now() - t;
}

async function replay(dir: string): Promise<{ n: number; ms: number }> {
  const t = performance.now();
  const src = await recordedSource(dir);
  let n = 0;
  for (let e = src.next(); e !== undefined; e = src.next()) n += 1;
  return { n, ms: performance.now() - t };
}

async function bare(dir: string): Promise<{ n: number; ms: number }> {
  const t = performance.now();
  const r = new DataSetReader(dir, { kinds: ["market", "book", "trade", "gap"] });
  let n = 0;
  for await (const seg of r.segments()) for (let e = seg.next(); e !== undefined; e = seg.next()) n += 1;
  return { n, ms: performance.now() - t };
}

export async function run(): Promise<void> {
  if (!(Number.isFinite(MINUTES) && MINUTES > 0)) throw new Error(`BENCH_SOURCES_MINUTES must be a positive number (got ${process.env.BENCH_SOURCES_MINUTES})`);
  const durationMs = Math.round(MINUTES * 60_000);
  runSource(Math.min(durationMs, 60_000), undefined); // warm-up
  runSimOnly(Math.min(durationMs, 60_000));
  let best = Infinity;
  let bestSim = Infinity;
  let n = 0;
  const events: NewEvent[] = [];
  for (let i = 0; i < 3; i++) {
    const r = runSource(durationMs, i === 0 ? events : undefined);
    n = r.n;
    best = Math.min(best, r.ms);
    bestSim = Math.min(bestSim, runSimOnly(durationMs));
    console.log(`# run ${i + 1}: source ${r.ms.toFixed(0)} ms for ${r.n} events, simulator alone ${bestSim.toFixed(0)} ms (best so far)`);
  }
  console.log(`BENCH sources_synthetic_events_per_sec ${Math.round(n / (best / 1000))} events/s ratio=${(bestSim / best).toFixed(3)}`);
  console.log(`BENCH sources_synthetic_x_realtime ${Math.round(durationMs / best)} x`);

  const dir = mkdtempSync(join(tmpdir(), "mm-bench-sources-"));
  try {
    let now = START;
    const w = await DataSetWriter.open({ dir, clock: { now: () => now }, rotateMs: 600_000, fsyncEveryMs: 60_000 });
    for (const e of events) {
      now = e.ts;
      w.append(e);
    }
    w.close();
    await replay(dir); // warm-up
    let bestRec = Infinity;
    let bestBare = Infinity;
    let m = 0;
    for (let i = 0; i < 3; i++) {
      const r = await replay(dir);
      const b = await bare(dir);
      if (r.n !== b.n || r.n !== events.length) throw new Error(`replayed ${r.n} events, bare reader ${b.n}, written ${events.length}`);
      m = r.n;
      bestRec = Math.min(bestRec, r.ms);
      bestBare = Math.min(bestBare, b.ms);
    }
    console.log(`BENCH sources_recorded_events_per_sec ${Math.round(m / (bestRec / 1000))} events/s ratio=${(bestBare / bestRec).toFixed(3)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
