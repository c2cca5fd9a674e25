/**
 * The simulator's composition root: one object holding the platform (partners, keys, auth,
 * catalogue, lifecycle, faults), the matching engine and ledger, the order desk, the synthetic
 * flow, the user-frame bus and the clock. Routes receive it as `ctx.sim`. Everything random is
 * derived from the scenario seed, everything timed runs on `clock`: same seed and inputs, same
 * trades.
 *
 * Markets: every catalogue market is an engine market addressed by its SYMBOL (what `marketId`
 * means on the wire), with the market's effective fee and its outcome token ids. The market
 * lifecycle drives the engine: PRE_MARKET accepts post-only orders only, OPEN matches fully, every
 * other non-terminal status halts matching (resting orders are KEPT, new ones refused), RESOLVED
 * and VOIDED cancel the market's orders and pay positions out.
 *
 *   const sim = Simulator.fromScenarioFile(defaultScenarioPath(), { clock });
 *   sim.start();           // lifecycle timers, scheduled actions, GTD expiry, synthetic flow
 *   ... routes ...
 *   sim.stop();
 */
import type { Clock, TimerHandle } from "../core/clock.js";
import type { Micros } from "../core/money.js";
import { Rng } from "../core/rng.js";
import type { RecoveryCache } from "../signing/index.js";
import { counterIds, MatchingEngine, type IdSource, type ResolutionResult } from "./engine/index.js";
import { UserFrameBus } from "./bus.js";
import { OrderDesk } from "./desk/desk.js";
import { grantShares } from "./desk/genesis.js";
import { SyntheticFlow } from "./flow/flow.js";
import type { Market } from "./platform/catalogue.js";
import { failure, type PlatformFailure } from "./platform/errors.js";
import type { LifecycleState, LifecycleStatus, Transition, TransitionArgs } from "./platform/lifecycle.js";
import { createSimPlatform, type SimPlatform } from "./platform/platform.js";
import { loadScenario, type Scenario, type ScenarioAction } from "./platform/scenario.js";

export interface SimulatorOptions {
  clock: Clock;
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Verify every order's EIP-712 signature (default true; a backtest may turn it off). */
  verifySignatures?: boolean;
  /** Key-hash pepper (tests); random otherwise. */
  pepper?: Uint8Array;
  startMs?: number;
  /** Run the synthetic flow when started (default true). */
  flow?: boolean;
  /** Synthetic liquidity refresh period (default 5 s). */
  flowRefreshMs?: number;
  /** Signature recovery cache (default the process-wide one; null: none). */
  recoveryCache?: RecoveryCache | null;
  /**
   * When a RESOLVED / VOIDED market pays its holders: 0 (default) at once; a number of ms later on
   * the clock; null never (until `releasePayouts`). Tests of late payouts use it; see `setPayoutDelay`.
   */
  payoutDelayMs?: number | null;
}

export type MarketMoveResult = { ok: true; transition: Transition; market: Market } | PlatformFailure;

const HALTED: ReadonlySet<LifecycleStatus> = new Set([
  "SCHEDULED", "PAUSED", "POSTPONED", "SUSPENDED", "CLOSED", "PENDING_RESOLUTION", "DELAYED", "DISPUTED",
]);

export class Simulator {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly platform: SimPlatform;
  readonly engine: MatchingEngine;
  readonly bus = new UserFrameBus();
  readonly verifySignatures: boolean;
  /** Order and trade ids, shared by desk and flow orders so they never collide. */
  readonly ids: IdSource;
  readonly desk: OrderDesk;
  readonly flow: SyntheticFlow;
  /** Settlements done by the lifecycle (RESOLVED / VOIDED), by symbol. */
  readonly settlements = new Map<string, ResolutionResult>();
  private readonly flowEnabled: boolean;
  private started = false;
  private payoutDelayMs: number | null;
  /** Deferred payouts waiting for their time: symbol -> timer handle (null: withheld). */
  private readonly payoutTimers = new Map<string, TimerHandle | null>();

