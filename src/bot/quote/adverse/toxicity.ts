/**
 * Toxicity of our fills per (wallet, market, outcome, side): the recent average signed markout at
 * one horizon, and a state with hysteresis that the "toxicity" control acts on.
 *
 * Estimate: over the last `fills` markouts at `horizonMs` of the side's fills that are no older than
 * `windowMs` (by fill time) and came after the side's last restore, the average per share weighted
 * by size, sum(markout x qty) / sum(qty), rounded down to the micro; none (null) with fewer than
 * `minFills` of them.
 *
 * States (stepToxicity, a pure function of the previous state, the estimate and the time):
 *
 *   normal --(estimate <= -widenEnter)--> widen --(estimate <= -pullEnter)--> pull
 *   normal --(estimate <= -pullEnter)---> pull
 *   widen  --(estimate > -widenExit, or none, and coolingMs since entering widen)--> normal
 *   pull   --(coolingMs since entering pull)--> normal, the side's earlier fills forgotten
 *
 * widenExit is smaller than widenEnter (hysteresis: the estimate must recover past the entry
 * level, and stay widened for the cooling period at least). A pulled side gets no fills, so its
 * estimate cannot recover: it is restored by time and starts afresh (the evidence before the
 * restore no longer counts), widening again only on new toxic fills.
 *
 * Pure: no clock (every call takes `nowMs`), no I/O. Memory: at most `fills` markouts per side.
 */
import type { Side } from "../../../core/amounts.js";
import { divRound, type Micros } from "../../../core/money.js";
import type { Markout } from "./markout-tracker.js";

export type ToxicLevel = "normal" | "widen" | "pull";

export interface ToxicityParams {
  /** The markout horizon the estimate reads (one of the tracker's horizons). */
  horizonMs: number;
  /** The estimate reads at most this many of the side's latest fills. */
  fills: number;
  /** ... no older than this (by fill time). */
  windowMs: number;
  /** No estimate (and no action) with fewer fills than this. */
  minFills: number;
  /** Widen when the estimate is at or below -widenEnterMicros per share. */
  widenEnterMicros: Micros;
  /** Restore from widen when the estimate is above -widenExitMicros (after the cooling period). */
  widenExitMicros: Micros;
  /** Pull the side when the estimate is at or below -pullEnterMicros. */
  pullEnterMicros: Micros;
  /** Least time in widen, and the time a pull lasts. */
  coolingMs: number;
}

export interface ToxicState {
  level: ToxicLevel;
  /** When the current level was entered. */
  sinceMs: number;
  /** Fills before this time no longer count (the last restore from pull). */
  resetAtMs: number;
}

export const NORMAL: ToxicState = Object.freeze({ level: "normal", sinceMs: 0, resetAtMs: 0 });

/** The next state (see the header); the same object when nothing changes. */
export function stepToxicity(s: ToxicState, estimate: Micros | null, nowMs: number, p: ToxicityParams): ToxicState {
  if (s.level === "pull") return nowMs - s.sinceMs >= p.coolingMs ? { level: "normal", sinceMs: nowMs, resetAtMs: nowMs } : s;
  if (estimate !== null && estimate <= -p.pullEnterMicros) return { level: "pull", sinceMs: nowMs, resetAtMs: s.resetAtMs };
  if (s.level === "normal") return estimate !== null && estimate <= -p.widenEnterMicros ? { level: "widen", sinceMs: nowMs, resetAtMs: s.resetAtMs } : s;
  // widen
  const recovered = estimate === null || estimate > -p.widenExitMicros;
  return recovered && nowMs - s.sinceMs >= p.coolingMs ? { level: "normal", sinceMs: nowMs, resetAtMs: s.resetAtMs } : s;
}

interface Sample {
  fillTs: number;
  perShare: Micros;
  qty: Micros;
}

/** The size-weighted average of the samples the estimate reads; null below minFills. */
export function estimateOf(samples: readonly Sample[], nowMs: number, resetAtMs: number, p: Pick<ToxicityParams, "windowMs" | "minFills" | "fills">): { estimate: Micros | null; fills: number } {
  let n = 0;
  let qty = 0n;
  let value = 0n;
  for (let i = samples.length - 1; i >= 0 && n < p.fills; i--) {
    const x = samples[i]!;
    if (x.fillTs < resetAtMs || x.fillTs < nowMs - p.windowMs) continue;
    n++;
    qty += x.qty;
    value += x.perShare * x.qty;
  }
  if (n < p.minFills || qty === 0n) return { estimate: null, fills: n };
  return { estimate: divRound(value, qty, "floor"), fills: n };
}

