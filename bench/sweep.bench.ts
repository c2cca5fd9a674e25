/**
 * mm sweep's throughput (src/sweep): the same points (a grid of 8 on the default scenario, 10 min
 * of synthetic virtual time each, long enough that the runs and not the pool's start-up take the
 * time; BENCH_SWEEP_POINTS / BENCH_SWEEP_DURATION change that) run on a pool of 1 worker thread,
 * then of 2, each into a fresh DIR; ratio = runs/s with 2 / runs/s with 1 (the target: at
 * least 1.6 on 2 cores). Wall time, pool start-up included in both.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadSweep } from "../src/sweep/spec.js";
import { runSweep } from "../src/sweep/sweep.js";

const POINTS = Number(process.env["BENCH_SWEEP_POINTS"] ?? 8);
const DURATION = process.env["BENCH_SWEEP_DURATION"] ?? "10m";

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "sweep-bench-"));
  try {
    const values = Array.from({ length: POINTS }, (_, i) => i + 1);
    const file = join(dir, "sweep.yaml");
    writeFileSync(file, `config: ${resolve("configs/demo.yaml")}\ndata: { duration: ${DURATION} }\ngrid:\n  strategy.params.halfSpreadTicks: [${values.join(", ")}]\nseeds: [1]\n`);
    const sweep = loadSweep(file);
    const rate = async (workers: number): Promise<number> => {
      const t0 = performance.now();
      const o = await runSweep(sweep, { out: join(dir, `w${workers}`), workers });
      return o.ran / ((performance.now() - t0) / 1000);
    };
    const one = await rate(1);
    const two = await rate(2);
    console.log(`BENCH sweep_runs_per_sec_w1 ${one.toFixed(3)} runs/s`);
    console.log(`BENCH sweep_runs_per_sec_w2 ${two.toFixed(3)} runs/s ratio=${(two / one).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
