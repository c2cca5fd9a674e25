/**
 * The order tracker of one wallet: every order we sent, keyed by clientOrderId (indexed by orderId
 * and by the locally computed EIP-712 order hash), moved only through the one transition table of
 * order-states.ts. Pure: no I/O, no clock (times come in on the events). The engine uses this class
 * only; it routes events and delegates to one part per responsibility:
 *   order-states.ts           the states, the event kinds and THE table (state, event) -> target
 *   order-tracker-apply.ts    applying an event to a record: the one place a state changes
 *   order-tracker-index.ts    records by clientOrderId / orderId / hash; the early-event buffer
 *   order-tracker-queries.ts  views, live orders for the reconciler, reads and re-cancels due, gaps
 *   order-tracker-types.ts    the vocabulary: events in, transitions and views out
 *
 * How an event flows (a `user_fill` frame, say). `apply` hands it to `route`, which only finds the
 * record it is about: a frame for another wallet is refused; the frame's orderId (or clientOrderId)
 * is looked up in the index; an orderId no record has yet is held in the early-event buffer
 * (`buffered`), one of a pruned order is `late`; a record found learns the orderId if it is new to
 * it (a different one is a `conflict`). `applyEvent` (order-tracker-apply.ts) then applies it to
 * the record: the fill's trade joins the trade total, the frame's filledQty makes the event `fill`
 * or `filled`, and `step` reads the target in the table (order-states.ts `targetOf`), merges the
 * fill total, checks the stamp order and writes the state. Back here, the per-market live index is
 * brought in step (`restate`), frames that waited for this orderId are replayed through the same
 * `applyEvent`, and every outcome is counted.
 *
 * Rules it enforces (architecture: "orders in an unknown state are never guessed"):
 * - an impossible transition is refused, counted and returned as a diagnostic;
 * - terminal states are final: late evidence is counted, never applied to the state (fill
 *   quantities still merge), except cancelled/expired -> filled on an authoritative answer;
 * - an unknown outcome leaves `unknown` only on platform evidence; `lookup_not_found` (a lookup
 *   said the order was never recorded) is the only way to conclude "never recorded", and only
 *   for a lookup sent `notRecordedAfterMs` after the last send (an earlier 404 keeps the order
 *   unknown and schedules another lookup); even then the ending is soft: later platform evidence
 *   brings the order back (order-states.ts, counted `resurrected`);
 * - a placement answer whose `orderStatus` says the order already ended (PARTIAL + CANCELLED)
 *   ends it with the answer's fill total; its `trades[]` rows are read one by one, best effort
 *   (a row without a readable id and quantity is skipped and counted, never the whole answer);
 * - frames for an orderId we do not know yet (fills before the acknowledgement) are buffered and
 *   replayed, in serverTs order, when a placement answer or a read tells us the id; frames carrying
 *   a clientOrderId we track apply at once;
 * - ordering: an event stamped (serverTs / X-Server-Time) before the last stamp applied to the
 *   order may move it forward (STATE_RANK) but never back; terminal answers are timeless;
 * - the filled quantity never decreases and never exceeds the size (excess is clamped, counted).
 */
import { parseMicros, type Micros } from "../../core/money.js";
import type { OrderRecord } from "../../wire/orders.js";
import type { LiveOrder } from "../quote/quotes.js";
import { frameEventOf, readEventOf, type OrderEventKind, type OrderState } from "./order-states.js";
import { ackKindOf, applyEvent, cancelKindOf, type ApplyContext } from "./order-tracker-apply.js";
import { EarlyEventBuffer, OrderIndex, newRecord, type Buffered, type Rec } from "./order-tracker-index.js";
import { cancellable, diffOpenWalk, fillGapsOf, liveOrderViews, nextReadDueOf, readNeedsOf, selectViews, stateCounts, view } from "./order-tracker-queries.js";
import {
  LOOKUP_RETRY_MS,
  NOT_RECORDED_AFTER_MS,
  emptyCounters,
  type OrderIntent,
  type OrderRef,
  type ReadNeed,
  type TrackedOrder,
  type TrackerCounters,
  type TrackerEvent,
  type TrackerOptions,
  type TrackerSizes,
  type Transition,
  type WalkDiff,
} from "./order-tracker-types.js";

