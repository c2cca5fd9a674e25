/**
 * Aggregated book views for the orderbook endpoint: top N levels per side (price, total quantity,
 * order count), best bid/ask and last trade price, in the requested outcome's own token. The NO view
 * of a binary market is the complement of the YES book: NO bids are YES asks at 1 - p, NO asks are
 * YES bids at 1 - p.
 */
import type { Micros } from "../../core/money.js";
import { ASK, BID, type BookSide } from "./order.js";
import type { Book } from "./book.js";
import { NO_ASK, NO_BID } from "./book.js";
import type { MarketState } from "./market.js";
import { PRICE_OF_TICK, TICK_ONE } from "./ticks.js";
import type { BookLevelView, BookSnapshot } from "./types.js";

function levelsOf(book: Book, side: BookSide, depth: number, complement: boolean): BookLevelView[] {
  const out: BookLevelView[] = [];
  const lv = book.side(side);
  const empty = side === BID ? NO_BID : NO_ASK;
  for (let t = book.best(side); t !== empty && out.length < depth; t = book.nextTick(side, t)) {
    out.push({ price: PRICE_OF_TICK[complement ? TICK_ONE - t : t]!, quantity: lv.qty[t]!, orders: lv.count[t]! });
  }
  return out;
}

function priceOr(t: number, empty: number, complement: boolean): Micros | null {
  if (t === empty) return null;
  return PRICE_OF_TICK[complement ? TICK_ONE - t : t]!;
}

/** Top `depth` levels per side of one outcome's book, best first. */
export function bookSnapshot(m: MarketState, outcome: number, depth = 50): BookSnapshot {
  if (!Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomeCount) {
    throw new RangeError(`outcome must be 0..${m.outcomeCount - 1}`);
  }
  const book = m.bookOf(outcome);
  const complement = m.binary && outcome === 1;
  const bidSide: BookSide = complement ? ASK : BID;
  const askSide: BookSide = complement ? BID : ASK;
  return {
    marketId: m.id,
    outcome,
    tokenId: m.tokenIds[outcome]!,
    bids: levelsOf(book, bidSide, depth, complement),
    asks: levelsOf(book, askSide, depth, complement),
    bestBid: complement ? priceOr(book.bestAsk, NO_ASK, true) : priceOr(book.bestBid, NO_BID, false),
    bestAsk: complement ? priceOr(book.bestBid, NO_BID, true) : priceOr(book.bestAsk, NO_ASK, false),
    lastTradePrice: book.lastTick === 0 ? null : PRICE_OF_TICK[complement ? TICK_ONE - book.lastTick : book.lastTick]!,
  };
}
