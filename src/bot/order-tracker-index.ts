/**
 * The tracker's records keyed by clientOrderId, indexed by the platform's orderId (once learnt) and
 * by the locally computed order hash (lowercased), plus the orderIds of pruned orders so that later
 * evidence for them counts as late instead of waiting in the buffer forever.
 */
import { isTerminal, type OrderEventKind, type OrderRef, type Transition } from "./order-states.js";
import type { Rec } from "./order-tracker-step.js";

export class OrderIndex {
  private readonly orders = new Map<string, Rec>();
  private readonly byOrderId = new Map<string, string>();
  private readonly byHash = new Map<string, string>();
  private readonly retired = new Set<string>();

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
        this.retired.add(r.orderId);
      }
      n++;
    }
    return n;
  }
}
