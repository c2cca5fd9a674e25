/**
 * One sweep point run again for its HTML report (`mm sweep --reports`, src/sweep/run-reports.ts):
 * the figures to check against the point's ranked result, and the report. The same in a worker
 * thread (src/sweep/worker.ts report) and in this one.
 */
import { htmlFromFast } from "../backtest/report-html/html.js";
import { metricsOf, runPointReport, type PointMetrics } from "./run-point.js";
import type { PointTask } from "./spec.js";

export interface RunReport {
  metrics: PointMetrics;
  html: string;
}

export async function reportRun(task: PointTask): Promise<RunReport> {
  const report = await runPointReport(task);
  return { metrics: metricsOf(report, task.markoutHorizonMs), html: htmlFromFast(report) };
}