/** One side's toxicity as the cycle sees it. */
export interface ToxicSideView {
  outcome: number;
  side: Side;
  level: ToxicLevel;
  /** Average signed markout per share (micros) the state was decided on; null below minFills. */
  estimateMicros: Micros | null;
  fills: number;
  sinceMs: number;
}

interface SideBook {
  wallet: string;
  market: string;
  outcome: number;
  side: Side;
  samples: Sample[];
  state: ToxicState;
  estimate: Micros | null;
  fills: number;
}

/** The estimator of every (wallet, market, outcome, side) with fills. */
export class ToxicityBook {
  private readonly sides = new Map<string, SideBook>();

  constructor(readonly params: ToxicityParams) {}

  /** A markout landed (markouts at other horizons are ignored). */
  onMarkout(m: Markout, nowMs: number): void {
    if (m.horizonMs !== this.params.horizonMs) return;
    const k = sideKey(m.wallet, m.market, m.outcome, m.side);
    let b = this.sides.get(k);
    if (b === undefined) this.sides.set(k, (b = { wallet: m.wallet, market: m.market, outcome: m.outcome, side: m.side, samples: [], state: NORMAL, estimate: null, fills: 0 }));
    b.samples.push({ fillTs: m.fillTs, perShare: m.perShare, qty: m.qty });
    if (b.samples.length > this.params.fills) b.samples.splice(0, b.samples.length - this.params.fills);
    this.step(b, nowMs);
  }

  /** The sides of one (wallet, market) with their state at `nowMs` (time moves pulls and widens back). */
  view(wallet: string, market: string, nowMs: number): ToxicSideView[] {
    const out: ToxicSideView[] = [];
    for (const b of this.sides.values()) {
      if (b.wallet !== wallet || b.market !== market) continue;
      this.step(b, nowMs);
      out.push({ outcome: b.outcome, side: b.side, level: b.state.level, estimateMicros: b.estimate, fills: b.fills, sinceMs: b.state.sinceMs });
    }
    out.sort((a, b) => a.outcome - b.outcome || (a.side === b.side ? 0 : a.side === "BUY" ? -1 : 1));
    return out;
  }

  /** Every side not in the normal state (metrics, status). */
  all(nowMs: number): (ToxicSideView & { wallet: string; market: string })[] {
    const out: (ToxicSideView & { wallet: string; market: string })[] = [];
    for (const b of this.sides.values()) {
      this.step(b, nowMs);
      out.push({ wallet: b.wallet, market: b.market, outcome: b.outcome, side: b.side, level: b.state.level, estimateMicros: b.estimate, fills: b.fills, sinceMs: b.state.sinceMs });
    }
    return out;
  }

  /** Drop sides in the normal state whose every sample is out of the window (memory). */
  prune(nowMs: number): void {
    for (const [k, b] of this.sides) {
      this.step(b, nowMs);
      const newest = b.samples[b.samples.length - 1];
      if (b.state.level === "normal" && (newest === undefined || newest.fillTs < nowMs - this.params.windowMs)) this.sides.delete(k);
    }
  }

  /** Markets with a side kept. */
  markets(): string[] {
    const out = new Set<string>();
    for (const b of this.sides.values()) out.add(b.market);
    return [...out];
  }

  /** Forget a market (no longer followed). */
  forget(market: string): void {
    for (const [k, b] of this.sides) if (b.market === market) this.sides.delete(k);
  }

  get size(): number {
    return this.sides.size;
  }

  private step(b: SideBook, nowMs: number): void {
    // A restore changes resetAtMs, which changes the estimate: decide on the estimate after it.
    for (let i = 0; i < 3; i++) {
      const e = estimateOf(b.samples, nowMs, b.state.resetAtMs, this.params);
      b.estimate = e.estimate;
      b.fills = e.fills;
      const next = stepToxicity(b.state, e.estimate, nowMs, this.params);
      if (next === b.state) return;
      b.state = next;
    }
  }
}

function sideKey(wallet: string, market: string, outcome: number, side: Side): string {
  return `${wallet}\u0000${market}\u0000${outcome}\u0000${side}`;
}
