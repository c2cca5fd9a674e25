/**
 * One quote cycle of one (wallet, market) as a function of values:
 *
 *   quoteCycle(policy, snapshot, strategyState) -> { desired, plan, nextStrategyState, why }
 *
 * The shell (src/bot/engine/wallet-quoting.ts) gathers a frozen snapshot (the phase the engine
 * enforces, books without our own orders in them, public trades, live orders, inventory, the rate
 * budget, the halt verdict and an exposure snapshot, the clock) and executes the plan; this
 * function only decides. In this order, each step once:
 *
 *   1. strategy   the strategy's quotes per quoted outcome (none unless the phase quotes), its state
 *                 carried to the next cycle; post-only in PRE_MARKET whatever the strategy said;
 *                 then the quote controls in order (controls/, strategy-independent: levels,
 *                 spreads, delays, ...), and post-only in PRE_MARKET again;
 *   2. risk       halted: nothing; else the limits (band, size, position, notional, open orders)
 *                 against the exposure snapshot; the neg-risk event group's worst case
 *                 (risk.maxEventLoss, risk/event-group.ts); then an extra hook's review, if given;
 *   3. reconcile  desired quotes against live orders, within tolerance, sized to the rate budget;
 *   4. risk       halted: no places; the extra hook's plan review; and nothing is ever placed on a
 *                 market we only pull, whatever a hook returned.
 *
 * Same inputs, same output: no clock, no I/O, nothing mutated (the strategy state is a new map).
 */
import type { Micros } from "../../core/money.js";
import type { StrategyInput } from "../../../strategies/contract.js";
import type { StrategyRunner } from "../../../strategies/registry.js";
import type { RiskSnapshot } from "../risk/exposure.js";
import { gatedLimits, type LimitReason } from "../risk/limits.js";
import { applyEventLimit, eventBase } from "../risk/event-group.js";
import type { CycleEvent } from "../risk/event-group-view.js";
import type { RiskContext, RiskHook } from "../risk/risk-hook.js";
import type { GateVerdict, RiskLimits, RiskTuning } from "../risk/types.js";
import type { OwnOrderView } from "./own-orders.js";
import { enforcePhase, excludeOwn, quotedOutcomes } from "./quote-cycle.js";
import type { BookSnapshot } from "../market/market-data.js";
import type { Plan } from "./reconciler.js";
import type { MarketSignals } from "./signals.js";
import type { AdverseOptions } from "./adverse/adverse-book.js";
import { reconcile } from "./reconciler.js";
import type { DesiredQuote, LiveOrder, MarketPhase, PositionView, TradeView } from "./quotes.js";

export interface QuotingParams {
  priceToleranceTicks: number;
  sizeTolerance: number;
  maxOrderAgeMs: number;
  orderExpirySec?: number | undefined;
  /** The quote controls (controls/index.ts buildControls); the shell hands them to CyclePolicy.controls. */
  controls?: readonly CycleControl[] | undefined;
  /** The adverse-selection trackers the shell's SignalBook keeps (adverse/adverse-book.ts, from `adverse:`). */
  adverse?: AdverseOptions | undefined;
}

/**
 * A quote control as the cycle runs it (controls/control.ts's QuoteControl is this shape; the
 * cycle does not import the controls, which read this file's snapshot: no import cycle).
 */
export interface CycleControl {
  readonly name: string;
  apply(quotes: readonly DesiredQuote[], s: CycleSnapshot): { quotes: DesiredQuote[]; changed: number };
}

/** What stays the same from one cycle to the next: the strategy, the limits, the tolerances. */
export interface CyclePolicy {
  strategy: StrategyRunner;
  quoting: QuotingParams;
  limits: RiskLimits;
  tuning: Pick<RiskTuning, "minQuoteSize">;
  /** A further risk hook (DaemonDeps.risk): it can only narrow what the limits allowed. */
  hook?: RiskHook | undefined;
  /** Strategy-independent quote controls (controls/index.ts buildControls), applied in order after the strategy, before risk. */
  controls?: readonly CycleControl[] | undefined;
}

/** The phase the engine acts on, and why. */
export interface EnginePhase {
  phase: MarketPhase;
  reason: string;
  closesAtMs: number | null;
}

