/**
 * The capacity guard: the load shedder (load-shedder.ts, pure) fed with the event-loop monitor's lag
 * samples (loop-monitor.ts) and evaluated once a second by a daemon timer; its steps applied here:
 *
 *   widen_refresh / restore_refresh   the daemon's quote-refresh timer reads `refreshFactor`
 *   shed / restore                    the market-scope `capacity` halt raised / cleared through the
 *                                     core risk: the halt's cycles cancel the market's orders, and a
 *                                     shed market with nothing of ours live is not cycled at all
 *                                     (`isShed`, asked by the wallets' trigger)
 *
 * Each step is logged at warn (shedding) or info (restoring), with the lag that decided it; the
 * level and the markets shed are metrics (mm_load_shed_level, mm_load_shed_markets) and the halts
 * show in /ready and mm_risk_halt_active.
 */
import type { Logger } from "../../log/index.js";
import type { DaemonMetrics } from "../../metrics/registry.js";
import type { HaltScope } from "../risk/types.js";
import type { LagSample, LoopLag } from "./loop-monitor.js";
import { LoadShedder, type LoadShedderOptions, type ShedCandidate, type ShedStep } from "./load-shedder.js";

export interface CapacitySettings {
  /** Off: never sheds (the metrics still read level 0). */
  enabled: boolean;
  maxLagMs: number;
  recoverySec: number;
  stepSec: number;
  refreshFactor: number;
  shedFraction: number;
}

export const CAPACITY_EVALUATE_MS = 1000;

export interface CapacityGuardParts {
  settings: CapacitySettings;
  log: Logger;
  now: () => number;
  /** The markets quoted now, in selection order, with what they hold. */
  candidates: () => ShedCandidate[];
  /** Raise (detail) or clear (null) the market-scope `capacity` halt. */
  halt: (market: string, detail: string | null) => void;
}

export function shedderOptionsOf(s: CapacitySettings): LoadShedderOptions {
  return { maxLagMs: s.maxLagMs, recoveryMs: s.recoverySec * 1000, stepMs: s.stepSec * 1000, refreshFactor: s.refreshFactor, shedFraction: s.shedFraction };
}

export class CapacityGuard {
  private readonly shedder: LoadShedder;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly p: CapacityGuardParts) {
    this.shedder = new LoadShedder(shedderOptionsOf(p.settings));
  }

  /** Take the monitor's lag samples from now on (one monitor; attaching again replaces it). */
  attach(lag: Pick<LoopLag, "onSample">): void {
    this.unsubscribe?.();
    this.unsubscribe = lag.onSample((s: LagSample) => this.shedder.sample(s.lagMs, this.p.now()));
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** How often the daemon's timer calls evaluate(). */
  readonly evaluateMs = CAPACITY_EVALUATE_MS;

  get level(): number {
    return this.shedder.level;
  }

  get refreshFactor(): number {
    return this.shedder.refreshFactor;
  }

  get marketsShed(): number {
    return this.shedder.shed.length;
  }

  /** Shed now: no quotes there, and no cycle while nothing of ours is live there. */
  isShed(market: string): boolean {
    return this.shedder.isShed(market);
  }

  /** One evaluation (the daemon's timer, every CAPACITY_EVALUATE_MS). */
  evaluate(): ShedStep | undefined {
    if (!this.p.settings.enabled) return undefined;
    const now = this.p.now();
    const { step, gone } = this.shedder.evaluate(now, this.p.candidates());
    for (const m of gone) this.p.halt(m, null);
    // Re-assert the halts of every market still shed: a raise of a held halt changes nothing, and a
    // halt the core risk dropped (the market left the quoted set for a while) comes back.
    for (const m of this.shedder.shed) this.p.halt(m, detailOf(this.p.settings));
    if (step !== undefined) this.apply(step);
    return step;
  }

  private apply(step: ShedStep): void {
    const { log, settings } = this.p;
    const base = { shedLevel: step.level, lagP90Ms: Math.round(step.lagMs), maxLagMs: settings.maxLagMs };
    switch (step.kind) {
      case "widen_refresh":
        log.warn({ ...base, refreshFactor: settings.refreshFactor }, "capacity: event loop behind, quote refresh widened");
        return;
      case "shed":
        // The halts were raised by evaluate() already (every shed market is re-asserted there).
        log.warn({ ...base, markets: step.markets, marketsShed: this.marketsShed }, "capacity: event loop behind, markets shed (quotes pulled)");
        return;
      case "restore":
        for (const m of step.markets) this.p.halt(m, null);
        log.info({ ...base, markets: step.markets, marketsShed: this.marketsShed }, "capacity: event loop keeping up, markets restored");
        return;
      case "restore_refresh":
        log.info(base, "capacity: event loop keeping up, quote refresh restored");
        return;
    }
  }
}

function detailOf(s: CapacitySettings): string {
  return `event-loop lag p90 over ${s.maxLagMs} ms: market shed`;
}

/**
 * The shedding candidates: the markets quoted now (`quoted`, in selection order) with whether any
 * wallet holds shares or live orders there. One pass over the positions, one index lookup per
 * (wallet, market).
 */
export function quotedCandidates(
  quoted: readonly { symbol: string }[],
  positions: () => Iterable<{ marketId: string; qty: bigint }>,
  liveCount: (market: string) => number,
): ShedCandidate[] {
  const held = new Set<string>();
  for (const p of positions()) if (p.qty !== 0n) held.add(p.marketId);
  return quoted.map((q) => ({ market: q.symbol, hasPosition: held.has(q.symbol), hasLiveOrders: liveCount(q.symbol) > 0 }));
}

export interface CapacityWiring {
  settings: CapacitySettings;
  log: Logger;
  now: () => number;
  /** The markets quoted now, in selection order (MarketTimeline.quotedMarkets). */
  quoted: (nowMs: number) => readonly { symbol: string }[];
  positions: () => Iterable<{ marketId: string; qty: bigint }>;
  trackers: () => Iterable<{ liveOrders(market: string): readonly unknown[] }>;
  condition: (scope: HaltScope, reason: "capacity", detail: string | null) => unknown;
  /** The event-loop monitor; absent: no lag is measured that means anything, so nothing is shed. */
  lag: Pick<LoopLag, "onSample"> | undefined;
  metrics: Pick<DaemonMetrics, "loadShed">;
}

/** The daemon's guard: fed by the loop monitor, halts through the core risk, level and count as metrics. */
export function buildCapacityGuard(w: CapacityWiring): CapacityGuard {
  const liveCount = (market: string): number => {
    let n = 0;
    for (const t of w.trackers()) n += t.liveOrders(market).length;
    return n;
  };
  const guard = new CapacityGuard({
    settings: w.settings,
    log: w.log.child({ component: "capacity" }),
    now: w.now,
    candidates: () => quotedCandidates(w.quoted(w.now()), w.positions, liveCount),
    halt: (market, detail) => void w.condition({ kind: "market", market }, "capacity", detail),
  });
  if (w.lag !== undefined) guard.attach(w.lag);
  w.metrics.loadShed.follow(() => guard);
  return guard;
}