  constructor(scenario: Scenario, opts: SimulatorOptions) {
    this.clock = opts.clock;
    const seeded = opts.seed === undefined ? scenario : { ...scenario, seed: opts.seed };
    this.rng = new Rng(seeded.seed);
    this.verifySignatures = opts.verifySignatures ?? true;
    this.flowEnabled = opts.flow ?? true;
    this.payoutDelayMs = checkedPayoutDelay(opts.payoutDelayMs === undefined ? 0 : opts.payoutDelayMs);
    this.platform = createSimPlatform(seeded, {
      clock: opts.clock,
      ...(opts.pepper ? { pepper: opts.pepper } : {}),
      ...(opts.startMs !== undefined ? { startMs: opts.startMs } : {}),
    });
    this.ids = counterIds();
    this.engine = new MatchingEngine({ clock: opts.clock, ids: this.ids, onEvent: (e) => this.desk.onEngineEvent(e) });
    this.desk = new OrderDesk({
      clock: opts.clock,
      platform: this.platform,
      engine: this.engine,
      bus: this.bus,
      ids: this.ids,
      verifySignatures: this.verifySignatures,
      ...(opts.recoveryCache !== undefined ? { recoveryCache: opts.recoveryCache } : {}),
    });
    this.registerMarkets();
    this.fundStartingBalances();
    this.flow = new SyntheticFlow({
      clock: opts.clock,
      engine: this.engine,
      catalogue: this.platform.catalogue,
      rng: this.rng.fork("flow"),
      markets: this.platform.markets,
      reserved: new Set(this.platform.wallets.list().map((w) => w.address)),
      ...(opts.flowRefreshMs !== undefined ? { refreshMs: opts.flowRefreshMs } : {}),
    });
    this.platform.catalogue.onTransition((m, _t, s) => this.applyStatus(m, s));
  }

  static fromScenarioFile(path: string, opts: SimulatorOptions): Simulator {
    return new Simulator(loadScenario(path), opts);
  }

  get isRunning(): boolean {
    return this.started;
  }

  /** Lifecycle timers and scheduled actions, the GTD expiry timer, the synthetic flow. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.platform.start();
    this.desk.start();
    if (this.flowEnabled) this.flow.start();
  }

  stop(): void {
    this.started = false;
    this.flow.stop();
    this.desk.stop();
    this.platform.stop();
  }

  // ---------------------------------------------------------------------------------------
  // Markets

  /** A market by catalogue id, symbol or slug (unlisted ones included). */
  market(ref: string): Market | undefined {
    const c = this.platform.catalogue;
    return c.market(ref, true) ?? c.marketBySymbol(ref, true) ?? c.marketBySlug(ref, true);
  }

  private registerMarkets(): void {
    const c = this.platform.catalogue;
    for (const m of c.markets("all", true)) {
      this.engine.addMarket({ id: m.symbol, outcomeCount: m.outcomeCount, feeRateBps: c.effectiveFeeTakerBps(m), tokenIds: m.outcomeTokenIds });
      this.applyStatus(m, c.lifecycle(m.id));
    }
  }

  private fundStartingBalances(): void {
    const fair = new Map(this.platform.markets.map((s) => [s.marketId, s.fairValue]));
    for (const b of this.platform.startingBalances) {
      if (b.collateral > 0n) this.engine.deposit(b.wallet, b.collateral);
      for (const p of b.positions) {
        const m = this.platform.catalogue.market(p.marketId, true);
        if (m === undefined) continue;
        grantShares(this.engine, b.wallet, m.symbol, p.outcome, p.quantity, fair.get(m.id)?.[p.outcome] ?? 0n);
      }
    }
  }

