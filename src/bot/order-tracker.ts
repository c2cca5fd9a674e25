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
 *   said the order was never recorded) is the only way to conclude "never recorded";
 * - frames for an orderId we do not know yet (fills before the acknowledgement) are buffered and
 *   replayed, in serverTs order, when a placement answer or a read tells us the id; frames carrying
 *   a clientOrderId we track apply at once;
 * - ordering: an event stamped (serverTs / X-Server-Time) before the last stamp applied to the
 *   order may move it forward (STATE_RANK) but never back; terminal answers are timeless;
 * - the filled quantity never decreases and never exceeds the size (excess is clamped, counted).
 */
import { maxMicros, minMicros, parseMicros, type Micros } from "../core/money.js";
import type { OrderRecord, PlacementResult } from "../wire/orders.js";
import type { LiveOrder } from "./quotes.js";
import {
  FINAL_TOTAL_EVENTS,
  ORDER_STATES,
  STATE_RANK,
  ackEventOf,
  frameEventOf,
  isTerminal,
  readEventOf,
  targetOf,
  type CancelOutcome,
  type OrderEventKind,
  type OrderFrame,
  type OrderIntent,
  type OrderRef,
  type OrderState,
  type ReadNeed,
  type TrackedOrder,
  type TrackerCounters,
  type TrackerEvent,
  type TrackerOptions,
  type TradeFact,
  type Transition,
  type WalkDiff,
} from "./order-states.js";

export * from "./order-states.js";

interface Rec extends TrackedOrder {
  tradeIds: Set<string>;
  cancelRequested: boolean;
}


type Buffered = { kind: "frame"; frame: OrderFrame } | { kind: "trade"; fill: TradeFact };
const bufferedTs = (b: Buffered): number => (b.kind === "frame" ? b.frame.serverTs : b.fill.ts);

export class OrderTracker {
  readonly wallet: string;
  private readonly orders = new Map<string, Rec>();
  private readonly byOrderId = new Map<string, string>();
  private readonly byHash = new Map<string, string>();
  private readonly buffer = new Map<string, Buffered[]>();
  private bufferedCount = 0;
  private readonly retired = new Set<string>();
  private readonly maxBuffered: number;
  readonly counters: TrackerCounters = {
    applied: 0,
    same: 0,
    stale: 0,
    late: 0,
    impossible: 0,
    buffered: 0,
    duplicate: 0,
    unmatched: 0,
    wrong_wallet: 0,
    conflict: 0,
    overfill: 0,
    replayed: 0,
    bufferDropped: 0,
  };

