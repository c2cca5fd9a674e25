/**
 * The backtester: the daemon's own code against the simulator in virtual time, with a report
 * quants can check (docs/backtest.md).
 *
 *   const report = await runBacktest({ configPath: "configs/demo.yaml", durationMs: 6 * 3600_000 });
 *   report.ok            // false: see report.problems (e.g. the ledger/platform consistency check)
 *   reportJson(report)   // the --out file
 */
export { runBacktest, runPrepared, type BacktestOptions, type BacktestProgress } from "./run.js";
export { prepareBacktest, BacktestSetupError, DEFAULT_STEP_MS, DEFAULT_VIRTUAL_START_MS, IN_MEMORY_CONFIG, SIGNATURE_MODES, type BacktestInputs, type PreparedBacktest, type SignatureMode } from "./prepare.js";
export { buildReport, comparablePart, reportJson, FAIR_VALUE_NOTE } from "./report.js";
export { inventoryCheck } from "./inventory-check.js";
export { haltSummary, eventLines } from "./events.js";
export { problemsAndWarnings } from "./verdict.js";
export { marketPnl } from "./figures.js";
export { compareFillLists, describeConsistency, platformFills, LISTED_DIFFERENCES } from "./consistency.js";
export { MARK_METHOD, STALE_MARK_MS, lastTradeTimes, marketMark, marksOf, type MarkContext, type MarketMark } from "./marks.js";
export { formatSummary } from "./summary.js";
export { formatDuration, parseDuration, MAX_DURATION_MS } from "./duration.js";
export { BacktestCollector, formatUptime } from "./collector.js";
export * from "./types.js";
