/**
 * `runBacktest`: the daemon `mm run` runs (createDaemon, same config, same strategy code) against
 * the embedded simulator `mm run` uses in simulator mode (startEmbeddedSimulator: the scenario
 * with the config's wallets added), both on one VirtualClock driven here as fast as the CPU
 * allows:
 *
 *   1. prepare (config, scenario, seed, virtual start: prepare.ts);
 *   2. start the simulator and the daemon (no metrics HTTP server; logs silent unless a logger is
 *      given), advance the clock step by step for `durationMs` (VirtualClock.advance fires every
 *      due timer in order; a step only bounds progress reports and quote-uptime samples);
 *   3. stop the daemon (its shutdown pulls every quote and cancels every order) and keep the
 *      clock moving until the shutdown has finished;
 *   4. build the report (report.ts) from the daemon's ledger and inventory, the simulator's trade
 *      list and book, and what the collector saw.
 *
 * Signatures off (`signatures: "off"`, docs/backtest.md "Signatures off"): the simulator is
 * started without signature verification and the daemon gets a no-op signer (src/signing/
 * unsigned.ts) and no pre-signing, both as constructor options passed only from here.
 *
 * Replaying a recording (`data`, docs/backtest.md "Replaying a recording with the full engine"):
 * the recording is read once for its market rows and time span (loadReplay), the simulator is
 * started from the scenario with its markets replaced by the recorded ones and the synthetic flow
 * off, and a ReplayFlow (src/sim/flow/replay.ts) applies the recorded rows, books and trades on the
 * virtual clock until the end of trading.
 *
 * Determinism: the clock, the simulator seed and the daemon's Rng are the only sources of time
 * and chance (the daemon's latency figures use the virtual clock too), so the same inputs give
 * the same report; only `timing` (wall clock) differs.
 */
import { RealClock, VirtualClock, type Clock } from "../core/clock.js";
import { Rng } from "../core/rng.js";
import { createLogger, type Logger } from "../log/index.js";
import { createDaemon, type Daemon, type ShutdownReport } from "../bot/engine/daemon.js";
import { startEmbeddedSimulator, type EmbeddedSimulator } from "../bot/engine/demo.js";
import type { Simulator } from "../sim/simulator.js";
import { parseRecordedRow, ReplayFlow, replayScenario } from "../sim/flow/replay.js";
import type { MarketSummary } from "../wire/markets.js";
import type { DataEvent } from "../data/index.js";
import { formatMicros } from "../core/money.js";
import { recordedSource, type MarketDataSource } from "./fast/sources.js";
import { UnsignedOrderSigner } from "../signing/unsigned.js";
import { BacktestCollector } from "./collector.js";
import { fullSeries } from "./series-full.js";
import { startingBalance } from "./platform-check.js";
import { BacktestSetupError, prepareBacktest, type BacktestInputs, type PreparedBacktest } from "./prepare.js";
import { buildReport } from "./report.js";
import type { BacktestReport, ReplayFacts } from "./types.js";

export interface BacktestProgress {
  virtualMs: number;
  durationMs: number;
  wallMs: number;
  fills: number;
}

export interface BacktestOptions extends BacktestInputs {
  /** A logger, or a factory given the virtual clock (log times in virtual time). Default silent. */
  logger?: Logger | ((clock: Clock) => Logger);
  /** Called every `progressEveryMs` of virtual time (default a tenth of the duration). */
  onProgress?: (p: BacktestProgress) => void;
  progressEveryMs?: number;
  /** Wall clock for the `timing` section; default the real clock. */
  wallClock?: Clock;
  /**
   * Sees the finished run before it is torn down (tests, tools); `requests`: the requests the
   * simulator answered (the work the daemon asked of it, bench/backtest.bench.ts).
   */
  onFinish?: (run: { daemon: Daemon; sim: Simulator; clock: VirtualClock; requests: number }) => void;
}

interface Settled<T> {
  done: boolean;
  /** Virtual time it settled (exact, not rounded to a step). */
  at?: number;
  value?: T;
  error?: unknown;
}

function watch<T>(p: Promise<T>, clock: Clock): Settled<T> {
  const s: Settled<T> = { done: false };
  p.then(
    (v) => Object.assign(s, { done: true, at: clock.now(), value: v }),
    (e: unknown) => Object.assign(s, { done: true, at: clock.now(), error: e }),
  );
  return s;
}