  constructor(wallet: string, opts: TrackerOptions = {}) {
    this.wallet = wallet.toLowerCase();
    this.maxBuffered = opts.maxBuffered ?? 10_000;
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
        const r = this.orders.get(ev.clientOrderId);
        if (r === undefined) return unmatched("send_failed", ev);
        return this.step(r, "send_failed", { rejectCode: ev.code });
      }
      case "ack":
        return this.onAck(ev.clientOrderId, ev.result, ev.serverTimeMs);
      case "ack_unknown": {
        const r = this.orders.get(ev.clientOrderId);
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
      case "lookup_not_found": {
        const r = this.find(ev);
        return r === undefined ? unmatched("lookup_not_found", ev) : this.step(r, "lookup_not_found", { ts: ev.serverTimeMs, rejectCode: "not_recorded" });
      }
    }
  }

  // ---- event handlers ---------------------------------------------------------------------------

  private onSent(clientOrderId: string, orderHash: string, intent: OrderIntent, nowMs: number): Transition {
    const have = this.orders.get(clientOrderId);
    if (have !== undefined) {
      if (have.orderHash !== orderHash) {
        return { event: "sent", outcome: "impossible", clientOrderId, message: "clientOrderId reused for a different order" };
      }
      return this.step(have, "resent", {});
    }
    if (intent.size <= 0n) return { event: "sent", outcome: "impossible", clientOrderId, message: "size must be positive" };
    const r: Rec = {
      ...intent,
      clientOrderId,
      orderHash,
      state: "sent",
      filledQty: 0n,
      tradeQty: 0n,
      finalConfirmed: false,
      createdAtMs: nowMs,
      lastServerTs: null,
      cancelAttempts: 0,
      tradeIds: new Set(),
      cancelRequested: false,
    };
    this.orders.set(clientOrderId, r);
    this.byHash.set(orderHash.toLowerCase(), clientOrderId);
    return { event: "sent", outcome: "applied", clientOrderId, to: "sent" };
  }

  private onAck(clientOrderId: string, res: PlacementResult, ts: number | undefined): Transition {
    const r = this.orders.get(clientOrderId);
    if (r === undefined) return { event: ackEventOf(res.status), outcome: "unmatched", clientOrderId };
    const conflict = this.learnId(r, res.orderId ?? undefined, ackEventOf(res.status));
    if (conflict !== undefined) return conflict;
    const filled = res.filledQty !== undefined ? parseMicros(res.filledQty) : undefined;
    const opts: StepOpts = { ts, filled };
    if (res.status === "REJECTED") opts.rejectCode = res.code;
    const t = this.step(r, ackEventOf(res.status), opts);
    if (res.status !== "REJECTED") for (const tr of res.trades) this.countTrade(r, tr.id, parseMicros(tr.quantity));
    return this.withReplay(r, t);
  }

  private onFrame(frame: OrderFrame): Transition {
    const ev = frame.type === "user_fill" ? "fill" : frameEventOf(frame.status);
    if (frame.walletAddress.toLowerCase() !== this.wallet) {
      return { event: ev, outcome: "wrong_wallet", orderId: frame.orderId, message: `frame for ${frame.walletAddress}` };
    }
    const r = this.resolveFor(frame.orderId, frame.clientOrderId ?? undefined);
    if (r === "retired") return { event: ev, outcome: "late", orderId: frame.orderId, message: "order already pruned" };
    if (r === undefined) return this.bufferUp(frame.orderId, { kind: "frame", frame }, ev);
    const conflict = this.learnId(r, frame.orderId, ev);
    if (conflict !== undefined) return conflict;
    return this.withReplay(r, this.applyFrame(r, frame));
  }

  private applyFrame(r: Rec, frame: OrderFrame): Transition {
    if (frame.type === "user_fill") {
      const dup = r.tradeIds.has(frame.tradeId);
      this.countTrade(r, frame.tradeId, parseMicros(frame.quantity));
      const filled = parseMicros(frame.filledQty);
      const ev = this.fillEvent(r, filled, frame.orderStatus === "FILLED");
      const t = this.step(r, ev, { ts: frame.serverTs, filled });
      return dup && t.outcome === "same" ? { ...t, outcome: "duplicate" } : t;
    }
    const filled = maxMicros(0n, parseMicros(frame.originalQuantity) - parseMicros(frame.remainingQty));
    return this.step(r, frameEventOf(frame.status), { ts: frame.serverTs, filled });
  }

  private onTrade(fill: TradeFact): Transition {
    const r = this.resolveFor(fill.orderId, fill.clientOrderId);
    if (r === "retired") return { event: "trade", outcome: "late", orderId: fill.orderId, message: "order already pruned" };
    if (r === undefined) return this.bufferUp(fill.orderId, { kind: "trade", fill }, "trade");
    const conflict = this.learnId(r, fill.orderId, "fill");
    if (conflict !== undefined) return conflict;
    return this.withReplay(r, this.applyTrade(r, fill));
  }

  private applyTrade(r: Rec, fill: TradeFact): Transition {
    if (r.tradeIds.has(fill.tradeId)) {
      return { event: "trade", outcome: "duplicate", clientOrderId: r.clientOrderId, orderId: fill.orderId, from: r.state, to: r.state };
    }
    this.countTrade(r, fill.tradeId, fill.qty);
    return this.step(r, this.fillEvent(r, undefined, false), { ts: fill.ts });
  }

  private onCancelRequested(ev: OrderRef & { nowMs: number }): Transition {
    const r = this.find(ev);
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
    const r = this.find(ev);
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
    const r = this.find({ clientOrderId: rec.clientOrderId ?? undefined, orderId: rec.id, orderHash: rec.orderHash });
    if (r === undefined) return { event: ev, outcome: "unmatched", orderId: rec.id, message: "not ours: adopt or cancel" };
    const conflict = this.learnId(r, rec.id, ev);
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
    const known = this.find({ clientOrderId: rec.clientOrderId ?? undefined, orderId: rec.id, orderHash: rec.orderHash });
    if (known !== undefined || rec.walletAddress.toLowerCase() !== this.wallet) {
      return this.apply({ kind: "read", record: rec, serverTimeMs });
    }
    const clientOrderId = rec.clientOrderId ?? `adopted:${rec.id}`;
    const created = Date.parse(rec.createdAt);
    const intent: OrderIntent = {
      marketId: rec.marketId,
      outcome: rec.outcome,
      side: rec.side,
      price: parseMicros(rec.price),
      size: parseMicros(rec.originalQuantity),
      postOnly: rec.postOnly,
    };
    const t = this.apply({ kind: "sent", clientOrderId, orderHash: rec.orderHash, intent, nowMs: Number.isNaN(created) ? nowMs : created });
    if (t.outcome !== "applied") return t;
    return this.apply({ kind: "read", record: rec, serverTimeMs });
  }

  // ---- the one place states change ------------------------------------------------------------

  private step(r: Rec, ev: OrderEventKind, o: StepOpts): Transition {
    const from = r.state;
    const target = targetOf(from, ev);
    const base = { event: ev, clientOrderId: r.clientOrderId, orderId: r.orderId, from };
    if (target === undefined) return { ...base, outcome: "impossible", to: from, message: `${ev} is impossible in ${from}` };
    // Fill reports are facts whatever the state: the total only grows, capped at the size.
    if (o.filled !== undefined) this.mergeFilled(r, o.filled);
    if (target === "late") {
      this.flagLate(r, ev);
      return { ...base, outcome: "late", to: from };
    }
    let to = target === "same" ? from : target === "live" ? this.liveState(r) : target;
    if (to === "open" && r.filledQty > 0n) to = "partial";
    const stale = o.ts !== undefined && r.lastServerTs !== null && o.ts < r.lastServerTs;
    // Terminal answers are timeless; "unknown" only ever asks for a read, so it is never dropped.
    if (stale && to !== from && !isTerminal(to) && to !== "unknown" && STATE_RANK[to] <= STATE_RANK[from]) {
      return { ...base, outcome: "stale", to: from, message: `stamped ${o.ts} < ${r.lastServerTs}` };
    }
    if (o.ts !== undefined && (r.lastServerTs === null || o.ts > r.lastServerTs)) r.lastServerTs = o.ts;
    r.state = to;
    if (isTerminal(to)) {
      if (FINAL_TOTAL_EVENTS.has(ev)) r.finalConfirmed = true;
      if (to === "filled") r.filledQty = r.size;
      if (to === "rejected" && o.rejectCode !== undefined) r.rejectCode = o.rejectCode;
      delete r.cancelRetryAtMs;
      if (r.needsRead === "unknown" || r.needsRead === "cancel_retry" || r.needsRead === "missing_from_walk") delete r.needsRead;
    } else if (to === "unknown") {
      r.needsRead = "unknown";
    } else if (r.needsRead === "unknown") {
      delete r.needsRead;
    }
    return { ...base, outcome: to === from ? "same" : "applied", to };
  }

  /**
   * Late evidence after a terminal state. A fill after cancelled/expired puts the final total (and
   * so the status: it may have been FILLED) in doubt unless a read already settled it. An order we
   * ended as rejected that shows up resting contradicts us whatever settled it (a lookup can race
   * the placement): read it, and the open-orders walk will list it.
   */
  private flagLate(r: Rec, ev: OrderEventKind): void {
    const fillAfterEnd = (ev === "fill" || ev === "filled") && (r.state === "cancelled" || r.state === "expired");
    const resting = ev === "placed" || ev === "ack_open" || ev === "ack_partial" || ev === "fill" || ev === "filled";
    if (fillAfterEnd && !r.finalConfirmed) r.needsRead = "final_fill_total";
    else if (resting && r.state === "rejected") r.needsRead = "contradiction";
  }

  private fillEvent(r: Rec, reported: Micros | undefined, statusFilled: boolean): OrderEventKind {
    const total = maxMicros(r.tradeQty, reported ?? 0n);
    return statusFilled || total >= r.size ? "filled" : "fill";
  }

  private liveState(r: Rec): OrderState {
    return r.filledQty > 0n ? "partial" : "open";
  }

  private mergeFilled(r: Rec, reported: Micros): void {
    if (reported > r.size) this.counters.overfill++;
    r.filledQty = maxMicros(r.filledQty, minMicros(reported, r.size));
  }

  private countTrade(r: Rec, tradeId: string, qty: Micros): void {
    if (r.tradeIds.has(tradeId)) return;
    r.tradeIds.add(tradeId);
    r.tradeQty += qty;
    this.mergeFilled(r, r.tradeQty);
  }

  // ---- ids, buffering -------------------------------------------------------------------------

  private find(ref: OrderRef): Rec | undefined {
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

  private resolveFor(orderId: string, clientOrderId: string | undefined): Rec | "retired" | undefined {
    const r = this.find({ orderId, clientOrderId });
    if (r !== undefined) return r;
    return this.retired.has(orderId) ? "retired" : undefined;
  }

  /** Record the platform id; a different id than the one we hold is a conflict (not applied). */
  private learnId(r: Rec, orderId: string | undefined, ev: OrderEventKind): Transition | undefined {
    if (orderId === undefined || r.orderId === orderId) return undefined;
    if (r.orderId !== undefined || this.byOrderId.has(orderId)) {
      return { event: ev, outcome: "conflict", clientOrderId: r.clientOrderId, orderId, from: r.state, to: r.state, message: `order id ${orderId} conflicts with ${r.orderId ?? "another order"}` };
    }
    r.orderId = orderId;
    this.byOrderId.set(orderId, r.clientOrderId);
    return undefined;
  }

  private bufferUp(orderId: string, b: Buffered, ev: OrderEventKind | "trade"): Transition {
    let list = this.buffer.get(orderId);
    if (list === undefined) this.buffer.set(orderId, (list = []));
    list.push(b);
    this.bufferedCount++;
    while (this.bufferedCount > this.maxBuffered) this.dropOldestBuffered();
    return { event: ev, outcome: "buffered", orderId };
  }

  /** Drop the frame that has waited longest (the head of the list whose head is oldest). */
  private dropOldestBuffered(): void {
    let oldestId: string | undefined;
    let oldestTs = Infinity;
    for (const [id, list] of this.buffer) {
      const ts = list.length > 0 ? bufferedTs(list[0]!) : -Infinity;
      if (ts < oldestTs) [oldestId, oldestTs] = [id, ts];
    }
    if (oldestId === undefined) return;
    const list = this.buffer.get(oldestId)!;
    list.shift();
    if (list.length === 0) this.buffer.delete(oldestId);
    this.bufferedCount--;
    this.counters.bufferDropped++;
  }

  private withReplay(r: Rec, t: Transition): Transition {
    if (r.orderId === undefined) return t;
    const list = this.buffer.get(r.orderId);
    if (list === undefined) return t;
    this.buffer.delete(r.orderId);
    this.bufferedCount -= list.length;
    const replayed = list
      .slice()
      .sort((a, b) => bufferedTs(a) - bufferedTs(b))
      .map((b) => {
        const rt = b.kind === "frame" ? this.applyFrame(r, b.frame) : this.applyTrade(r, b.fill);
        this.counters[rt.outcome]++;
        this.counters.replayed++;
        return rt;
      });
    return { ...t, replayed };
  }

  // ---- queries ------------------------------------------------------------------------------

  get(clientOrderId: string): TrackedOrder | undefined {
    const r = this.orders.get(clientOrderId);
    return r === undefined ? undefined : view(r);
  }

  getByOrderId(orderId: string): TrackedOrder | undefined {
    const r = this.find({ orderId });
    return r === undefined ? undefined : view(r);
  }

  getByHash(orderHash: string): TrackedOrder | undefined {
    const r = this.find({ orderHash });
    return r === undefined ? undefined : view(r);
  }

  all(): TrackedOrder[] {
    return [...this.orders.values()].map(view);
  }

  /** Our non-terminal orders on one market, in the reconciler's terms. */
  liveOrders(marketId: string): LiveOrder[] {
    const out: LiveOrder[] = [];
    for (const r of this.orders.values()) {
      if (r.marketId !== marketId || isTerminal(r.state)) continue;
      const lo: LiveOrder = {
        clientOrderId: r.clientOrderId,
        outcome: r.outcome,
        side: r.side,
        price: r.price,
        size: r.size,
        remaining: r.size - r.filledQty,
        postOnly: r.postOnly,
        createdAtMs: r.createdAtMs,
        state: liveStateOf(r),
      };
      if (r.orderId !== undefined) lo.orderId = r.orderId;
      out.push(lo);
    }
    return out;
  }

  unknownOrders(): TrackedOrder[] {
    return this.select((r) => r.state === "unknown");
  }

  /** Orders whose platform state is not settled: sent, unknown, or being cancelled. */
  inFlight(): TrackedOrder[] {
    return this.select((r) => r.state === "sent" || r.state === "unknown" || r.state === "cancel_requested" || r.state === "cancel_pending");
  }

  counts(): Record<OrderState, number> {
    const out = Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>;
    for (const r of this.orders.values()) out[r.state]++;
    return out;
  }

  /** A cancel may be sent now: resting, or a recorded cancel past its Retry-After. */
  canCancel(clientOrderId: string, nowMs: number): boolean {
    const r = this.orders.get(clientOrderId);
    if (r === undefined || r.orderId === undefined) return false;
    if (r.state === "open" || r.state === "partial") return true;
    return r.state === "cancel_pending" && (r.cancelRetryAtMs === undefined || nowMs >= r.cancelRetryAtMs);
  }

  /** What to read (by id or lookup) or re-cancel now. */
  ordersNeedingRead(nowMs: number): ReadNeed[] {
    const out: ReadNeed[] = [];
    for (const r of this.orders.values()) {
      let reason = r.needsRead;
      if (r.state === "cancel_pending" && r.cancelRetryAtMs !== undefined && nowMs >= r.cancelRetryAtMs) reason ??= "cancel_retry";
      if (reason === undefined) continue;
      const need: ReadNeed = { clientOrderId: r.clientOrderId, orderHash: r.orderHash, reason, via: r.orderId === undefined ? "lookup" : "id" };
      if (r.orderId !== undefined) need.orderId = r.orderId;
      out.push(need);
    }
    return out;
  }

  /** Orders whose reported fill total exceeds the trades seen: pull /api/me/trades or read their fills. */
  fillGaps(): { order: TrackedOrder; missingQty: Micros }[] {
    const out: { order: TrackedOrder; missingQty: Micros }[] = [];
    for (const r of this.orders.values()) if (r.filledQty > r.tradeQty) out.push({ order: view(r), missingQty: r.filledQty - r.tradeQty });
    return out;
  }

  /** orderIds holding buffered frames nobody has claimed (foreign, or ours before a lookup). */
  bufferedOrderIds(): string[] {
    return [...this.buffer.keys()];
  }

  /**
   * Compare with a complete open-orders walk that began at `walkStartedAtMs` (local clock). Orders
   * sent at or after it are skipped: the walk may not have seen them. Missing orders are flagged
   * for a read; terminal ones still listed are flagged as contradictions.
   */
  reconcileOpenWalk(openOrderIds: Iterable<string>, walkStartedAtMs: number): WalkDiff {
    const listed = new Set(openOrderIds);
    const missing: TrackedOrder[] = [];
    const terminalButOpen: TrackedOrder[] = [];
    for (const r of this.orders.values()) {
      if (r.orderId === undefined) continue;
      if (r.createdAtMs >= walkStartedAtMs) continue;
      const resting = r.state === "open" || r.state === "partial" || r.state === "cancel_requested" || r.state === "cancel_pending";
      if (resting && !listed.has(r.orderId)) {
        r.needsRead ??= "missing_from_walk";
        missing.push(view(r));
      } else if (isTerminal(r.state) && listed.has(r.orderId)) {
        r.needsRead ??= "contradiction";
        terminalButOpen.push(view(r));
      }
    }
    const foreign = [...listed].filter((id) => !this.byOrderId.has(id));
    return { missing, foreign, terminalButOpen };
  }

  /**
   * Forget terminal orders whose total is settled (or that never got an id), last stamped before
   * `beforeTs`. Their orderIds are remembered so a later frame counts as late, not buffered.
   */
  prune(beforeTs: number): number {
    let n = 0;
    for (const [cid, r] of this.orders) {
      if (!isTerminal(r.state) || r.needsRead !== undefined) continue;
      if (!r.finalConfirmed && r.filledQty > r.tradeQty) continue;
      if ((r.lastServerTs ?? r.createdAtMs) >= beforeTs) continue;
      this.orders.delete(cid);
      this.byHash.delete(r.orderHash.toLowerCase());
      if (r.orderId !== undefined) {
        this.byOrderId.delete(r.orderId);
        this.retired.add(r.orderId);
      }
      n++;
    }
    return n;
  }

  private select(pred: (r: Rec) => boolean): TrackedOrder[] {
    const out: TrackedOrder[] = [];
    for (const r of this.orders.values()) if (pred(r)) out.push(view(r));
    return out;
  }
}

