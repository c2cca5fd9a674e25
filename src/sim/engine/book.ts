/**
 * One order book: two sides of 999 price levels indexed by tick, each level a FIFO of order slots
 * (price-time priority) linked through the order store, with the best bid/ask tracked and a
 * 1024-bit occupancy bitmap per side so that finding the next best level after one empties costs
 * at most 32 word scans.
 *
 * A binary market has ONE book denominated in YES; a multi-outcome market has one per outcome.
 */
import { ASK, BID, F_RESTING, NIL, type BookSide, type OrderStore } from "./order.js";
import { TICK_ONE } from "./ticks.js";

/** Sentinels: no bid is tick 0, no ask is tick 1000 (both off the 1..999 grid). */
export const NO_BID = 0;
export const NO_ASK = TICK_ONE;

const WORDS = 32;
const N = TICK_ONE + 1;

export class BookSideLevels {
  readonly head = new Int32Array(N).fill(NIL);
  readonly tail = new Int32Array(N).fill(NIL);
  readonly count = new Int32Array(N);
  /** Sum of the remaining quantity of the level's orders. */
  readonly qty = new BigInt64Array(N);
  readonly bits = new Uint32Array(WORDS);
}

export class Book {
  readonly bids = new BookSideLevels();
  readonly asks = new BookSideLevels();
  bestBid = NO_BID;
  bestAsk = NO_ASK;
  /** Tick of the last fill on this book, 0 when none. */
  lastTick = 0;

  constructor(private readonly st: OrderStore) {}

  side(side: BookSide): BookSideLevels {
    return side === BID ? this.bids : this.asks;
  }

  /** Does an order at `tick` on `side` cross the opposite side right now? */
  crosses(side: BookSide, tick: number): boolean {
    return side === BID ? this.bestAsk <= tick : this.bestBid >= tick;
  }

  /** Append slot `s` (its bookTick and remaining set) at the tail of its level: time priority. */
  append(s: number, side: BookSide): void {
    const st = this.st;
    const t = st.bookTick(s);
    const lv = side === BID ? this.bids : this.asks;
    const tail = lv.tail[t]!;
    st.setPrev(s, tail);
    st.setNext(s, NIL);
    if (tail === NIL) {
      lv.head[t] = s;
      lv.bits[t >>> 5]! |= 1 << (t & 31);
      if (side === BID) {
        if (t > this.bestBid) this.bestBid = t;
      } else if (t < this.bestAsk) {
        this.bestAsk = t;
      }
    } else {
      st.setNext(tail, s);
    }
    lv.tail[t] = s;
    lv.qty[t] = lv.qty[t]! + st.remaining(s);
    lv.count[t]!++;
    st.setFlags(s, st.flags(s) | F_RESTING);
  }

  /** Unlink slot `s` in O(1); its remaining quantity leaves the level total. */
  remove(s: number, side: BookSide): void {
    const st = this.st;
    const t = st.bookTick(s);
    const lv = side === BID ? this.bids : this.asks;
    const prev = st.prev(s);
    const next = st.next(s);
    if (prev === NIL) lv.head[t] = next;
    else st.setNext(prev, next);
    if (next === NIL) lv.tail[t] = prev;
    else st.setPrev(next, prev);
    st.setPrev(s, NIL);
    st.setNext(s, NIL);
    st.setFlags(s, st.flags(s) & ~F_RESTING);
    if (--lv.count[t]! === 0) {
      lv.qty[t] = 0n;
      lv.bits[t >>> 5]! &= ~(1 << (t & 31));
      if (side === BID) {
        if (t === this.bestBid) this.bestBid = this.highestBidBelow(t);
      } else if (t === this.bestAsk) {
        this.bestAsk = this.lowestAskAbove(t);
      }
    } else {
      lv.qty[t] = lv.qty[t]! - st.remaining(s);
    }
  }

  /** Highest occupied bid tick strictly below `t`, or NO_BID. */
  highestBidBelow(t: number): number {
    if (t <= 1) return NO_BID;
    const bits = this.bids.bits;
    const from = t - 1;
    let w = from >>> 5;
    let word = bits[w]! & (0xffffffff >>> (31 - (from & 31)));
    for (;;) {
      if (word !== 0) return (w << 5) + 31 - Math.clz32(word);
      if (w === 0) return NO_BID;
      word = bits[--w]!;
    }
  }

  /** Lowest occupied ask tick strictly above `t`, or NO_ASK. */
  lowestAskAbove(t: number): number {
    const from = t + 1;
    if (from >= TICK_ONE) return NO_ASK;
    const bits = this.asks.bits;
    let w = from >>> 5;
    let word = bits[w]! & (0xffffffff << (from & 31));
    for (;;) {
      if (word !== 0) {
        const found = (w << 5) + 31 - Math.clz32(word & -word);
        return found < TICK_ONE ? found : NO_ASK;
      }
      if (++w >= WORDS) return NO_ASK;
      word = bits[w]!;
    }
  }

  /** Next level when walking `side` away from the touch, from `t` exclusive. */
  nextTick(side: BookSide, t: number): number {
    return side === BID ? this.highestBidBelow(t) : this.lowestAskAbove(t);
  }

  best(side: BookSide): number {
    return side === BID ? this.bestBid : this.bestAsk;
  }

  occupied(side: BookSide, t: number): boolean {
    return (this.side(side).bits[t >>> 5]! & (1 << (t & 31))) !== 0;
  }
}

export { ASK, BID };
