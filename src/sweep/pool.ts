/**
 * mm sweep's worker pool (piscina): worker threads that each load the worker module once and then
 * run task after task: the sweep's points, then the re-runs of the best points for their reports
 * (`--reports`), so the re-runs use the same started and warmed-up workers as the sweep.
 *
 * Batches (the sweep's points, then the reports) run one after the other. A batch of n tasks wants
 * min(maxThreads, n) threads: the threads are started for the first batch; a later, larger batch
 * that wants more replaces the (idle) pool with a larger one (a resumed sweep with one point left
 * and three reports to write).
 */
import { Piscina } from "piscina";
import type { WorkerModule } from "./loader.js";
import type { PointResult } from "./run-point.js";
import type { RunReport } from "./report-run.js";
import type { PointTask } from "./spec.js";

export class SweepPool {
  #pool: Piscina<PointTask, unknown> | undefined;
  #threads = 0;
  #running = 0;

  constructor(
    readonly worker: WorkerModule,
    readonly maxThreads: number,
  ) {
    if (!Number.isInteger(maxThreads) || maxThreads < 1) throw new RangeError(`SweepPool: maxThreads must be a whole number >= 1 (got ${maxThreads})`);
  }

  /** Worker threads of the pool now (0 before the first batch). */
  get threads(): number {
    return this.#threads;
  }

  /** Makes the pool ready for a batch of n tasks (see above). */
  async prepare(n: number): Promise<void> {
    const want = Math.max(1, Math.min(this.maxThreads, n));
    if (this.#pool !== undefined && (this.#threads >= want || this.#running > 0)) return;
    const old = this.#pool;
    const { filename, execArgv } = this.worker;
    this.#pool = new Piscina<PointTask, unknown>({ filename, execArgv, minThreads: want, maxThreads: want, idleTimeout: 60_000 });
    this.#threads = want;
    if (old !== undefined) await old.destroy();
  }

  async #run<R>(task: PointTask, name: "default" | "report"): Promise<R> {
    if (this.#pool === undefined) await this.prepare(1);
    this.#running++;
    try {
      return (await this.#pool!.run(task, { name })) as R;
    } finally {
      this.#running--;
    }
  }

  /** One sweep point (worker.ts default export: runPoint). */
  point(task: PointTask): Promise<PointResult> {
    return this.#run<PointResult>(task, "default");
  }

  /** One point run again for its report (worker.ts report: reportRun). */
  report(task: PointTask): Promise<RunReport> {
    return this.#run<RunReport>(task, "report");
  }

  async destroy(): Promise<void> {
    const p = this.#pool;
    this.#pool = undefined;
    this.#threads = 0;
    if (p !== undefined) await p.destroy();
  }
}
