/**
 * The daemon's own timers: the risk tick (from the start of start-up: halts move while no cycle
 * runs, and it is the /health heartbeat), the periodic work once running (selection refresh,
 * market rows, quote refresh, wallet maintenance, fill sync, drift checks) and one-off timers of
 * the market timeline. All of them, and the timeline's phase timers, are cleared at stop.
 */
import { takeTurn, type Clock, type TimerHandle } from "../../core/clock.js";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../log/index.js";
import type { MarketTimeline } from "./daemon-markets.js";
import type { MarketRegistry } from "../market/market-registry.js";
import type { EngineTuning } from "./tuning.js";
import type { WalletRunner } from "./wallet-runner.js";

export interface DaemonTimerParts {
  clock: Clock;
  log: Logger;
  config: Config;
  tuning: EngineTuning;
  registry: MarketRegistry;
  markets: MarketTimeline;
  runners: readonly WalletRunner[];
  /** One risk tick at `nowMs`: halts evaluated, the liveness heartbeat. */
  riskTick(nowMs: number): void;
  /** Load shedding (capacity-guard.ts): evaluated every `evaluateMs`; widens the quote refresh by `refreshFactor`. */
  capacity?: { readonly refreshFactor: number; readonly evaluateMs: number; evaluate(): unknown };
}

export class DaemonTimers {
  private readonly timers: TimerHandle[] = [];
  /** Bumped by clear(): a walk of the wallets in turns started before it goes no further. */
  private generation = 0;

  constructor(private readonly p: DaemonTimerParts) {}

  /** Halts move while no cycle runs too; this tick is also the liveness heartbeat (/health), from the start. */
  startRiskTick(): void {
    const tick = (): void => this.p.riskTick(this.p.clock.now());
    tick();
    this.timers.push(this.p.clock.setInterval(tick, this.p.tuning.riskEvaluateMs));
  }

  /** The periodic work of a running daemon (see the header). */
  startPeriodic(): void {
    const { clock, log, config, tuning, registry, markets, runners } = this.p;
    const every = (ms: number, fn: () => void): void => void this.timers.push(clock.setInterval(fn, ms));
    const quiet = (what: string) => (e: unknown) => log.warn({ err: e instanceof Error ? e.message : String(e) }, `${what} failed`);
    // One at a time: a refresh that outlasts its period (a slow platform, rate-limit waits) is not
    // started again beside itself, where two selections would assign markets from each other's
    // half-written state; its tick is skipped and the next tick after it ends runs.
    const single = (what: string, level: "warn" | "debug", fn: () => Promise<void>): (() => void) => {
      let running = false;
      return () => {
        if (running) return void log[level](`${what} still running: refresh skipped`);
        running = true;
        void fn()
          .catch(quiet(what))
          .finally(() => (running = false));
      };
    };
    every(config.markets.refreshSec * 1000, single("market selection", "warn", () => markets.refreshSelection()));
    every(tuning.statusRefreshMs, single("market status refresh", "debug", () => registry.refreshStatus()));
    let refreshes = 0;
    every(config.quoting.refreshMs, () => {
      // Widened while the event loop is behind: only every refreshFactor-th tick refreshes.
      if (++refreshes % (this.p.capacity?.refreshFactor ?? 1) !== 0) return;
      void this.inTurns((r) => r.triggerAll("timer"));
    });
    every(tuning.maintenanceMs, () => void this.inTurns((r) => void r.maintain()));
    every(tuning.fillSyncMs, () => runners.forEach((r) => void r.sync("timer")));
    every(tuning.driftCheckMs, () => runners.forEach((r) => void r.checkDrift()));
    const capacity = this.p.capacity;
    if (capacity !== undefined) every(capacity.evaluateMs, () => capacity.evaluate());
  }

  /**
   * Each wallet in a turn of the event loop of its own (live): a refresh of every wallet's
   * quote cycles in one task held the loop for tens of ms at 50 wallets x 100 markets (the
   * capacity bench's event-loop lag). On a VirtualClock they run back to back, as before.
   */
  private async inTurns(fn: (r: WalletRunner) => void): Promise<void> {
    const { clock, runners } = this.p;
    const generation = this.generation;
    for (let i = 0; i < runners.length; i++) {
      if (i > 0) {
        const turn = takeTurn(clock);
        if (turn !== undefined) await turn;
        if (generation !== this.generation) return;
      }
      fn(runners[i]!);
    }
  }

  /** A one-off timer, cleared with the others at stop (and forgotten once it fired). */
  later(fn: () => void, ms: number): void {
    const handle = this.p.clock.setTimeout(() => {
      const i = this.timers.indexOf(handle);
      if (i >= 0) this.timers.splice(i, 1);
      fn();
    }, ms);
    this.timers.push(handle);
  }

  /** Timers held (memory figures): the periodic ones plus one-offs not fired yet. */
  get size(): number {
    return this.timers.length;
  }

  clear(): void {
    this.generation++;
    for (const t of this.timers.splice(0)) this.p.clock.clearInterval(t);
    this.p.markets.clearTimers();
  }
}
