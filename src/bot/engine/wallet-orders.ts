/**
 * Where a wallet's order and fill facts land, whatever their source (placement answers, stream
 * frames, REST reads): fills go to the ledger (idempotent), then the inventory, then the tracker;
 * every tracker transition updates the unknown-since times and the own-order log the book
 * exclusion reads, and anomalies are reported.
 */
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { Fill, FillLedger } from "../fills/fill-ledger.js";
import type { Inventory } from "../fills/inventory.js";
import { isTerminal, type OrderTracker, type TrackedOrder, type TrackerEvent, type Transition } from "../orders/order-tracker.js";
import type { EngineObserver } from "../observer.js";
import type { OwnOrderLog } from "../quote/own-orders.js";

export interface WalletOrdersParts {
  wallet: string;
  tracker: OrderTracker;
  own: OwnOrderLog;
  ledger: FillLedger;
  inventory: Inventory;
  observer: EngineObserver;
  log: Logger;
  clock: Clock;
  /** Each fill the ledger added (new, not a duplicate): the quote controls' signals (signals.ts). */
  onNewFill?: ((f: Fill) => void) | undefined;
}

export class WalletOrders {
  /** When each order entered the unknown state (by clientOrderId). */
  readonly unknownSince = new Map<string, number>();

  constructor(private readonly d: WalletOrdersParts) {}

  applyFill(f: Fill): void {
    const d = this.d;
    const r = d.ledger.add(f);
    // Every answer, not only `added`: a `merged` record may carry the trade's real time, which can
    // put a fill first seen on the stream before the start-up anchor (already in those figures).
    d.inventory.applyLedgerResult(r);
    if (r.status === "added") {
      d.observer.onEvent({ type: "fill", wallet: d.wallet, fill: r.fill });
      d.onNewFill?.(r.fill);
      d.log.debug({ market: f.marketId, clientOrderId: f.clientOrderId ?? null, orderId: f.orderId, tradeId: f.tradeId, role: f.role, source: f.source }, "fill");
    } else if (r.status === "conflict") {
      d.observer.onEvent({ type: "drift", wallet: d.wallet, kind: "fills", count: 1 });
      d.log.warn({ market: f.marketId, orderId: f.orderId, tradeId: f.tradeId, fields: r.fields }, "fill sources disagree: kept the platform's trade row");
    }
    // A row the ledger already had told the tracker already (or sits in its buffer as a frame):
    // sending it again would re-buffer an unknown order and read it again after every trade pull.
    if (f.source !== "stream" && r.status !== "duplicate") {
      const fact = { tradeId: f.tradeId, orderId: f.orderId, qty: f.qty, ts: f.ts };
      this.track({ kind: "trade", fill: f.clientOrderId === undefined ? fact : { ...fact, clientOrderId: f.clientOrderId } });
    }
  }

  /** One order as the tracker knows it (read-only, not to be kept: see OrderTracker.peek). */
  order(clientOrderId: string): Readonly<TrackedOrder> | undefined {
    return this.d.tracker.peek(clientOrderId);
  }

  track(ev: TrackerEvent): Transition {
    const t = this.d.tracker.apply(ev);
    this.onTransition(t);
    return t;
  }

  onTransition(t: Transition): void {
    const d = this.d;
    if (t.outcome === "impossible" || t.outcome === "conflict") {
      d.observer.onEvent({ type: "tracker_anomaly", wallet: d.wallet, outcome: t.outcome, event: t.event, message: t.message });
      d.log.warn({ clientOrderId: t.clientOrderId ?? null, orderId: t.orderId ?? null, event: t.event, outcome: t.outcome, message: t.message }, "order tracker refused an event");
    }
    if (t.anomaly === "resurrected") {
      // An order concluded "never recorded" turned up after all: the lookup raced the platform.
      d.observer.onEvent({ type: "tracker_anomaly", wallet: d.wallet, outcome: "resurrected", event: t.event, message: t.message });
      d.log.warn({ clientOrderId: t.clientOrderId ?? null, orderId: t.orderId ?? null, event: t.event, from: t.from ?? null, to: t.to ?? null }, "order ended as never recorded came back");
    }
    for (const r of t.replayed ?? []) this.onTransition(r);
    if (t.clientOrderId === undefined || t.to === undefined) return;
    const cid = t.clientOrderId;
    if (t.to === "unknown") {
      if (!this.unknownSince.has(cid)) this.unknownSince.set(cid, d.clock.now());
    } else this.unknownSince.delete(cid);
    if (isTerminal(t.to)) {
      d.own.ended(cid, d.clock.now());
      return;
    }
    const o = d.tracker.peek(cid);
    if (o !== undefined && t.to !== "unknown") d.own.rested(cid, o.marketId, { outcome: o.outcome, side: o.side, price: o.price, remaining: o.size - o.filledQty });
  }
}
