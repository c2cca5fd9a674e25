/**
 * Running a sweep: the points of this shard that DIR/results.jsonl does not hold yet, on a pool of
 * worker threads (piscina, src/sweep/pool.ts; each worker runs the fast engine, which is
 * synchronous), each result appended as it finishes. A sweep killed and restarted with the same DIR runs only what is left.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Decimal } from "decimal.js";
import { runPoint, type PointResult } from "./run-point.js";
import { ResultsWriter, readResults } from "./results.js";
import { workerModule, type WorkerModule } from "./loader.js";
import { SweepPool } from "./pool.js";
import type { LoadedSweep, PointTask } from "./spec.js";

export interface Shard {
  index: number;
  count: number;
}

export interface SweepProgress {
  done: number;
  total: number;
  /** Skipped: already in results.jsonl. */
  skipped: number;
  elapsedMs: number;
  /** Estimated from the runs of this session; undefined before the first finishes. */
  remainingMs: number | undefined;
  best: PointResult | undefined;
}

export interface RunSweepOptions {
  out: string;
  /** Worker threads (default: the machine's cores). 0: in this thread, one point at a time. */
  workers?: number;
  shard?: Shard;
  /** Run at most this many new points, then stop (as if killed; tests, bench). */
  limit?: number;
  /** The module the worker threads load (default: workerModule(), the compiled dist/ when fresh). */
  worker?: WorkerModule;
  /**
   * A pool to run on (its worker and threads; workers and worker are then not used), left running
   * for the caller's next batch (mm sweep: the reports' re-runs). Without: a pool of its own,
   * stopped at the end.
   */
  pool?: SweepPool;
  onProgress?: (p: SweepProgress) => void;
}

export interface SweepOutcome {
  /** Every result in DIR of this sweep's points (this shard's), earlier and new. */
  results: PointResult[];
  ran: number;
  skipped: number;
  /** Points of this shard still to run (limit reached). */
  left: number;
  /** What the worker threads loaded; undefined when no pool was started (workers 0, nothing to run). */
  worker: WorkerModule | undefined;
}

function better(a: PointResult | undefined, b: PointResult): boolean {
  if (b.objective.value === null) return false;
  if (a === undefined || a.objective.value === null) return true;
  return new Decimal(b.objective.value).gt(new Decimal(a.objective.value));
}

export function shardTasks(tasks: readonly PointTask[], shard?: Shard): PointTask[] {
  return shard === undefined ? [...tasks] : tasks.filter((t) => t.index % shard.count === shard.index);
}

export async function runSweep(sweep: LoadedSweep, o: RunSweepOptions): Promise<SweepOutcome> {
  const mine = shardTasks(sweep.tasks, o.shard);
  const ids = new Set(mine.map((t) => t.id));
  const earlier = existsSync(o.out) ? readResults(o.out).results.filter((r) => ids.has(r.id)) : [];
  const finished = new Map(earlier.map((r) => [r.id, r]));
  const todo = mine.filter((t) => !finished.has(t.id)).slice(0, o.limit ?? Number.POSITIVE_INFINITY);
  const writer = new ResultsWriter(o.out);
  let best: PointResult | undefined;
  for (const r of finished.values()) if (better(best, r)) best = r;
  const started = performance.now();
  let ran = 0;
  const report = (): void => {
    const elapsedMs = performance.now() - started;
    o.onProgress?.({
      done: finished.size,
      total: mine.length,
      skipped: earlier.length,
      elapsedMs,
      remainingMs: ran === 0 ? undefined : (elapsedMs / ran) * (mine.length - finished.size),
      best,
    });
  };
  const record = (r: PointResult): void => {
    writer.append(r);
    finished.set(r.id, r);
    ran++;
    if (better(best, r)) best = r;
    report();
  };
  report();
  const workers = o.workers ?? navigatorCores();
  let worker: WorkerModule | undefined;
  try {
    if (o.pool === undefined && workers === 0) {
      for (const t of todo) record(await runPoint(t));
    } else if (todo.length > 0) {
      const pool = o.pool ?? new SweepPool(o.worker ?? workerModule(), workers);
      worker = pool.worker;
      try {
        await pool.prepare(todo.length);
        await Promise.all(todo.map((t) => pool.point(t).then(record)));
      } finally {
        if (o.pool === undefined) await pool.destroy();
      }
    }
  } finally {
    writer.close();
  }
  const results = [...finished.values()].sort((a, b) => a.index - b.index);
  return { results, ran, skipped: earlier.length, left: mine.length - finished.size, worker };
}

function navigatorCores(): number {
  return Math.max(1, availableParallelism());
}
