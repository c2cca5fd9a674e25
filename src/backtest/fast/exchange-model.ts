/**
 * The exchange side of the fast engine for one outcome book: the book as recorded (L2: total size
 * per price, others' orders only), our virtual orders, and where each of ours stands in its price
 * level's queue (a queue-position model per order, models/queue.ts). Pure: no clock, no I/O; the
 * engine tells it the time on every call.
 *
 * An order of ours arriving:
 *   - post-only that would take liquidity (its price reaches the opposite best): refused
 *     `post_only_would_cross`, as the platform does;
 *   - otherwise it takes what the recorded book offers at its price or better (taker fills at the
 *     levels' prices, the taker fee by the platform's curve), less what our earlier orders took
 *     since the last book (so the same shares are not taken twice), and the rest rests with
 *     `ahead` = the displayed size at its price plus our earlier orders resting there.
 * A resting order of ours fills (maker, no fee):
 *   - by a recorded trade at its price: the queue model decides how much (trade(q));
 *   - by a recorded trade at a worse price for the taker (a SELL at 0.40 went through every bid
 *     above 0.40, ours included): up to the trade's quantity, which is the most that taker could
 *     have sold to us;
 *   - in full by a book on which the opposite side reaches its price (the market traded through
 *     it between two observations);
 *   - the queue model follows the displayed size at its price between books (book(from, to)).
 * Binary books: the caller feeds each outcome its own book (the platform serves both, NO as the
 * complement of YES) and each trade in both outcomes' terms (engine.ts).
 */
import { takerFee } from "../../core/amounts.js";
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { Levels } from "../../data/levels.js";
import type { QueueModel, QueueModelFactory } from "../models/queue.js";

/** An order of ours at the exchange. */
export interface VirtualOrder {
  orderId: string;
  clientOrderId: string;
  side: Side;
  price: Micros;
  size: Micros;
  postOnly: boolean;
}

export interface ExchangeFill {
  orderId: string;
  clientOrderId: string;
  side: Side;
  price: Micros;
  qty: Micros;
  fee: Micros;
  role: "maker" | "taker";
  /** The order's total filled after this fill. */
  filledQty: Micros;
  /** The order is filled in full. */
  done: boolean;
}

export type SubmitResult =
  | { status: "REJECTED"; code: string; fills: readonly ExchangeFill[] }
  | { status: "OPEN" | "PARTIAL" | "FILLED"; fills: readonly ExchangeFill[]; filledQty: Micros };

export type CancelAnswer = { status: "CANCELLED" | "FILLED"; filledQty: Micros } | { status: "NOT_FOUND" };

interface Resting {
  o: VirtualOrder;
  queue: QueueModel;
  filled: Micros;
  /** Others' displayed size at the order's price on its side in the current book (0 when absent). */
  shown: Micros;
}

const NO_FILLS: readonly ExchangeFill[] = [];

/** Displayed size at `price` on one side (0 when the level is absent). */
function sizeAt(levels: Levels, price: Micros): Micros {
  for (let i = 0; i < levels.length; i++) if (levels.price(i) === price) return levels.quantity(i);
  return 0n;
}

export class OutcomeBook {
  private bids: Levels | undefined;
  private asks: Levels | undefined;
  private readonly resting = new Map<string, Resting>();
  /** Shares of the current book our own taker orders already took, by side and price. */
  private readonly taken = new Map<string, Micros>();

  constructor(
    private readonly queue: QueueModelFactory,
    private readonly feeRateBps: number,
  ) {}

  get hasBook(): boolean {
    return this.bids !== undefined;
  }

  /** Our resting orders (for tests and the report). */
  restingCount(): number {
    return this.resting.size;
  }

  submit(o: VirtualOrder): SubmitResult {
    const opposite = o.side === "BUY" ? this.asks : this.bids;
    const crosses = (p: Micros): boolean => (o.side === "BUY" ? p <= o.price : p >= o.price);
    if (opposite !== undefined && opposite.length > 0 && crosses(opposite.price(0))) {
      if (o.postOnly) return { status: "REJECTED", code: "post_only_would_cross", fills: NO_FILLS };
    }
    const fills: ExchangeFill[] = [];
    let filled = 0n;
    if (opposite !== undefined) {
      for (let i = 0; i < opposite.length && filled < o.size; i++) {
        const p = opposite.price(i);
        if (!crosses(p)) break;
        const key = `${o.side}|${p}`;
        const room = opposite.quantity(i) - (this.taken.get(key) ?? 0n);
        if (room <= 0n) continue;
        const qty = room < o.size - filled ? room : o.size - filled;
        filled += qty;
        this.taken.set(key, (this.taken.get(key) ?? 0n) + qty);
        fills.push({ orderId: o.orderId, clientOrderId: o.clientOrderId, side: o.side, price: p, qty, fee: takerFee(p, qty, this.feeRateBps), role: "taker", filledQty: filled, done: filled === o.size });
      }
    }
    if (filled === o.size) return { status: "FILLED", fills, filledQty: filled };
    const same = o.side === "BUY" ? this.bids : this.asks;
    const shown = same === undefined ? 0n : sizeAt(same, o.price);
    let ahead = shown;
    for (const r of this.resting.values()) if (r.o.side === o.side && r.o.price === o.price) ahead += r.queue.remaining;
    this.resting.set(o.orderId, { o, queue: this.queue(ahead, o.size - filled), filled, shown });
    return { status: filled > 0n ? "PARTIAL" : "OPEN", fills, filledQty: filled };
  }

