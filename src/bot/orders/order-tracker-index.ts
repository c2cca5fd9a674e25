/**
 * Where the tracker's records are: the records themselves, keyed by clientOrderId and indexed by
 * the platform's orderId (once learnt) and by the locally computed order hash (lowercased), and
 * the early-event buffer, which holds frames and trade rows for an orderId no record has yet.
 * Finding a record, learning its orderId and holding what arrives before it: nothing here looks
 * at the transition table or changes a record's state (order-tracker-apply.ts does that).
 *
 * Records are also kept by what reads them, so no hot query walks every settled order still
 * remembered: non-terminal ones per market (`liveOf`, `liveMarkets`), those a read or re-cancel may
 * be due for (`watched`: unknown, cancel_pending, or flagged `needsRead`), and terminal ones
 * (`ended`, what prune looks at). The tracker calls `restate` after each event applied and each
 * flag set (a "not recorded" order can come back to life, so membership is not one-way).
 * Terminal records also sit in a min-heap by their prune stamp (last serverTs, else creation
 * time), so prune pops only those old enough instead of walking every settled order it holds.
 * The orderIds of pruned orders are remembered for `retiredKeepMs` past the prune horizon, so that
 * later evidence for them counts as late instead of waiting in the buffer for ever, then
 * forgotten, so a daemon that runs for weeks does not grow with every order it ever placed.
 */
import { MinHeap } from "../../core/min-heap.js";
import { isTerminal, type OrderEventKind } from "./order-states.js";
import { RETIRED_KEEP_MS, type OrderRef, type TrackedOrder, type TrackerCounters, type TrackerEvent, type Transition } from "./order-tracker-types.js";

/** A tracked order plus what only the tracker itself reads. */
export interface Rec extends TrackedOrder {
  /** Trade ids already counted in `tradeQty`. */
  tradeIds: Set<string>;
  /** A cancel was sent for it (an unknown order after a cancel answered 404/409 is "cancelling"). */
  cancelRequested: boolean;
  /** Order of first send within the tracker (queries that walk a subset answer in this order). */
  seq: number;
}

/** The record a first `sent` starts. */
export function newRecord(ev: Extract<TrackerEvent, { kind: "sent" }>): Rec {
  const i = ev.intent;
  // Every field, optional ones included, in one literal: every record has the same shape from the
  // start (no spread, no property added later), which keeps the tracker's reads monomorphic.
  return {
    marketId: i.marketId,
    outcome: i.outcome,
    side: i.side,
    price: i.price,
    size: i.size,
    postOnly: i.postOnly,
    clientOrderId: ev.clientOrderId,
    orderHash: ev.orderHash,
    orderId: undefined,
    state: "sent",
    filledQty: 0n,
    tradeQty: 0n,
    finalConfirmed: false,
    createdAtMs: ev.nowMs,
    lastSentAtMs: ev.nowMs,
    nextReadAtMs: undefined,
    lastServerTs: null,
    cancelAttempts: 0,
    cancelRetryAtMs: undefined,
    needsRead: undefined,
    rejectCode: undefined,
    tradeIds: new Set(),
    cancelRequested: false,
    seq: 0,
  };
}

/** What prune compares with its horizon: the newest platform stamp, else the creation time. */
const pruneStamp = (r: Rec): number => r.lastServerTs ?? r.createdAtMs;

/** A read or re-cancel may be due for it (order-tracker-queries.ts readNeedsOf / nextReadDueOf). */
function watchedState(r: Rec): boolean {
  return r.needsRead !== undefined || r.state === "unknown" || r.state === "cancel_pending";
}

const bySeq = (a: Rec, b: Rec): number => a.seq - b.seq;

export class OrderIndex {
  private readonly orders = new Map<string, Rec>();
  private readonly byOrderId = new Map<string, string>();
  private readonly byHash = new Map<string, string>();
  /** Pruned orderId -> the prune horizon it was retired under (non-decreasing in insertion order). */
  private readonly retired = new Map<string, number>();
  private readonly live = new Map<string, Set<Rec>>();
  private liveTotal = 0;
  /**
   * Per market holding live records: a stamp of the last change to one of them (see liveVersion).
   * Stamps come from one counter, so a market whose entry went (its last live record ended) and
   * came back never shows a stamp it showed before.
   */
  private readonly liveStamps = new Map<string, number>();
  private liveStamp = 0;
  private readonly watch = new Set<Rec>();
  /** Terminal records -> the smallest heap key they are queued under (at most their prune stamp). */
  private readonly terminal = new Map<Rec, number>();
  private readonly ended = new MinHeap<Rec>();
  private nextSeq = 0;

