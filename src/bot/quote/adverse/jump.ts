/**
 * The jump detector of one market: the mid of an outcome moving by more than a threshold within a
 * window pulls every quote of the market for a cooling period.
 *
 * Per (market, outcome), the mids in effect within the last `windowMs` (the one in effect at the
 * window's start included) are kept as two monotonic queues
 * (their running maximum and minimum: O(1) amortised per mid, at most one entry per mid in the
 * window, capped at `maxPoints`). A jump is max - min > thresholdMicros; it sets the market's
 * cooling to `nowMs + coolingMs` (a later jump extends it) and the outcome's window starts afresh
 * from the mid that jumped, so one move is one jump.
 *
 * Pure: no clock (every call takes `nowMs`), no I/O.
 */
import type { Micros } from "../../../core/money.js";

export interface JumpParams {
  /** A move of more than this (micros per share) within the window is a jump. */
  thresholdMicros: Micros;
  windowMs: number;
  /** Quotes of the market stay pulled this long after a jump. */
  coolingMs: number;
  /** Mids kept per outcome at most (default 4,096). */
  maxPoints?: number;
}

interface Point {
  t: number;
  mid: Micros;
}

interface Lane {
  /** Decreasing mids (front: the window's maximum). */
  max: Point[];
  /** Increasing mids (front: the window's minimum). */
  min: Point[];
}

/** The market's jump state as the cycle sees it. */
export interface JumpView {
  /** Quotes pulled until then (a jump's cooling); null when not cooling. */
  coolingUntilMs: number | null;
  /** The last jump's move (max - min, micros) and when it was seen. */
  lastMoveMicros: Micros | null;
  lastJumpMs: number | null;
}

interface MarketJump {
  lanes: Map<number, Lane>;
  coolingUntilMs: number;
  lastMoveMicros: Micros | null;
  lastJumpMs: number | null;
  jumps: number;
}

export const NO_JUMP: JumpView = Object.freeze({ coolingUntilMs: null, lastMoveMicros: null, lastJumpMs: null });

export class JumpDetector {
  private readonly markets = new Map<string, MarketJump>();
  private readonly maxPoints: number;

  constructor(readonly params: JumpParams) {
    this.maxPoints = params.maxPoints ?? 4_096;
  }

  /** A mid of (market, outcome) at `nowMs`; true when it is a jump. */
  onMid(market: string, outcome: number, mid: Micros, nowMs: number): boolean {
    let m = this.markets.get(market);
    if (m === undefined) this.markets.set(market, (m = { lanes: new Map(), coolingUntilMs: 0, lastMoveMicros: null, lastJumpMs: null, jumps: 0 }));
    let lane = m.lanes.get(outcome);
    if (lane === undefined) m.lanes.set(outcome, (lane = { max: [], min: [] }));
    const from = nowMs - this.params.windowMs;
    evict(lane.max, from);
    evict(lane.min, from);
    const p = { t: nowMs, mid };
    while (lane.max.length > 0 && lane.max[lane.max.length - 1]!.mid <= mid) lane.max.pop();
    lane.max.push(p);
    while (lane.min.length > 0 && lane.min[lane.min.length - 1]!.mid >= mid) lane.min.pop();
    lane.min.push(p);
    if (lane.max.length > this.maxPoints) lane.max.shift();
    if (lane.min.length > this.maxPoints) lane.min.shift();
    const move = lane.max[0]!.mid - lane.min[0]!.mid;
    if (move <= this.params.thresholdMicros) return false;
    m.coolingUntilMs = Math.max(m.coolingUntilMs, nowMs + this.params.coolingMs);
    m.lastMoveMicros = move;
    m.lastJumpMs = nowMs;
    m.jumps++;
    lane.max = [p];
    lane.min = [p];
    return true;
  }

  view(market: string, nowMs: number): JumpView {
    const m = this.markets.get(market);
    if (m === undefined) return NO_JUMP;
    return { coolingUntilMs: nowMs < m.coolingUntilMs ? m.coolingUntilMs : null, lastMoveMicros: m.lastMoveMicros, lastJumpMs: m.lastJumpMs };
  }

  /** Jumps seen in a market since it was first followed. */
  jumps(market: string): number {
    return this.markets.get(market)?.jumps ?? 0;
  }

  /** Markets cooling at `nowMs` (metrics, status). */
  cooling(nowMs: number): { market: string; untilMs: number }[] {
    const out: { market: string; untilMs: number }[] = [];
    for (const [market, m] of this.markets) if (nowMs < m.coolingUntilMs) out.push({ market, untilMs: m.coolingUntilMs });
    return out;
  }

  forget(market: string): void {
    this.markets.delete(market);
  }

  get size(): number {
    return this.markets.size;
  }
}

/**
 * Drop the points no longer in effect within the window: a point is kept while no later point of
 * the queue is at or before the window's start (the mid in effect at the window's start counts).
 */
function evict(q: Point[], from: number): void {
  let n = 0;
  while (n + 1 < q.length && q[n + 1]!.t <= from) n++;
  if (n > 0) q.splice(0, n);
}
