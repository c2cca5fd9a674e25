/**
 * The quote cycles of one wallet (wallet-runner.ts owns the rest of the wallet): whether it quotes
 * at all, the onboarding pause, the set of markets marked dirty and the pump that runs their cycles.
 * A cycle is: gather a snapshot of values (`snapshot`), decide (quoteCycle, src/bot/quote/cycle.ts,
 * pure), execute the plan, report.
 *
 * Cycles run one at a time (a pump over the dirty set), so each cycle sizes its plan against a rate
 * budget that earlier cycles have already spent, and the tracker never sees two plans for one
 * market at once. A trigger runs the cycle synchronously up to its first request: a book update
 * reaches the wire without waiting for a timer. This is the hot path (trigger -> pump -> cycle ->
 * executor.execute): keep it free of extra awaits and allocations.
 */
import type { MergeLocks } from "../vault/auto-merge.js";
import { takeTurn, type TimerHandle } from "../../core/clock.js";
import type { BookSnapshot } from "../market/market-data.js";
import { signingMarketOf } from "../market/market-registry.js";
import type { OrderTracker } from "../orders/order-tracker.js";
import type { PresignWarmer } from "../orders/presign.js";
import { enginePhase, phaseQuotes, quoteCycle, type CyclePolicy, type CycleSnapshot, type QuotedBook, type StrategyState } from "../quote/cycle.js";
import type { OwnOrderLog } from "../quote/own-orders.js";
import { buildControls } from "../quote/controls/index.js";
import { quotingParamsOf, type ActiveParams } from "./live-params.js";
import { SignalBook } from "../quote/signals.js";
import { observedAdverse } from "../quote/adverse/adverse-book.js";
import { midsOf, quotedOutcomes } from "../quote/quote-cycle.js";
import { cycleEvent, type CycleEvent } from "../risk/event-group-view.js";
import type { TradeView } from "../quote/quotes.js";
import type { RiskContext } from "../risk/risk-hook.js";
import type { OrderExecutor } from "./executor.js";
import type { CycleTrigger } from "../observer.js";
import type { WalletSendCheck } from "./send-check.js";
import type { WalletRunnerOptions } from "./wallet-types.js";

/** Trading buckets are per second: deferred work is retried after this. */
const BUDGET_RETRY_MS = 250;

const NO_TRADES: readonly TradeView[] = Object.freeze([]);

/** The runner's options a cycle reads, plus the wallet's own parts. */
export interface WalletQuotingParts
  extends Pick<
    WalletRunnerOptions,
    "name" | "index" | "clock" | "log" | "observer" | "registry" | "data" | "trades" | "inventory" | "strategy" | "risk" | "quoting" | "platform" | "engine" | "monotonic" | "shed" | "params"
  > {
  /** Lower-cased address. */
  wallet: string;
  /** The check every order passes just before it leaves; the pump switches it on and off and sets the pause. */
  check: WalletSendCheck;
  tracker: OrderTracker;
  own: OwnOrderLog;
  executor: OrderExecutor;
  warmer: PresignWarmer | undefined;
  /** The user stream as the risk hook sees it, read once per cycle. */
  streamView(): RiskContext["stream"];
  /** Shares locked by pending auto-merges (auto-merge-runner.ts): cycles see positions less them. */
  mergeLocks?: MergeLocks | undefined;
}

export class WalletQuoting {
  private pauseTimer: TimerHandle | undefined;
  private readonly dirty = new Map<string, CycleTrigger>();
  private pumping = false;
  private idleWaiters: (() => void)[] = [];
  private readonly retryTimers = new Map<string, TimerHandle>();
  private readonly strategyStates = new Map<string, StrategyState>();
  private policy: CyclePolicy;
  /** The live parameters' version `policy` was built from (live-params.ts). */
  private policyVersion = 0;
  /** What the quote controls read between cycles (signals.ts): fed each new own fill (wallet-runner.ts) and each cycle's mids. */
  readonly signals: SignalBook;

  constructor(private readonly p: WalletQuotingParts) {
    const facade = p.risk.core.facade;
    this.policy = { strategy: p.strategy, quoting: p.quoting, limits: facade.limits, tuning: facade.tuning, hook: p.risk.hook, controls: p.quoting.controls };
    this.signals = new SignalBook({ adverse: observedAdverse(p.quoting.adverse, p.observer) });
  }

  /**
   * The policy of this cycle: rebuilt from the daemon's live parameters when a reload replaced them
   * (reload.ts). A new strategy name starts every market's strategy state afresh; the same strategy
   * keeps it (its reducer applies the new params from the next step).
   */
  private currentPolicy(): CyclePolicy {
    const live = this.p.params?.current;
    if (live === undefined || live.version === this.policyVersion) return this.policy;
    if (live.strategy.name !== this.policy.strategy.name) this.strategyStates.clear();
    this.policy = this.policyOf(live);
    this.policyVersion = live.version;
    return this.policy;
  }

  private policyOf(live: ActiveParams): CyclePolicy {
    const facade = this.p.risk.core.facade;
    const quoting = { ...quotingParamsOf(live.config.quoting), controls: buildControls(live.config) };
    return { strategy: live.strategy, quoting, limits: facade.limits, tuning: facade.tuning, hook: this.p.risk.hook, controls: quoting.controls };
  }

