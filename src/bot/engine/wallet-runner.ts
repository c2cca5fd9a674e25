/**
 * One sub-account wallet: its signer, vault, stream, tracker, executor and quote cycles
 * (issue item 8). The daemon owns the shared parts (markets, data, ledger, inventory, gate)
 * and drives each runner through start(), trigger(), maintain(), sync() and shutdown().
 *
 * The runner wires the wallet's parts together and owns its life (start-up, state, stopping). The
 * quote cycles and their pump live in wallet-quoting.ts, the scheduling of the background sync and
 * maintenance in wallet-background.ts, where order and fill facts land in wallet-orders.ts.
 */
import type { Logger } from "../../log/index.js";
import type { SigningMarket } from "../../signing/index.js";
import type { UserOrderFrame, UserStream } from "../../stream/index.js";
import { compactWallet } from "../fills/fill-compaction.js";
import { fillFromUserFill, type Fill } from "../fills/fill-ledger.js";
import { OrderTracker, type TrackerEvent, type Transition } from "../orders/order-tracker.js";
import { WalletOrders } from "./wallet-orders.js";
import { OrderExecutor } from "./executor.js";
import { OrderMaker } from "../orders/order-maker.js";
import { WalletSendCheck } from "./send-check.js";
import { syncWallet, type SyncContext, type SyncReport } from "./fill-sync.js";
import { signingMarketOf } from "../market/market-registry.js";
import type { CycleTrigger, WalletState } from "../observer.js";
import { OwnOrderLog } from "../quote/own-orders.js";
import { PresignCache, PresignWarmer } from "../orders/presign.js";
import { shutdownWallet, type ForeignOrderPolicy, type WalletShutdownReport } from "./shutdown.js";
import { anchorInventory, resolveVault, retrying } from "./startup.js";
import { WalletBackground } from "./wallet-background.js";
import type { QuotingParams } from "../quote/cycle.js";
import { WalletQuoting } from "./wallet-quoting.js";
import { startUserStream, waitForSubscription } from "./wallet-stream.js";
import type { WalletMemoryFigures, WalletRunnerOptions, WalletStatus } from "./wallet-types.js";
import { WalletUpkeep } from "./wallet-upkeep.js";
import { AutoMergeRunner } from "./auto-merge-runner.js";
import { MergeLocks } from "../vault/auto-merge.js";
import type { DigestSigner } from "../../api/withdrawals.js";

/** Terminal, settled orders are forgotten this long after their last event (later frames for them count as late). */
const PRUNE_AFTER_MS = 60_000;

export type { QuotingParams, WalletMemoryFigures, WalletRunnerOptions, WalletStatus };

export class WalletRunner {
  readonly wallet: string;
  readonly tracker: OrderTracker;
  readonly executor: OrderExecutor;
  private vault: string | undefined;
  private stream: UserStream | undefined;
  private state: WalletState = "starting";
  private readonly log: Logger;
  private streamDownSince: number | undefined;
  private readonly orders: WalletOrders;
  private readonly own: OwnOrderLog;
  private readonly presign: PresignCache | undefined;
  private readonly maker: OrderMaker;
  private readonly check: WalletSendCheck;
  private readonly warmer: PresignWarmer | undefined;
  private readonly quoting: WalletQuoting;
  readonly syncCtx: SyncContext;
  private readonly upkeep: WalletUpkeep;
  private readonly background: WalletBackground;
  /** Aborted when the runner is stopped: ends a start-up still under way (a new one at restart). */
  private life = new AbortController();
  /** Auto-merge of YES+NO pairs (config `autoMerge:`); undefined when off. */
  readonly merges: AutoMergeRunner | undefined;