/** One outcome's book as the strategy sees it. */
export interface QuotedBook {
  /** The book as read, with its sequence number (BookSnapshot). */
  snapshot: BookSnapshot;
  /** Our orders that were resting on it when its read was sent (taken out of it). */
  own: readonly OwnOrderView[];
  /** Public trades of the outcome (YES terms on binary markets), oldest first: the trade feed's stored list, not a copy. */
  trades: readonly TradeView[];
}

export interface CycleSnapshot {
  symbol: string;
  nowMs: number;
  /** The market's outcome count and taker fee; undefined for a market we only pull (unknown to the registry). */
  market: { outcomeCount: number; feeTakerBps: number } | undefined;
  phase: EnginePhase;
  /** Per quoted outcome; gathered only when the phase quotes (an absent outcome has no book yet). */
  books: ReadonlyMap<number, QuotedBook>;
  /** Reference price per outcome for the reconciler's ordering (midsOf). */
  mids: Readonly<Record<number, Micros>>;
  live: readonly LiveOrder[];
  inventory: readonly PositionView[];
  budget: { cancels: number; places: number };
  /** The halt book's verdict for this (wallet, market). */
  gate: GateVerdict;
  /** Exposure of every wallet and market, this (wallet, market) included. */
  exposure: RiskSnapshot;
  /** What a risk hook is shown (wallet, stream state, the engine's read-only view). */
  risk: RiskContext;
  /** What the shell keeps about this (wallet, market) between cycles (signals.ts); absent: none. */
  signals?: MarketSignals | undefined;
  /** The market's neg-risk event group (risk/event-group.ts) and the strategy's view of it; absent: in none. */
  event?: CycleEvent | undefined;
}

export interface CycleWhy {
  phase: MarketPhase;
  reason: string;
  /** Desired quotes the risk step dropped or resized, by reason. */
  filtered: ReadonlyMap<LimitReason, number>;
  /** Cancels and places the budget pushed to a later cycle. */
  deferredByBudget: number;
  /** Quotes each control changed (dropped, resized, moved or added), by control name; only names that changed something. */
  controls: ReadonlyMap<string, number>;
}

export interface CycleResult {
  desired: DesiredQuote[];
  plan: Plan;
  nextStrategyState: ReadonlyMap<number, unknown>;
  why: CycleWhy;
}

/** Per-outcome strategy state of one market. */
export type StrategyState = ReadonlyMap<number, unknown>;

const NO_STATE: StrategyState = new Map();
const NO_CHANGES: ReadonlyMap<string, number> = new Map();

/** The market as the phase rule needs it. */
export interface PhaseInputs {
  nowMs: number;
  /** undefined: the registry does not know the market. */
  market: { selected: boolean; wallet: number | undefined } | undefined;
  /** The lifecycle's phase now (market-phase.ts), when the market is known. */
  lifecycle: EnginePhase | undefined;
  walletIndex: number;
  /** Quoting paused until then (onboarding answers). */
  pausedUntilMs: number;
  /** Some quoted outcome's book is stale. */
  stale: boolean;
}

/**
 * The phase the engine acts on: the market's own phase, pulled further when the market is not this
 * wallet's, the wallet is still onboarding, or the data is stale.
 */
export function enginePhase(i: PhaseInputs): EnginePhase {
  if (i.market === undefined || i.lifecycle === undefined) return { phase: "stopped", reason: "unknown_market", closesAtMs: null };
  const closesAtMs = i.lifecycle.closesAtMs;
  if (!i.market.selected || i.market.wallet !== i.walletIndex) return { closesAtMs, phase: "pull", reason: "not_assigned" };
  if (i.nowMs < i.pausedUntilMs) return { closesAtMs, phase: "pull", reason: "onboarding" };
  if ((i.lifecycle.phase === "open" || i.lifecycle.phase === "pre_market") && i.stale) return { closesAtMs, phase: "pull", reason: "stale_data" };
  return { closesAtMs, phase: i.lifecycle.phase, reason: i.lifecycle.reason };
}

/** The phase quotes: the strategy runs and its inputs are worth gathering. */
export function phaseQuotes(phase: MarketPhase): boolean {
  return phase === "open" || phase === "pre_market";
}