const CANCEL_EVENT: Readonly<Record<Exclude<CancelOutcome["kind"], "done">, OrderEventKind>> = {
  pending: "cancel_pending",
  not_cancellable: "cancel_not_cancellable",
  not_found: "cancel_not_found",
  failed: "cancel_failed",
};

interface StepOpts {
  ts?: number | undefined;
  filled?: Micros | undefined;
  rejectCode?: string;
}

function liveStateOf(r: Rec): LiveOrder["state"] {
  switch (r.state) {
    case "open":
      return "open";
    case "partial":
      return "partial";
    case "cancel_requested":
    case "cancel_pending":
      return "cancelling";
    case "unknown":
      // After a cancel answered 404/409 the order is terminal or gone: it must not hold a slot.
      return r.cancelRequested ? "cancelling" : "pending";
    default:
      return "pending";
  }
}

function view(r: Rec): TrackedOrder {
  const { tradeIds: _t, cancelRequested: _c, ...rest } = r;
  return { ...rest };
}

function unmatched(event: OrderEventKind, ref: OrderRef): Transition {
  const t: Transition = { event, outcome: "unmatched" };
  if (ref.clientOrderId !== undefined) t.clientOrderId = ref.clientOrderId;
  if (ref.orderId !== undefined) t.orderId = ref.orderId;
  return t;
}

function refuse(r: Rec, event: OrderEventKind, message: string): Transition {
  return { event, outcome: "impossible", clientOrderId: r.clientOrderId, from: r.state, to: r.state, message };
}
