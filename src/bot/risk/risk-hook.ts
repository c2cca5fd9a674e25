/**
 * A risk hook (DaemonDeps.risk) plugs into every quote cycle of every (wallet, market)
 * (src/bot/quote/cycle.ts): after the core risk's limits with the desired quotes, then with the
 * plan the reconciler made from them; the engine executes whatever plan comes back, except that
 * nothing is ever placed on a halted or pulled market and PRE_MARKET stays post-only. Both calls
 * are synchronous and must be pure with respect to I/O (the engine owns all I/O). Just before each
 * order leaves, `allowPlace` is asked again (send-check.ts): a halt raised while a cycle was
 * signing or waiting for the rate gate stops it there.
 *
 * The daemon always runs its core risk (core-risk.ts, over src/bot/risk) first; a hook can only
 * narrow what the core allowed. `chainRisk` composes several hooks into one. Fills, rejects and
 * stream states reach the risk layer as EngineEvents (observer.ts).
 */
import type { Micros } from "../../core/money.js";
import type { PnlSummary, PositionSummary } from "../fills/inventory.js";
import type { Plan } from "../quote/reconciler.js";
import type { BookView, DesiredQuote, LiveOrder, MarketPhase, PositionView } from "../quote/quotes.js";

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
  /** Outcomes of a followed market; undefined for a market the engine does not know. */
  outcomeCount(marketId: string): number | undefined;
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
  /** May an order of (wallet, market) leave now? Asked just before each send. Absent: yes. */
  allowPlace?(wallet: string, walletName: string, marketId: string): boolean;
}

export const PASS_THROUGH_RISK: RiskHook = { reviewPlan: (plan) => plan };

/** Hooks applied in order: each one reviews what the previous one returned. */
export function chainRisk(hooks: readonly RiskHook[]): RiskHook {
  if (hooks.length === 1) return hooks[0]!;
  return {
    reviewQuotes: (quotes, ctx) => hooks.reduce((q, h) => (h.reviewQuotes ? h.reviewQuotes(q, ctx) : q), quotes),
    reviewPlan: (plan, ctx) => hooks.reduce((p, h) => h.reviewPlan(p, ctx), plan),
    halts: () => hooks.flatMap((h) => h.halts?.() ?? []),
    allowPlace: (wallet, walletName, marketId) => hooks.every((h) => h.allowPlace?.(wallet, walletName, marketId) ?? true),
  };
}
