/**
 * HTML reports of a sweep's best runs (`mm sweep --reports N`): each of the top N points by the
 * objective is run again from its task (same config, seed and data: the fast engine is
 * deterministic, so it is the same run) and written as DIR/runs/<point id>.html, the backtest's own
 * HTML report; sweep.html links them. A re-run whose figures differ from the ranked result is not
 * linked and is reported (it would mean the run was not reproducible: a bug worth seeing).
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { htmlFromFast } from "../backtest/report-html/html.js";
import { rank } from "./results.js";
import { metricsOf, runPointReport, type PointResult } from "./run-point.js";
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

export async function writeRunReports(tasks: readonly PointTask[], results: readonly PointResult[], out: string, count: number): Promise<RunReports> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const links = new Map<string, string>();
  const mismatched: string[] = [];
  const failed: { id: string; error: string }[] = [];
  const top = rank(results)
    .filter((r) => byId.has(r.id))
    .slice(0, count);
  if (top.length > 0) mkdirSync(join(out, RUNS_DIR), { recursive: true });
  for (const r of top) {
    const task = byId.get(r.id)!;
    const rel = `${RUNS_DIR}/${r.id}.html`;
    // A report left by an earlier sweep in this DIR must not stand for this run unless rewritten below.
    rmSync(join(out, rel), { force: true });
    let report;
    try {
      report = await runPointReport(task);
    } catch (e) {
      failed.push({ id: r.id, error: e instanceof Error ? e.message : String(e) });
      continue;
    }
    if (!isDeepStrictEqual(metricsOf(report, task.markoutHorizonMs), r.metrics)) {
      mismatched.push(r.id);
      continue;
    }
    writeFileSync(join(out, rel), htmlFromFast(report));
    links.set(r.id, rel);
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
