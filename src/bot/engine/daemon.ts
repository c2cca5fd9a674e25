/**
 * The daemon: the one object that owns all I/O (timers, HTTP through the client, the user
 * streams, the book poller) and feeds the pure parts (strategy, reconciler, tracker, ledger,
 * inventory, risk hook).
 *
 *   const daemon = createDaemon(config, { transport, connector, clock, rng, apiKey });
 *   await daemon.serve();          // optional: /metrics /health /ready /admin/* on metrics.host:port
 *   await daemon.start();          // platform info, markets, wallets (vault, anchor, stream, adoption)
 *   ...
 *   const report = await daemon.stop();   // pull quotes, cancel everything, report leftovers
 *
 * Timers: selection refresh (markets.refreshSec), market rows (tuning.statusRefreshMs), quote
 * refresh (quoting.refreshMs), wallet maintenance, fill sync and drift checks, the risk tick
 * (halts evaluated, /health heartbeat) (daemon-timers.ts), and one timer per market at its next
 * phase boundary (daemon-markets.ts). Book updates trigger the owning wallet's cycle for that
 * market directly. The link to the platform (gate, client, registry, book poller, public trade
 * feed) is built in daemon-platform.ts, the wallets in daemon-wallets.ts. The trade feed follows
 * the book poller: tracked with the selection, started and stopped with it; the cycles read it for
 * the strategies' `recentTrades`.
 *
 * Risk (core-risk.ts over src/bot/risk) and metrics (ops.ts over src/metrics) are always built:
 * every plan goes through the limits and halts, every event reaches the metrics.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { PartnerClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import { RealClock } from "../../core/clock.js";
import { Rng } from "../../core/rng.js";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../log/index.js";
import { createLogger } from "../../log/index.js";
import type { RateGate } from "../../ratelimit/index.js";
import { cryptoSaltSource, rngSaltSource } from "../../signing/index.js";
import { FillLedger } from "../fills/fill-ledger.js";
import { Inventory } from "../fills/inventory.js";
import { sessionTag } from "../orders/ids.js";
import { InstanceConflictError, InstanceFence, lateWindowMs, watchAtStartup } from "../guards/instance-fence.js";
import { EventSeq, type MarketDataSource } from "../market/market-data.js";
import type { MarketRegistry } from "../market/market-registry.js";
import { MarketTimeline } from "./daemon-markets.js";
import { SettlementWatcher } from "./settlement-watch.js";
import { buildPlatformLink } from "./daemon-platform.js";
import { DaemonTimers } from "./daemon-timers.js";
import type { DaemonDeps, ShutdownReport, StartReport } from "./daemon-types.js";
import { buildWalletRunners, startWallets } from "./daemon-wallets.js";
import { shardHold, type ShardStart } from "./shard-handoff.js";
import { leaseMetricRows, releaseLeases, stopLeasedWallet, walletLeasesFor } from "./shard-lease.js";
import type { WalletLeases } from "../guards/wallet-lease.js";
import { applyShard } from "../../config/shard-section.js";
import type { HaltChange } from "../risk/types.js";
import { GLOBAL } from "../risk/types.js";
import { buildCoreRisk, type CoreRisk } from "../risk/core-risk.js";
import { buildCapacityGuard, type CapacityGuard } from "../guards/capacity-guard.js";
import { buildDeadMan, type DeadManSwitch } from "../guards/dead-man.js";
import { loopMonotonic, type LoopMonitor } from "../guards/loop-monitor.js";
import { AuthWatch } from "../guards/auth-watch.js";
import { engineStateSource } from "./engine-state.js";
import { combineObservers, type EngineObserver } from "../observer.js";
import { DaemonOps } from "./ops.js";
import type { EngineView, RiskHook } from "../risk/risk-hook.js";
import { HaltControl, type KillReport } from "./halt-wiring.js";
import { shutdownExitCode } from "./shutdown.js";
import { logShutdownReports, type WalletShutdownReport } from "./shutdown-report.js";
import type { RestTradeFeed } from "../market/trade-feed.js";
import { fetchPlatformInfo, retrying, type PlatformInfo } from "./startup.js";
import { engineViewOf, marksFrom, statusOf, type DaemonStatus } from "./status.js";
import { statusDocument } from "./status-document.js";
import type { StatusDocument } from "../../metrics/status-route.js";
import { DEFAULT_TUNING, type EngineTuning } from "./tuning.js";
import type { WalletRunner } from "./wallet-runner.js";
import { LiveParams } from "./live-params.js";
import { ConfigReloader, type ReloadOutcome } from "./reload.js";
import type { Env } from "../../config/index.js";

export type { DaemonDeps, ShutdownReport, StartReport };

export class Daemon {
  readonly clock: Clock;
  readonly client: PartnerClient;
  readonly gate: RateGate;
  readonly registry: MarketRegistry;
  readonly data: MarketDataSource;
  /** Public trades of the selected markets (the strategies' `recentTrades`). */
  readonly trades: RestTradeFeed;
  readonly ledger = new FillLedger();
  readonly inventory = new Inventory();
  readonly runners: WalletRunner[] = [];
  readonly log: Logger;
  readonly tuning: EngineTuning;
  readonly observer: EngineObserver;
  readonly sessionStartMs: number;
  readonly session: string;
  /** The core risk (limits, halts, kill switch) over the pure facade in `coreRisk.facade`. */
  readonly coreRisk: CoreRisk;
  /** Metrics, probes and the operator HTTP server. */
  readonly ops: DaemonOps;
  /** Event-loop lag (loop-monitor.ts), read by the metrics, the dead-man switch and the capacity guard. */
  readonly loop: LoopMonitor;
  /** Loop stall, or stream and REST both down: the wallet halted dead_man, cancel-all, resync (dead-man.ts). */
  private readonly deadMan: DeadManSwitch;
  /** One owner per instance.id: the start-up watch and the running checks (instance-fence.ts). */
  readonly fence: InstanceFence;
  /** 401 key refusals on every keyed request and upgrade -> the auth_refused halt (auth-watch.ts). */
  readonly auth: AuthWatch;
  /** Load shedding when the event loop falls behind: refresh widened, markets shed (capacity-guard.ts). */
  readonly capacity: CapacityGuard;
  /** The extra risk hook of DaemonDeps.risk, consulted after the core risk. */
  private readonly extraRisk: RiskHook | undefined;
  /** The active parameters every cycle reads (live-params.ts); a reload (reload.ts) replaces them. */
  readonly params: LiveParams;
  private reloader: ConfigReloader | undefined;
  private readonly rng: Rng;
  private readonly seq = new EventSeq();
  /** Read-only view of the whole engine for the risk hook. */
  readonly view: EngineView = engineViewOf(this);
  private platformInfo: PlatformInfo | undefined;
  private readonly timers: DaemonTimers;
  private readonly markets: MarketTimeline;
  /** Payouts of settled markets checked against the platform (settlement-watch.ts). */
  readonly settlement: SettlementWatcher;
  private readonly haltControl: HaltControl;
  private readonly startAbort = new AbortController();
  private running = false;
  private stopping: Promise<ShutdownReport> | undefined;
  /** shard.lease: the wallets' Leases, and the stops of wallets whose lease was lost. */
  private readonly leases: WalletLeases | undefined;
  private readonly leaseLostStops = new Map<string, Promise<WalletShutdownReport>>();
  private shardStart: ShardStart | undefined;

  constructor(
    readonly config: Config,
    deps: DaemonDeps = {},
    /** The config as loaded, before sharding (createDaemon): its hash is the one shown. */
    source: Config = config,
  ) {
    this.clock = deps.clock ?? new RealClock();
    this.params = new LiveParams(config, this.clock.now(), source);
    const rng = deps.rng ?? new Rng(randomBytes(4).readUInt32LE(0));
    this.rng = rng;
    this.tuning = { ...DEFAULT_TUNING, ...deps.tuning };
    this.log = deps.logger ?? createLogger({ level: config.log.level, name: "mm", clock: this.clock });
    const monotonic = deps.monotonic ?? (() => performance.now());
    // Before anything that holds resources: a lease configured but unreachable refuses the start.
    this.leases = walletLeasesFor(config, { api: deps.leaseApi, clock: this.clock, log: this.log, onLost: (w, why) => this.leaseLost(w, why) });

    // Risk and metrics are core: built here, always, before anything that reports to them.
    this.ops = new DaemonOps({ config, clock: this.clock, log: this.log, risk: () => this.coreRisk.facade, monotonic });
    this.ops.configActive(this.params.current.hash, config);
    const deadMan = buildDeadMan({
      config,
      clock: this.clock,
      log: this.log,
      monotonic: loopMonotonic(this.clock, deps.monotonic),
      foreignOrders: this.tuning.foreignOrders,
      // Another daemon runs with our instance id: a cancel-all would end its orders too.
      ownOnly: () => this.fence.conflict !== undefined,
      metrics: this.ops.metrics.loop,
      wallets: this.runners,
      condition: (walletName, detail) => this.coreRisk.condition({ kind: "wallet", wallet: walletName }, "dead_man", detail),
    });
    this.loop = deadMan.loop;
    this.deadMan = deadMan.deadMan;
    const { core, watch } = buildCoreRisk({
      config,
      clock: this.clock,
      log: this.log,
      view: this.view,
      sources: {
        breaker: () => this.client.breaker.state(),
        quotedMarkets: (now) => this.markets.quotedMarkets(now),
        data: { book: (m, o) => this.data.book(m, o), isStale: (m, o) => this.data.isStale(m, o) },
        netPnl: (w) => this.view.pnl(w).net,
      },
      onHaltChange: (c) => this.ops.events.halt(c),
      onChange: (changes) => this.haltControl.onChanges(changes),
      onFiltered: (w, m, reason, n) => this.ops.events.quotesDropped(w, m, reason, n),
      orders: (w) => this.runners.find((r) => r.wallet === w)?.tracker,
      onPositionChange: (listener) => this.inventory.onPositionChange(listener),
    });
    this.coreRisk = core;
    this.haltControl = new HaltControl({ core: () => this.coreRisk, runners: this.runners, observer: () => this.observer, log: this.log });
    const extra: readonly EngineObserver[] = deps.observer === undefined ? [] : isObserverList(deps.observer) ? deps.observer : [deps.observer];
    this.observer = combineObservers([watch, this.ops.bridge, this.deadMan, ...extra], (e) => this.log.error({ err: e instanceof Error ? e.message : String(e) }, "observer threw"));
    this.extraRisk = deps.risk;
    this.sessionStartMs = this.clock.now();
    this.session = sessionTag(this.sessionStartMs, rng.fork("session"));
    this.fence = new InstanceFence({
      instanceId: config.instance.id,
      session: this.session,
      sessionStartMs: this.sessionStartMs,
      lateWindowMs: lateWindowMs(config.platform.requestTimeoutMs),
      watchMs: config.instance.startupWatchSec * 1000,
      clock: this.clock,
      log: this.log.child({ component: "fence" }),
      onConflict: (detail) => this.coreRisk.condition(GLOBAL, "instance_conflict", detail),
    });
    this.auth = new AuthWatch({
      clock: this.clock,
      rng: rng.fork("auth"),
      log: this.log.child({ component: "auth" }),
      wallets: config.wallets,
      condition: (scope, detail) => this.coreRisk.condition(scope, "auth_refused", detail),
      count: (wallet, code) => this.ops.events.authRefusal(wallet, code),
      probe: (wallet) => this.client.forWallet(wallet).portfolio.balances(),
    });

    const link = buildPlatformLink({
      config,
      deps,
      clock: this.clock,
      rng,
      log: this.log,
      tuning: this.tuning,
      observer: this.observer,
      ops: this.ops,
      auth: this.auth,
      rest: deadMan.rest,
      seq: this.seq,
      defaultFeeTakerBps: () => this.platformInfo?.feeConfig.defaultFeeTakerBps ?? null,
    });
    this.gate = link.gate;
    this.client = link.client;
    this.registry = link.registry;
    this.data = link.data;
    this.trades = link.trades;

    const saltSource = deps.saltSource ?? (deps.rng !== undefined ? rngSaltSource(rng.fork("salt")) : cryptoSaltSource);
    this.runners.push(
      ...buildWalletRunners({
        ...link,
        config,
        clock: this.clock,
        rng,
        log: this.log,
        observer: this.observer,
        risk: { core: this.coreRisk, hook: this.extraRisk },
        ledger: this.ledger,
        inventory: this.inventory,
        saltSource,
        platform: () => this.platform,
        session: this.session,
        fence: this.fence,
        sessionStartMs: this.sessionStartMs,
        tuning: this.tuning,
        monotonic,
        seq: this.seq,
        engine: this.view,
        shed: (symbol) => this.capacity.isShed(symbol),
        params: this.params,
        orderSigners: deps.orderSigners,
      }),
    );
    this.settlement = new SettlementWatcher({
      clock: this.clock,
      log: this.log.child({ component: "settlement" }),
      settings: config.settlement,
      inventory: this.inventory,
      wallets: () => this.runners.map((r) => ({ wallet: r.wallet.toLowerCase(), name: r.name })),
      api: (w) => this.client.forWallet(w),
      symbolOf: (id) => this.registry.symbolOf(id) ?? id,
      later: (fn, ms) => this.timers.later(fn, ms),
      active: () => this.running && this.stopping === undefined,
    });
    this.ops.metrics.settlement.follow(() => this.settlement.views());
    const leases = this.leases;
    if (leases !== undefined) this.ops.metrics.lease.follow(() => leaseMetricRows(leases, this.clock.now()));
    this.markets = new MarketTimeline({
      clock: this.clock,
      log: this.log,
      registry: this.registry,
      data: this.data,
      trades: this.trades,
      inventory: this.inventory,
      runners: this.runners,
      active: () => this.running && this.stopping === undefined,
      later: (fn, ms) => this.timers.later(fn, ms),
      onSettled: (symbol, kind, nums, outcomes, at, id) => this.settlement.onSettled(symbol, kind, nums, outcomes, at, id),
    });
    this.capacity = buildCapacityGuard({
      settings: config.capacity,
      log: this.log,
      now: () => this.clock.now(),
      quoted: (now) => this.markets.quotedMarkets(now),
      positions: () => this.inventory.positions(),
      trackers: () => this.runners.map((r) => r.tracker),
      condition: (scope, reason, detail) => this.coreRisk.condition(scope, reason, detail),
      // Lag means something on the real clock, or with a monotonic clock given to match the clock
      // (tests); performance.now against a virtual clock would shed on the host's noise.
      lag: deps.monotonic !== undefined || this.clock instanceof RealClock ? this.loop : undefined,
      metrics: this.ops.metrics,
    });
    this.timers = new DaemonTimers({
      clock: this.clock,
      log: this.log,
      config,
      tuning: this.tuning,
      registry: this.registry,
      markets: this.markets,
      runners: this.runners,
      riskTick: (now) => {
        this.coreRisk.evaluate(now, true);
        this.ops.probes.tick(now);
      },
      capacity: this.capacity,
    });
    this.ops.attach({
      rateGate: this.gate,
      breaker: this.client.breaker,
      streams: () => this.runners.flatMap((r) => (r.streamStats() === undefined ? [] : [{ wallet: r.name, stats: () => r.streamStats()! }])),
      halts: this.coreRisk.facade,
      engine: engineStateSource({ runners: this.runners, inventory: this.inventory, marks: () => marksFrom(this.registry, this.data), dailyPnl: () => watch.dailyPnl() }),
    });
    this.ops.attachTrackers(() => this.runners.map((r) => ({ wallet: r.name, counters: r.tracker.counters })));
  }

  get platform(): PlatformInfo {
    if (this.platformInfo === undefined) throw new Error("platform info not loaded yet");
    return this.platformInfo;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Serve /metrics, /health, /ready, /status and the admin routes on config metrics.host:port (0: any). */
  serve(): Promise<{ host: string; port: number }> {
    return this.ops.serve(
      {
        kill: async (note) => {
          const r = await this.kill(note);
          return { changes: r.changes, info: { openOrdersBefore: r.openOrdersBefore, openOrders: r.openOrders } };
        },
        resume: () => ({ changes: this.resume() }),
        ...(this.reloader === undefined ? {} : { reload: () => this.reload("admin") }),
      },
      () => this.statusDocument(),
    );
  }

  /**
   * Reloads (SIGHUP, POST /admin/reload) read this file again (reload.ts); call before serve(). An
   * applied reload shows its hash in mm_config_info and runs every wallet's cycles, which decide
   * with the new parameters.
   */
  reloadFrom(file: string, env: Env = process.env): void {
    this.reloader = new ConfigReloader({
      file,
      env,
      params: this.params,
      risk: this.coreRisk.facade,
      clock: this.clock,
      log: this.log.child({ component: "reload" }),
      applied: (active) => {
        this.ops.configActive(active.hash, active.config);
        for (const r of this.runners) r.triggerAll("timer");
      },
    });
  }

  /** Reload the config file (reloadFrom); serialised, and a refused file changes nothing. */
  reload(source: string): Promise<ReloadOutcome> {
    if (this.reloader === undefined) return Promise.reject(new Error("no config file to reload (reloadFrom was not called)"));
    return this.reloader.reload(source);
  }

  /** What GET /status answers (status-document.ts): wallets, markets, open orders, inventory, PnL, halts, the config's hash. */
  statusDocument(): StatusDocument {
    const active = this.params.current;
    const config = { hash: active.hash, reloads: active.version, since: new Date(active.sinceMs).toISOString() };
    return { ...this.baseStatusDocument(), config };
  }

  private baseStatusDocument(): StatusDocument {
    return statusDocument({
      config: this.config,
      nowMs: this.clock.now(),
      ready: this.ops.probes.isReady(),
      status: this.status(),
      runners: this.runners,
      registry: this.registry,
      data: this.data,
      inventory: this.inventory,
      halts: this.coreRisk.facade.halts(),
      hookHalts: this.extraRisk?.halts?.() ?? [],
      lease: this.leases === undefined ? undefined : (w) => this.leases?.view(w),
    });
  }

  /**
   * The kill switch (SIGUSR2, POST /admin/kill): a global halt, then every wallet's cycles run at
   * once, cancelling every live order and placing nothing. The process stays up for inspection;
   * quoting comes back only with resume() (POST /admin/resume) or a restart.
   */
  kill(note: string): Promise<KillReport> {
    return this.haltControl.kill(note);
  }

  /** Clears the operator halts (kill_switch, manual, daily_loss); automatic halts follow their own rule. */
  resume(): HaltChange[] {
    return this.haltControl.resume();
  }

  /** Start-up (issue item 1); resolves once every wallet is ready or `startupWaitMs` has passed. */
  async start(): Promise<StartReport> {
    if (this.running) throw new Error("daemon already started");
    this.running = true;
    const signal = this.startAbort.signal;
    this.timers.startRiskTick();
    this.loop.start();
    this.deadMan.start();
    const retry = { clock: this.clock, rng: this.rng.fork("startup"), log: this.log, policy: this.tuning.startupRetry, signal };
    this.platformInfo = await fetchPlatformInfo(this.client, retry);
    if (this.stopping !== undefined) return { markets: [], wallets: [] };
    this.log.info({ chainId: this.platformInfo.contracts.chainId, defaultFeeTakerBps: this.platformInfo.feeConfig.defaultFeeTakerBps }, "platform info loaded");
    await this.watchForOtherInstance(signal);
    if (this.stopping !== undefined) return { markets: [], wallets: [] };
    this.markets.wire();
    await retrying("market selection", retry, () => this.markets.refreshSelection());
    if (this.stopping !== undefined) return { markets: [], wallets: [] };
    this.data.start();
    this.trades.start();

    this.shardStart = shardHold(this.config, (a) => this.client.forWallet(a), this.clock, this.log, this.leases);
    const results = await startWallets(this.runners, signal, this.clock, this.tuning.startupWaitMs, this.log, this.shardStart?.hold);
    // stop() may have come while we waited: it owns the timers from then on.
    if (this.stopping !== undefined) return { markets: [], wallets: results };
    // Before the periodic drift checks: a payout awaited since before the restart is watched, not drift.
    await this.markets.settleKnown();
    if (this.stopping !== undefined) return { markets: [], wallets: results };
    this.timers.startPeriodic();
    this.ops.probes.markStarted();
    const markets = this.registry.selected().map((e) => e.row.symbol);
    this.log.info({ markets, wallets: results, configHash: this.params.current.hash }, "daemon running");
    return { markets, wallets: results };
  }

  /**
   * One owner per instance.id (instance-fence.ts): before any wallet adopts an order, watch for
   * another daemon running with ours. Refused: the daemon is dropped as by a hard kill, so nothing
   * is adopted or cancelled (a stop would cancel-all the other daemon's orders), and start() rejects.
   */
  private async watchForOtherInstance(signal: AbortSignal): Promise<void> {
    const wallets = this.config.wallets.map((w) => ({ wallet: w.address.toLowerCase(), api: this.client.forWallet(w.address) }));
    try {
      const r = await watchAtStartup(this.fence, wallets, signal);
      if (r.waitedMs > 0 && !signal.aborted) this.log.info({ ...r }, "instance fence: no other daemon seen; adopting the earlier session's orders");
    } catch (e) {
      if (e instanceof InstanceConflictError) this.abandon();
      throw e;
    }
  }

  /**
   * Shutdown (issue item 1): stop quoting, cancel everything per wallet, repeat pending cancels
   * until final or `shutdown.cancelDeadlineSec` passes, report what is left. Idempotent.
   */
  stop(reason = "stop"): Promise<ShutdownReport> {
    this.stopping ??= this.doStop(reason);
    return this.stopping;
  }

  private async doStop(reason: string): Promise<ShutdownReport> {
    this.log.info({ reason }, "shutting down: pulling every quote");
    this.ops.probes.markStopping();
    this.quiet("daemon stopping");
    await Promise.all(this.runners.map((r) => r.stopQuoting()));
    const deadlineAtMs = this.clock.now() + this.config.shutdown.cancelDeadlineSec * 1000;
    const leases = this.leases;
    const wallets = await Promise.all(this.runners.map((r) => (leases === undefined ? r.shutdown(deadlineAtMs) : stopLeasedWallet(r, deadlineAtMs, leases, this.leaseLostStops, this.log))));
    if (leases !== undefined) await releaseLeases(leases, wallets, this.log);
    this.running = false;
    this.gate.close();
    const exitCode = shutdownExitCode(wallets);
    logShutdownReports(this.log, wallets);
    await this.ops.close();
    return { reason, wallets, exitCode };
  }

  /** Stop every timer and stream without cancelling anything (a hard kill, for restart tests). */
  abandon(): void {
    this.quiet("daemon abandoned");
    this.leases?.stop();
    for (const r of this.runners) r.abandon();
    this.running = false;
    this.gate.close();
    void this.ops.close();
  }

  /**
   * A wallet's lease was lost (not renewed in time, or taken): stop the wallet now, its orders
   * cancelled, so it is never quoted by two replicas. A wallet still held (at start-up, or on its
   * way back) was not started: its hold simply takes the lease again. Once the stop has ended the
   * wallet goes back through the hand-off (rejoinAfterLoss).
   */
  private leaseLost(wallet: string, why: string): void {
    if (this.stopping !== undefined || this.shardStart?.handoff.isHolding(wallet) === true) return;
    const runner = this.runners.find((r) => r.wallet === wallet);
    if (runner === undefined || this.leaseLostStops.has(wallet)) return;
    const stop = runner.shutdown(this.clock.now() + this.config.shutdown.cancelDeadlineSec * 1000);
    this.leaseLostStops.set(wallet, stop);
    void stop.then(
      (report) => {
        logShutdownReports(this.log, [report]);
        void this.rejoinAfterLoss(runner, stop);
      },
      (e: unknown) => this.log.error({ wallet, why, err: e instanceof Error ? e.message : String(e) }, "shard lease: stopping the wallet failed"),
    );
  }

  /**
   * The way back of a wallet stopped for a lost lease: the lease asked for again with a backoff,
   * the previous owner's orders waited out (ShardHandoff.rejoin), then the wallet's whole start-up
   * (open orders reconciled before any cycle). A stop of the daemon meanwhile ends it.
   */
  private async rejoinAfterLoss(runner: WalletRunner, stop: Promise<WalletShutdownReport>): Promise<void> {
    const shard = this.shardStart;
    const leases = this.leases;
    const signal = this.startAbort.signal;
    if (shard === undefined || leases === undefined || this.stopping !== undefined || signal.aborted) return;
    // Checked again after the wait, with no await before the restart: a loss between the two (ignored
    // by leaseLost while this stop is recorded) sends the wallet back to the wait.
    do {
      try {
        await shard.rejoin(runner.wallet, signal);
      } catch {
        return; // the daemon is stopping
      }
      if (this.stopping !== undefined || this.leaseLostStops.get(runner.wallet) !== stop) return;
    } while (!leases.holds(runner.wallet));
    this.leaseLostStops.delete(runner.wallet);
    try {
      await runner.restart(signal);
    } catch (e) {
      if (!signal.aborted) this.log.error({ wallet: runner.wallet, err: e instanceof Error ? e.message : String(e) }, "shard lease: starting the wallet again failed");
    }
  }

  /** Start-up aborted; every timer, poller and watch of the daemon stopped (the wallets are next). */
  private quiet(why: string): void {
    this.startAbort.abort(new Error(why));
    this.deadMan.stop();
    this.loop.stop();
    this.auth.stop();
    this.timers.clear();
    this.data.stop();
    this.trades.stop();
  }

  status(): DaemonStatus {
    return statusOf({
      nowMs: this.clock.now(),
      running: this.running,
      runners: this.runners,
      registry: this.registry,
      data: this.data,
      ledger: this.ledger,
      inventory: this.inventory,
      halts: [...this.coreRisk.halts(), ...(this.extraRisk?.halts?.() ?? [])],
    });
  }
}

function isObserverList(o: EngineObserver | readonly EngineObserver[]): o is readonly EngineObserver[] {
  return Array.isArray(o);
}

export function createDaemon(config: Config, deps: DaemonDeps = {}): Daemon {
  // A sharded replica runs its own wallets under its own instance id (shard-section.ts).
  return new Daemon(applyShard(config), deps, config);
}

