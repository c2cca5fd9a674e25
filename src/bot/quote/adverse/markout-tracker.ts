/**
 * Live markouts of our own fills (issue 13 item 3): each new own fill is scheduled at every horizon
 * (MARKOUT_HORIZONS_MS by default); as mids arrive the due markouts are computed with the one
 * definition of a signed markout (markout.ts), exact in micros.
 *
 * Which mid: the one in effect at t + h, that is the last mid observed at or before t + h (as the
 * backtest report reads its recorded books). So `onMid(market, outcome, mid, nowMs)` first settles
 * what fell due strictly before `nowMs` with the mid that was in effect until now, then takes the new
 * mid, then settles what is due exactly at `nowMs`. `advance(nowMs)` settles what fell due before
 * `nowMs` on markets whose mid did not move (their last mid is still the one in effect).
 *
 * A fill learnt late (a trade pull after its horizon passed) is settled at once when no mid arrived
 * since its due time (the last mid was in effect then); otherwise that horizon is skipped and counted
 * (`late`). A fill with no mid at all for its outcome by its due time counts as `noMid`.
 *
 * Pure: no clock (every call takes `nowMs`), no I/O. Memory is bounded: an entry lives at most the
 * longest horizon after its fill (it is settled or dropped by the first call past its due time), and
 * at most `maxPending` entries wait; a fill that would exceed the cap is not scheduled (counted,
 * `dropped`, per horizon entry).
 */
import type { Side } from "../../../core/amounts.js";
import type { Micros } from "../../../core/money.js";
import { MARKOUT_HORIZONS_MS, markoutPerShare } from "./markout.js";

/** One new fill of ours, as the tracker needs it. */
export interface OwnFill {
  wallet: string;
  market: string;
  outcome: number;
  side: Side;
  /** Micros per share. */
  price: Micros;
  /** Micro-shares. */
  qty: Micros;
  role: string;
  /** Fill (trade) time, epoch ms. */
  ts: number;
}

/** One fill's markout at one horizon. */
export interface Markout {
  wallet: string;
  market: string;
  outcome: number;
  side: Side;
  role: string;
  horizonMs: number;
  /** Signed markout per share (micros): positive is good for us. */
  perShare: Micros;
  qty: Micros;
  fillTs: number;
  /** The mid it was measured against. */
  mid: Micros;
}

export interface MarkoutTrackerOptions {
  horizonsMs?: readonly number[];
  /** Entries (fill x horizon) waiting at most; default 10,000. */
  maxPending?: number;
}

export interface MarkoutTrackerStats {
  pending: number;
  settled: number;
  /** Entries not scheduled because `maxPending` were waiting (here or in the AdverseBook's queue of fills not yet timed). */
  dropped: number;
  /** Horizons already past when the fill was learnt, with a mid seen since (not measurable). */
  late: number;
  /** Entries due with no mid known for the fill's outcome. */
  noMid: number;
}

interface Entry {
  due: number;
  seq: number;
  fill: OwnFill;
  horizonMs: number;
}

/**
 * The pending entries of one horizon, ordered by (due, seq), read from `head` on. Fills mostly
 * arrive in time order, so an entry is usually appended and always taken from the front: neither
 * walks nor shifts the queue (one queue for every horizon did both: a 1 s entry went in ahead of
 * the 5 min entries of the fills before it).
 */
interface HorizonQueue {
  /** Taken entries before `head` are cleared (undefined) until the prefix is cut away. */
  items: (Entry | undefined)[];
  head: number;
}

interface Lane {
  /** Last mid seen and when; undefined before the first. */
  mid: Micros | undefined;
  midAt: number;
  /** One queue per horizon (horizonsMs order); settled in (due, seq) order across them. */
  queues: HorizonQueue[];
  /** Entries waiting in this lane's queues. */
  pending: number;
}

const NONE: readonly Markout[] = Object.freeze([]);

export class MarkoutTracker {
  readonly horizonsMs: readonly number[];
  private readonly maxPending: number;
  /** By laneKey, in the order the lanes were made (advance settles them in that order). */
  private readonly lanes = new Map<string, Lane>();
  /** The same lanes by market, then outcome: a lookup without building the key. */
  private readonly byMarket = new Map<string, (Lane | undefined)[]>();
  private seq = 0;
  private readonly s: MarkoutTrackerStats = { pending: 0, settled: 0, dropped: 0, late: 0, noMid: 0 };

  constructor(opts: MarkoutTrackerOptions = {}) {
    this.horizonsMs = opts.horizonsMs ?? MARKOUT_HORIZONS_MS;
    this.maxPending = opts.maxPending ?? 10_000;
    if (this.horizonsMs.length === 0 || this.horizonsMs.some((h) => !Number.isInteger(h) || h <= 0)) throw new Error("markout horizons must be positive integers (ms)");
    if (!Number.isInteger(this.maxPending) || this.maxPending < 1) throw new Error("maxPending must be a positive integer");
  }

  get stats(): Readonly<MarkoutTrackerStats> {
    return { ...this.s };
  }

  /** A fill not even handed over (the caller's own queue was full): counted as dropped at every horizon. */
  noteDroppedFill(): void {
    this.s.dropped += this.horizonsMs.length;
  }