  /** Quoting is on: from the end of start-up until stop() (cycles run, orders may leave). */
  get active(): boolean {
    return this.p.check.on;
  }

  /** A quote cycle is running. */
  get busy(): boolean {
    return this.pumping;
  }

  /** Start-up is done: cycles may run. */
  begin(): void {
    this.p.check.on = true;
  }

  /** No new cycles: the dirty set and the budget retries are dropped (the running cycle goes on). */
  stop(): void {
    this.p.check.on = false;
    this.dirty.clear();
    for (const t of this.retryTimers.values()) this.p.clock.clearTimeout(t);
    this.retryTimers.clear();
  }

  /** Drop the pending wake-up of an onboarding pause (stopping). */
  clearPause(): void {
    this.p.clock.clearTimeout(this.pauseTimer);
  }

  /** The wallet is still onboarding (the executor's report): no orders for `ms`, then cycle everything. */
  pause(code: string, ms: number): void {
    const until = this.p.clock.now() + ms;
    if (until <= this.p.check.pausedUntilMs) return;
    this.p.check.pausedUntilMs = until;
    this.p.log.info({ code, pauseMs: ms }, "wallet still onboarding: quoting paused");
    this.p.clock.clearTimeout(this.pauseTimer);
    this.pauseTimer = this.p.clock.setTimeout(() => this.triggerAll("timer"), ms);
  }

  /** Markets this wallet must look at: assigned ones and any holding our live orders. */
  marketsToCycle(): string[] {
    const set = new Set(this.p.registry.marketsOf(this.p.index));
    for (const m of this.p.tracker.liveMarkets()) set.add(m);
    return [...set];
  }

  triggerAll(why: CycleTrigger): void {
    for (const s of this.marketsToCycle()) this.trigger(s, why);
  }

