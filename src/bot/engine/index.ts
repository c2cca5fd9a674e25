/**
 * The market-maker daemon's engine: the one object that owns all I/O (daemon.ts) and its parts.
 * Risk (limits, halts, kill switch: core-risk.ts) and metrics (ops.ts) are always on.
 *
 *   const daemon = createDaemon(config, { transport, connector, clock, rng, apiKey, observer, risk });
 *   await daemon.serve();                  // /metrics /health /ready /admin/kill /admin/resume
 *   await daemon.start();
 *   await daemon.kill("why");              // the kill switch; daemon.resume() clears it
 *   const report = await daemon.stop();   // report.exitCode: 0 when nothing was left open
 */
export { Daemon, createDaemon, type DaemonDeps, type ShutdownReport, type StartReport } from "./daemon.js";
export { DEFAULT_TUNING, type EngineTuning } from "./tuning.js";
export {
  NOOP_OBSERVER,
  RecordingObserver,
  combineObservers,
  type CycleTrigger,
  type EngineEvent,
  type EngineEventType,
  type EngineObserver,
  type StreamState,
  type WalletState,
} from "../observer.js";
export { PASS_THROUGH_RISK, chainRisk, type EngineView, type RiskContext, type RiskHook } from "../risk/risk-hook.js";
export { CoreRisk, buildCoreRisk, haltLabel, riskTuningOf, type CoreRiskOptions, type CoreRiskParts } from "../risk/core-risk.js";
export { RiskWatch, type ObservationSources } from "../risk/risk-observations.js";
export { HaltControl, type KillReport } from "./halt-wiring.js";
export { DaemonOps, type OpsOptions } from "./ops.js";
export { engineStateSource, type EngineStateParts } from "./engine-state.js";
export { formatStatusLine, type DaemonStatus, type PnlFigures } from "./status.js";
export { ClientOrderIds, isOwnClientOrderId, parseClientOrderId, sessionTag, type ParsedClientOrderId } from "../orders/ids.js";
export { EventSeq, RestBookPoller, bookViewOf, type BookSnapshot, type MarketDataSource, type RestPollerOptions } from "../market/market-data.js";
export { assignMarkets, selectMarkets, type Assignment, type Candidate, type CandidateSource, type Selection } from "../market/market-selection.js";
export { MarketRegistry, type MarketEntry, type SelectionChange } from "../market/market-registry.js";
export { shutdownExitCode, type ForeignOrderPolicy, type WalletShutdownReport } from "./shutdown.js";
export { DEMO_COLLATERAL, defaultDemoConfigPath, scenarioWithWallets, startEmbeddedSimulator, type EmbeddedSimulator } from "./demo.js";
export type { WalletStatus } from "./wallet-types.js";
