/**
 * One sub-account wallet: its signer, vault, stream, tracker, executor and quote cycles
 * (issue item 8). The daemon owns the shared parts (markets, data, ledger, inventory, gate)
 * and drives each runner through start(), trigger(), maintain(), sync() and shutdown().
 *
 * Quote cycles of one wallet run one at a time (a pump over the set of markets marked dirty), so
 * each cycle sizes its plan against a rate budget that earlier cycles have already spent, and the
 * tracker never sees two plans for one market at once. A trigger runs the cycle synchronously up
 * to its first request: a book update reaches the wire without waiting for a timer.
 */
import type { TimerHandle } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { SigningMarket } from "../../signing/index.js";
import type { UserOrderFrame, UserStream } from "../../stream/index.js";
import { fillFromUserFill, type Fill } from "../fill-ledger.js";
import { OrderTracker, isTerminal, type TrackerEvent, type Transition } from "../order-tracker.js";
import { WalletOrders } from "./wallet-orders.js";
import { OrderExecutor } from "./executor.js";
import { syncWallet, type SyncContext, type SyncReport } from "./fill-sync.js";
import { signingMarketOf } from "./market-registry.js";
import type { CycleTrigger, WalletState } from "./observer.js";
import { OwnOrderLog } from "./own-orders.js";
import { PresignCache, PresignWarmer } from "./presign.js";
import { shutdownWallet, type WalletShutdownReport } from "./shutdown.js";
import { anchorInventory, resolveVault } from "./startup.js";
import { planCycle, type QuotingParams } from "./wallet-cycle.js";
import { startUserStream, waitForSubscription } from "./wallet-stream.js";
import type { WalletRunnerOptions, WalletStatus } from "./wallet-types.js";
import { WalletUpkeep } from "./wallet-upkeep.js";

/** Terminal, settled orders are forgotten this long after their last event (later frames for them count as late). */
const PRUNE_AFTER_MS = 60_000;
/** Trading buckets are per second: deferred work is retried after this. */
const BUDGET_RETRY_MS = 250;

export type { QuotingParams, WalletRunnerOptions, WalletStatus };

export class WalletRunner {
  readonly wallet: string;
  readonly tracker: OrderTracker;
  readonly executor: OrderExecutor;
  private vault: string | undefined;
  private stream: UserStream | undefined;
  private state: WalletState = "starting";
  private readonly log: Logger;
  private readonly dirty = new Map<string, CycleTrigger>();
  private pumping = false;
  private idleWaiters: (() => void)[] = [];
  private quoting = false;
  private pausedUntil = 0;
  private pauseTimer: TimerHandle | undefined;
  private streamDownSince: number | undefined;
  private readonly strategyStates = new Map<string, Map<number, unknown>>();
  private readonly orders: WalletOrders;
  private readonly retryTimers = new Map<string, TimerHandle>();
  private readonly own: OwnOrderLog;
  private readonly presign: PresignCache | undefined;
  private readonly warmer: PresignWarmer | undefined;
  private syncing = false;
  private readWake: { at: number; timer: TimerHandle } | undefined;
  private syncAgain = false;
  readonly syncCtx: SyncContext;
  private readonly upkeep: WalletUpkeep;

