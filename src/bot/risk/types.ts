/**
 * Plain data of the risk layer: limits, halts, observations. No clock, no I/O.
 *
 * Wallets are opaque ids here: use one id per wallet consistently (the configured wallet NAME is
 * what the metrics label with, so passing names avoids a mapping). Markets are symbols.
 */
import type { BreakerState } from "../../api/breaker.js";
import type { Micros } from "../../core/money.js";
import { DEFAULT_EXPLAINED_REJECT_CODES } from "../../config/schema.js";

/**
 * The limits, exactly the shape of the parsed `risk` config section (src/config/schema.ts), so
 * `cfg.risk` can be passed as is.
 */
export interface RiskLimits {
  /** Worst-case shares per market and wallet (binary: net YES - NO exposure; else per outcome). */
  maxPositionPerMarket: Micros;
  /**
   * Worst-case loss per neg-risk event group and wallet, over every possible winner, open orders
   * as if filled (event-group.ts); undefined: no event cap.
   */
  maxEventLoss?: Micros | undefined;
  /** Position cost plus open BUY notional, per wallet. */
  maxNotionalPerWallet: Micros;
  maxNotionalTotal: Micros;
  maxOpenOrdersPerMarket: number;
  /** Shares per order. */
  maxOrderSize: Micros;
  priceBand: { min: Micros; max: Micros };
  dailyLossLimit: Micros;
  staleDataSec: number;
  streamDownSec: number;
  maxRejectsPerMin: number;
}

/** What the risk layer is tuned by: the config's `risk` section, or DEFAULT_TUNING (the config's defaults) without one. */
export interface RiskTuning {
  /** Drifted records tolerated by one reconciliation before halting the wallet. */
  driftTolerance: number;
  /** Sliding window of the reject-storm count. */
  rejectWindowMs: number;
  /** A reject_storm halt clears after this long without an unexplained reject. */
  rejectQuietMs: number;
  /** Reject codes with an ordinary explanation, not counted towards a storm. */
  explainedRejectCodes: readonly string[];
  /** A quote RESIZED by a limit below this many micro-shares is dropped instead (no dust orders). */
  minQuoteSize: Micros;
}

export const DEFAULT_TUNING: RiskTuning = {
  driftTolerance: 0,
  rejectWindowMs: 60_000,
  rejectQuietMs: 60_000,
  explainedRejectCodes: DEFAULT_EXPLAINED_REJECT_CODES,
  minQuoteSize: 1_000_000n,
};

export const HALT_REASONS = [
  "kill_switch",
  "daily_loss",
  "manual",
  "instance_conflict",
  "auth_refused",
  "dead_man",
  "circuit_open",
  "stream_down",
  "reconciliation_drift",
  "reject_storm",
  "capacity",
  "stale_market_data",
] as const;
/** Listed most serious first: a gate verdict names the first active one. */
export type HaltReason = (typeof HALT_REASONS)[number];

export type HaltScope = { kind: "global" } | { kind: "wallet"; wallet: string } | { kind: "market"; market: string };
export type ScopeKind = HaltScope["kind"];

export const GLOBAL: HaltScope = { kind: "global" };

export interface Halt {
  scope: HaltScope;
  reason: HaltReason;
  sinceMs: number;
  /** Human-readable cause (numbers, names: never a secret). */
  detail: string;
}

export type ClearedBy = "rule" | "operator";

export type HaltChange =
  | { type: "raised"; halt: Halt; atMs: number }
  | { type: "cleared"; halt: Halt; atMs: number; by: ClearedBy };

export type GateVerdict = { quote: true } | { quote: false; reason: HaltReason; scope: HaltScope; halts: Halt[] };

// ---- observations (what the engine saw; every field optional: absent = no news) -----------------

export interface MarketDataObs {
  market: string;
  /** Local time of the last book update; undefined: none yet (counts as stale). */
  lastUpdateMs: number | undefined;
}

export interface StreamObs {
  /** The stream's wallet; absent: a process-wide stream (global scope). */
  wallet?: string;
  /** Socket open AND subscription confirmed. */
  connected: boolean;
  /** Since when it is down (set while !connected). */
  downSinceMs?: number;
  /** When the current connection was subscribed (set while connected). */
  connectedSinceMs?: number;
  /** When the last open-order/fill reconciliation completed. */
  reconciledAtMs?: number;
}

export interface ReconciliationObs {
  wallet: string;
  /** Records (positions, orders, cash) that differ between us and the platform, unexplained. */
  drifted: number;
  atMs: number;
}

export interface RejectObs {
  wallet: string;
  market?: string;
  code: string;
  atMs: number;
}

export interface PnlObs {
  /** Absent: the total over every wallet (global scope). */
  wallet?: string;
  /** 00:00 UTC of the day the figure covers; a new value resets the operator's acknowledgement. */
  dayStartMs: number;
  /** Realised + unrealised PnL since dayStartMs, net of fees (negative = loss). */
  pnl: Micros;
}

export interface RiskObservations {
  breaker?: BreakerState;
  marketData?: readonly MarketDataObs[];
  streams?: readonly StreamObs[];
  reconciliations?: readonly ReconciliationObs[];
  rejects?: readonly RejectObs[];
  pnl?: readonly PnlObs[];
}

export function scopeKey(scope: HaltScope): string {
  switch (scope.kind) {
    case "global":
      return "global";
    case "wallet":
      return `wallet:${scope.wallet}`;
    case "market":
      return `market:${scope.market}`;
  }
}

/** The wallet or market a scope names ("all" for global): for logs and metric labels. */
export function scopeTarget(scope: HaltScope): string {
  return scope.kind === "global" ? "all" : scope.kind === "wallet" ? scope.wallet : scope.market;
}
