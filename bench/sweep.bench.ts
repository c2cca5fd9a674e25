/**
 * mm sweep's throughput (src/sweep): the same points run on a pool of 1 worker thread, then of 2,
 * each into a fresh DIR; ratio = runs/s with 2 / runs/s with 1 (the issue's target: at least 1.6 on
 * 2 cores). Wall time, pool start-up included in both. The points: halfSpreadTicks 1..8 of the demo
 * config on the default scenario, each with seeds 1, 2, ... as many as the count needs (so every
 * count has points of the same mix), 10 min of synthetic virtual time each. BENCH_SWEEP_POINTS is
 * the count, 144 by default (a 12 x 12 grid: a sweep people run has tens to hundreds of points;
 * fewer are dominated by each worker's start-up and warm-up, which no pool size amortises,
 * docs/backtest.md "Sweeps"; 144 take about 2 min for both pools on an idle 2-core machine; the
 * default was 48 until 2026-11-27, when on a machine with cheaper points 48 took 19 s on one
 * worker, 3 s of it that worker's start-up and warm-up), or a comma list (8,24,48: each count
 * measured in turn, its BENCH names ending in _p<count>); BENCH_SWEEP_DURATION the virtual time
 * per point.
 *
 * Where the CPU goes, so a ratio can be read on a shared machine (Linux, /proc):
 *   - which module the workers load (src/sweep/loader.ts: the compiled dist/ when it is newer than
 *     every source, else the sources through tsx; BENCH_SWEEP_LOADER=auto|dist|tsx forces one);
 *   - sweep_worker_startup_cpu_<loader>: CPU of one worker thread from its creation until the
 *     worker module is loaded, the way piscina loads it (median of 3), for each loader available;
 *   - per pool size: CPU of the worker threads, of the main thread, and of the threads the process
 *     had before the pool (V8's platform threads: concurrent compilation and GC helpers, and libuv's),
 *     and cores busy = process CPU / wall. A 1-worker sweep keeps more than one core busy (V8
 *     compiles the hot code concurrently on its platform threads), so with 2 workers on 2 cores the
 *     ratio cannot reach 2 even with nothing shared;
 *   - per pool size the process CPU in all, and sweep_ratio_bound: the best ratio two cores could
 *     give for the CPU the two pools used, 2 x cpu_w1 / (max(1, cores_busy_w1) x cpu_w2) (1 worker
 *     takes cpu_w1 / cores_busy_w1 seconds; 2 workers on 2 cores take at least cpu_w2 / 2; on an
 *     idle machine one worker keeps at least one core busy, so with max(1, ...) the bound holds for
 *     figures measured on a loaded machine too: CPU seconds depend less on the load than wall time,
 *     though two identical runs at load 6 to 8 differed by up to 25% in CPU here);
 *   - the warm-up of one worker thread: the same point run BENCH_SWEEP_WARMUP_RUNS times (default 6)
 *     one after another on a pool of 1, the process CPU of each run (the worker thread and V8's
 *     threads: its code is compiled while it runs); sweep_worker_warmup_cpu is what the first runs
 *     cost above the last ones (sweep_point_cpu_steady, the median of the last 3), which every
 *     worker thread pays again (each is an isolate of its own), beside its start-up.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { loadSweep, type LoadedSweep } from "../src/sweep/spec.js";
import { runSweep } from "../src/sweep/sweep.js";
import { workerModule, type LoaderChoice, type WorkerModule } from "../src/sweep/loader.js";
import { SweepPool } from "../src/sweep/pool.js";

const POINTS_TEXT = process.env["BENCH_SWEEP_POINTS"] ?? "144";
const COUNTS = POINTS_TEXT.split(",").map((t) => Number(t.trim()));
if (COUNTS.some((n) => !Number.isInteger(n) || n < 2)) throw new Error(`BENCH_SWEEP_POINTS: expected a whole number >= 2 or a comma list of them (got ${JSON.stringify(POINTS_TEXT)})`);
/** halfSpreadTicks 1..GRID, each with seeds 1..ceil(count / GRID). */
const GRID = 8;
const DURATION = process.env["BENCH_SWEEP_DURATION"] ?? "10m";
const LOADER = process.env["BENCH_SWEEP_LOADER"] ?? "auto";
const WARMUP_RUNS = Number(process.env["BENCH_SWEEP_WARMUP_RUNS"] ?? 6);
if (!Number.isInteger(WARMUP_RUNS) || WARMUP_RUNS < 4) throw new Error(`BENCH_SWEEP_WARMUP_RUNS: expected a whole number >= 4 (got ${JSON.stringify(process.env["BENCH_SWEEP_WARMUP_RUNS"])})`);
if (!["auto", "dist", "tsx"].includes(LOADER)) throw new Error(`BENCH_SWEEP_LOADER: expected auto, dist or tsx (got ${JSON.stringify(LOADER)})`);

