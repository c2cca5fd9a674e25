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
 *   cycle                       -> mm_quote_cycle_duration_seconds, mm_last_cycle_timestamp_seconds,
 *                                  mm_quote_control_changes_total{control}
 *   market_phase                -> the markets in use changed (market labels look again at once)
 *   markout                     -> mm_fill_markout_ticks{horizon,side} (adverse-metrics.ts)
 *   adverse_state               -> mm_toxicity_state{outcome,side}, mm_jump_cooling
 *   vault_merge                 -> mm_vault_merges_total{result}, mm_vault_merged_shares_total
 *
 * Halts reach the metrics from the risk facade's onChange (MetricsObserver.halt), request
 * latency from the instrumented transport, rate-gate waits from the gate's onWait.
 *
 * The order trackers' anomaly counters are totals kept by the trackers: `trackTrackerAnomalies`
 * points mm_tracker_anomalies_total{wallet,kind} at them, read at scrape time.
 */
import type { Counter } from "prom-client";
import type { EngineEvent } from "../bot/observer.js";
import type { Clock } from "../core/clock.js";
import type { TrackerCountersSource } from "./scrape-sources.js";
import type { MetricsObserver } from "./observer.js";
import type { DaemonMetrics } from "./registry.js";


/**
 * Feed mm_tracker_anomalies_total (declared by DaemonMetrics, so every registry carries it) from
 * `source` at each scrape: the trackers keep the totals, the counter mirrors them.
 */
export function trackTrackerAnomalies(metrics: DaemonMetrics, source: () => Iterable<TrackerCountersSource>): Counter<"wallet" | "kind"> {
  metrics.setSources({ trackers: source });
  return metrics.trackerAnomalies;
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
        if (e.controls !== undefined) for (const [control, n] of e.controls) this.m.quoteControlChanges(control, n);
        return;
      case "market_phase":
        this.m.marketsChanged();
        return;
      case "markout":
        this.m.markout(e.wallet, e.marketId, e.side, e.horizonMs, e.perShare);
        return;
      case "adverse_state":
        this.m.adverseState(e.wallet, e.marketId, e.sides, e.jumpCoolingUntilMs !== null);
        return;
      case "vault_merge":
        this.m.vaultMerge(e.wallet, e.result, e.amount);
        return;
      default:
        return;
    }
  }
}