  constructor(private readonly o: WalletRunnerOptions) {
    this.wallet = o.address.toLowerCase();
    this.log = o.log;
    this.tracker = new OrderTracker(this.wallet);
    this.own = new OwnOrderLog(o.seq);
    this.orders = new WalletOrders({ wallet: this.wallet, tracker: this.tracker, own: this.own, ledger: o.ledger, inventory: o.inventory, observer: o.observer, log: o.log, clock: o.clock });
    this.presign = o.tuning.presign && o.quoting.orderExpirySec === undefined ? new PresignCache() : undefined;
    this.executor = new OrderExecutor({
      wallet: this.wallet,
      api: o.api,
      tracker: this.tracker,
      signer: o.signer,
      ids: o.ids,
      clock: o.clock,
      log: o.log,
      observer: o.observer,
      gate: o.gate,
      saltSource: o.saltSource,
      vault: () => this.vault,
      contracts: () => o.platform().contracts,
      defaultFeeRateBps: () => o.platform().feeConfig.defaultFeeTakerBps,
      orderExpirySec: o.quoting.orderExpirySec,
      mayPlace: (symbol, postOnly) => this.mayPlace(symbol, postOnly),
      onFill: (f) => this.applyFill(f),
      onTransition: (t) => this.onTransition(t),
      onOnboardingWait: (code, ms) => this.pause(code, ms),
      presign: this.presign,
      onMarketNotOpen: (symbol) => void o.registry.refreshStatus([symbol]).then(() => this.trigger(symbol, "market")).catch(() => undefined),
    });
    this.syncCtx = {
      wallet: this.wallet,
      api: o.api,
      tracker: this.tracker,
      ledger: o.ledger,
      clock: o.clock,
      log: o.log,
      observer: o.observer,
      instanceId: o.instanceId,
      sessionStartMs: o.sessionStartMs,
      tradePullMarginMs: o.tuning.tradePullMarginMs,
      track: (ev) => this.track(ev),
      adopt: (rec, serverTimeMs) => {
        const t = this.tracker.adopt(rec, serverTimeMs, o.clock.now());
        this.onTransition(t);
        return t;
      },
      applyFill: (f) => this.applyFill(f),
      onForeign: (rec) => this.upkeep.onForeign(rec),
    };
    const signingOf = (symbol: string): SigningMarket | undefined => {
      const e = o.registry.get(symbol);
      return e === undefined ? undefined : signingMarketOf(e.row);
    };
    this.warmer = this.presign === undefined ? undefined : new PresignWarmer(this.presign, o.clock, () => this.executor.presignNext(signingOf), () => this.pumping, () => this.idle());
    this.upkeep = new WalletUpkeep({
      wallet: this.wallet,
      api: o.api,
      tracker: this.tracker,
      sync: this.syncCtx,
      inventory: o.inventory,
      observer: o.observer,
      log: o.log,
      clock: o.clock,
      instanceId: o.instanceId,
      foreignOrders: o.tuning.foreignOrders,
      unknownGraceMs: o.tuning.unknownGraceMs,
      unknownSince: this.orders.unknownSince,
      symbolOf: (id) => o.registry.symbolOf(id) ?? id,
      cancel: (orders, symbol) => this.executor.cancel(orders, symbol),
      // Memory stays bounded: settled orders and old book history are forgotten.
      prune: (now) => {
        this.tracker.prune(now - PRUNE_AFTER_MS);
        this.own.prune(now - 60_000);
      },
    });
  }

  get name(): string {
    return this.o.name;
  }

  /** Checked just before each order leaves: quoting, not paused, the market allows it, no halt. */
  private mayPlace(symbol: string, postOnly: boolean): { ok: true } | { ok: false; reason: string } {
    if (!this.quoting || this.o.clock.now() < this.pausedUntil) return { ok: false, reason: "not_quoting" };
    if (this.o.risk.allowPlace?.(this.wallet, this.o.name, symbol) === false) return { ok: false, reason: "risk_halt" };
    return this.o.registry.maySend(symbol, postOnly);
  }

  get index(): number {
    return this.o.index;
  }

  get isReady(): boolean {
    return this.state === "ready";
  }

  private setState(s: WalletState): void {
    if (this.state === s) return;
    this.state = s;
    this.o.observer.onEvent({ type: "wallet_state", wallet: this.wallet, state: s });
    this.log.info({ state: s }, "wallet state");
  }

  // ---- start-up ---------------------------------------------------------------------------------

  /** Vault, inventory anchor, stream, adoption of open orders; then quoting may start. */
  async start(signal: AbortSignal): Promise<void> {
    const retry = { clock: this.o.clock, rng: this.o.rng, log: this.log, policy: this.o.tuning.startupRetry, signal };
    this.vault = await resolveVault(this.o.api, retry, () => this.setState("onboarding"));
    this.log.info({ vault: this.vault }, "vault resolved");
    const symbolOf = (id: string): string => this.o.registry.symbolOf(id) ?? id;
    const anchored = await anchorInventory(this.o.api, this.wallet, this.o.inventory, this.o.clock, symbolOf);
    this.log.info({ positions: anchored.positions }, "inventory anchored");
    this.stream = startUserStream({
      connector: this.o.connector,
      apiKey: this.o.apiKey,
      address: this.o.address,
      clock: this.o.clock,
      rng: this.o.rng.fork(`stream:${this.o.index}`),
      path: this.o.streamPath,
      heartbeat: this.o.tuning.streamHeartbeat,
      log: this.log,
      observer: this.o.observer,
      onFrame: (f) => this.onFrame(f),
      onResumed: () => void this.sync("gap"),
      onUp: () => (this.streamDownSince = undefined),
      onDown: (at) => (this.streamDownSince ??= at),
    });
    this.streamDownSince = this.o.clock.now();
    await waitForSubscription(this.stream, this.o.clock, this.o.tuning.streamReadyWaitMs, signal, this.log);
    const report = await syncWallet(this.syncCtx, { unknownGraceMs: 0, unknownSince: this.orders.unknownSince });
    this.o.observer.onEvent({ type: "synced", wallet: this.wallet, reason: "startup", at: this.o.clock.now() });
    this.log.info({ ...report }, "open orders reconciled");
    if (signal.aborted) return;
    this.quoting = true;
    this.setState("ready");
    this.triggerAll("startup");
  }

  // ---- events in ----------------------------------------------------------------------------------