  /** Schedule a new fill at every horizon; returns the markouts measurable at once (a late fill). */
  onFill(fill: OwnFill, nowMs: number): readonly Markout[] {
    const lane = this.lane(fill.market, fill.outcome);
    let out: Markout[] | undefined;
    for (let hi = 0; hi < this.horizonsMs.length; hi++) {
      const h = this.horizonsMs[hi]!;
      const due = fill.ts + h;
      if (due < nowMs) {
        // Past already: measurable only if no mid arrived since the due time.
        if (lane.mid !== undefined && lane.midAt <= due) (out ??= []).push(this.measure(fill, h, lane.mid));
        else if (lane.mid === undefined) this.s.noMid++;
        else this.s.late++;
        continue;
      }
      if (this.s.pending >= this.maxPending) {
        this.s.dropped++;
        continue;
      }
      insert(lane.queues[hi]!, { due, seq: this.seq++, fill, horizonMs: h });
      lane.pending++;
      this.s.pending++;
    }
    if (lane.pending === 0 && lane.mid === undefined) this.dropLane(fill.market, fill.outcome);
    return out ?? NONE;
  }

  /** A mid of (market, outcome) observed at `nowMs`: returns the markouts that fell due. */
  onMid(market: string, outcome: number, mid: Micros, nowMs: number): readonly Markout[] {
    const lane = this.lane(market, outcome);
    let out: Markout[] | undefined;
    out = this.settle(lane, nowMs, false, out);
    lane.mid = mid;
    lane.midAt = nowMs;
    out = this.settle(lane, nowMs, true, out);
    return out ?? NONE;
  }

  /** Settle what fell due strictly before `nowMs` everywhere with the mid still in effect. */
  advance(nowMs: number): readonly Markout[] {
    let out: Markout[] | undefined;
    for (const lane of this.lanes.values()) if (lane.pending > 0) out = this.settle(lane, nowMs, false, out);
    return out ?? NONE;
  }

  /** Forget a market (no longer followed): its pending entries are dropped uncounted. */
  forget(market: string): void {
    const lanes = this.byMarket.get(market);
    if (lanes === undefined) return;
    lanes.forEach((lane, outcome) => {
      if (lane === undefined) return;
      this.s.pending -= lane.pending;
      this.lanes.delete(laneKey(market, outcome));
    });
    this.byMarket.delete(market);
  }

  /** Markets with a lane (the shell forgets those it no longer follows). */
  markets(): string[] {
    const out = new Set<string>();
    for (const k of this.lanes.keys()) out.add(k.slice(0, k.lastIndexOf("\u0000")));
    return [...out];
  }

  /** Markets with a lane (memory figures and tests). */
  get laneCount(): number {
    return this.lanes.size;
  }

  /** Settle the entries due before `nowMs` (at it too when `inclusive`), in (due, seq) order across the horizons. */
  private settle(lane: Lane, nowMs: number, inclusive: boolean, out: Markout[] | undefined): Markout[] | undefined {
    const queues = lane.queues;
    while (lane.pending > 0) {
      // The earliest head among the horizons' queues (each is in (due, seq) order).
      let best: HorizonQueue | undefined;
      let first: Entry | undefined;
      for (const q of queues) {
        const e = q.items[q.head];
        if (e !== undefined && (first === undefined || e.due < first.due || (e.due === first.due && e.seq < first.seq))) {
          best = q;
          first = e;
        }
      }
      if (first === undefined || !(first.due < nowMs || (inclusive && first.due === nowMs))) break;
      takeHead(best!);
      lane.pending--;
      this.s.pending--;
      if (lane.mid === undefined) this.s.noMid++;
      else (out ??= []).push(this.measure(first.fill, first.horizonMs, lane.mid));
    }
    return out;
  }

  private measure(fill: OwnFill, horizonMs: number, mid: Micros): Markout {
    this.s.settled++;
    return {
      wallet: fill.wallet,
      market: fill.market,
      outcome: fill.outcome,
      side: fill.side,
      role: fill.role,
      horizonMs,
      perShare: markoutPerShare(fill.side, fill.price, mid),
      qty: fill.qty,
      fillTs: fill.ts,
      mid,
    };
  }

  private lane(market: string, outcome: number): Lane {
    let lanes = this.byMarket.get(market);
    if (lanes === undefined) this.byMarket.set(market, (lanes = []));
    let lane = lanes[outcome];
    if (lane === undefined) {
      lane = { mid: undefined, midAt: 0, queues: this.horizonsMs.map(() => ({ items: [], head: 0 })), pending: 0 };
      lanes[outcome] = lane;
      this.lanes.set(laneKey(market, outcome), lane);
    }
    return lane;
  }

  private dropLane(market: string, outcome: number): void {
    this.lanes.delete(laneKey(market, outcome));
    const lanes = this.byMarket.get(market);
    if (lanes === undefined) return;
    lanes[outcome] = undefined;
    if (lanes.every((l) => l === undefined)) this.byMarket.delete(market);
  }
}

function laneKey(market: string, outcome: number): string {
  return `${market}\u0000${outcome}`;
}

/** Insert keeping (due, seq) order; fills mostly arrive in time order, so usually an append. */
function insert(q: HorizonQueue, e: Entry): void {
  const items = q.items;
  let i = items.length;
  while (i > q.head && items[i - 1]!.due > e.due) i--;
  if (i === items.length) items.push(e);
  else items.splice(i, 0, e);
}

/** Take the head entry; the settled prefix is cut away once it is most of the array. */
function takeHead(q: HorizonQueue): void {
  q.items[q.head] = undefined;
  q.head++;
  if (q.head === q.items.length) {
    q.items.length = 0;
    q.head = 0;
  } else if (q.head >= 64 && q.head * 2 >= q.items.length) {
    q.items.splice(0, q.head);
    q.head = 0;
  }
}