/** Step 1: the strategy's quotes (see the header) and its next state. */
export function strategyQuotes(policy: Pick<CyclePolicy, "strategy">, s: CycleSnapshot, state: StrategyState): { quotes: DesiredQuote[]; next: StrategyState } {
  if (s.market === undefined || !phaseQuotes(s.phase.phase)) return { quotes: [], next: state };
  const { outcomeCount, feeTakerBps } = s.market;
  const binary = outcomeCount === 2;
  const quotes: DesiredQuote[] = [];
  let next: Map<number, unknown> | undefined;
  for (const o of quotedOutcomes(outcomeCount)) {
    const b = s.books.get(o);
    if (b === undefined) continue;
    const input: StrategyInput = {
      marketId: s.symbol,
      outcomeCount,
      phase: s.phase.phase,
      book: excludeOwn(b.snapshot.view, b.own, o, binary),
      recentTrades: b.trades,
      inventory: s.inventory,
      nowMs: s.nowMs,
      closesAtMs: s.phase.closesAtMs,
      timeToCloseMs: s.phase.closesAtMs === null ? null : s.phase.closesAtMs - s.nowMs,
      feeTakerBps,
      quoteOutcome: o,
    };
    if (s.event !== undefined) input.eventGroup = s.event.view;
    const step = policy.strategy.step(input, state.get(o));
    (next ??= new Map(state)).set(o, step.state);
    quotes.push(...step.quotes);
  }
  return { quotes: enforcePhase(quotes, s.phase.phase), next: next ?? state };
}

export function quoteCycle(policy: CyclePolicy, s: CycleSnapshot, state: StrategyState = NO_STATE): CycleResult {
  const { phase, reason } = s.phase;
  // 1. strategy, then the quote controls
  const { quotes: raw, next } = strategyQuotes(policy, s, state);
  let quotes = raw;
  let controls: ReadonlyMap<string, number> = NO_CHANGES;
  if (policy.controls !== undefined && policy.controls.length > 0 && raw.length + s.live.length > 0 && phaseQuotes(phase)) {
    const changes = new Map<string, number>();
    for (const control of policy.controls) {
      const r = control.apply(quotes, s);
      quotes = r.quotes;
      if (r.changed > 0) changes.set(control.name, (changes.get(control.name) ?? 0) + r.changed);
    }
    quotes = enforcePhase(quotes, phase);
    controls = changes;
  }
  // 2. risk on the quotes
  const limited = gatedLimits(s.gate, s.risk.walletName, s.symbol, quotes, s.exposure, policy.limits, policy.tuning);
  const filtered = new Map<LimitReason, number>();
  for (const d of limited.dropped) filtered.set(d.reason, (filtered.get(d.reason) ?? 0) + 1);
  for (const d of limited.resized) filtered.set(d.reason, (filtered.get(d.reason) ?? 0) + 1);
  let desired = limited.allowed;
  // The neg-risk event group's worst case (risk.maxEventLoss), over what the limits allowed.
  const eventCap = policy.limits.maxEventLoss;
  if (eventCap !== undefined && s.event !== undefined && desired.length > 0) {
    const base = eventBase(s.event.group, s.symbol, s.risk.walletName, s.exposure);
    const ev = applyEventLimit({ group: s.event.group, market: s.symbol, base, quotes: desired, maxEventLoss: eventCap, minQuoteSize: policy.tuning.minQuoteSize });
    const n = ev.dropped.length + ev.resized.length;
    if (n > 0) filtered.set("event_loss", n);
    desired = ev.allowed;
  }
  if (policy.hook?.reviewQuotes) desired = enforcePhase(policy.hook.reviewQuotes(desired, s.risk), phase);
  // 3. reconcile
  let plan = reconcile(desired, s.live, {
    priceToleranceTicks: policy.quoting.priceToleranceTicks,
    sizeTolerance: policy.quoting.sizeTolerance,
    maxOrderAgeMs: policy.quoting.maxOrderAgeMs,
    nowMs: s.nowMs,
    budget: s.budget,
    mids: s.mids,
  });
  // 4. risk on the plan
  if (!s.gate.quote) plan = noPlaces(plan);
  if (policy.hook !== undefined) plan = policy.hook.reviewPlan(plan, s.risk);
  if (s.market === undefined || !phaseQuotes(phase)) plan = noPlaces(plan);
  const deferredByBudget = plan.deferred.cancels.length + plan.deferred.places.filter((d) => d.reason === "budget").length;
  return { desired, plan, nextStrategyState: next, why: { phase, reason, filtered, deferredByBudget, controls } };
}

function noPlaces(plan: Plan): Plan {
  return plan.places.length === 0 && plan.placeBatches.length === 0 ? plan : { ...plan, places: [], placeBatches: [] };
}
