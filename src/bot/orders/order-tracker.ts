/**
 * The order tracker of one wallet: every order we sent, keyed by clientOrderId (indexed by orderId
 * and by the locally computed EIP-712 order hash), moved only through the table of
 * order-states.ts. Pure: no I/O, no clock (times come in on the events).
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
 *
 * This file routes events to records; the parts live beside it: order-tracker-step.ts (the one
 * place a state changes), order-tracker-index.ts (lookup by clientOrderId / orderId / hash,
 * pruning), order-tracker-buffer.ts (events before the orderId is known), order-tracker-reads.ts
 * (queries, read needs, the open-orders walk).
 */
import { maxMicros, parseMicros, type Micros } from "../../core/money.js";
import type { OrderRecord, PlacementResult } from "../../wire/orders.js";
import type { LiveOrder } from "../quote/quotes.js";
import { NOT_RECORDED, ackEventOf, frameEventOf, readEventOf, targetOf, type OrderEventKind, type OrderState } from "./order-states.js";
import { LOOKUP_RETRY_MS, NOT_RECORDED_AFTER_MS, emptyCounters, type CancelOutcome, type OrderFrame, type OrderIntent, type OrderRef, type ReadNeed, type TrackedOrder, type TrackerCounters, type TrackerEvent, type TrackerOptions, type TrackerSizes, type TradeFact, type Transition, type WalkDiff } from "./order-tracker-types.js";
import { EarlyEventBuffer, type Buffered } from "./order-tracker-buffer.js";
import { OrderIndex } from "./order-tracker-index.js";
import { notFoundTooSoon, type LookupTiming } from "./order-tracker-lookup.js";
import { cancellable, diffOpenWalk, fillGapsOf, liveOrderViews, nextReadDueOf, readNeedsOf, selectViews, stateCounts } from "./order-tracker-reads.js";
import { CANCEL_EVENT, addPlacementTrades, addTrade, adoptionOf, fillEvent, refuse, stepOrder, unmatched, view, type Rec, type StepOpts } from "./order-tracker-step.js";

export * from "./order-states.js";
export * from "./order-tracker-types.js";

export class OrderTracker {
  readonly wallet: string;
  private readonly index: OrderIndex;
  private readonly early: EarlyEventBuffer;
  readonly counters: TrackerCounters = emptyCounters();
  private readonly timing: LookupTiming;

  constructor(wallet: string, opts: TrackerOptions = {}) {
    this.wallet = wallet.toLowerCase();
    this.index = new OrderIndex(opts.retiredKeepMs);
    this.early = new EarlyEventBuffer(opts.maxBuffered ?? 10_000, this.counters);
    this.timing = { notRecordedAfterMs: opts.notRecordedAfterMs ?? NOT_RECORDED_AFTER_MS, lookupRetryMs: Math.max(1, opts.lookupRetryMs ?? LOOKUP_RETRY_MS) };
  }

  apply(ev: TrackerEvent): Transition {
    const t = this.dispatch(ev);
    this.counters[t.outcome]++;
    return t;
  }

  private dispatch(ev: TrackerEvent): Transition {
    switch (ev.kind) {
      case "sent":
        return this.onSent(ev.clientOrderId, ev.orderHash, ev.intent, ev.nowMs);
      case "send_failed": {
        const r = this.index.get(ev.clientOrderId);
        if (r === undefined) return unmatched("send_failed", ev);
        return this.step(r, "send_failed", { rejectCode: ev.code });
      }
      case "ack":
        return this.onAck(ev.clientOrderId, ev.result, ev.serverTimeMs);
      case "ack_unknown": {
        const r = this.index.get(ev.clientOrderId);
        return r === undefined ? unmatched("ack_unknown", ev) : this.step(r, "ack_unknown", {});
      }
      case "frame":
        return this.onFrame(ev.frame);
      case "trade":
        return this.onTrade(ev.fill);
      case "cancel_requested":
        return this.onCancelRequested(ev);
      case "cancel_result":
        return this.onCancelResult(ev);
      case "read":
        return this.onRead(ev.record, ev.serverTimeMs);
      case "lookup_not_found":
        return this.onLookupNotFound(ev);
    }
  }

  // ---- event handlers ---------------------------------------------------------------------------