  /** @param retiredKeepMs how long past the prune horizon a pruned orderId still counts as late. */
  constructor(private readonly retiredKeepMs = RETIRED_KEEP_MS) {}

  get(clientOrderId: string): Rec | undefined {
    return this.orders.get(clientOrderId);
  }

  /** Every record, in the order they were first sent. */
  values(): IterableIterator<Rec> {
    return this.orders.values();
  }

  add(r: Rec): void {
    r.seq = this.nextSeq++;
    this.orders.set(r.clientOrderId, r);
    this.byHash.set(r.orderHash.toLowerCase(), r.clientOrderId);
    this.restate(r);
  }

  /** Keep the live, watched and ended sets in step with the record (call after every change). */
  restate(r: Rec): void {
    if (watchedState(r)) this.watch.add(r);
    else this.watch.delete(r);
    let set = this.live.get(r.marketId);
    if (isTerminal(r.state)) {
      // Queued again only when its stamp went below its key (a platform stamp older than the
      // local creation time): the heap's key must never be later than the record's stamp.
      const stamp = pruneStamp(r);
      const key = this.terminal.get(r);
      if (key === undefined || stamp < key) {
        this.terminal.set(r, stamp);
        this.ended.push(stamp, r);
      }
      if (set?.delete(r) === true) {
        this.liveTotal--;
        if (set.size === 0) {
          this.live.delete(r.marketId);
          this.liveStamps.delete(r.marketId);
        } else this.liveStamps.set(r.marketId, ++this.liveStamp);
      }
      return;
    }
    this.terminal.delete(r);
    if (set === undefined) this.live.set(r.marketId, (set = new Set()));
    if (!set.has(r)) {
      set.add(r);
      this.liveTotal++;
    }
    // A live record changed (or became live): the market's live orders may read differently.
    this.liveStamps.set(r.marketId, ++this.liveStamp);
  }

  /**
   * Moves whenever the market's live records may have changed (one became live, changed or ended):
   * equal values at two times mean liveOf(marketId) reads the same. 0 when none is live.
   */
  liveVersion(marketId: string): number {
    return this.liveStamps.get(marketId) ?? 0;
  }

  /** Non-terminal records of one market, in the order they became live. */
  liveOf(marketId: string): Iterable<Rec> {
    return this.live.get(marketId) ?? [];
  }

  /** Markets holding a non-terminal record. */
  liveMarkets(): IterableIterator<string> {
    return this.live.keys();
  }

  /** Non-terminal records, all markets. */
  get liveCount(): number {
    return this.liveTotal;
  }

  /** Non-terminal records of every market, in the order they were first sent. */
  allLive(): Rec[] {
    const out: Rec[] = [];
    for (const set of this.live.values()) for (const r of set) out.push(r);
    return out.sort(bySeq);
  }

  /** Records a read or re-cancel may be due for, in the order they were first sent. */
  watched(): Rec[] {
    return [...this.watch].sort(bySeq);
  }

  /** Records held (live and settled-but-not-yet-pruned). */
  get size(): number {
    return this.orders.size;
  }

  /** Pruned orderIds still remembered (for tests and memory figures). */
  get retiredCount(): number {
    return this.retired.size;
  }

  hasOrderId(orderId: string): boolean {
    return this.byOrderId.has(orderId);
  }

  /** By clientOrderId first, then orderId, then order hash. */
  find(ref: OrderRef): Rec | undefined {
    if (ref.clientOrderId !== undefined) {
      const r = this.orders.get(ref.clientOrderId);
      if (r !== undefined) return r;
    }
    if (ref.orderId !== undefined) {
      const c = this.byOrderId.get(ref.orderId);
      if (c !== undefined) return this.orders.get(c);
    }
    if (ref.orderHash !== undefined) {
      const c = this.byHash.get(ref.orderHash.toLowerCase());
      if (c !== undefined) return this.orders.get(c);
    }
    return undefined;
  }

  /** The record a frame or trade row is about; "retired" when its orderId belongs to a pruned order. */
  resolveFor(orderId: string, clientOrderId: string | undefined): Rec | "retired" | undefined {
    const r = this.find({ orderId, clientOrderId });
    if (r !== undefined) return r;
    return this.retired.has(orderId) ? "retired" : undefined;
  }

  /** Record the platform id; a different id than the one we hold is a conflict (not applied). */
  learnId(r: Rec, orderId: string | undefined, ev: OrderEventKind): Transition | undefined {
    if (orderId === undefined || r.orderId === orderId) return undefined;
    if (r.orderId !== undefined || this.byOrderId.has(orderId)) {
      return { event: ev, outcome: "conflict", clientOrderId: r.clientOrderId, orderId, from: r.state, to: r.state, message: `order id ${orderId} conflicts with ${r.orderId ?? "another order"}` };
    }
    r.orderId = orderId;
    this.byOrderId.set(orderId, r.clientOrderId);
    return undefined;
  }

