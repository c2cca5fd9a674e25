/**
 * What the metrics read at scrape time: the live objects the engine attaches to its DaemonMetrics
 * (rate gate, circuit breaker, user streams, risk halts, readiness, the engine's state, the order
 * trackers' counters). The metric set holds them, the collectors (collectors.ts) and the market
 * series (market-series.ts) read them, the engine fills them in (src/bot/engine/ops.ts): this
 * vocabulary sits below all three so none of them has to import another for it.
 */
import type { BreakerStats } from "../api/breaker.js";
import type { TrackerCounters } from "../bot/orders/order-tracker-types.js";
import type { Halt } from "../bot/risk/types.js";
import type { Micros } from "../core/money.js";
import type { BucketStats } from "../ratelimit/gate.js";
import type { UserStreamStats } from "../stream/events.js";

export interface StreamSource {
  /** Wallet name (or address: mapped to the name). */
  wallet: string;
  stats(): UserStreamStats;
}

/** The engine's state now; wallets by name (or address: mapped to the name). */
export interface EngineStateSource {
  /** Orders resting on the book (acknowledged, not cancelling), per side. */
  liveQuotes(): Iterable<{ wallet: string; market: string; buy: number; sell: number }>;
  unknownOrders(): Iterable<{ wallet: string; count: number }>;
  positions(): Iterable<{ wallet: string; market: string; outcome: number; qty: Micros }>;
  pnl(): Iterable<{ wallet: string; market: string; realised: Micros; unrealised: Micros }>;
  dailyPnl(): Iterable<{ wallet: string; pnl: Micros }>;
}

/** The `kind` label of mm_tracker_anomalies_total, and the order-tracker counter each one reads. */
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

/** One wallet's order-tracker counters (wallet by name or address: the label guard maps it). */
export interface TrackerCountersSource {
  wallet: string;
  counters: Readonly<TrackerCounters>;
}

export interface ScrapeSources {
  /** src/ratelimit's RateGate fits. */
  rateGate?: { stats(): readonly BucketStats[] };
  /** src/api's CircuitBreaker fits. */
  breaker?: { stats(): BreakerStats };
  /** The user streams, one per wallet (a function: streams come and go). */
  streams?: () => Iterable<StreamSource>;
  /** The risk facade (Risk) fits. */
  halts?: { halts(): readonly Halt[] };
  /** True when /ready would answer 200. */
  ready?: () => boolean;
  /** Live quotes, unknown orders, positions, PnL (replaces what the observer set for them). */
  engine?: EngineStateSource;
  /** The order trackers' counters, one per wallet (mm_tracker_anomalies_total). */
  trackers?: () => Iterable<TrackerCountersSource>;
}
