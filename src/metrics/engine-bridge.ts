/**
 * The daemon's EngineEvents turned into metric updates (the event half; the state half - live
 * quotes, positions, PnL, unknown orders - is read at scrape time through `engineState`).
 *
 *   order_placed                -> mm_orders_placed_total
 *   order_cancelled (CANCELLED) -> mm_orders_cancelled_total (pending cancels count once final)
 *   order_rejected              -> mm_orders_rejected_total{code}
 *   fill                        -> mm_fills_total, mm_traded_shares_total, mm_traded_notional_total,
 *                                  mm_fees_paid_total
 *   stream_frame                -> mm_stream_frame_delay_seconds
 *   reconciliation              -> mm_reconciliations_total, mm_reconciliation_drift
 *   cycle                       -> mm_quote_cycle_duration_seconds, mm_last_cycle_timestamp_seconds
 *
 * Halts reach the metrics from the risk facade's onChange (MetricsObserver.halt), request
 * latency from the instrumented transport, rate-gate waits from the gate's onWait.
 *
 * The order trackers' anomaly counters are totals kept by the trackers: `trackTrackerAnomalies`
 * registers mm_tracker_anomalies_total{wallet,kind}, read from them at scrape time.
 */
import { Counter } from "prom-client";
import type { EngineEvent } from "../bot/engine/observer.js";
import type { TrackerCounters } from "../bot/order-tracker.js";
import type { Clock } from "../core/clock.js";
import type { MetricsObserver } from "./observer.js";
import type { DaemonMetrics } from "./registry.js";

/** The `kind` label of mm_tracker_anomalies_total, and the tracker counter each one reads. */
export const TRACKER_ANOMALY_KINDS = {
  /** An order ended as never recorded came back on platform evidence (the lookup raced the platform). */
  resurrected: "resurrected",
  /** Placement trades[] rows without a readable id and quantity (skipped). */
  unreadable_trades: "unreadableTrades",
  /** Lookups answering 404 too soon after the send to conclude (looked up again). */
  not_found_too_soon: "notFoundTooSoon",
  /** Events the transition table refused. */
  impossible: "impossible",
  /** Ids that contradicted what the tracker knew. */
  conflict: "conflict",
  /** Fill totals above the order size (clamped). */
  overfill: "overfill",
} as const satisfies Record<string, keyof TrackerCounters>;

export type TrackerAnomalyKind = keyof typeof TRACKER_ANOMALY_KINDS;

/** One wallet's tracker counters (wallet by name or address: the label guard maps it). */
export interface TrackerCountersSource {
  wallet: string;
  counters: Readonly<TrackerCounters>;
}

/**
 * Register mm_tracker_anomalies_total on the daemon's registry, set from `source` at each scrape
 * (the counters only grow; wallets folding into one label are summed). Call once per registry.
 */
export function trackTrackerAnomalies(metrics: DaemonMetrics, source: () => Iterable<TrackerCountersSource>): Counter<"wallet" | "kind"> {
  return new Counter<"wallet" | "kind">({
    name: "mm_tracker_anomalies_total",
    help: "Order tracker anomalies per wallet, by kind (resurrected, unreadable_trades, not_found_too_soon, impossible, conflict, overfill).",
    labelNames: ["wallet", "kind"],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const s of source()) {
        const wallet = metrics.labels.wallet(s.wallet);
        for (const [kind, field] of Object.entries(TRACKER_ANOMALY_KINDS)) this.inc({ wallet, kind }, s.counters[field]);
      }
    },
  });
}

export class EngineMetricsBridge {
  constructor(
    private readonly m: MetricsObserver,
    private readonly clock: Clock,
  ) {}

  onEvent(e: EngineEvent): void {
    switch (e.type) {
      case "order_placed":
        this.m.ordersPlaced(e.wallet, e.marketId);
        return;
      case "order_cancelled":
        if (e.result === "CANCELLED") this.m.ordersCancelled(e.wallet, e.marketId);
        return;
      case "order_rejected":
        this.m.orderRejected(e.wallet, e.marketId, e.code);
        return;
      case "fill":
        this.m.fill({ wallet: e.wallet, market: e.fill.marketId, role: e.fill.role, qty: e.fill.qty, price: e.fill.price, fee: e.fill.fee });
        return;
      case "stream_frame":
        this.m.streamFrame(e.wallet, e.serverTs, e.at);
        return;
      case "reconciliation":
        this.m.reconciliation(e.wallet, e.positions + e.cash);
        return;
      case "cycle":
        this.m.cycle(e.latencyMs, this.clock.now());
        return;
      default:
        return;
    }
  }
}
