/**
 * The worker-thread side of mm sweep's pool (piscina, src/sweep/pool.ts): the default export runs
 * one point; `report` runs one point again for its HTML report (`--reports`).
 */
import { runPoint, type PointResult } from "./run-point.js";
import { reportRun, type RunReport } from "./report-run.js";
import type { PointTask } from "./spec.js";

export default function run(task: PointTask): Promise<PointResult> {
  return runPoint(task);
}

export function report(task: PointTask): Promise<RunReport> {
  return reportRun(task);
}
