/**
 * When each of our orders rested on the book, in EventSeq order, so the quote cycle can take
 * exactly our own orders out of a polled book: an order is in a book read when it rested before
 * the read was sent and had not ended before it. Without this a strategy quoting off the mid sees
 * its own (even already cancelled) quotes as the market and chases them.
 */
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { EventSeq } from "../market/market-data.js";

export interface OwnOrderView {
  outcome: number;
  side: Side;
  price: Micros;
  remaining: Micros;
}

interface Entry extends OwnOrderView {
  marketId: string;
  restSeq: number;
  endSeq: number | undefined;
  endedAtMs: number | undefined;
}

export class OwnOrderLog {
  /** By market, then clientOrderId. */
  private readonly markets = new Map<string, Map<string, Entry>>();
  private readonly marketOf = new Map<string, string>();

  constructor(private readonly seq: EventSeq) {}

  /** The order is (or may now be) on the book. Later calls update the remaining size only. */
  rested(clientOrderId: string, marketId: string, o: OwnOrderView): void {
    let m = this.markets.get(marketId);
    if (m === undefined) this.markets.set(marketId, (m = new Map<string, Entry>()));
    const e = m.get(clientOrderId);
    if (e === undefined) {
      m.set(clientOrderId, { ...o, marketId, restSeq: this.seq.next(), endSeq: undefined, endedAtMs: undefined });
      this.marketOf.set(clientOrderId, marketId);
    } else e.remaining = o.remaining;
  }

  /** The order left the book (filled, cancelled, expired). */
  ended(clientOrderId: string, nowMs: number): void {
    const market = this.marketOf.get(clientOrderId);
    const e = market === undefined ? undefined : this.markets.get(market)?.get(clientOrderId);
    if (e === undefined || e.endSeq !== undefined) return;
    e.endSeq = this.seq.next();
    e.endedAtMs = nowMs;
  }

  /**
   * Our orders that were on the book of `marketId` (of `outcome`, when the market has one book per
   * outcome; undefined for a binary market's single book) when a read with `sentSeq` was sent.
   * Books only get newer, so an order that ended before this read is forgotten here.
   */
  restingAt(marketId: string, sentSeq: number, outcome?: number): OwnOrderView[] {
    const m = this.markets.get(marketId);
    if (m === undefined) return [];
    const out: OwnOrderView[] = [];
    for (const [cid, e] of m) {
      if (outcome !== undefined && e.outcome !== outcome) continue;
      if (e.endSeq !== undefined && e.endSeq < sentSeq) {
        m.delete(cid);
        this.marketOf.delete(cid);
        continue;
      }
      if (e.restSeq < sentSeq) out.push(e);
    }
    return out;
  }

  /** Forget orders that ended before `beforeMs` (a backstop for markets no longer read), and markets left empty. */
  prune(beforeMs: number): void {
    for (const [market, m] of this.markets) {
      for (const [cid, e] of m) {
        if (e.endedAtMs !== undefined && e.endedAtMs < beforeMs) {
          m.delete(cid);
          this.marketOf.delete(cid);
        }
      }
      if (m.size === 0) this.markets.delete(market);
    }
  }

  get size(): number {
    return this.marketOf.size;
  }

  /** Markets with an entry map (memory figures: prune drops the empty ones). */
  get marketCount(): number {
    return this.markets.size;
  }
}
