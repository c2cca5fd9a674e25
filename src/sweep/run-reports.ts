/**
 * HTML reports of a sweep's best runs (`mm sweep --reports N`): each of the top N points by the
 * objective is run again from its task (same config, seed and data: the fast engine is
 * deterministic, so it is the same run) and written as DIR/runs/<point id>.html, the backtest's own
 * HTML report; sweep.html links them. A re-run whose figures differ from the ranked result is not
 * linked and is reported (it would mean the run was not reproducible: a bug worth seeing).
 *
 * The re-runs go to the sweep's worker pool (src/sweep/pool.ts) when given one, in parallel (each
 * worker returns the figures and the HTML, this thread checks and writes them), else they run in
 * this thread one after another; the files, links and findings are the same either way (in rank
 * order), test/sweep/run-reports.test.ts.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { rank } from "./results.js";
import { reportRun } from "./report-run.js";
import type { PointResult } from "./run-point.js";
import type { SweepPool } from "./pool.js";
import type { PointTask } from "./spec.js";

export const RUNS_DIR = "runs";

export interface RunReports {
  /** Point id -> the report's path relative to the sweep's DIR. */
  links: Map<string, string>;
  /** Points whose re-run gave other figures than the ranked result (not linked). */
  mismatched: string[];
  /** Points whose re-run failed, with why (not linked; the sweep's results stand). */
  failed: { id: string; error: string }[];
}

export interface RunReportsProgress {
  /** Re-runs finished (written, mismatched or failed). */
  done: number;
  total: number;
  /** The point just finished, and its report's path relative to DIR when written. */
  id: string;
  written: string | undefined;
}

export interface RunReportsOptions {
  /** The sweep's worker pool: the re-runs run on it in parallel. Without: in this thread, one after another. */
  pool?: SweepPool;
  onProgress?: (p: RunReportsProgress) => void;
}

type Outcome = { kind: "written"; rel: string } | { kind: "mismatched" } | { kind: "failed"; error: string };

export async function writeRunReports(tasks: readonly PointTask[], results: readonly PointResult[], out: string, count: number, o: RunReportsOptions = {}): Promise<RunReports> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const top = rank(results)
    .filter((r) => byId.has(r.id))
    .slice(0, count);
  if (top.length > 0) mkdirSync(join(out, RUNS_DIR), { recursive: true });
  // A report left by an earlier sweep in this DIR must not stand for this run unless rewritten below.
  for (const r of top) rmSync(join(out, RUNS_DIR, `${r.id}.html`), { force: true });
  let done = 0;
  const one = async (r: PointResult): Promise<Outcome> => {
    const task = byId.get(r.id)!;
    let outcome: Outcome;
    try {
      const run = o.pool !== undefined ? await o.pool.report(task) : await reportRun(task);
      if (!isDeepStrictEqual(run.metrics, r.metrics)) outcome = { kind: "mismatched" };
      else {
        const rel = `${RUNS_DIR}/${r.id}.html`;
        writeFileSync(join(out, rel), run.html);
        outcome = { kind: "written", rel };
      }
    } catch (e) {
      outcome = { kind: "failed", error: e instanceof Error ? e.message : String(e) };
    }
    done++;
    o.onProgress?.({ done, total: top.length, id: r.id, written: outcome.kind === "written" ? outcome.rel : undefined });
    return outcome;
  };
  let outcomes: Outcome[];
  if (top.length === 0) outcomes = [];
  else if (o.pool !== undefined) {
    await o.pool.prepare(top.length);
    outcomes = await Promise.all(top.map(one));
  } else {
    outcomes = [];
    for (const r of top) outcomes.push(await one(r));
  }
  const links = new Map<string, string>();
  const mismatched: string[] = [];
  const failed: { id: string; error: string }[] = [];
  for (const [i, r] of top.entries()) {
    const x = outcomes[i]!;
    if (x.kind === "written") links.set(r.id, x.rel);
    else if (x.kind === "mismatched") mismatched.push(r.id);
    else failed.push({ id: r.id, error: x.error });
  }
  return { links, mismatched, failed };
}

/** For a merge: the reports the shards' DIRs already hold for these points, as paths relative to `out`. */
export function existingRunReports(results: readonly PointResult[], dirs: readonly string[], out: string): Map<string, string> {
  const links = new Map<string, string>();
  for (const r of results) {
    const dir = dirs.find((d) => existsSync(join(d, RUNS_DIR, `${r.id}.html`)));
    if (dir !== undefined) links.set(r.id, relative(out, join(dir, RUNS_DIR, `${r.id}.html`)).split("\\").join("/"));
  }
  return links;
}