/** Open for orders on the platform (PRE_MARKET takes post-only orders, which quotes are). */
function tradable(sim: Simulator, symbol: string): boolean {
  const m = sim.market(symbol);
  if (m === undefined) return false;
  const s = sim.platform.catalogue.status(m.id);
  return s === "OPEN" || s === "PRE_MARKET";
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Extra virtual time a shutdown may take beyond its configured cancel deadline. */
const SHUTDOWN_SLACK_MS = 120_000;

export async function runBacktest(opts: BacktestOptions): Promise<BacktestReport> {
  return runPrepared(prepareBacktest(opts), opts);
}

/**
 * A recording's markets and span: the first row of each market, the first and last event times.
 * Returns the prepared run with its start, duration (unless given) and scenario set from them,
 * and a fresh source for the replay.
 */
export async function loadReplay(p: PreparedBacktest): Promise<{ prepared: PreparedBacktest; source: MarketDataSource }> {
  if (p.data === undefined) throw new Error("loadReplay: not a replay");
  const { dir } = p.data;
  const scan = await recordedSource(dir);
  const rows = new Map<string, MarketSummary>();
  let first: number | undefined;
  let last = 0;
  for (let e = scan.next(); e !== undefined; e = scan.next()) {
    first ??= e.ts;
    last = e.ts;
    if (e.kind === "market" && !rows.has(e.symbol)) rows.set(e.symbol, parseRecordedRow(e));
  }
  if (first === undefined) throw new BacktestSetupError(`${dir}: the data set holds no market data (market, book or trade events)`);
  if (rows.size === 0) throw new BacktestSetupError(`${dir}: the data set holds no market rows, so there is no market to replay`);
  const durationMs = p.data.durationGiven ? p.durationMs : Math.max(1, last - first);
  const scenario = replayScenario(p.scenario, [...rows.values()], first);
  return { prepared: { ...p, startMs: first, durationMs, scenario }, source: await recordedSource(dir) };
}

function replayFacts(dir: string, r: ReplayFlow): ReplayFacts {
  const s = r.stats;
  return {
    dir,
    events: s.events,
    statusMoves: s.statusMoves,
    statusRefused: s.statusRefused,
    books: s.books,
    booksComplement: s.booksComplement,
    booksHeld: s.booksHeld,
    liquidityPosted: s.liquidityPosted,
    liquidityCancelled: s.liquidityCancelled,
    liquidityCrossedShares: formatMicros(s.liquidityCrossedQty),
    trades: s.trades,
    tradesSkipped: s.tradesSkipped,
    tradeShares: formatMicros(s.tradeQty),
    tradeFilledShares: formatMicros(s.tradeFilledQty),
    unknownSymbol: s.unknownSymbol,
  };
}

export interface ReplayHooks {
  /** Sees each recorded event once the replay applied it, with the simulator (tests). */
  onReplayed?: (e: DataEvent, sim: Simulator, replay: ReplayFlow) => void;
}

export async function runPrepared(prepared: PreparedBacktest, opts: Omit<BacktestOptions, keyof BacktestInputs> & ReplayHooks = {}): Promise<BacktestReport> {
  const wall = opts.wallClock ?? new RealClock();
  const wall0 = wall.now();
  const loaded = prepared.data !== undefined ? await loadReplay(prepared) : undefined;
  const p = loaded?.prepared ?? prepared;
  const clock = new VirtualClock(p.startMs);
  const logger = typeof opts.logger === "function" ? opts.logger(clock) : (opts.logger ?? createLogger({ level: "silent" }));
  const simLogger = opts.logger === undefined ? logger : logger.child({ component: "sim" }, { level: "warn" });
  // The demo's embedded simulator, pointed at this run's scenario file and seed.
  const simConfig = { ...p.config, simulator: { ...p.config.simulator, scenario: p.scenarioPath, seed: p.seed } };
  // Signatures off (prepare.ts): the simulator skips verification, the daemon signs nothing.
  const unsigned = p.signatures === "off";
  const embedded: EmbeddedSimulator = startEmbeddedSimulator(simConfig, clock, simLogger, {
    ...(unsigned ? { verifySignatures: false } : {}),
    ...(loaded !== undefined ? { scenario: p.scenario, flow: false } : {}),
  });
  let replay: ReplayFlow | undefined;
  if (loaded !== undefined) {
    const sim = embedded.sim;
    const onReplayed = opts.onReplayed;
    replay = new ReplayFlow({
      clock,
      engine: sim.engine,
      source: loaded.source,
      status: (symbol) => {
        const m = sim.market(symbol);
        return m === undefined ? undefined : sim.platform.catalogue.status(m.id);
      },
      move: (symbol, trigger, args) => sim.setMarketStatus(symbol, trigger, args).ok,
      reserved: new Set(sim.platform.wallets.list().map((w) => w.address)),
      ...(onReplayed !== undefined ? { onApplied: (e) => onReplayed(e, sim, replay!) } : {}),
    });
    replay.start();
  }
  let daemon: Daemon | undefined;
  let stopped = false;
  try {
    const collector = new BacktestCollector();
    daemon = createDaemon(p.config, {
      clock,
      logger,
      transport: embedded.transport,
      connector: embedded.connector,
      apiKey: embedded.apiKey,
      rng: new Rng(p.seed),
      observer: collector,
      monotonic: () => clock.now(),
      // A no-op signer and no pre-signing (nothing to save): only ever passed from here.
      ...(unsigned ? { orderSigners: (w: { address: string }) => new UnsignedOrderSigner(w.address), tuning: { presign: false } } : {}),
    });
    const d = daemon;
    // The report's checks need every fill: compacted records stay listable (fill-ledger.ts).
    d.ledger.keepCompacted();
    const startBalances = new Map(d.runners.map((r) => [r.wallet, startingBalance(embedded.sim, r.wallet)]));
    collector.attach(
      d.inventory,
      d.runners.map((r) => r.wallet),
    );
    collector.series = fullSeries(embedded.sim, d, collector.markets);

    const endMs = p.startMs + p.durationMs;
    const progressEvery = opts.progressEveryMs ?? Math.max(p.stepMs, Math.floor(p.durationMs / 10));
    let nextProgress = p.startMs + progressEvery;
    const started = watch(d.start(), clock);
    let readyAt: number | undefined;
    // Trading outcomes do not depend on the step (timers fire at their own times); the uptime
    // samples and progress reports do.
    while (clock.now() < endMs) {
      await clock.advanceTo(Math.min(endMs, clock.now() + p.stepMs));
      // The state after this instant: samples and markouts due up to it (series.ts).
      collector.series.advance(clock.now() + 1);
      if (started.done && started.error === undefined) {
        readyAt ??= started.at;
        const markets = new Set(d.registry.selected().map((e) => e.row.symbol));
        for (const r of d.runners) for (const m of r.marketsToCycle()) markets.add(m);
        collector.sample(d.runners, [...markets].sort(), (m) => tradable(embedded.sim, m));
      }
      if (clock.now() >= nextProgress && opts.onProgress !== undefined) {
        nextProgress += progressEvery;
        opts.onProgress({ virtualMs: clock.now() - p.startMs, durationMs: p.durationMs, wallMs: wall.now() - wall0, fills: d.ledger.total });
      }
    }

    collector.series.finish(clock.now());
    // The recording's flow ends with the trading window (its book stays as last replayed).
    replay?.stop();
    const stopping = watch(d.stop("backtest end"), clock);
    const stopDeadline = clock.now() + p.config.shutdown.cancelDeadlineSec * 1000 + SHUTDOWN_SLACK_MS;
    while (!stopping.done) {
      if (clock.now() >= stopDeadline) throw new Error(`the daemon's shutdown did not finish within ${(stopDeadline - endMs) / 1000} s of virtual time`);
      await clock.advance(p.stepMs);
    }
    stopped = true;
    if (stopping.error !== undefined) throw new Error(`the daemon's shutdown failed: ${message(stopping.error)}`);
    // A start still running when stop came resolves (or rejects) once stop aborted it.
    for (let i = 0; i < 100 && !started.done; i++) await clock.advance(p.stepMs);
    const shutdownEnd = stopping.at ?? clock.now();
    const wallMs = wall.now() - wall0;

    const report = buildReport({
      prepared: p,
      daemon: d,
      sim: embedded.sim,
      collector,
      start: started.error === undefined ? started.value : undefined,
      startError: started.error === undefined ? (started.done ? undefined : "start-up had not finished when the run ended") : message(started.error),
      readyAt,
      shutdown: stopping.value as ShutdownReport,
      shutdownEnd,
      wallMs,
      startBalances,
    });
    if (replay !== undefined && p.data !== undefined) report.run.data = replayFacts(p.data.dir, replay);
    opts.onFinish?.({ daemon: d, sim: embedded.sim, clock, requests: embedded.transport.pipeline.requestsStamped });
    return report;
  } finally {
    replay?.stop();
    // A run that threw half-way: drop the daemon's timers and streams (nothing real is left open).
    if (daemon !== undefined && !stopped) daemon.abandon();
    embedded.stop();
  }
}

export type { PreparedBacktest };
