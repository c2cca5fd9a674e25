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
import { UnsignedOrderSigner } from "../signing/unsigned.js";
import { BacktestCollector } from "./collector.js";
import { startingBalance } from "./platform-check.js";
import { prepareBacktest, type BacktestInputs, type PreparedBacktest } from "./prepare.js";
import { buildReport } from "./report.js";
import type { BacktestReport } from "./types.js";

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
  /** Sees the finished run before it is torn down (tests, tools). */
  onFinish?: (run: { daemon: Daemon; sim: Simulator; clock: VirtualClock }) => void;
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

export async function runPrepared(p: PreparedBacktest, opts: Omit<BacktestOptions, keyof BacktestInputs> = {}): Promise<BacktestReport> {
  const wall = opts.wallClock ?? new RealClock();
  const wall0 = wall.now();
  const clock = new VirtualClock(p.startMs);
  const logger = typeof opts.logger === "function" ? opts.logger(clock) : (opts.logger ?? createLogger({ level: "silent" }));
  const simLogger = opts.logger === undefined ? logger : logger.child({ component: "sim" }, { level: "warn" });
  // The demo's embedded simulator, pointed at this run's scenario file and seed.
  const simConfig = { ...p.config, simulator: { ...p.config.simulator, scenario: p.scenarioPath, seed: p.seed } };
  // Signatures off (prepare.ts): the simulator skips verification, the daemon signs nothing.
  const unsigned = p.signatures === "off";
  const embedded: EmbeddedSimulator = startEmbeddedSimulator(simConfig, clock, simLogger, unsigned ? { verifySignatures: false } : {});
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

    const endMs = p.startMs + p.durationMs;
    const progressEvery = opts.progressEveryMs ?? Math.max(p.stepMs, Math.floor(p.durationMs / 10));
    let nextProgress = p.startMs + progressEvery;
    const started = watch(d.start(), clock);
    let readyAt: number | undefined;
    // Trading outcomes do not depend on the step (timers fire at their own times); the uptime
    // samples and progress reports do.
    while (clock.now() < endMs) {
      await clock.advanceTo(Math.min(endMs, clock.now() + p.stepMs));
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
    opts.onFinish?.({ daemon: d, sim: embedded.sim, clock });
    return report;
  } finally {
    // A run that threw half-way: drop the daemon's timers and streams (nothing real is left open).
    if (daemon !== undefined && !stopped) daemon.abandon();
    embedded.stop();
  }
}

export type { PreparedBacktest };