  private onSent(clientOrderId: string, orderHash: string, intent: OrderIntent, nowMs: number): Transition {
    const have = this.index.get(clientOrderId);
    if (have !== undefined) {
      if (have.orderHash !== orderHash) {
        return { event: "sent", outcome: "impossible", clientOrderId, message: "clientOrderId reused for a different order" };
      }
      const t = this.step(have, "resent", {});
      if (t.outcome !== "impossible") have.lastSentAtMs = Math.max(have.lastSentAtMs, nowMs);
      return t;
    }
    if (intent.size <= 0n) return { event: "sent", outcome: "impossible", clientOrderId, message: "size must be positive" };
    this.index.add({
      ...intent,
      clientOrderId,
      orderHash,
      state: "sent",
      filledQty: 0n,
      tradeQty: 0n,
      finalConfirmed: false,
      createdAtMs: nowMs,
      lastSentAtMs: nowMs,
      lastServerTs: null,
      cancelAttempts: 0,
      tradeIds: new Set(),
      cancelRequested: false,
    });
    return { event: "sent", outcome: "applied", clientOrderId, to: "sent" };
  }

  private onAck(clientOrderId: string, res: PlacementResult, ts: number | undefined): Transition {
    const ev = res.status === "REJECTED" ? ackEventOf(res.status) : ackEventOf(res.status, res.orderStatus);
    const r = this.index.get(clientOrderId);
    if (r === undefined) return { event: ev, outcome: "unmatched", clientOrderId };
    const conflict = this.index.learnId(r, res.orderId ?? undefined, ev);
    if (conflict !== undefined) return conflict;
    const filled = res.filledQty !== undefined ? parseMicros(res.filledQty) : undefined;
    const opts: StepOpts = { ts, filled };
    if (res.status === "REJECTED") opts.rejectCode = res.code;
    // Trades first: an order that ended within the call is final once stepped.
    if (res.status !== "REJECTED") addPlacementTrades(r, res.trades, this.counters);
    const t = this.step(r, ev, opts);
    return this.withReplay(r, t);
  }


  private onLookupNotFound(ev: OrderRef & { serverTimeMs?: number; nowMs?: number }): Transition {
    const r = this.index.find(ev);
    if (r === undefined) return unmatched("lookup_not_found", ev);
    return notFoundTooSoon(r, ev, this.timing, this.counters) ?? this.step(r, "lookup_not_found", { ts: ev.serverTimeMs, rejectCode: NOT_RECORDED });
  }

  private onFrame(frame: OrderFrame): Transition {
    const ev = frame.type === "user_fill" ? "fill" : frameEventOf(frame.status);
    if (frame.walletAddress.toLowerCase() !== this.wallet) {
      return { event: ev, outcome: "wrong_wallet", orderId: frame.orderId, message: `frame for ${frame.walletAddress}` };
    }
    const r = this.index.resolveFor(frame.orderId, frame.clientOrderId ?? undefined);
    if (r === "retired") return { event: ev, outcome: "late", orderId: frame.orderId, message: "order already pruned" };
    if (r === undefined) return this.bufferUp(frame.orderId, { kind: "frame", frame }, ev);
    const conflict = this.index.learnId(r, frame.orderId, ev);
    if (conflict !== undefined) return conflict;
    return this.withReplay(r, this.applyFrame(r, frame));
  }

  private applyFrame(r: Rec, frame: OrderFrame): Transition {
    if (frame.type === "user_fill") {
      const dup = r.tradeIds.has(frame.tradeId);
      this.countTrade(r, frame.tradeId, parseMicros(frame.quantity));
      const filled = parseMicros(frame.filledQty);
      const ev = fillEvent(r, filled, frame.orderStatus === "FILLED");
      const t = this.step(r, ev, { ts: frame.serverTs, filled });
      return dup && t.outcome === "same" ? { ...t, outcome: "duplicate" } : t;
    }
    const filled = maxMicros(0n, parseMicros(frame.originalQuantity) - parseMicros(frame.remainingQty));
    return this.step(r, frameEventOf(frame.status), { ts: frame.serverTs, filled });
  }

  private onTrade(fill: TradeFact): Transition {
    const r = this.index.resolveFor(fill.orderId, fill.clientOrderId);
    if (r === "retired") return { event: "trade", outcome: "late", orderId: fill.orderId, message: "order already pruned" };
    if (r === undefined) return this.bufferUp(fill.orderId, { kind: "trade", fill }, "trade");
    const conflict = this.index.learnId(r, fill.orderId, "fill");
    if (conflict !== undefined) return conflict;
    return this.withReplay(r, this.applyTrade(r, fill));
  }

  private applyTrade(r: Rec, fill: TradeFact): Transition {
    if (r.tradeIds.has(fill.tradeId)) {
      return { event: "trade", outcome: "duplicate", clientOrderId: r.clientOrderId, orderId: fill.orderId, from: r.state, to: r.state };
    }
    this.countTrade(r, fill.tradeId, fill.qty);
    return this.step(r, fillEvent(r, undefined, false), { ts: fill.ts });
  }