export * from "./order-states.js";
export * from "./order-tracker-types.js";

export class OrderTracker {
  readonly wallet: string;
  readonly counters: TrackerCounters = emptyCounters();
  private readonly index: OrderIndex;
  private readonly early: EarlyEventBuffer;
  private readonly ctx: ApplyContext;

  constructor(wallet: string, opts: TrackerOptions = {}) {
    this.wallet = wallet.toLowerCase();
    this.index = new OrderIndex(opts.retiredKeepMs);
    this.early = new EarlyEventBuffer(opts.maxBuffered ?? 10_000, this.counters);
    const timing = { notRecordedAfterMs: opts.notRecordedAfterMs ?? NOT_RECORDED_AFTER_MS, lookupRetryMs: Math.max(1, opts.lookupRetryMs ?? LOOKUP_RETRY_MS) };
    this.ctx = { counters: this.counters, timing };
  }

  apply(ev: TrackerEvent): Transition {
    const t = this.route(ev);
    this.counters[t.outcome]++;
    return t;
  }

  // ---- routing: which record an event is about ------------------------------------------------

  /** Find the record the event is about (or say why none takes it), then apply the event to it. */
  private route(ev: TrackerEvent): Transition {
    switch (ev.kind) {
      case "frame": {
        const f = ev.frame;
        const kind = f.type === "user_fill" ? "fill" : frameEventOf(f.status);
        if (f.walletAddress.toLowerCase() !== this.wallet) {
          return { event: kind, outcome: "wrong_wallet", orderId: f.orderId, message: `frame for ${f.walletAddress}` };
        }
        return this.byOrderId(ev, f.orderId, f.clientOrderId ?? undefined, kind, kind);
      }
      case "trade":
        return this.byOrderId(ev, ev.fill.orderId, ev.fill.clientOrderId, "trade", "fill");
      case "sent": {
        const r = this.index.get(ev.clientOrderId);
        return r === undefined ? this.track(ev) : this.applyTo(r, ev);
      }
      case "send_failed":
      case "ack_unknown": {
        const r = this.index.get(ev.clientOrderId);
        return r === undefined ? unmatched(ev.kind, ev) : this.applyTo(r, ev);
      }
      case "ack": {
        const kind = ackKindOf(ev.result);
        const r = this.index.get(ev.clientOrderId);
        if (r === undefined) return { event: kind, outcome: "unmatched", clientOrderId: ev.clientOrderId };
        return this.learnIdThenApply(r, ev.result.orderId ?? undefined, kind, ev);
      }
      case "read": {
        const rec = ev.record;
        const kind = readEventOf(rec.status);
        if (rec.walletAddress.toLowerCase() !== this.wallet) {
          return { event: kind, outcome: "wrong_wallet", orderId: rec.id, message: `record of ${rec.walletAddress}` };
        }
        const r = this.index.find({ clientOrderId: rec.clientOrderId ?? undefined, orderId: rec.id, orderHash: rec.orderHash });
        if (r === undefined) return { event: kind, outcome: "unmatched", orderId: rec.id, message: "not ours: adopt or cancel" };
        return this.learnIdThenApply(r, rec.id, kind, ev);
      }
      case "cancel_requested":
      case "lookup_not_found": {
        const r = this.index.find(ev);
        return r === undefined ? unmatched(ev.kind, ev) : this.applyTo(r, ev);
      }
      case "cancel_result": {
        const r = this.index.find(ev);
        return r === undefined ? unmatched(cancelKindOf(ev.result), ev) : this.applyTo(r, ev);
      }
    }
  }

  /**
   * A frame or trade row: its record by orderId (or clientOrderId). An orderId no record has yet
   * waits in the buffer; one of a pruned order is late. `kind` names the event in what is returned
   * here, `idKind` in a conflict.
   */
  private byOrderId(ev: Buffered, orderId: string, clientOrderId: string | undefined, kind: OrderEventKind | "trade", idKind: OrderEventKind): Transition {
    const r = this.index.resolveFor(orderId, clientOrderId);
    if (r === "retired") return { event: kind, outcome: "late", orderId, message: "order already pruned" };
    if (r === undefined) {
      this.early.add(orderId, ev);
      return { event: kind, outcome: "buffered", orderId };
    }
    return this.learnIdThenApply(r, orderId, idKind, ev);
  }

