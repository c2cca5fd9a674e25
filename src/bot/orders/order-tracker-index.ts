/**
 * The tracker's records keyed by clientOrderId, indexed by the platform's orderId (once learnt) and
 * by the locally computed order hash (lowercased), plus the orderIds of pruned orders so that later
 * evidence for them counts as late instead of waiting in the buffer forever.
 *
 * Non-terminal records are also kept per market (`liveOf`): a quote cycle reads its market's live
 * orders without walking every settled order still remembered. The tracker calls `restate` after
 * each state change (a "not recorded" order can come back to life, so membership is not one-way).
 * Pruned orderIds are remembered for `retiredKeepMs` past the prune horizon, then forgotten, so a
 * daemon that runs for weeks does not grow with every order it ever placed.
 */
import { isTerminal, type OrderEventKind } from "./order-states.js";
import { RETIRED_KEEP_MS, type OrderRef, type Transition } from "./order-tracker-types.js";
import type { Rec } from "./order-tracker-step.js";

export class OrderIndex {
  private readonly orders = new Map<string, Rec>();
  private readonly byOrderId = new Map<string, string>();
  private readonly byHash = new Map<string, string>();
  /** Pruned orderId -> the prune horizon it was retired under (non-decreasing in insertion order). */
  private readonly retired = new Map<string, number>();
  private readonly live = new Map<string, Set<Rec>>();

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
    this.orders.set(r.clientOrderId, r);
    this.byHash.set(r.orderHash.toLowerCase(), r.clientOrderId);
    this.restate(r);
  }

  /** Keep the per-market live set in step with the record's state (call after every change). */
  restate(r: Rec): void {
    let set = this.live.get(r.marketId);
    if (isTerminal(r.state)) {
      if (set?.delete(r) === true && set.size === 0) this.live.delete(r.marketId);
      return;
    }
    if (set === undefined) this.live.set(r.marketId, (set = new Set()));
    set.add(r);
  }

  /** Non-terminal records of one market, in the order they became live. */
  liveOf(marketId: string): Iterable<Rec> {
    return this.live.get(marketId) ?? [];
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
    for (const [cid, r] of this.orders) {
      if (!isTerminal(r.state) || r.needsRead !== undefined) continue;
      if (!r.finalConfirmed && r.filledQty > r.tradeQty) continue;
      if ((r.lastServerTs ?? r.createdAtMs) >= beforeTs) continue;
      this.orders.delete(cid);
      this.byHash.delete(r.orderHash.toLowerCase());
      if (r.orderId !== undefined) {
        this.byOrderId.delete(r.orderId);
        this.retired.set(r.orderId, beforeTs);
      }
      n++;
    }
    const forgetBefore = beforeTs - this.retiredKeepMs;
    for (const [orderId, stamp] of this.retired) {
      if (stamp >= forgetBefore) break;
      this.retired.delete(orderId);
    }
    return n;
  }
}