  /** Make the engine follow the market's lifecycle status. */
  private applyStatus(m: Market, state: LifecycleState): void {
    const em = this.engine.market(m.symbol);
    if (em.phase === "resolved" || em.phase === "voided") return;
    const s = state.status;
    if (s === "RESOLVED" || s === "VOIDED") {
      const defer = this.payoutDelayMs !== 0;
      const opts = { deferPayout: defer };
      const r = s === "RESOLVED" ? this.engine.resolve(m.symbol, state.payoutNumerators ?? [], opts) : this.engine.voidMarket(m.symbol, opts);
      this.settlements.set(m.symbol, r);
      if (defer) this.schedulePayout(m.symbol);
      return;
    }
    this.engine.setHalted(m.symbol, HALTED.has(s));
    this.engine.setPostOnlyOnly(m.symbol, s === "PRE_MARKET");
  }

  private move(ref: string, trigger: ScenarioAction["action"], args: TransitionArgs = {}): MarketMoveResult {
    const m = this.market(ref);
    if (m === undefined) return failure(404, "market_not_found", `unknown market ${ref}`, { market: ref });
    const r = this.platform.marketTransition(m.id, trigger, args);
    return r.ok ? { ok: true, transition: r.transition, market: m } : r;
  }

  /** Chain resolution (spec 3.1): cancels the market's orders, pays positions by the numerators. */
  resolveMarket(ref: string, payoutNumerators: readonly number[]): MarketMoveResult {
    return this.move(ref, "resolve", { payoutNumerators });
  }

  /** Chain void: cancels the market's orders, every outcome pays 1/outcomeCount. */
  voidMarket(ref: string): MarketMoveResult {
    return this.move(ref, "void");
  }

  /**
   * Any administrative move of the lifecycle table (pause, resume, suspend, postpone, close,
   * delay, await_resolution, dispute, set_status with `args.status`, resolve, void).
   */
  setMarketStatus(ref: string, trigger: ScenarioAction["action"], args: TransitionArgs = {}): MarketMoveResult {
    return this.move(ref, trigger, args);
  }

  // ---------------------------------------------------------------------------------------
  // Payouts of settled markets (docs/simulator.md, "Late payouts")

  /**
   * The delay of payouts of markets settled from now on: 0 at once, ms on the clock, null never
   * (withheld until `releasePayouts`). Payouts already waiting keep their schedule.
   */
  setPayoutDelay(ms: number | null): void {
    this.payoutDelayMs = checkedPayoutDelay(ms);
  }

  /** Settled markets whose holders have not been paid yet. */
  pendingPayouts(): string[] {
    return this.engine.unpaidMarkets();
  }

  /** Pay the deferred payouts now (all, or those of the given markets by id, symbol or slug); the symbols paid. */
  releasePayouts(refs?: readonly string[]): string[] {
    const symbols = refs === undefined ? this.engine.unpaidMarkets() : refs.map((r) => this.market(r)?.symbol ?? r);
    return symbols.filter((sym) => this.payNow(sym));
  }

  private schedulePayout(symbol: string): void {
    const delay = this.payoutDelayMs;
    if (delay === null) {
      this.payoutTimers.set(symbol, null);
      return;
    }
    this.payoutTimers.set(symbol, this.clock.setTimeout(() => void this.payNow(symbol), delay));
  }

  private payNow(symbol: string): boolean {
    const t = this.payoutTimers.get(symbol);
    if (t !== undefined && t !== null) this.clock.clearTimeout(t);
    this.payoutTimers.delete(symbol);
    const paid = this.engine.payOut(symbol);
    if (paid === undefined) return false;
    const r = this.settlements.get(symbol);
    if (r !== undefined) this.settlements.set(symbol, { ...r, payouts: paid.payouts, dust: paid.dust });
    return true;
  }

  // ---------------------------------------------------------------------------------------
  // Money

  /** Credit settlement token (micros) to a wallet. */
  fund(wallet: string, amount: Micros): void {
    this.engine.deposit(wallet.toLowerCase(), amount);
  }
}

function checkedPayoutDelay(ms: number | null): number | null {
  if (ms !== null && !(Number.isSafeInteger(ms) && ms >= 0)) throw new RangeError(`payoutDelayMs must be a non-negative integer of ms or null (never), got ${String(ms)}`);
  return ms;
}
