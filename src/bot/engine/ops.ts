/**
 * The daemon's operations wiring, always on: its metrics registry (src/metrics) fed by the
 * engine's events and read at scrape time, the /health and /ready probes, and the operator HTTP
 * server with the authenticated kill switch (POST /admin/kill) and resume (POST /admin/resume).
 *
 * The server is started explicitly (`serve`, by `mm run` and by tests) because it binds a port;
 * everything else exists from construction, so a daemon in a test has its metrics too.
 */
import type { Transport } from "../../wire/transport.js";
import type { Clock } from "../../core/clock.js";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../log/index.js";
import { EngineMetricsBridge, trackTrackerAnomalies } from "../../metrics/engine-bridge.js";
import { instrumentTransport } from "../../metrics/http-instrument.js";
import { MetricsServer, type AdminActions } from "../../metrics/metrics-server.js";
import type { StatusDocument } from "../../metrics/status-route.js";
import { MetricsObserver } from "../../metrics/observer.js";
import { microsToNumber } from "../../core/money.js";
import { Probes } from "../../metrics/health.js";
import { DaemonMetrics } from "../../metrics/registry.js";
import type { ScrapeSources, TrackerCountersSource } from "../../metrics/scrape-sources.js";
import type { Halt } from "../risk/types.js";

export interface OpsOptions {
  config: Config;
  clock: Clock;
  log: Logger;
  /** Halts for /ready (the risk facade fits); read lazily. */
  risk: () => { globallyHalted(): boolean; halts(): readonly Halt[] };
  /** Monotonic ms for request latency. */
  monotonic: () => number;
}

export class DaemonOps {
  readonly metrics: DaemonMetrics;
  /** Metric updates, one method per fact (halts, gate waits, requests go straight here). */
  readonly events: MetricsObserver;
  /** EngineEvents -> metric updates. */
  readonly bridge: EngineMetricsBridge;
  readonly probes: Probes;
  private server: MetricsServer | undefined;
  private trackersAttached = false;

  constructor(private readonly o: OpsOptions) {
    const c = o.config;
    this.metrics = new DaemonMetrics({
      clock: o.clock,
      wallets: c.wallets.map((w) => ({ name: w.name, address: w.address })),
      maxMarkets: c.markets.maxMarkets,
      processMetrics: c.metrics.processMetrics ?? true,
      dailyLossLimit: c.risk.dailyLossLimit,
    });
    this.events = new MetricsObserver(this.metrics);
    this.bridge = new EngineMetricsBridge(this.events, o.clock);
    this.probes = new Probes({
      clock: o.clock,
      risk: { globallyHalted: () => o.risk().globallyHalted(), halts: () => o.risk().halts() },
    });
  }

  /** A config became active (start-up, an applied reload): its hash, and the limits the metrics show. */
  configActive(hash: string, config: Config): void {
    this.metrics.configInfo.set(hash);
    this.metrics.dailyLossLimit.set(microsToNumber(config.risk.dailyLossLimit));
  }

  /** The transport with every request timed by route template, method and status. */
  instrument(transport: Transport): Transport {
    return instrumentTransport(transport, this.events, { now: this.o.monotonic });
  }

  /** Live objects read at scrape time. */
  attach(sources: Omit<ScrapeSources, "ready">): void {
    this.metrics.setSources({ ...sources, ready: () => this.probes.isReady() });
  }

  /** The order trackers' anomaly counters (mm_tracker_anomalies_total), read at scrape time. Once. */
  attachTrackers(source: () => Iterable<TrackerCountersSource>): void {
    if (this.trackersAttached) return;
    this.trackersAttached = true;
    trackTrackerAnomalies(this.metrics, source);
  }

  /** Start serving on config metrics.host:port; resolves with the bound address. */
  async serve(actions: AdminActions, statusDocument?: () => StatusDocument): Promise<{ host: string; port: number }> {
    if (this.server === undefined) {
      this.server = new MetricsServer({
        host: this.o.config.metrics.host,
        port: this.o.config.metrics.port,
        metrics: this.metrics,
        probes: this.probes,
        admin: { token: this.o.config.admin.token, actions },
        ...(statusDocument === undefined ? {} : { status: { token: this.o.config.metrics.statusToken, document: statusDocument } }),
        log: this.o.log.child({ component: "ops-http" }),
      });
    }
    const addr = await this.server.start();
    this.o.log.info({ host: addr.host, port: addr.port, admin: this.o.config.admin.token !== undefined, status: this.o.config.metrics.statusToken !== undefined }, "serving /metrics /health /ready");
    return addr;
  }

  get address(): { host: string; port: number } | undefined {
    return this.server?.address;
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}
