/**
 * One sweep point: the point's config (validated again here, in the worker), the fast engine on
 * the sweep's data with the point's seed, and the figures the ranking needs. Synchronous and pure
 * but for reading the data set, so it runs the same in a worker thread and in-process.
 */
import { Decimal } from "decimal.js";
import { parseConfig } from "../config/index.js";
import { prepareBacktest } from "../backtest/prepare.js";
import { runFastBacktest, type FastReport } from "../backtest/fast/engine.js";
import { recordedSource, syntheticSource } from "../backtest/fast/sources.js";
import { constantLatency } from "../backtest/models/latency.js";
import { parseQueueSpec, type QueueModelSpec } from "../backtest/models/queue.js";
import { type Objective, type ParamValue, type PointTask } from "./spec.js";

/** The figures of one run (decimal strings in settlement units). */
export interface PointMetrics {
  /** Net PnL: realised + unrealised - fees. */
  pnl: string;
  maxDrawdown: string;
  fills: number;
  volume: string;
  fees: string;
  /** sum(markout x qty) of all fills at the sweep's markout horizon; null without markouts. */
  markoutValue: string | null;
  /** markoutValue - fees: PnL as if each fill were closed at the mid that long after it. */
  markoutAdjustedPnl: string | null;
}

/** One line of results.jsonl. */
export interface PointResult {
  id: string;
  index: number;
  seed: number;
  params: Record<string, ParamValue>;
  metrics: PointMetrics;
  objective: { name: Objective; value: string | null };
  /** Wall time of the run (not part of the result's identity). */
  elapsedMs: number;
}

/** PnL over max drawdown: the drawdown is floored at 0.01 so a run without one ranks by its PnL x 100. */
const DRAWDOWN_FLOOR = new Decimal("0.01");

export function objectiveValue(name: Objective, m: PointMetrics): string | null {
  if (name === "pnl") return m.pnl;
  if (name === "markout_adjusted_pnl") return m.markoutAdjustedPnl;
  return new Decimal(m.pnl).div(Decimal.max(new Decimal(m.maxDrawdown), DRAWDOWN_FLOOR)).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed();
}

export function metricsOf(report: FastReport, horizonMs: number): PointMetrics {
  const s = report.series;
  const group = s?.markouts.find((g) => g.side === "all" && g.role === "all" && g.horizonMs === horizonMs);
  const markoutValue = s === undefined ? null : group === undefined ? (report.totals.fills === 0 ? "0" : null) : group.value;
  return {
    pnl: report.totals.net,
    maxDrawdown: s?.drawdown.max ?? "0",
    fills: report.totals.fills,
    volume: report.totals.volume,
    fees: report.totals.fees,
    markoutValue,
    markoutAdjustedPnl: markoutValue === null ? null : new Decimal(markoutValue).minus(report.totals.fees).toFixed(),
  };
}

/** The fast engine's whole report of one point (series on): what runPoint ranks, and what a run's HTML report shows. */
export async function runPointReport(task: PointTask): Promise<FastReport> {
  const config = parseConfig(task.configText, task.configName, process.env, { baseDir: task.baseDir });
  const prepared = prepareBacktest({
    config,
    configPath: task.configName,
    seed: task.seed,
    durationMs: task.durationMs ?? 1,
    ...(task.scenarioPath !== undefined ? { scenarioPath: task.scenarioPath } : {}),
  });
  const source =
    task.dataDir !== undefined
      ? await recordedSource(task.dataDir)
      : syntheticSource({ scenario: prepared.scenario, seed: prepared.seed, startMs: prepared.startMs, durationMs: prepared.durationMs, name: prepared.scenarioPath });
  return runFastBacktest({
    config: prepared.config,
    source,
    latency: constantLatency(task.latency.entryMs, task.latency.responseMs),
    queue: parseQueueSpec(task.queue) as QueueModelSpec,
    seed: task.seed,
    series: true,
  });
}

export async function runPoint(task: PointTask): Promise<PointResult> {
  const started = performance.now();
  const report = await runPointReport(task);
  const metrics = metricsOf(report, task.markoutHorizonMs);
  return {
    id: task.id,
    index: task.index,
    seed: task.seed,
    params: task.params,
    metrics,
    objective: { name: task.objective, value: objectiveValue(task.objective, metrics) },
    elapsedMs: Math.round(performance.now() - started),
  };
}
