/**
 * The hook the risk layer (src/bot/risk, another module) plugs into. The engine calls it on every
 * cycle of every (wallet, market): first with the strategy's desired quotes, then with the plan the
 * reconciler made from them; it executes whatever plan comes back. Both calls are synchronous and
 * must be pure with respect to I/O (the engine owns all I/O). The default passes everything through.
 *
 * Fills, rejects and stream states reach the risk layer as EngineEvents (observer.ts): a risk
 * module that wants them implements EngineObserver too and is passed in both places.
 */
import type { Micros } from "../../core/money.js";
import type { PnlSummary, PositionSummary } from "../inventory.js";
import type { Plan } from "../reconciler.js";
import type { BookView, DesiredQuote, LiveOrder, MarketPhase, PositionView } from "../quotes.js";

/**
 * Read access to the whole engine, for limits that span markets and wallets (notional per wallet,
 * total exposure, daily loss). Every call reads current state; nothing here does I/O.
 */
export interface EngineView {
  /** Lower-cased wallet addresses, config order. */
  wallets(): readonly string[];
  /** Symbols of the markets followed now. */
  markets(): readonly string[];
  /** A wallet's non-terminal orders on a market (pending and cancelling included). */
  liveOrders(wallet: string, marketId: string): readonly LiveOrder[];
  /** A wallet's positions (one market when given). */
  positions(wallet: string, marketId?: string): readonly PositionSummary[];
  /** Realised / unrealised PnL of a wallet, marked at the books' mids. */
  pnl(wallet: string): PnlSummary;
  /** Mid of an outcome's book; undefined without a two-sided book. */
  mark(marketId: string, outcome: number): Micros | undefined;
}

export interface RiskContext {
  /** Lower-cased wallet address. */
  wallet: string;
  walletName: string;
  /** Market symbol. */
  marketId: string;
  outcomeCount: number;
  nowMs: number;
  /** The phase the engine computed (lifecycle, closesAt, stale data). */
  phase: MarketPhase;
  phaseReason: string;
  /** YES (outcome 0) book, or undefined when none has been read yet. */
  book: BookView | undefined;
  /** Age of the market data, undefined when none. */
  dataAgeMs: number | undefined;
  inventory: readonly PositionView[];
  live: readonly LiveOrder[];
  stream: { subscribed: boolean; downSinceMs: number | undefined };
  /** Everything else (other markets, other wallets). */
  engine: EngineView;
}

export interface RiskHook {
  /** Adjust the desired quotes before reconciling (caps, bands, halts: return [] to pull). */
  reviewQuotes?(quotes: DesiredQuote[], ctx: RiskContext): DesiredQuote[];
  /**
   * Called on every plan; returns the plan to execute. The engine executes `cancels` then `places`
   * (it re-chunks them itself, so editing the two lists is enough).
   */
  reviewPlan(plan: Plan, ctx: RiskContext): Plan;
  /** Active halts, for the status line ("market X: daily loss"). */
  halts?(): readonly string[];
}

export const PASS_THROUGH_RISK: RiskHook = { reviewPlan: (plan) => plan };
