/**
 * The daemon's metrics themselves: each series' name, help, labels and buckets, on a prom-client
 * Registry of its own (never the global default, so two daemons in one process - tests,
 * backtests - do not share series), with the label guard that bounds their labels and the live
 * objects read at scrape time.
 *
 * This is what everything else in src/metrics writes to: the observer (event metrics), the
 * collectors (scrape metrics, collectors.ts) and the market series (market-series.ts) take a
 * MetricSet; DaemonMetrics (registry.ts) adds the scrape on top of them. Names follow the
 * Prometheus conventions (snake_case, `mm_` prefix, `_total` on counters only, base units:
 * seconds, shares, settlement-token units); docs/metrics.md describes each one.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Clock } from "../core/clock.js";
import { microsToNumber, type Micros } from "../core/money.js";
import { LoadShedMetrics } from "./capacity-metrics.js";
import { vaultMergeMetrics, type VaultMergeMetrics } from "./vault-metrics.js";
import { SettlementMetrics } from "./settlement-metrics.js";
import { LeaseMetrics } from "./lease-metrics.js";
import { LabelGuard, type LabelGuardOptions } from "./labels.js";
import { LoopMetrics } from "./loop-metrics.js";
import { adverseMetrics } from "./adverse-metrics.js";
import { TRACKER_ANOMALY_KINDS, type ScrapeSources } from "./scrape-sources.js";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];
const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const CYCLE_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface MetricSetOptions extends LabelGuardOptions {
  /** For the scrape-time figures that need "now" (stream frame lag). */
  clock: Clock;
  /** Node process metrics (process_*, nodejs_*). Default true. */
  processMetrics?: boolean;
  /** Shown as mm_daily_loss_limit (config risk.dailyLossLimit). */
  dailyLossLimit?: Micros;
}

type WM = "wallet" | "market";

export class MetricSet {
  readonly registry = new Registry();
  readonly labels: LabelGuard;
  readonly clock: Clock;
  /** Live objects read at scrape time; set them as the engine builds them. */
  readonly sources: ScrapeSources = {};

  // ---- quoting and orders ----
  readonly liveQuotes: Gauge<WM | "side">;
  readonly ordersPlaced: Counter<WM>;
  readonly ordersCancelled: Counter<WM>;
  readonly ordersRejected: Counter<WM | "code">;
  readonly ordersUnknown: Gauge<"wallet">;
  readonly quotesDropped: Counter<WM | "reason">;
  readonly quoteControlChanges: Counter<"control">;
  readonly trackerAnomalies: Counter<"wallet" | "kind">;
  readonly cycleDuration: Histogram;
  readonly lastCycle: Gauge;
  // ---- fills, positions, PnL ----
  readonly fills: Counter<WM | "role">;
  readonly tradedShares: Counter<WM | "role">;
  readonly tradedNotional: Counter<WM | "role">;
  readonly feesPaid: Counter<WM>;
  readonly position: Gauge<WM | "outcome">;
  readonly realisedPnl: Gauge<WM>;
  readonly unrealisedPnl: Gauge<WM>;
  readonly dailyPnl: Gauge<"wallet">;
  readonly dailyLossLimit: Gauge;
  // ---- reconciliation, risk ----
  readonly reconciliations: Counter<"wallet" | "result">;
  readonly reconciliationDrift: Gauge<"wallet">;
  readonly haltsRaised: Counter<"scope" | "reason">;
  readonly haltActive: Gauge<"scope" | "target" | "reason">;
  readonly haltsActive: Gauge<"reason">;
  readonly ready: Gauge;
  readonly authRefusals: Counter<"wallet" | "code">;
  // ---- platform client ----
  readonly httpDuration: Histogram<"route" | "method" | "status">;
  readonly gateWait: Histogram<"bucket">;
  readonly gateQueueDepth: Gauge<"bucket" | "subject">;
  readonly gateWindowUsed: Gauge<"bucket" | "subject">;
  readonly gateAdmitted: Counter<"bucket" | "subject">;
  readonly gate429: Counter<"bucket" | "subject">;
  readonly breakerState: Gauge<"state">;
  readonly breakerOpened: Counter;
  readonly breakerRefused: Counter;
  // ---- user stream ----
  readonly streamConnected: Gauge<"wallet">;
  readonly streamReconnects: Counter<"wallet">;
  readonly streamFrames: Counter<"wallet">;
  readonly streamFrameLag: Gauge<"wallet">;
  readonly streamFrameDelay: Histogram<"wallet">;
  // ---- event loop, dead-man switch (loop-metrics.ts; the engine attaches its monitor) ----
  readonly loop: LoopMetrics;
  // ---- load shedding (capacity-metrics.ts; the engine attaches its capacity guard) ----
  readonly loadShed: LoadShedMetrics;
  // ---- auto-merge (vault-metrics.ts; EngineEvent vault_merge) ----
  readonly vaultMerges: VaultMergeMetrics;
  // ---- settlement checks (settlement-metrics.ts; the engine attaches its settlement watcher) ----
  readonly settlement: SettlementMetrics;
  // ---- shard leases (lease-metrics.ts; the engine attaches its leases when shard.lease is on) ----
  readonly lease: LeaseMetrics;