  private onCancelRequested(ev: OrderRef & { nowMs: number }): Transition {
    const r = this.index.find(ev);
    if (r === undefined) return unmatched("cancel_requested", ev);
    const target = targetOf(r.state, "cancel_requested");
    if (r.orderId === undefined && target !== undefined && target !== "late") {
      return refuse(r, "cancel_requested", "no orderId yet: a cancel needs the acknowledgement");
    }
    const t = this.step(r, "cancel_requested", {});
    if (t.outcome === "applied" || t.outcome === "same") {
      r.cancelRequested = true;
      r.cancelAttempts++;
      delete r.cancelRetryAtMs;
      if (r.needsRead === "cancel_retry") delete r.needsRead;
    }
    return t;
  }

  private onCancelResult(ev: OrderRef & { result: CancelOutcome; serverTimeMs?: number; nowMs: number }): Transition {
    const r = this.index.find(ev);
    const res = ev.result;
    const kind: OrderEventKind =
      res.kind === "done" ? (res.status === "FILLED" ? "cancel_filled" : "cancel_cancelled") : CANCEL_EVENT[res.kind];
    if (r === undefined) return unmatched(kind, ev);
    // A failure carries no server time: it must not be dropped as stale.
    const ts = res.kind === "failed" ? undefined : ev.serverTimeMs;
    const filled = res.kind === "done" ? (res.status === "FILLED" ? r.size : res.filledQty) : undefined;
    const t = this.step(r, kind, { ts, filled });
    if (res.kind === "pending" && r.state === "cancel_pending") r.cancelRetryAtMs = ev.nowMs + res.retryAfterMs;
    return t;
  }

  private onRead(rec: OrderRecord, ts: number): Transition {
    const ev = readEventOf(rec.status);
    if (rec.walletAddress.toLowerCase() !== this.wallet) {
      return { event: ev, outcome: "wrong_wallet", orderId: rec.id, message: `record of ${rec.walletAddress}` };
    }
    const r = this.index.find({ clientOrderId: rec.clientOrderId ?? undefined, orderId: rec.id, orderHash: rec.orderHash });
    if (r === undefined) return { event: ev, outcome: "unmatched", orderId: rec.id, message: "not ours: adopt or cancel" };
    const conflict = this.index.learnId(r, rec.id, ev);
    if (conflict !== undefined) return conflict;
    const t = this.step(r, ev, { ts, filled: parseMicros(rec.filledQty) });
    if (t.outcome !== "impossible") delete r.needsRead;
    return this.withReplay(r, t);
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

  // ---- state changes (order-tracker-step.ts), buffering ---------------------------------------

  private step(r: Rec, ev: OrderEventKind, o: StepOpts): Transition {
    const t = stepOrder(r, ev, o, this.counters);
    this.index.restate(r);
    return t;
  }

  private countTrade(r: Rec, tradeId: string, qty: Micros): void {
    addTrade(r, tradeId, qty, this.counters);
  }

  private bufferUp(orderId: string, b: Buffered, ev: OrderEventKind | "trade"): Transition {
    this.early.add(orderId, b);
    return { event: ev, outcome: "buffered", orderId };
  }

  private withReplay(r: Rec, t: Transition): Transition {
    if (r.orderId === undefined) return t;
    const list = this.early.take(r.orderId);
    if (list === undefined) return t;
    const replayed = list.map((b) => {
      const rt = b.kind === "frame" ? this.applyFrame(r, b.frame) : this.applyTrade(r, b.fill);
      this.counters[rt.outcome]++;
      this.counters.replayed++;
      return rt;
    });
    return { ...t, replayed };
  }

  // ---- queries (order-tracker-reads.ts) -----------------------------------------------------

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

  all(): TrackedOrder[] {
    return [...this.index.values()].map(view);
  }

  /** Our non-terminal orders on one market, in the reconciler's terms. */
  liveOrders(marketId: string): LiveOrder[] {
    return liveOrderViews(this.index.liveOf(marketId));
  }

  unknownOrders(): TrackedOrder[] {
    return selectViews(this.index.values(), (r) => r.state === "unknown");
  }

  /** Orders whose platform state is not settled: sent, unknown, or being cancelled. */
  inFlight(): TrackedOrder[] {
    return selectViews(this.index.values(), (r) => r.state === "sent" || r.state === "unknown" || r.state === "cancel_requested" || r.state === "cancel_pending");
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
    return readNeedsOf(this.index.values(), nowMs, this.timing.notRecordedAfterMs);
  }

  /** Earliest time a read that is waiting (an early 404, a cancel Retry-After) becomes due; undefined when none waits. */
  nextReadDueMs(): number | undefined {
    return nextReadDueOf(this.index.values());
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
    return diffOpenWalk(this.index.values(), (id) => this.index.hasOrderId(id), openOrderIds, walkStartedAtMs);
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