  private onFrame(f: UserOrderFrame): void {
    this.track({ kind: "frame", frame: f });
    if (f.type === "user_fill") this.applyFill(fillFromUserFill(f));
    if (f.type !== "order_placed" && this.quoting) this.trigger(f.marketId, f.type === "user_fill" ? "fill" : "order");
  }

  /** Every fill, whatever its source (wallet-orders.ts). */
  applyFill(f: Fill): void {
    this.orders.applyFill(f);
  }

  track(ev: TrackerEvent): Transition {
    return this.orders.track(ev);
  }

  private onTransition(t: Transition): void {
    this.orders.onTransition(t);
  }

  private pause(code: string, ms: number): void {
    const until = this.o.clock.now() + ms;
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.log.info({ code, pauseMs: ms }, "wallet still onboarding: quoting paused");
    this.o.clock.clearTimeout(this.pauseTimer);
    this.pauseTimer = this.o.clock.setTimeout(() => this.triggerAll("timer"), ms);
  }

  // ---- quote cycles -------------------------------------------------------------------------------

  /** Markets this wallet must look at: assigned ones and any holding our live orders. */
  marketsToCycle(): string[] {
    const set = new Set(this.o.registry.marketsOf(this.o.index));
    for (const ord of this.tracker.all()) if (!isTerminal(ord.state)) set.add(ord.marketId);
    return [...set];
  }

  triggerAll(why: CycleTrigger): void {
    for (const s of this.marketsToCycle()) this.trigger(s, why);
  }