  /** A new order: the record starts in `sent`. */
  private track(ev: Extract<TrackerEvent, { kind: "sent" }>): Transition {
    if (ev.intent.size <= 0n) return { event: "sent", outcome: "impossible", clientOrderId: ev.clientOrderId, message: "size must be positive" };
    this.index.add(newRecord(ev));
    return { event: "sent", outcome: "applied", clientOrderId: ev.clientOrderId, to: "sent" };
  }

  // ---- applying: order-tracker-apply.ts, then the index and the buffer --------------------------

  /**
   * An event that may name the order's platform id: the record learns it (a different id than the
   * one it has is a conflict, not applied), the event is applied, and the frames that waited for
   * that id are replayed after it.
   */
  private learnIdThenApply(r: Rec, orderId: string | undefined, kind: OrderEventKind, ev: TrackerEvent): Transition {
    const conflict = this.index.learnId(r, orderId, kind);
    if (conflict !== undefined) return conflict;
    const t = this.applyTo(r, ev);
    if (r.orderId === undefined) return t;
    const waiting = this.early.take(r.orderId);
    if (waiting === undefined) return t;
    const replayed = waiting.map((b) => {
      const rt = this.applyTo(r, b);
      this.counters[rt.outcome]++;
      this.counters.replayed++;
      return rt;
    });
    return { ...t, replayed };
  }

  /** Apply to the record, then keep the per-market live index in step with its state. */
  private applyTo(r: Rec, ev: TrackerEvent): Transition {
    const t = applyEvent(r, ev, this.ctx);
    this.index.restate(r);
    return t;
  }

  /**
   * Start tracking an order found on the platform that we do not track (an open-orders walk after
   * a restart, a lookup of a buffered orderId), from its authoritative record. Keyed by its
   * clientOrderId, or `adopted:<orderId>` when it has none. An order we already track is read instead.
   */
  adopt(rec: OrderRecord, serverTimeMs: number, nowMs: number): Transition {
    const known = this.index.find({ clientOrderId: rec.clientOrderId ?? undefined, orderId: rec.id, orderHash: rec.orderHash });
    if (known !== undefined || rec.walletAddress.toLowerCase() !== this.wallet) {
      return this.apply({ kind: "read", record: rec, serverTimeMs });
    }
    const { clientOrderId, intent, sentAtMs } = adoptionOf(rec, nowMs);
    const t = this.apply({ kind: "sent", clientOrderId, orderHash: rec.orderHash, intent, nowMs: sentAtMs });
    if (t.outcome !== "applied") return t;
    return this.apply({ kind: "read", record: rec, serverTimeMs });
  }

  // ---- queries (order-tracker-queries.ts) ---------------------------------------------------

  get(clientOrderId: string): TrackedOrder | undefined {
    const r = this.index.get(clientOrderId);
    return r === undefined ? undefined : view(r);
  }

  getByOrderId(orderId: string): TrackedOrder | undefined {
    const r = this.index.find({ orderId });
    return r === undefined ? undefined : view(r);
  }

  getByHash(orderHash: string): TrackedOrder | undefined {
    const r = this.index.find({ orderHash });
    return r === undefined ? undefined : view(r);
  }

  /**
   * The record itself, read-only, for a caller that reads a few fields at once and keeps nothing
   * (the hot path: `get` copies). Do not hold on to it: it changes with the next event.
   */
  peek(clientOrderId: string): Readonly<TrackedOrder> | undefined {
    return this.index.get(clientOrderId);
  }

  all(): TrackedOrder[] {
    return [...this.index.values()].map(view);
  }

  /** Markets where one of our orders is not terminal. */
  liveMarkets(): string[] {
    return [...this.index.liveMarkets()];
  }

  /** Orders not terminal, all markets. */
  liveCount(): number {
    return this.index.liveCount;
  }

  /**
   * Moves whenever `liveOrders(marketId)` may read differently (an order there was sent, changed
   * or ended; 0 when none is live): equal values mean the same live orders. Consumers that keep
   * figures of a market's orders (the exposure book) re-read only markets whose version moved.
   */
  liveVersion(marketId: string): number {
    return this.index.liveVersion(marketId);
  }

  /** Our non-terminal orders on one market, in the reconciler's terms. */
  liveOrders(marketId: string): LiveOrder[] {
    return liveOrderViews(this.index.liveOf(marketId));
  }

