/**
 * The jump detector of one market: the mid of an outcome moving by more than a threshold within a
 * window pulls every quote of the market for a cooling period.
 *
 * Per (market, outcome), the mids seen within the last `windowMs` (t > now - windowMs) are kept as
 * two monotonic queues (their running maximum and minimum: O(1) amortised per mid) plus a FIFO of
 * them, whose evicted front is the mid in effect at the window's start (the last mid at or before
 * it), compared separately: the range is that of {mid at the start} ∪ {mids in the window}. Each
 * queue is capped at `maxPoints` (more mids than that within one window: the oldest ones become
 * the mid at the start, i.e. the window is shortened). A jump is max - min > thresholdMicros; it sets the market's
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
  /** Arrival order within the lane (mids may share a ms). */
  seq: number;
}

interface Lane {
  /** The mid in effect at the window's start (the last one at or before it); null: none yet. */
  start: Point | null;
  seq: number;
  /** Every mid within the window, oldest first. */
  all: Point[];
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
  private readonly byMarket = new Map<string, MarketJump>();
  private readonly maxPoints: number;

  constructor(readonly params: JumpParams) {
    this.maxPoints = params.maxPoints ?? 4_096;
  }

  /** A mid of (market, outcome) at `nowMs`; true when it is a jump. */
  onMid(market: string, outcome: number, mid: Micros, nowMs: number): boolean {
    let m = this.byMarket.get(market);
    if (m === undefined) this.byMarket.set(market, (m = { lanes: new Map(), coolingUntilMs: 0, lastMoveMicros: null, lastJumpMs: null, jumps: 0 }));
    let lane = m.lanes.get(outcome);
    if (lane === undefined) m.lanes.set(outcome, (lane = { start: null, seq: 0, all: [], max: [], min: [] }));
    const p = { t: nowMs, mid, seq: lane.seq++ };
    lane.all.push(p);
    // The window's start: now - windowMs, or later when more than maxPoints mids fell within it.
    let n = 0;
    const from = nowMs - this.params.windowMs;
    while (n < lane.all.length && (lane.all[n]!.t <= from || lane.all.length - n > this.maxPoints)) n++;
    if (n > 0) {
      lane.start = lane.all[n - 1]!;
      lane.all.splice(0, n);
    }
    const startSeq = lane.start?.seq ?? -1;
    evict(lane.max, startSeq);
    evict(lane.min, startSeq);
    while (lane.max.length > 0 && lane.max[lane.max.length - 1]!.mid <= mid) lane.max.pop();
    lane.max.push(p);
    while (lane.min.length > 0 && lane.min[lane.min.length - 1]!.mid >= mid) lane.min.pop();
    lane.min.push(p);
    let hi = lane.max[0]!.mid;
    let lo = lane.min[0]!.mid;
    if (lane.start !== null) {
      if (lane.start.mid > hi) hi = lane.start.mid;
      if (lane.start.mid < lo) lo = lane.start.mid;
    }
    const move = hi - lo;
    if (move <= this.params.thresholdMicros) return false;
    m.coolingUntilMs = Math.max(m.coolingUntilMs, nowMs + this.params.coolingMs);
    m.lastMoveMicros = move;
    m.lastJumpMs = nowMs;
    m.jumps++;
    lane.start = null;
    lane.all = [p];
    lane.max = [p];
    lane.min = [p];
    return true;
  }

  view(market: string, nowMs: number): JumpView {
    const m = this.byMarket.get(market);
    if (m === undefined) return NO_JUMP;
    return { coolingUntilMs: nowMs < m.coolingUntilMs ? m.coolingUntilMs : null, lastMoveMicros: m.lastMoveMicros, lastJumpMs: m.lastJumpMs };
  }

  /** Jumps seen in a market since it was first followed. */
  jumps(market: string): number {
    return this.byMarket.get(market)?.jumps ?? 0;
  }

  /** Markets cooling at `nowMs` (metrics, status). */
  cooling(nowMs: number): { market: string; untilMs: number }[] {
    const out: { market: string; untilMs: number }[] = [];
    for (const [market, m] of this.byMarket) if (nowMs < m.coolingUntilMs) out.push({ market, untilMs: m.coolingUntilMs });
    return out;
  }

  /** Markets with mids kept. */
  markets(): string[] {
    return [...this.byMarket.keys()];
  }

  forget(market: string): void {
    this.byMarket.delete(market);
  }

  get size(): number {
    return this.byMarket.size;
  }
}

/** Drop the points up to the window's start (arrival `startSeq`; the lane's `start` stands for them). */
function evict(q: Point[], startSeq: number): void {
  let n = 0;
  while (n < q.length && q[n]!.seq <= startSeq) n++;
  if (n > 0) q.splice(0, n);
}