  constructor(opts: MetricSetOptions) {
    this.labels = new LabelGuard({ ...opts, now: () => opts.clock.now() });
    this.clock = opts.clock;
    const registers = [this.registry];
    const counter = <T extends string>(name: string, help: string, labelNames: readonly T[] = []): Counter<T> =>
      new Counter<T>({ name, help, labelNames, registers });
    const gauge = <T extends string>(name: string, help: string, labelNames: readonly T[] = []): Gauge<T> =>
      new Gauge<T>({ name, help, labelNames, registers });
    const histogram = <T extends string>(name: string, help: string, buckets: number[], labelNames: readonly T[] = []) =>
      new Histogram<T>({ name, help, labelNames, buckets, registers });
    const wm = ["wallet", "market"] as const;

    this.liveQuotes = gauge(
      "mm_live_quotes",
      "Our orders resting on the book (acknowledged, not cancelling).",
      [...wm, "side"],
    );
    this.ordersPlaced = counter(
      "mm_orders_placed_total",
      "Orders accepted by the platform (OPEN, PARTIAL or FILLED at placement).",
      wm,
    );
    this.ordersCancelled = counter("mm_orders_cancelled_total", "Orders confirmed cancelled.", wm);
    this.ordersRejected = counter(
      "mm_orders_rejected_total",
      "Orders refused, by error code (unknown codes as other).",
      [...wm, "code"],
    );
    this.ordersUnknown = gauge(
      "mm_orders_unknown_state",
      "Orders whose outcome is unknown (timeout, 5xx) and not yet resolved by a read.",
      ["wallet"],
    );
    this.quotesDropped = counter(
      "mm_risk_quotes_dropped_total",
      "Desired quotes dropped or resized by a risk limit or halt.",
      [...wm, "reason"],
    );
    this.quoteControlChanges = counter(
      "mm_quote_control_changes_total",
      "Desired quotes a quote control (controls:, docs/strategies.md) dropped, resized, moved or added, by control.",
      ["control"],
    );
    this.trackerAnomalies = counter(
      "mm_tracker_anomalies_total",
      `Order tracker anomalies per wallet, by kind (${Object.keys(TRACKER_ANOMALY_KINDS).join(", ")}).`,
      ["wallet", "kind"],
    );
    this.cycleDuration = histogram(
      "mm_quote_cycle_duration_seconds",
      "Duration of one quoting cycle of one (wallet, market): strategy, risk, reconcile, sends.",
      CYCLE_BUCKETS,
    );
    this.lastCycle = gauge("mm_last_cycle_timestamp_seconds", "Unix time of the last completed quoting cycle.");
    // Live markouts, toxicity and jump cooling (adverse-metrics.ts), fed through MetricsObserver.
    adverseMetrics(this.registry);

    this.fills = counter("mm_fills_total", "Fills of our orders, by role.", [...wm, "role"]);
    this.tradedShares = counter("mm_traded_shares_total", "Shares traded by our fills.", [...wm, "role"]);
    this.tradedNotional = counter(
      "mm_traded_notional_total",
      "Notional traded by our fills, in settlement-token units.",
      [...wm, "role"],
    );
    this.feesPaid = counter("mm_fees_paid_total", "Fees paid on our fills, in settlement-token units.", wm);
    this.position = gauge("mm_position_shares", "Shares held per outcome.", [...wm, "outcome"]);
    this.realisedPnl = gauge("mm_realised_pnl", "Realised PnL since start, in settlement-token units.", wm);
    this.unrealisedPnl = gauge("mm_unrealised_pnl", "Unrealised PnL at the current marks, in settlement-token units.", wm);
    this.dailyPnl = gauge(
      "mm_daily_pnl",
      "Realised plus unrealised PnL since 00:00 UTC net of fees (what the daily loss limit watches).",
      ["wallet"],
    );
    this.dailyLossLimit = gauge("mm_daily_loss_limit", "Configured daily loss limit, in settlement-token units.");
    if (opts.dailyLossLimit !== undefined) this.dailyLossLimit.set(microsToNumber(opts.dailyLossLimit));

    this.reconciliations = counter(
      "mm_reconciliations_total",
      "Reconciliations against the platform, by result (clean, drift).",
      ["wallet", "result"],
    );
    this.reconciliationDrift = gauge(
      "mm_reconciliation_drift",
      "Records found drifted by the last reconciliation of the wallet.",
      ["wallet"],
    );
    this.haltsRaised = counter("mm_risk_halts_total", "Risk halts raised, by scope kind and reason.", ["scope", "reason"]);
    this.haltActive = gauge(
      "mm_risk_halt_active",
      "1 for each active halt (scope kind, wallet or market or all, reason).",
      ["scope", "target", "reason"],
    );
    this.haltsActive = gauge("mm_risk_halts_active", "Active halts per reason (0 when none).", ["reason"]);
    this.ready = gauge("mm_ready", "1 when /ready answers 200: started, no global halt, no auth_refused/stream_down/dead_man/capacity halt on any scope.");
    this.authRefusals = counter(
      "mm_auth_refusals_total",
      "Requests and stream upgrades refused with HTTP 401 (API key or wallet header refused), by wallet and code.",
      ["wallet", "code"],
    );

    this.httpDuration = histogram(
      "mm_http_request_duration_seconds",
      "Platform API request latency by route template, method and status (error: no answer).",
      LATENCY_BUCKETS,
      ["route", "method", "status"],
    );
    this.gateWait = histogram(
      "mm_rate_gate_wait_seconds",
      "Time requests waited in the client rate gate, per bucket.",
      WAIT_BUCKETS,
      ["bucket"],
    );
    this.gateQueueDepth = gauge(
      "mm_rate_gate_queue_depth",
      "Requests waiting in the rate gate per bucket and subject (wallet name, ip, partner).",
      ["bucket", "subject"],
    );
    this.gateWindowUsed = gauge(
      "mm_rate_gate_window_used_ratio",
      "Share of the bucket's budget used in the current window (1 while blocked).",
      ["bucket", "subject"],
    );
    this.gateAdmitted = counter("mm_rate_gate_admitted_total", "Requests admitted by the rate gate.", ["bucket", "subject"]);
    this.gate429 = counter(
      "mm_rate_limited_responses_total",
      "HTTP 429 answers received, by the bucket charged.",
      ["bucket", "subject"],
    );
    this.breakerState = gauge(
      "mm_circuit_breaker_state",
      "1 for the circuit breaker's current state (closed, open, half_open).",
      ["state"],
    );
    this.breakerOpened = counter("mm_circuit_breaker_opened_total", "Times the client's circuit breaker opened.");
    this.breakerRefused = counter(
      "mm_circuit_breaker_refused_total",
      "Requests refused locally by the open circuit breaker.",
    );

    this.streamConnected = gauge("mm_stream_connected", "1 while the user stream is connected and subscribed.", ["wallet"]);
    this.streamReconnects = counter("mm_stream_reconnects_total", "User stream reconnects scheduled.", ["wallet"]);
    this.streamFrames = counter("mm_stream_frames_total", "User stream messages received.", ["wallet"]);
    this.streamFrameLag = gauge(
      "mm_stream_frame_lag_seconds",
      "Now minus the newest frame's serverTs (grows while the stream is silent).",
      ["wallet"],
    );
    this.streamFrameDelay = histogram(
      "mm_stream_frame_delay_seconds",
      "Per order frame: local receive time minus serverTs (clock skew included, clamped at 0).",
      LAG_BUCKETS,
      ["wallet"],
    );
    this.loop = new LoopMetrics(this.registry);
    this.loadShed = new LoadShedMetrics(this.registry);
    this.vaultMerges = vaultMergeMetrics(this.registry);
    this.settlement = new SettlementMetrics(this.registry);
    this.lease = new LeaseMetrics(this.registry, this.labels);

    if (opts.processMetrics ?? true) {
      collectDefaultMetrics({ register: this.registry });
      // prom-client's nodejs_active_*_total are gauges named like counters (promtool refuses
      // them); nodejs_active_* carry the same figures.
      for (const metric of this.registry.getMetricsAsArray()) {
        if (metric.name.endsWith("_total") && String(metric.type) !== "counter") this.registry.removeSingleMetric(metric.name);
      }
    }
  }
}
