/**
 * One quote cycle of one (wallet, market), up to the plan: the phase the engine enforces (the
 * market's own phase, pulled further when the market is not this wallet's, the wallet is still
 * onboarding, or the data is stale), the strategy's quotes, the risk hook, the reconciler sized to
 * the rate budget, the risk hook again. No I/O: the runner executes the plan.
 */
import type { Micros } from "../../core/money.js";
import type { StrategyRunner } from "../../../strategies/registry.js";
import type { Plan } from "./reconciler.js";
import { reconcile } from "./reconciler.js";
import type { DesiredQuote, LiveOrder, MarketPhase, PositionView } from "./quotes.js";
import type { BookSnapshot, MarketDataSource } from "../market/market-data.js";
import type { MarketEntry, MarketRegistry } from "../market/market-registry.js";
import type { OwnOrderView } from "./own-orders.js";
import { desiredQuotes, enforcePhase, midsOf, quotedOutcomes } from "./quote-cycle.js";
import type { EngineView, RiskContext, RiskHook } from "../risk/risk-hook.js";
import type { TradeSource } from "../market/trade-feed.js";

export interface QuotingParams {
  priceToleranceTicks: number;
  sizeTolerance: number;
  maxOrderAgeMs: number;
  orderExpirySec?: number | undefined;
}

export interface CycleInput {
  symbol: string;
  nowMs: number;
  wallet: string;
  walletName: string;
  walletIndex: number;
  /** Quoting paused until then (onboarding answers). */
  pausedUntilMs: number;
  registry: MarketRegistry;
  data: MarketDataSource;
  /** Public trades for the strategy's `recentTrades`; absent: none. */
  trades?: TradeSource | undefined;
  live: readonly LiveOrder[];
  inventory: readonly PositionView[];
  strategy: StrategyRunner;
  /** Per-outcome strategy state of this market (updated in place). */
  states: Map<number, unknown>;
  ownAt: (sentSeq: number, outcome: number | undefined) => readonly OwnOrderView[];
  risk: RiskHook;
  quoting: QuotingParams;
  budget: { cancels: number; places: number };
  defaultFeeTakerBps: number;
  stream: RiskContext["stream"];
  engine: EngineView;
}

export interface CyclePlan {
  entry: MarketEntry | undefined;
  phase: MarketPhase;
  reason: string;
  desired: DesiredQuote[];
  plan: Plan;
  /** Cancels and places the budget pushed to a later cycle. */
  deferredByBudget: number;
}

export interface EnginePhase {
  phase: MarketPhase;
  reason: string;
  closesAtMs: number | null;
}

/** The phase the engine acts on (see the header). */
export function enginePhase(i: Pick<CycleInput, "symbol" | "nowMs" | "registry" | "data" | "walletIndex" | "pausedUntilMs">): EnginePhase {
  const entry = i.registry.get(i.symbol);
  if (entry === undefined) return { phase: "stopped", reason: "unknown_market", closesAtMs: null };
  const p = i.registry.phase(i.symbol, i.nowMs)!;
  const base = { closesAtMs: p.closesAtMs };
  if (!entry.selected || entry.wallet !== i.walletIndex) return { ...base, phase: "pull", reason: "not_assigned" };
  if (i.nowMs < i.pausedUntilMs) return { ...base, phase: "pull", reason: "onboarding" };
  if (p.phase === "open" || p.phase === "pre_market") {
    for (const o of quotedOutcomes(entry.row.outcomeCount)) {
      if (i.data.isStale(i.symbol, o)) return { ...base, phase: "pull", reason: "stale_data" };
    }
  }
  return { ...base, phase: p.phase, reason: p.reason };
}

export function planCycle(i: CycleInput): CyclePlan {
  const entry = i.registry.get(i.symbol);
  const { phase, reason, closesAtMs } = enginePhase(i);
  const outcomeCount = entry?.row.outcomeCount ?? 2;
  const books = new Map<number, BookSnapshot | undefined>();
  for (const o of quotedOutcomes(outcomeCount)) books.set(o, i.data.book(i.symbol, o));
  let desired =
    entry === undefined
      ? []
      : desiredQuotes({
          strategy: i.strategy,
          states: i.states,
          marketId: i.symbol,
          outcomeCount,
          phase,
          books,
          trades: i.trades,
          ownAt: i.ownAt,
          inventory: i.inventory,
          nowMs: i.nowMs,
          closesAtMs,
          feeTakerBps: entry.row.feeTakerBps ?? i.defaultFeeTakerBps,
        });
  const ctx: RiskContext = {
    wallet: i.wallet,
    walletName: i.walletName,
    marketId: i.symbol,
    outcomeCount,
    nowMs: i.nowMs,
    phase,
    phaseReason: reason,
    book: books.get(0)?.view,
    dataAgeMs: i.data.ageMs(i.symbol, 0),
    inventory: i.inventory,
    live: i.live,
    stream: i.stream,
    engine: i.engine,
  };
  if (i.risk.reviewQuotes) desired = enforcePhase(i.risk.reviewQuotes(desired, ctx), phase);
  const mids: Record<number, Micros> = midsOf(books, outcomeCount);
  let plan = reconcile(desired, i.live, {
    priceToleranceTicks: i.quoting.priceToleranceTicks,
    sizeTolerance: i.quoting.sizeTolerance,
    maxOrderAgeMs: i.quoting.maxOrderAgeMs,
    nowMs: i.nowMs,
    budget: i.budget,
    mids,
  });
  plan = i.risk.reviewPlan(plan, ctx);
  // Nothing is placed on a market we only pull (whatever a risk hook returned).
  if (entry === undefined || phase === "pull" || phase === "stopped") plan = { ...plan, places: [], placeBatches: [] };
  const deferredByBudget = plan.deferred.cancels.length + plan.deferred.places.filter((d) => d.reason === "budget").length;
  return { entry, phase, reason, desired, plan, deferredByBudget };
}