  /** Shares an order of `side` up to `price` could take from the current book now (less what ours took), at most `max`. */
  takeable(side: Side, price: Micros, max: Micros): Micros {
    const opposite = side === "BUY" ? this.asks : this.bids;
    let n = 0n;
    if (opposite === undefined) return n;
    for (let i = 0; i < opposite.length && n < max; i++) {
      const p = opposite.price(i);
      if (side === "BUY" ? p > price : p < price) break;
      const room = opposite.quantity(i) - (this.taken.get(`${side}|${p}`) ?? 0n);
      if (room > 0n) n += room;
    }
    return n < max ? n : max;
  }

  cancel(orderId: string): CancelAnswer {
    const r = this.resting.get(orderId);
    if (r === undefined) return { status: "NOT_FOUND" };
    this.resting.delete(orderId);
    return { status: "CANCELLED", filledQty: r.filled };
  }

  /** A new recorded book of this outcome: queues follow the sizes; orders it trades through fill. */
  onBook(bids: Levels, asks: Levels): readonly ExchangeFill[] {
    this.bids = bids;
    this.asks = asks;
    if (this.taken.size !== 0) this.taken.clear();
    if (this.resting.size === 0) return NO_FILLS;
    const bestAsk = asks.length > 0 ? asks.price(0) : undefined;
    const bestBid = bids.length > 0 ? bids.price(0) : undefined;
    let out: ExchangeFill[] | undefined;
    // Deleting the entry being visited (a fill in full) is safe in a Map's iteration.
    for (const r of this.resting.values()) {
      const o = r.o;
      const buy = o.side === "BUY";
      if (buy ? bestAsk !== undefined && bestAsk <= o.price : bestBid !== undefined && bestBid >= o.price) {
        this.fill(r, r.queue.remaining, (out ??= []), true);
        continue;
      }
      // r.shown is the size at its price in the book before this one (kept since it rested).
      const to = sizeAt(buy ? bids : asks, o.price);
      if (r.shown !== to) {
        r.queue.book(r.shown, to);
        r.shown = to;
      }
    }
    return out ?? NO_FILLS;
  }

  /**
   * A recorded trade in this outcome's terms (`side` the taker's). A taker SELL at `price` hit the
   * bids down to `price`: ours above it filled in full, ours at it by the queue model.
   */
  onTrade(side: Side, price: Micros, qty: Micros): ExchangeFill[] {
    if (this.resting.size === 0 || qty <= 0n) return [];
    const hits: Side = side === "SELL" ? "BUY" : "SELL";
    const out: ExchangeFill[] = [];
    // One trade's shares are taken once: ours priced better than the trade, best price first (then
    // time: the map keeps placement order and the sort is stable), each take what is left of it;
    // what reaches `price` goes to ours there through the queue model. Time priority among ours at
    // one price: the earlier order is ahead of the later one (in `ahead`), so each is asked with
    // the same size.
    const ours = [...this.resting.values()].filter((r) => r.o.side === hits && (hits === "BUY" ? r.o.price >= price : r.o.price <= price));
    ours.sort((a, b) => (a.o.price === b.o.price ? 0 : (hits === "BUY" ? a.o.price > b.o.price : a.o.price < b.o.price) ? -1 : 1));
    let left = qty;
    for (const r of ours) {
      if (left <= 0n) break;
      if (r.o.price !== price) {
        const take = r.queue.remaining < left ? r.queue.remaining : left;
        this.fill(r, take, out, true);
        left -= take;
      }
    }
    if (left <= 0n) return out;
    for (const r of ours) {
      if (r.o.price !== price || !this.resting.has(r.o.orderId)) continue;
      const got = r.queue.trade(left);
      if (got > 0n) this.fill(r, got, out, false);
    }
    return out;
  }

  /** Record a maker fill of `qty` (already applied to the queue unless `viaOwnFill`). */
  private fill(r: Resting, qty: Micros, out: ExchangeFill[], viaOwnFill: boolean): void {
    if (qty <= 0n) return;
    if (viaOwnFill) r.queue.ownFill(qty);
    r.filled += qty;
    const done = r.filled === r.o.size;
    out.push({ orderId: r.o.orderId, clientOrderId: r.o.clientOrderId, side: r.o.side, price: r.o.price, qty, fee: 0n, role: "maker", filledQty: r.filled, done });
    if (done) this.resting.delete(r.o.orderId);
  }
}
