/**
 * Engine timings and policies that are not in the daemon config (they have safe defaults and
 * exist mostly so tests can shorten them). All durations in ms.
 */
import type { HeartbeatOptions } from "../../stream/index.js";
import type { ForeignOrderPolicy } from "./shutdown.js";
import type { RetryPolicy } from "./startup.js";

export interface EngineTuning {
  /** Open-order walk + trade pull per wallet. */
  fillSyncMs: number;
  /** Cancel retries, unknown-order lookups, buffered frames. */
  maintenanceMs: number;
  /** Inventory vs /api/me/positions and /balances. */
  driftCheckMs: number;
  /** Re-read the rows (status, window) of followed markets. */
  statusRefreshMs: number;
  /** An unknown placement is looked up only after this long (the platform may still be recording it). */
  unknownGraceMs: number;
  /** Vault / platform-info retries at start-up. */
  startupRetry: RetryPolicy;
  /** start() stops waiting for slow wallets after this (they keep starting in the background). */
  startupWaitMs: number;
  /** How long start-up waits for a wallet's stream subscription before going on without it. */
  streamReadyWaitMs: number;
  /** Share of the 600/60 s markets IP bucket the order-book poller may use. */
  bookBudgetShare: number;
  /** Never read one book more often than this. */
  minBookIntervalMs: number;
  /** Share of the 240/60 s market-trades IP bucket the public trade feed may use (0: no trades). */
  tradeBudgetShare: number;
  /** Never read one market's public trades more often than this. */
  minTradeIntervalMs: number;
  /** Public trades kept per quoted outcome (the strategies' `recentTrades`). */
  maxRecentTrades: number;
  /** Public trades older than this are dropped. */
  recentTradesWindowMs: number;
  /** Open orders not carrying this instance's clientOrderId prefix: cancel them, or leave them be. */
  foreignOrders: ForeignOrderPolicy;
  /** Trades this much older than the last pulled one are still read again. */
  tradePullMarginMs: number;
  /**
   * Fill records younger than this stay in memory; older ones are folded into the ledger's
   * checkpoint and the inventory's position bases after each sync (fill-compaction.ts). 0: never.
   */
  fillRetentionMs: number;
  /** User-stream heartbeat (tests shorten it). */
  streamHeartbeat?: Partial<HeartbeatOptions>;
  /** Status callback period (the demo's status line); 0 = none. */
  statusEveryMs: number;
  /** Sign the neighbours of resting quotes ahead of time (presign.ts). */
  presign: boolean;
  /** Halts are evaluated at least this often without any cycle (also the /health heartbeat). */
  riskEvaluateMs: number;
}

export const DEFAULT_TUNING: EngineTuning = {
  fillSyncMs: 30_000,
  maintenanceMs: 1_000,
  driftCheckMs: 60_000,
  statusRefreshMs: 5_000,
  unknownGraceMs: 1_000,
  startupRetry: { initialMs: 1_000, maxMs: 10_000 },
  startupWaitMs: 120_000,
  streamReadyWaitMs: 10_000,
  bookBudgetShare: 0.8,
  minBookIntervalMs: 500,
  tradeBudgetShare: 0.5,
  minTradeIntervalMs: 2_000,
  maxRecentTrades: 200,
  recentTradesWindowMs: 15 * 60_000,
  foreignOrders: "cancel",
  tradePullMarginMs: 5_000,
  fillRetentionMs: 3_600_000,
  statusEveryMs: 0,
  presign: true,
  riskEvaluateMs: 1_000,
};