  constructor(private readonly o: WalletRunnerOptions) {
    this.wallet = o.address.toLowerCase();
    this.log = o.log;
    this.tracker = new OrderTracker(this.wallet, o.notRecordedAfterMs === undefined ? {} : { notRecordedAfterMs: o.notRecordedAfterMs });
    this.own = new OwnOrderLog(o.seq);
    this.orders = new WalletOrders({
      wallet: this.wallet,
      tracker: this.tracker,
      own: this.own,
      ledger: o.ledger,
      inventory: o.inventory,
      observer: o.observer,
      log: o.log,
      clock: o.clock,
      onNewFill: (f) => this.quoting.signals.onFill(f.wallet, f.marketId, { outcome: f.outcome, side: f.side, price: f.price, size: f.qty, role: f.role, ts: f.ts }),
    });
    this.presign = o.tuning.presign && o.quoting.orderExpirySec === undefined ? new PresignCache() : undefined;
    this.maker = new OrderMaker({ signer: o.signer, ids: o.ids, clock: o.clock, saltSource: o.saltSource, orderExpirySec: o.quoting.orderExpirySec, presign: this.presign });
    this.check = new WalletSendCheck({ clock: o.clock, risk: o.risk, registry: o.registry, wallet: this.wallet, name: o.name, index: o.index });
    this.executor = new OrderExecutor({
      wallet: this.wallet,
      api: o.api,
      orders: this.orders,
      check: this.check,
      maker: this.maker,
      clock: o.clock,
      log: o.log,
      observer: o.observer,
      gate: o.gate,
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
        this.orders.onTransition(t);
        return t;
      },
      applyFill: (f) => this.applyFill(f),
      compact: () => void compactWallet(o.ledger, o.inventory, this.wallet, o.clock.now(), o.tuning, (id) => this.tracker.getByOrderId(id) !== undefined),
      onForeign: (rec) => this.upkeep.onForeign(rec),
      fence: o.fence,
    };
    const signingOf = (symbol: string): SigningMarket | undefined => {
      const e = o.registry.get(symbol);
      return e === undefined ? undefined : signingMarketOf(e.row);
    };
    this.warmer = this.presign === undefined ? undefined : new PresignWarmer(this.presign, o.clock, () => this.maker.presignNext(signingOf), () => this.quoting.busy, () => this.idle());
    this.merges = this.autoMerge();
    this.quoting = new WalletQuoting({
      ...o,
      mergeLocks: this.merges?.locks,
      wallet: this.wallet,
      check: this.check,
      tracker: this.tracker,
      own: this.own,
      executor: this.executor,
      warmer: this.warmer,
      streamView: () => ({ subscribed: this.stream?.stats().subscribed ?? false, downSinceMs: this.streamDownSince }),
    });
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
      refreshMarkets: (symbols) => o.registry.refreshStatus(symbols),
      // Memory stays bounded: settled orders and old book history are forgotten.
      prune: (now) => {
        this.tracker.prune(now - PRUNE_AFTER_MS);
        this.own.prune(now - Math.max(60_000, o.bookHistoryMs ?? 0));
        this.quoting.forgetStates();
      },
    });
    this.background = new WalletBackground({
      wallet: this.wallet,
      tracker: this.tracker,
      upkeep: this.upkeep,
      sync: this.syncCtx,
      unknownGraceMs: o.tuning.unknownGraceMs,
      unknownSince: this.orders.unknownSince,
      clock: o.clock,
      log: o.log,
      observer: o.observer,
      ready: () => this.state === "ready",
      quoting: () => this.quoting.active,
      afterSync: () => this.triggerAll("order"),
    });
  }

  get name(): string {
    return this.o.name;
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
    // The routine path (starting, onboarding, ready, stopping, stopped) at debug; abandoned at info.
    if (s === "abandoned") this.log.info({ state: s }, "wallet state");
    else this.log.debug({ state: s }, "wallet state");
  }

  // ---- start-up ---------------------------------------------------------------------------------

  /**
   * Vault, inventory anchor, stream, adoption of open orders; then quoting may start. Ends as soon
   * as `outer` aborts or the runner itself is stopped (stopQuoting, shutdown, abandon): a start-up
   * under way never brings a stopped wallet back.
   */
  async start(outer: AbortSignal, opts: { anchor?: boolean } = {}): Promise<void> {
    const signal = AbortSignal.any([outer, this.life.signal]);
    const retry = { clock: this.o.clock, rng: this.o.rng, log: this.log, policy: this.o.tuning.startupRetry, signal };
    const vault = await resolveVault(this.o.api, retry, () => {
      if (!signal.aborted) this.setState("onboarding");
    });
    if (signal.aborted) return;
    this.vault = vault;
    const platform = this.o.platform();
    this.maker.useAccount({ vault, contracts: platform.contracts, defaultFeeRateBps: platform.feeConfig.defaultFeeTakerBps });
    this.log.debug({ vault }, "vault resolved");
    const symbolOf = (id: string): string => this.o.registry.symbolOf(id) ?? id;
    if (opts.anchor !== false) {
      // Retried like the vault read (a refused key, a platform hiccup): a failed start is never retried.
      const anchored = await retrying("inventory anchor", retry, () => anchorInventory(this.o.api, this.wallet, this.o.inventory, this.o.clock, symbolOf));
      this.log.debug({ positions: anchored.positions }, "inventory anchored");
      if (signal.aborted) return;
    }
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
    const report = await retrying("open-order reconciliation", retry, () => syncWallet(this.syncCtx, { unknownGraceMs: 0, unknownSince: this.orders.unknownSince }));
    this.o.observer.onEvent({ type: "synced", wallet: this.wallet, reason: "startup", at: this.o.clock.now() });
    // Something to say only when orders were found or disagree; a clean start is routine.
    if (report.open + report.adopted + report.foreign + report.missing + report.contradictions > 0) this.log.info({ ...report }, "open orders reconciled");
    else this.log.debug({ ...report }, "open orders reconciled");
    if (signal.aborted) return;
    this.quoting.begin();
    this.setState("ready");
    this.triggerAll("startup");
    this.merges?.start();
  }

  /**
   * Start a stopped wallet again (shard.lease: its lost lease taken back, src/bot/engine/daemon.ts):
   * the start-up path again (vault, a new stream, the open-order reconciliation with its trade
   * pull) before any cycle. Only from "stopped": the previous shutdown has ended. The inventory is
   * not anchored again: the daemon kept the wallet's books, and the reconciliation's trade pull
   * (down to the last trade pulled) brings every fill of the stopped time, as after a stream gap;
   * a second anchor would count the fills applied since the first one twice (Inventory.anchor
   * keeps them).
   */
  async restart(outer: AbortSignal): Promise<void> {
    if (this.state !== "stopped") throw new Error(`wallet ${this.wallet}: restart from state ${this.state} (only a stopped wallet starts again)`);
    this.life = new AbortController();
    this.stream = undefined;
    this.setState("starting");
    await this.start(outer, { anchor: false });
  }

  /** The auto-merge runner when `autoMerge.enabled` and the signer can sign a digest (a merge is the owner's EIP-712 signature). */
  private autoMerge(): AutoMergeRunner | undefined {
    const o = this.o;
    const cfg = o.autoMerge;
    if (cfg === undefined || !cfg.enabled) return undefined;
    const signer = o.signer as Partial<DigestSigner>;
    if (typeof signer.signDigest !== "function") {
      this.log.warn("autoMerge is enabled but this wallet's signer cannot sign a digest: no merges for it");
      return undefined;
    }
    return new AutoMergeRunner({
      wallet: this.wallet,
      api: o.api,
      signer: signer as DigestSigner,
      vault: () => this.vault,
      contracts: () => o.platform().contracts,
      inventory: o.inventory,
      liveOrders: (symbol) => this.tracker.liveOrders(symbol).length,
      outcomeCount: (symbol) => o.registry.get(symbol)?.row.outcomeCount,
      trigger: (symbol) => {
        if (this.quoting.active) this.trigger(symbol, "fill");
      },
      params: { threshold: cfg.threshold, minSize: cfg.minSize, checkIntervalSec: cfg.checkIntervalSec },
      locks: new MergeLocks(),
      clock: o.clock,
      log: this.log,
      observer: o.observer,
    });
  }

  // ---- events in ----------------------------------------------------------------------------------

  private onFrame(f: UserOrderFrame): void {
    this.track({ kind: "frame", frame: f });
    if (f.type === "user_fill") this.applyFill(fillFromUserFill(f));
    if (f.type !== "order_placed" && this.quoting.active) this.trigger(f.marketId, f.type === "user_fill" ? "fill" : "order");
  }

  /** Every fill, whatever its source (wallet-orders.ts). */
  applyFill(f: Fill): void {
    this.orders.applyFill(f);
  }

  track(ev: TrackerEvent): Transition {
    return this.orders.track(ev);
  }

  // ---- quote cycles (wallet-quoting.ts) ----------------------------------------------------------

  /** Markets this wallet must look at: assigned ones and any holding our live orders. */
  marketsToCycle(): string[] {
    return this.quoting.marketsToCycle();
  }

  triggerAll(why: CycleTrigger): void {
    this.quoting.triggerAll(why);
  }

  trigger(symbol: string, why: CycleTrigger): void {
    this.quoting.trigger(symbol, why);
  }

  /** Resolves when no cycle is running. */
  idle(): Promise<void> {
    return this.quoting.idle();
  }

  // ---- background work (wallet-background.ts) ----------------------------------------------------

  /** Cancel retries, unknown-outcome lookups, frames buffered for unknown order ids. */
  maintain(): Promise<void> {
    return this.background.maintain();
  }

  /** Open-order walk, reads, trade pull (serialised; a request during a run repeats it once). */
  sync(reason: string): Promise<SyncReport | undefined> {
    return this.background.sync(reason);
  }

  /** Inventory against the platform's positions and balances (a difference is confirmed after a sync). */
  checkDrift(): Promise<void> {
    return this.background.checkDrift();
  }

  /** The user stream's figures (metrics); undefined before the stream started. */
  streamStats(): ReturnType<UserStream["stats"]> | undefined {
    return this.stream?.stats();
  }

  // ---- stopping -----------------------------------------------------------------------------------

  /** No new cycles; waits for the running one. */
  async stopQuoting(): Promise<void> {
    this.quiesce();
    if (this.state === "ready" || this.state === "onboarding" || this.state === "starting") this.setState("stopping");
    this.quoting.clearPause();
    await this.idle();
  }

  /** No new cycles, no pending retries, read wake or pre-signing. */
  private quiesce(): void {
    this.life.abort(new Error("wallet stopping"));
    this.merges?.stop();
    this.quoting.stop();
    this.background.stop();
    this.warmer?.stop();
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
      ...this.shutdownOwnership(),
      deadlineAtMs,
      orderExpirySec: this.o.quoting.orderExpirySec,
      track: (ev) => this.track(ev),
    });
    this.stream?.stop();
    this.setState("stopped");
    return report;
  }

  /**
   * What the shutdown may end. Another daemon runs with our instance id: no cancel-all, and only
   * orders this process tracks or sent (its orders are its own to end).
   */
  private shutdownOwnership(): { foreignOrders: ForeignOrderPolicy; owns?: (clientOrderId: string | null) => boolean; reportLeftAlone?: string } {
    const fence = this.o.fence;
    if (fence === undefined || (fence.conflict === undefined && fence.settled)) return { foreignOrders: this.o.tuning.foreignOrders };
    const owns = (id: string | null): boolean => fence.isOurSession(id) || (id !== null && this.tracker.get(id) !== undefined);
    if (fence.conflict !== undefined) return { foreignOrders: "leave", owns };
    // Stopped before the start-up watch decided: an earlier session's orders may be a live daemon's.
    return {
      foreignOrders: "leave",
      owns,
      reportLeftAlone: "left alone: the stop came before the start-up watch could rule out another live daemon with this instance.id (docs/operations.md)",
    };
  }

  /** Drop everything without cancelling (a hard kill, for restart tests). */
  abandon(): void {
    this.quiesce();
    this.quoting.clearPause();
    this.stream?.stop();
    this.setState("abandoned");
  }

  /** Pre-sign cache figures (hits, misses, signed, dropped); undefined when off. */
  presignStats(): PresignCache["counters"] | undefined {
    return this.presign === undefined ? undefined : { ...this.presign.counters };
  }

  /** Sizes of what the wallet holds per order, id or market (the memory benchmark, tests). */
  memoryFigures(): WalletMemoryFigures {
    const u = this.upkeep.sizes();
    return {
      ...this.tracker.sizes(),
      unknownSince: this.orders.unknownSince.size,
      ownOrders: this.own.size,
      ownOrderMarkets: this.own.marketCount,
      presigned: this.presign?.size ?? 0,
      claimMarks: u.claims,
      foreignSeen: u.foreignSeen,
      strategyStates: this.quoting.stateCount,
    };
  }

  status(): WalletStatus {
    const live = this.tracker.liveCount();
    const adverse = this.quoting.signals.adverse?.counts(this.o.clock.now());
    return {
      name: this.o.name,
      wallet: this.wallet,
      state: this.state,
      vault: this.vault,
      liveOrders: live,
      unknownOrders: this.tracker.unknownOrders().length,
      streamSubscribed: this.stream?.stats().subscribed ?? false,
      markets: this.o.registry.marketsOf(this.o.index),
      ...(adverse !== undefined && adverse.widen + adverse.pull + adverse.cooling > 0 ? { adverse } : {}),
    };
  }
}