  /** See OrderTracker.prune. */
  prune(beforeTs: number): number {
    let n = 0;
    // Each terminal record has a heap entry keyed at or before its stamp, so every record old
    // enough to go is popped here; an entry whose key is no longer its record's (pruned, back to
    // life, or queued again under another key) is dropped.
    const held = new Set<Rec>();
    while (this.ended.peekKey() < beforeTs) {
      const key = this.ended.peekKey();
      const r = this.ended.pop()!;
      if (this.terminal.get(r) !== key || held.has(r)) continue;
      const stamp = pruneStamp(r);
      if (stamp >= beforeTs) {
        // Newer evidence since it was queued: back in line under its stamp.
        this.terminal.set(r, stamp);
        this.ended.push(stamp, r);
        continue;
      }
      // Old enough but not settled (a read is due, or trades are still missing): looked at again
      // at every prune, as before.
      if (r.needsRead !== undefined || (!r.finalConfirmed && r.filledQty > r.tradeQty)) {
        held.add(r);
        continue;
      }
      this.terminal.delete(r);
      this.orders.delete(r.clientOrderId);
      this.byHash.delete(r.orderHash.toLowerCase());
      if (r.orderId !== undefined) {
        this.byOrderId.delete(r.orderId);
        this.retired.set(r.orderId, beforeTs);
      }
      n++;
    }
    for (const r of held) this.ended.push(this.terminal.get(r)!, r);
    const forgetBefore = beforeTs - this.retiredKeepMs;
    for (const [orderId, stamp] of this.retired) {
      if (stamp >= forgetBefore) break;
      this.retired.delete(orderId);
    }
    return n;
  }
}

// ---- the early-event buffer ----------------------------------------------------------------------

/** What may wait for its orderId: a frame or a trade row, kept as the event it arrived as. */
export type Buffered = Extract<TrackerEvent, { kind: "frame" | "trade" }>;
const bufferedTs = (b: Buffered): number => (b.kind === "frame" ? b.frame.serverTs : b.fill.ts);

/**
 * Frames and trade rows for an orderId the tracker does not know yet (a fill that beats the
 * placement answer, or a foreign order's events), held until a placement answer or a read names
 * the id, then handed back in serverTs order. Bounded across all ids together: past the cap the
 * event that has waited longest is dropped and counted.
 */
export class EarlyEventBuffer {
  private readonly lists = new Map<string, Buffered[]>();
  private count = 0;
  private readonly max: number;
  private readonly counters: Pick<TrackerCounters, "bufferDropped">;

  constructor(max: number, counters: Pick<TrackerCounters, "bufferDropped">) {
    this.max = max;
    this.counters = counters;
  }

  add(orderId: string, b: Buffered): void {
    let list = this.lists.get(orderId);
    if (list === undefined) this.lists.set(orderId, (list = []));
    list.push(b);
    this.count++;
    while (this.count > this.max) this.dropOldest();
  }

  /** Remove an id's events and return them oldest first; undefined when none are held. */
  take(orderId: string): Buffered[] | undefined {
    const list = this.lists.get(orderId);
    if (list === undefined) return undefined;
    this.lists.delete(orderId);
    this.count -= list.length;
    return list.slice().sort((a, b) => bufferedTs(a) - bufferedTs(b));
  }

  orderIds(): string[] {
    return [...this.lists.keys()];
  }

  /** Drop an id's events unapplied (counted as dropped); returns how many there were. */
  discard(orderId: string): number {
    const list = this.lists.get(orderId);
    if (list === undefined) return 0;
    this.lists.delete(orderId);
    this.count -= list.length;
    this.counters.bufferDropped += list.length;
    return list.length;
  }

  /** Events held, and the orderIds they wait for. */
  get size(): { events: number; ids: number } {
    return { events: this.count, ids: this.lists.size };
  }

  /** Drop the event that has waited longest (the head of the list whose head is oldest). */
  private dropOldest(): void {
    let oldestId: string | undefined;
    let oldestTs = Infinity;
    for (const [id, list] of this.lists) {
      const ts = list.length > 0 ? bufferedTs(list[0]!) : -Infinity;
      if (ts < oldestTs) [oldestId, oldestTs] = [id, ts];
    }
    if (oldestId === undefined) return;
    const list = this.lists.get(oldestId)!;
    list.shift();
    if (list.length === 0) this.lists.delete(oldestId);
    this.count--;
    this.counters.bufferDropped++;
  }
}