const PROC = existsSync("/proc/thread-self/schedstat");

/** CPU s of the whole process so far (every thread, ended ones included). */
function processCpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** CPU ms of each thread of this process (Linux: /proc/self/task/<tid>/schedstat, ns on the CPU). */
function threadCpu(): Map<string, number> {
  const m = new Map<string, number>();
  if (!PROC) return m;
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      m.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1e6);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return m;
}

/** Loads the worker module in a fresh worker thread as piscina does (require, else import) and returns that thread's CPU ms. */
const PROBE = `
const { readFileSync } = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
const cpu = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
(async () => {
  try { require(workerData.filename); }
  catch (e) { if (e.code !== "ERR_REQUIRE_ESM" && e.code !== "ERR_REQUIRE_ASYNC_MODULE") throw e; await import(workerData.url); }
  parentPort.postMessage(cpu());
})();
`;

/** PROBE is written to a .cjs file: an eval worker does not run --import (tsx). */
function startupCpu(probe: string, w: WorkerModule): Promise<number> {
  return new Promise((done, fail) => {
    const t = new Worker(probe, { execArgv: w.execArgv, workerData: { filename: w.filename, url: pathToFileURL(w.filename).href } });
    t.once("message", (ms: number) => void t.terminate().then(() => done(ms)));
    t.once("error", fail);
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<void> {
  const fromBuild = !fileURLToPath(import.meta.url).endsWith(".ts");
  const worker = workerModule(LOADER as LoaderChoice);
  console.log(`# sweep: workers load ${worker.kind === "dist" ? "the compiled dist/" : "the sources through tsx"} (${worker.why})`);
  const dir = mkdtempSync(join(tmpdir(), "sweep-bench-"));
  try {
    if (PROC) {
      const probe = join(dir, "probe.cjs");
      writeFileSync(probe, PROBE);
      // tsx only in a source checkout (npm run bench); compiled (npm run bench:dist) there is dist only.
      const loaders: WorkerModule[] = fromBuild ? [] : [workerModule("tsx")];
      if (worker.kind === "dist") loaders.push(worker);
      const cpu = new Map<string, number[]>(loaders.map((l) => [l.kind, []]));
      for (let i = 0; i < 3; i++) for (const l of loaders) cpu.get(l.kind)!.push(await startupCpu(probe, l));
      const tsx = cpu.has("tsx") ? median(cpu.get("tsx")!) : undefined;
      if (tsx !== undefined) console.log(`BENCH sweep_worker_startup_cpu_tsx ${tsx.toFixed(0)} ms`);
      if (cpu.has("dist")) {
        const dist = median(cpu.get("dist")!);
        console.log(`BENCH sweep_worker_startup_cpu_dist ${dist.toFixed(0)} ms${tsx !== undefined ? ` ratio=${(dist / tsx).toFixed(2)}` : ""}`);
      }
    }
    const most = Math.max(...COUNTS);
    const list = (n: number): string => Array.from({ length: n }, (_, i) => i + 1).join(", ");
    const file = join(dir, "sweep.yaml");
    writeFileSync(file, `config: ${resolve("configs/demo.yaml")}\ndata: { duration: ${DURATION} }\ngrid:\n  strategy.params.halfSpreadTicks: [${list(GRID)}]\nseeds: [${list(Math.ceil(most / GRID))}]\n`);
    const all = loadSweep(file);
    // The first n tasks in seed order (seed 1 of every halfSpreadTicks, then seed 2, ...): the same mix of points for every count.
    const bySeed = [...all.tasks].sort((a, b) => a.seed - b.seed || a.index - b.index);
    const sweepOf = (n: number): LoadedSweep => ({ ...all, tasks: bySeed.slice(0, n) });
    // One worker thread's warm-up: the same point again and again on a pool of 1 (started, and its module loaded, before the first).
    const warm = new SweepPool(worker, 1);
    try {
      await warm.prepare(1);
      const task = bySeed[0]!;
      await new Promise((r) => setTimeout(r, 3000)); // let the pool's thread load its module (dist: well under 1 s of CPU): not part of a run
      const cpu: number[] = [];
      for (let i = 0; i < WARMUP_RUNS; i++) {
        const c0 = processCpu();
        await warm.point(task);
        cpu.push(processCpu() - c0);
      }
      const steady = median(cpu.slice(-3));
      console.log(`# sweep: one worker, the same point ${WARMUP_RUNS} times, process CPU per run: ${cpu.map((c) => c.toFixed(2)).join(" ")} s`);
      console.log(`BENCH sweep_point_cpu_first ${cpu[0]!.toFixed(2)} s`);
      console.log(`BENCH sweep_point_cpu_steady ${steady.toFixed(2)} s`);
      console.log(`BENCH sweep_worker_warmup_cpu ${cpu.reduce((a, c) => a + Math.max(0, c - steady), 0).toFixed(2)} s`);
    } finally {
      await warm.destroy();
    }
    const mainTid = String(process.pid);
    const used = new Map<number, { cpu: number; busy: number }>();
    const rate = async (sweep: LoadedSweep, workers: number, tag: string): Promise<number> => {
      console.log(`# sweep: ${sweep.tasks.length} points on ${workers} worker${workers === 1 ? "" : "s"}, load average ${loadavg()[0]!.toFixed(2)}`);
      const before = threadCpu();
      const p0 = process.cpuUsage();
      const t0 = performance.now();
      const o = await runSweep(sweep, { out: join(dir, `w${workers}${tag}`), workers, worker });
      const wall = (performance.now() - t0) / 1000;
      const p = process.cpuUsage(p0);
      const after = threadCpu();
      const total = (p.user + p.system) / 1e6;
      used.set(workers, { cpu: total, busy: total / wall });
      console.log(`BENCH sweep_w${workers}_cpu_total${tag} ${total.toFixed(2)} s`);
      console.log(`BENCH sweep_w${workers}_cores_busy${tag} ${(total / wall).toFixed(2)} cores`);
      if (PROC) {
        // Threads alive before and after: the main thread and V8's / libuv's. The workers are gone (getrusage still counts
        // them) or, still exiting, count as 0 here and so as workers below.
        let main = 0;
        let helpers = 0;
        for (const [tid, ms] of after) {
          const d = ms - (before.get(tid) ?? ms);
          if (tid === mainTid) main += d;
          else helpers += d;
        }
        console.log(`BENCH sweep_w${workers}_cpu_workers${tag} ${(total - (main + helpers) / 1000).toFixed(2)} s`);
        console.log(`BENCH sweep_w${workers}_cpu_v8_helpers${tag} ${(helpers / 1000).toFixed(2)} s`);
        console.log(`BENCH sweep_w${workers}_cpu_main${tag} ${(main / 1000).toFixed(2)} s`);
      }
      return o.ran / wall;
    };
    for (const n of COUNTS) {
      const tag = COUNTS.length > 1 ? `_p${n}` : "";
      const sweep = sweepOf(n);
      console.log(`BENCH sweep_points${tag} ${n} points`);
      const one = await rate(sweep, 1, tag);
      const two = await rate(sweep, 2, tag);
      console.log(`BENCH sweep_runs_per_sec_w1${tag} ${one.toFixed(3)} runs/s`);
      console.log(`BENCH sweep_runs_per_sec_w2${tag} ${two.toFixed(3)} runs/s ratio=${(two / one).toFixed(2)}`);
      const u1 = used.get(1)!;
      const u2 = used.get(2)!;
      console.log(`BENCH sweep_ratio_bound${tag} ${((2 * u1.cpu) / (Math.max(1, u1.busy) * u2.cpu)).toFixed(2)} x (w2 CPU / w1 CPU ${(u2.cpu / u1.cpu).toFixed(2)}, w1 cores busy ${u1.busy.toFixed(2)})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
