/**
 * mm sweep's throughput (src/sweep): the same points (a grid of 8 on the default scenario, 10 min
 * of synthetic virtual time each; BENCH_SWEEP_POINTS / BENCH_SWEEP_DURATION change that) run on a
 * pool of 1 worker thread, then of 2, each into a fresh DIR; ratio = runs/s with 2 / runs/s with 1
 * (the issue's target: at least 1.6 on 2 cores). Wall time, pool start-up included in both.
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
 *     ratio cannot reach 2 even with nothing shared.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { loadSweep } from "../src/sweep/spec.js";
import { runSweep } from "../src/sweep/sweep.js";
import { workerModule, type LoaderChoice, type WorkerModule } from "../src/sweep/loader.js";

const POINTS = Number(process.env["BENCH_SWEEP_POINTS"] ?? 8);
const DURATION = process.env["BENCH_SWEEP_DURATION"] ?? "10m";
const LOADER = process.env["BENCH_SWEEP_LOADER"] ?? "auto";
if (!["auto", "dist", "tsx"].includes(LOADER)) throw new Error(`BENCH_SWEEP_LOADER: expected auto, dist or tsx (got ${JSON.stringify(LOADER)})`);

const PROC = existsSync("/proc/thread-self/schedstat");

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
  const worker = workerModule(LOADER as LoaderChoice);
  console.log(`# sweep: workers load ${worker.kind === "dist" ? "the compiled dist/" : "the sources through tsx"} (${worker.why})`);
  const dir = mkdtempSync(join(tmpdir(), "sweep-bench-"));
  try {
    if (PROC) {
      const probe = join(dir, "probe.cjs");
      writeFileSync(probe, PROBE);
      const loaders: WorkerModule[] = [workerModule("tsx")];
      if (worker.kind === "dist") loaders.push(worker);
      const cpu = new Map<string, number[]>(loaders.map((l) => [l.kind, []]));
      for (let i = 0; i < 3; i++) for (const l of loaders) cpu.get(l.kind)!.push(await startupCpu(probe, l));
      const tsx = median(cpu.get("tsx")!);
      console.log(`BENCH sweep_worker_startup_cpu_tsx ${tsx.toFixed(0)} ms`);
      if (cpu.has("dist")) console.log(`BENCH sweep_worker_startup_cpu_dist ${median(cpu.get("dist")!).toFixed(0)} ms ratio=${(median(cpu.get("dist")!) / tsx).toFixed(2)}`);
    }
    const values = Array.from({ length: POINTS }, (_, i) => i + 1);
    const file = join(dir, "sweep.yaml");
    writeFileSync(file, `config: ${resolve("configs/demo.yaml")}\ndata: { duration: ${DURATION} }\ngrid:\n  strategy.params.halfSpreadTicks: [${values.join(", ")}]\nseeds: [1]\n`);
    const sweep = loadSweep(file);
    const mainTid = String(process.pid);
    const rate = async (workers: number): Promise<number> => {
      const before = threadCpu();
      const p0 = process.cpuUsage();
      const t0 = performance.now();
      const o = await runSweep(sweep, { out: join(dir, `w${workers}`), workers, worker });
      const wall = (performance.now() - t0) / 1000;
      const p = process.cpuUsage(p0);
      const after = threadCpu();
      const total = (p.user + p.system) / 1e6;
      console.log(`BENCH sweep_w${workers}_cores_busy ${(total / wall).toFixed(2)} cores`);
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
        console.log(`BENCH sweep_w${workers}_cpu_workers ${(total - (main + helpers) / 1000).toFixed(2)} s`);
        console.log(`BENCH sweep_w${workers}_cpu_v8_helpers ${(helpers / 1000).toFixed(2)} s`);
        console.log(`BENCH sweep_w${workers}_cpu_main ${(main / 1000).toFixed(2)} s`);
      }
      return o.ran / wall;
    };
    const one = await rate(1);
    const two = await rate(2);
    console.log(`BENCH sweep_runs_per_sec_w1 ${one.toFixed(3)} runs/s`);
    console.log(`BENCH sweep_runs_per_sec_w2 ${two.toFixed(3)} runs/s ratio=${(two / one).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