  unknownOrders(): TrackedOrder[] {
    return selectViews(this.index.watched(), (r) => r.state === "unknown");
  }

  /** Orders whose platform state is not settled: sent, unknown, or being cancelled. */
  inFlight(): TrackedOrder[] {
    return selectViews(this.index.allLive(), (r) => r.state === "sent" || r.state === "unknown" || r.state === "cancel_requested" || r.state === "cancel_pending");
  }

  counts(): Record<OrderState, number> {
    return stateCounts(this.index.values());
  }

  /** A cancel may be sent now: resting, or a recorded cancel past its Retry-After. */
  canCancel(clientOrderId: string, nowMs: number): boolean {
    return cancellable(this.index.get(clientOrderId), nowMs);
  }

  /**
   * What to read (by id or lookup) or re-cancel now. An unknown order answered 404 too soon waits
   * until its `nextReadAtMs`; lookups carry `conclusiveAtMs` (when a 404 would end the order).
   */
  ordersNeedingRead(nowMs: number): ReadNeed[] {
    return readNeedsOf(this.index.watched(), nowMs, this.ctx.timing.notRecordedAfterMs);
  }

  /** Earliest time a read that is waiting (an early 404, a cancel Retry-After) becomes due; undefined when none waits. */
  nextReadDueMs(): number | undefined {
    return nextReadDueOf(this.index.watched());
  }

  /** Orders whose reported fill total exceeds the trades seen: pull /api/me/trades or read their fills. */
  fillGaps(): { order: TrackedOrder; missingQty: Micros }[] {
    return fillGapsOf(this.index.values());
  }

  /** orderIds holding buffered frames nobody has claimed (foreign, or ours before a lookup). */
  bufferedOrderIds(): string[] {
    return this.early.orderIds();
  }

  /**
   * Drop the frames buffered for an orderId that will never be tracked (a foreign order, or one
   * no read could claim): counted in `bufferDropped`. Returns how many were dropped.
   */
  discardBuffered(orderId: string): number {
    return this.early.discard(orderId);
  }

  /** What the tracker holds, for memory figures: records, remembered pruned ids, buffered events. */
  sizes(): TrackerSizes {
    const b = this.early.size;
    return { orders: this.index.size, retiredIds: this.index.retiredCount, bufferedEvents: b.events, bufferedIds: b.ids };
  }

  /**
   * Compare with a complete open-orders walk that began at `walkStartedAtMs` (local clock). Orders
   * sent at or after it are skipped: the walk may not have seen them. Missing orders are flagged
   * for a read; terminal ones still listed are flagged as contradictions.
   */
  reconcileOpenWalk(openOrderIds: Iterable<string>, walkStartedAtMs: number): WalkDiff {
    return diffOpenWalk(this.index.values(), (id) => this.index.hasOrderId(id), openOrderIds, walkStartedAtMs, (r) => this.index.restate(r));
  }

  /**
   * Forget terminal orders whose total is settled (or that never got an id), last stamped before
   * `beforeTs`. Their orderIds are remembered (for `retiredKeepMs` more) so a later frame counts as
   * late, not buffered.
   */
  prune(beforeTs: number): number {
    return this.index.prune(beforeTs);
  }
}

function unmatched(event: OrderEventKind, ref: OrderRef): Transition {
  const t: Transition = { event, outcome: "unmatched" };
  if (ref.clientOrderId !== undefined) t.clientOrderId = ref.clientOrderId;
  if (ref.orderId !== undefined) t.orderId = ref.orderId;
  return t;
}

/** The `sent` an adopted order is tracked under: its clientOrderId (or `adopted:<id>`) and intent. */
function adoptionOf(rec: OrderRecord, nowMs: number): { clientOrderId: string; intent: OrderIntent; sentAtMs: number } {
  const created = Date.parse(rec.createdAt);
  return {
    clientOrderId: rec.clientOrderId ?? `adopted:${rec.id}`,
    intent: { marketId: rec.marketId, outcome: rec.outcome, side: rec.side, price: parseMicros(rec.price), size: parseMicros(rec.originalQuantity), postOnly: rec.postOnly },
    sentAtMs: Number.isNaN(created) ? nowMs : created,
  };
}