  trigger(symbol: string, why: CycleTrigger): void {
    if (!this.p.check.on) return;
    // Shed for capacity: its halt pulls the quotes; once nothing of ours is live there, a cycle has nothing to do.
    if (this.p.shed?.(symbol) === true && this.p.tracker.liveOrders(symbol).length === 0) return;
    if (!this.dirty.has(symbol)) this.dirty.set(symbol, why);
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      let first = true;
      while (this.p.check.on && this.dirty.size > 0) {
        // Live, a run of markets to cycle lets the event loop in between them (Clock.turn):
        // cycles whose plans are empty never await, and a wallet's whole refresh was one task.
        if (!first) {
          const turn = takeTurn(this.p.clock);
          if (turn !== undefined) await turn;
          if (!this.p.check.on || this.dirty.size === 0) break;
        }
        first = false;
        const [symbol, why] = this.dirty.entries().next().value as [string, CycleTrigger];
        this.dirty.delete(symbol);
        try {
          await this.cycle(symbol, why);
        } catch (e) {
          this.p.log.error({ market: symbol, err: e instanceof Error ? e.message : String(e) }, "quote cycle failed");
        }
      }
    } finally {
      this.pumping = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  private async cycle(symbol: string, why: CycleTrigger): Promise<void> {
    const p = this.p;
    const t0 = p.monotonic();
    const snapshot = this.snapshot(symbol);
    const c = quoteCycle(this.currentPolicy(), snapshot, this.strategyStates.get(symbol));
    this.strategyStates.set(symbol, c.nextStrategyState);
    if (c.why.filtered.size > 0) p.risk.core.reportFiltered(p.name, symbol, c.why.filtered);
    const deferredByBudget = c.why.deferredByBudget;
    if (deferredByBudget > 0) this.retrySoon(symbol);
    let report = { cancelsSent: 0, placesSent: 0 };
    if (c.plan.cancels.length > 0 || c.plan.places.length > 0) {
      const entry = p.registry.get(symbol);
      const signing = entry === undefined ? undefined : signingMarketOf(entry.row);
      const r = await p.executor.execute(c.plan.cancels, c.plan.places, { symbol, signing });
      report = r;
      if (r.onboardingWait !== undefined) this.pause(r.onboardingWait.code, r.onboardingWait.retryAfterMs);
      // The market refused as not open: its status is stale; read it again, then look again.
      if (r.marketNotOpen) void p.registry.refreshStatus([symbol]).then(() => this.trigger(symbol, "market")).catch(() => undefined);
      // A slot whose cancel did not end the old order got no place: look again once it may have.
      if (r.placesHeld > 0) this.retrySoon(symbol);
      // Live orders after this cycle (the tracker's per-market index: cheap), whatever the
      // cancels answered and however the places ended.
      p.observer.onEvent({ type: "quotes_live", wallet: p.wallet, marketId: symbol, count: p.tracker.liveOrders(symbol).length });
    }
    // Every cycle, quiet ones included: the metrics' liveness heartbeat counts on it.
    p.observer.onEvent({
      type: "cycle",
      wallet: p.wallet,
      marketId: symbol,
      trigger: why,
      latencyMs: p.monotonic() - t0,
      cancels: report.cancelsSent,
      places: report.placesSent,
      deferredByBudget,
      ...(c.why.controls.size > 0 ? { controls: c.why.controls } : {}),
    });
    // After the places: the wish list must not drop an entry this cycle was about to use.
    p.warmer?.plan(symbol, c.why.phase, c.desired);
  }

  /**
   * Everything one cycle decides from, read now and frozen: the phase the engine enforces, the
   * books (without our own orders) and public trades when the phase quotes, live orders,
   * inventory, the rate budget, the halt verdict after the halts were evaluated, the exposure.
   */
  snapshot(symbol: string): CycleSnapshot {
    const p = this.p;
    const nowMs = p.clock.now();
    const entry = p.registry.get(symbol);
    const outcomeCount = entry?.row.outcomeCount ?? 2;
    const outcomes = quotedOutcomes(outcomeCount);
    const lifecycle = entry === undefined ? undefined : p.registry.phase(symbol, nowMs);
    const phase = enginePhase({
      nowMs,
      market: entry === undefined ? undefined : { selected: entry.selected, wallet: entry.wallet },
      lifecycle,
      walletIndex: p.index,
      pausedUntilMs: this.p.check.pausedUntilMs,
      stale: lifecycle !== undefined && phaseQuotes(lifecycle.phase) && outcomes.some((o) => p.data.isStale(symbol, o)),
    });
    const raw = new Map<number, BookSnapshot | undefined>();
    for (const o of outcomes) raw.set(o, p.data.book(symbol, o));
    const books = new Map<number, QuotedBook>();
    if (entry !== undefined && phaseQuotes(phase.phase)) {
      const binary = outcomeCount === 2;
      for (const [o, snap] of raw) {
        if (snap === undefined) continue;
        books.set(o, { snapshot: snap, own: p.own.restingAt(symbol, snap.sentSeq, binary ? undefined : o), trades: p.trades?.recent(symbol, o) ?? NO_TRADES });
      }
    }
    const live = p.tracker.liveOrders(symbol);
    const held = p.inventory.positionViews(p.wallet, symbol);
    const inventory = p.mergeLocks === undefined ? held : [...p.mergeLocks.view(p.wallet, symbol, held)];
    const risk: RiskContext = {
      wallet: p.wallet,
      walletName: p.name,
      marketId: symbol,
      outcomeCount,
      nowMs,
      phase: phase.phase,
      phaseReason: phase.reason,
      book: raw.get(0)?.view,
      dataAgeMs: p.data.ageMs(symbol, 0),
      inventory,
      live,
      stream: p.streamView(),
      engine: p.engine,
    };
    const core = p.risk.core;
    // Halts move with what the engine saw (at most every 100 ms): the gate below reads the result.
    core.evaluate(nowMs);
    const mids = midsOf(raw, outcomeCount);
    // Every outcome's mid (a binary market's NO mid is the YES complement): fills of either are marked out.
    for (let o = 0; o < outcomeCount; o++) {
      const mid = mids[o];
      if (mid !== undefined) this.signals.onMid(symbol, o, mid, nowMs);
    }
    return {
      symbol,
      nowMs,
      market: entry === undefined ? undefined : { outcomeCount, feeTakerBps: entry.row.feeTakerBps ?? p.platform().feeConfig.defaultFeeTakerBps },
      phase,
      books,
      mids,
      live,
      inventory,
      budget: p.executor.budget(),
      gate: core.gate(p.name, symbol),
      exposure: core.snapshot(risk),
      risk,
      signals: this.signals.view(p.wallet, symbol, nowMs),
      event: entry !== undefined && entry.row.negRiskEligible && phaseQuotes(phase.phase) ? this.eventOf(symbol) : undefined,
    };
  }

  /** The market's neg-risk event group among the followed markets, siblings' YES books and our positions there. */
  private eventOf(symbol: string): CycleEvent | undefined {
    const p = this.p;
    return cycleEvent(
      p.registry.all().map((e) => e.row),
      symbol,
      { book: (s) => p.data.book(s, 0)?.view, positions: (s) => p.inventory.positionViews(p.wallet, s) },
    );
  }

  /** Work was cut to the rate budget (or held behind a cancel): look again when the per-second windows have refilled. */
  private retrySoon(symbol: string): void {
    if (this.retryTimers.has(symbol)) return;
    this.retryTimers.set(
      symbol,
      this.p.clock.setTimeout(() => {
        this.retryTimers.delete(symbol);
        this.trigger(symbol, "timer");
      }, BUDGET_RETRY_MS),
    );
  }

  /** Drop the strategy state of markets the registry no longer follows (one followed again starts afresh). */
  forgetStates(): void {
    for (const symbol of this.strategyStates.keys()) if (this.p.registry.get(symbol) === undefined) this.strategyStates.delete(symbol);
    for (const symbol of this.signals.markets()) if (this.p.registry.get(symbol) === undefined) this.signals.forget(symbol);
  }

  /** Markets holding strategy state (memory figures). */
  get stateCount(): number {
    return this.strategyStates.size;
  }

  /** Resolves when no cycle is running. */
  idle(): Promise<void> {
    if (!this.pumping) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