  trigger(symbol: string, why: CycleTrigger): void {
    if (!this.quoting) return;
    if (!this.dirty.has(symbol)) this.dirty.set(symbol, why);
    if (!this.pumping) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.quoting && this.dirty.size > 0) {
        const [symbol, why] = this.dirty.entries().next().value as [string, CycleTrigger];
        this.dirty.delete(symbol);
        try {
          await this.cycle(symbol, why);
        } catch (e) {
          this.log.error({ market: symbol, err: e instanceof Error ? e.message : String(e) }, "quote cycle failed");
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
    const t0 = this.o.monotonic();
    let states = this.strategyStates.get(symbol);
    if (states === undefined) this.strategyStates.set(symbol, (states = new Map<number, unknown>()));
    const live = this.tracker.liveOrders(symbol);
    const c = planCycle({
      symbol,
      nowMs: this.o.clock.now(),
      wallet: this.wallet,
      walletName: this.o.name,
      walletIndex: this.o.index,
      pausedUntilMs: this.pausedUntil,
      registry: this.o.registry,
      data: this.o.data,
      live,
      inventory: this.o.inventory.positionViews(this.wallet, symbol),
      strategy: this.o.strategy,
      states,
      ownAt: (sentSeq, outcome) => this.own.restingAt(symbol, sentSeq, outcome),
      risk: this.o.risk,
      quoting: this.o.quoting,
      budget: this.executor.budget(),
      defaultFeeTakerBps: this.o.platform().feeConfig.defaultFeeTakerBps,
      stream: { subscribed: this.stream?.stats().subscribed ?? false, downSinceMs: this.streamDownSince },
      engine: this.o.engine,
    });
    if (c.deferredByBudget > 0) this.retrySoon(symbol);
    let report = { cancelsSent: 0, placesSent: 0 };
    if (c.plan.cancels.length > 0 || c.plan.places.length > 0) {
      const signing = c.entry === undefined ? undefined : signingMarketOf(c.entry.row);
      const r = await this.executor.execute(c.plan.cancels, c.plan.places, { symbol, signing });
      report = r;
      // Live quotes after this cycle, counted without another pass over the tracker.
      const count = Math.max(0, live.length - r.cancelsSent + r.placesAccepted);
      this.o.observer.onEvent({ type: "quotes_live", wallet: this.wallet, marketId: symbol, count });
    }
    // Every cycle, quiet ones included: the metrics' liveness heartbeat counts on it.
    this.o.observer.onEvent({
      type: "cycle",
      wallet: this.wallet,
      marketId: symbol,
      trigger: why,
      latencyMs: this.o.monotonic() - t0,
      cancels: report.cancelsSent,
      places: report.placesSent,
      deferredByBudget: c.deferredByBudget,
    });
    // After the places: the wish list must not drop an entry this cycle was about to use.
    this.warmer?.plan(symbol, c.phase, c.desired);
  }

  /** Work was cut to the rate budget: look again when the per-second windows have refilled. */
  private retrySoon(symbol: string): void {
    if (this.retryTimers.has(symbol)) return;
    this.retryTimers.set(
      symbol,
      this.o.clock.setTimeout(() => {
        this.retryTimers.delete(symbol);
        this.trigger(symbol, "timer");
      }, BUDGET_RETRY_MS),
    );
  }

  private clearRetries(): void {
    for (const t of this.retryTimers.values()) this.o.clock.clearTimeout(t);
    this.retryTimers.clear();
    this.o.clock.clearTimeout(this.readWake?.timer);
    this.readWake = undefined;
    this.warmer?.stop();
  }

  /** Resolves when no cycle is running. */
  idle(): Promise<void> {
    if (!this.pumping) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  // ---- background work ----------------------------------------------------------------------------

  /** Cancel retries, unknown-outcome lookups, frames buffered for unknown order ids. */
  async maintain(): Promise<void> {
    if (this.state !== "ready") return;
    await this.upkeep.maintain();
    this.wakeForReads();
  }

  /**
   * A lookup answered 404 too soon (or a cancel waits for its Retry-After): maintain again when
   * the tracker says the read is due, whatever the maintenance period.
   */
  private wakeForReads(): void {
    const due = this.tracker.nextReadDueMs();
    const now = this.o.clock.now();
    if (due === undefined || due <= now || !this.quoting) return;
    if (this.readWake !== undefined && this.readWake.at <= due) return;
    this.o.clock.clearTimeout(this.readWake?.timer);
    const timer = this.o.clock.setTimeout(() => {
      this.readWake = undefined;
      void this.maintain();
    }, due - now);
    this.readWake = { at: due, timer };
  }

  /** Open-order walk, reads, trade pull (serialised; a request during a run repeats it once). */
  async sync(reason: string): Promise<SyncReport | undefined> {
    if (this.state !== "ready" && reason !== "final") return undefined;
    if (this.syncing) {
      this.syncAgain = true;
      return undefined;
    }
    this.syncing = true;
    let report: SyncReport | undefined;
    try {
      do {
        this.syncAgain = false;
        report = await syncWallet(this.syncCtx, { unknownGraceMs: this.o.tuning.unknownGraceMs, unknownSince: this.orders.unknownSince });
        this.log.debug({ reason, ...report }, "wallet reconciled");
      } while (this.syncAgain);
      this.o.observer.onEvent({ type: "synced", wallet: this.wallet, reason, at: this.o.clock.now() });
      this.wakeForReads();
    } catch (e) {
      this.log.warn({ reason, err: e instanceof Error ? e.message : String(e) }, "wallet reconciliation failed");
    } finally {
      this.syncing = false;
    }
    this.triggerAll("order");
    return report;
  }

  /**
   * Inventory against /api/me/positions and /api/me/balances. A difference is confirmed once more
   * after a full sync (a fill still in flight explains most of them); what survives is reported.
   */
  async checkDrift(): Promise<void> {
    if (this.state === "ready") await this.upkeep.reconcileInventory(() => this.sync("drift"));
  }

  /** The user stream's figures (metrics); undefined before the stream started. */
  streamStats(): ReturnType<UserStream["stats"]> | undefined {
    return this.stream?.stats();
  }

  // ---- stopping -----------------------------------------------------------------------------------

  /** No new cycles; waits for the running one. */
  async stopQuoting(): Promise<void> {
    this.quoting = false;
    this.dirty.clear();
    this.clearRetries();
    if (this.state === "ready" || this.state === "onboarding" || this.state === "starting") this.setState("stopping");
    this.o.clock.clearTimeout(this.pauseTimer);
    await this.idle();
  }

  async shutdown(deadlineAtMs: number): Promise<WalletShutdownReport> {
    await this.stopQuoting();
    const report = await shutdownWallet({
      wallet: this.wallet,
      name: this.o.name,
      api: this.o.api,
      tracker: this.tracker,
      clock: this.o.clock,
      log: this.log,
      instanceId: this.o.instanceId,
      foreignOrders: this.o.tuning.foreignOrders,
      deadlineAtMs,
      track: (ev) => this.track(ev),
    });
    this.stream?.stop();
    this.setState("stopped");
    return report;
  }

  /** Drop everything without cancelling (a hard kill, for restart tests). */
  abandon(): void {
    this.quoting = false;
    this.dirty.clear();
    this.clearRetries();
    this.o.clock.clearTimeout(this.pauseTimer);
    this.stream?.stop();
    this.setState("abandoned");
  }

  /** Pre-sign cache figures (hits, misses, signed, dropped); undefined when off. */
  presignStats(): PresignCache["counters"] | undefined {
    return this.presign === undefined ? undefined : { ...this.presign.counters };
  }

  status(): WalletStatus {
    let live = 0;
    for (const ord of this.tracker.all()) if (!isTerminal(ord.state)) live += 1;
    return {
      name: this.o.name,
      wallet: this.wallet,
      state: this.state,
      vault: this.vault,
      liveOrders: live,
      unknownOrders: this.tracker.unknownOrders().length,
      streamSubscribed: this.stream?.stats().subscribed ?? false,
      markets: this.o.registry.marketsOf(this.o.index),
    };
  }
}
