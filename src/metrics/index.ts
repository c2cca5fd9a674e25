/** Metrics: the daemon's prom-client registry, engine observer, collectors and operator HTTP server. */
export { DaemonMetrics, type DaemonMetricsOptions } from "./registry.js";
export { MetricSet, type MetricSetOptions } from "./metric-set.js";
export { refreshScrapeMetrics } from "./collectors.js";
export {
  TRACKER_ANOMALY_KINDS,
  type EngineStateSource,
  type ScrapeSources,
  type StreamSource,
  type TrackerAnomalyKind,
  type TrackerCountersSource,
} from "./scrape-sources.js";
export { EngineMetricsBridge, trackTrackerAnomalies } from "./engine-bridge.js";
export { MetricsObserver, type EngineEvents, type FillEvent, type HttpRequestEvent } from "./observer.js";
export { instrumentTransport } from "./http-instrument.js";
export { NOT_READY_HALT_REASONS, Probes, haltBlocksReadiness, haltJson, type ProbeAnswer, type ProbesOptions } from "./health.js";
export {
  MetricsServer,
  bearerMatches,
  riskAdminActions,
  type AdminActions,
  type AdminResult,
  type MetricsServerOptions,
  type ServerLog,
} from "./metrics-server.js";
export {
  BoundedValues,
  LabelGuard,
  OTHER,
  codeLabel,
  methodLabel,
  oneOf,
  statusLabel,
  type LabelGuardOptions,
  type WalletLabelSource,
} from "./labels.js";
export {
  DEFAULT_MARKET_GRACE_MS,
  MarketLabels,
  type ExportMarks,
  type MarketLabelsOptions,
  type MarketSlotChange,
  type MarketSlotState,
  type MarketUsage,
} from "./market-labels.js";
export { MarketSeries } from "./market-series.js";
export { ROUTE_TEMPLATES, routeTemplate } from "./routes.js";
