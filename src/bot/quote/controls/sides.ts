/**
 * Book terms for the quote controls: a quote as the side of the book it rests on and its price
 * there. Binary markets have one book (YES, outcome 0): a NO bid at x is a YES ask at 1 - x and a
 * NO ask a YES bid; multi-outcome markets quote each outcome on its own book. A control that acts
 * "on the bid side, relative to the mid" does so in these terms, so a strategy's choice between
 * `BUY NO` and `SELL YES` for the same ask does not change what the control does.
 */
import { MAX_PRICE, MIN_PRICE, PRICE_TICK, complementPrice } from "../../../core/amounts.js";
import type { Micros } from "../../../core/money.js";
import type { CycleSnapshot } from "../cycle.js";
import type { DesiredQuote, Side } from "../quotes.js";

export type BookSide = "bid" | "ask";

export interface BookTerms {
  /** The book the quote rests on: 0 on binary markets, the quote's outcome otherwise. */
  book: number;
  side: BookSide;
  /** Price on that book. */
  price: Micros;
}

const flips = (outcome: number, outcomeCount: number): boolean => outcomeCount === 2 && outcome === 1;

export function bookTerms(q: { outcome: number; side: Side; price: Micros }, outcomeCount: number): BookTerms {
  const buy = q.side === "BUY";
  if (flips(q.outcome, outcomeCount)) return { book: 0, side: buy ? "ask" : "bid", price: complementPrice(q.price) };
  return { book: outcomeCount === 2 ? 0 : q.outcome, side: buy ? "bid" : "ask", price: q.price };
}

/** The quote moved to `bookPrice` on its book (its own price is the complement for a NO quote on a binary market). */
export function atBookPrice(q: DesiredQuote, outcomeCount: number, bookPrice: Micros): DesiredQuote {
  return { ...q, price: flips(q.outcome, outcomeCount) ? complementPrice(bookPrice) : bookPrice };
}

export function onGrid(price: Micros): boolean {
  return price >= MIN_PRICE && price <= MAX_PRICE && price % PRICE_TICK === 0n;
}

/** Further from the mid on `side` by `ticks` x ... : bids go down, asks go up. */
export function away(side: BookSide, price: Micros, by: Micros): Micros {
  return side === "bid" ? price - by : price + by;
}

/** The more aggressive (closer to the other side) of two book prices on `side`. */
export function closer(side: BookSide, a: Micros, b: Micros): Micros {
  return side === "bid" ? (a > b ? a : b) : a < b ? a : b;
}

/** Floor / ceil to the 0.001 grid. */
export function floorTick(p: Micros): Micros {
  return p - (((p % PRICE_TICK) + PRICE_TICK) % PRICE_TICK);
}
export function ceilTick(p: Micros): Micros {
  const f = floorTick(p);
  return f === p ? p : f + PRICE_TICK;
}

/** The market's outcome count (2 when the snapshot has no market: controls then act as on a binary). */
export function outcomeCountOf(s: CycleSnapshot): number {
  return s.market?.outcomeCount ?? 2;
}

/** Quotes grouped by (book, side), each group's indexes in input order, and its closest price. */
export interface SideGroup {
  book: number;
  side: BookSide;
  /** Indexes into the quotes. */
  idx: number[];
  /** Book terms per index. */
  terms: BookTerms[];
  /** The most aggressive book price of the group. */
  top: Micros;
}

export function groupBySide(quotes: readonly DesiredQuote[], outcomeCount: number): SideGroup[] {
  const groups = new Map<string, SideGroup>();
  quotes.forEach((q, i) => {
    const t = bookTerms(q, outcomeCount);
    const key = `${t.book}:${t.side}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { book: t.book, side: t.side, idx: [i], terms: [t], top: t.price });
    else {
      g.idx.push(i);
      g.terms.push(t);
      g.top = closer(t.side, g.top, t.price);
    }
  });
  return [...groups.values()];
}

/**
 * Move every quote of `g` by `delta` on its book (positive: toward the other side, i.e. a bid
 * up or an ask down). Quotes that would leave the price grid are dropped (null in `out`).
 * Returns how many quotes changed.
 */
export function shiftGroup(out: (DesiredQuote | null)[], g: SideGroup, delta: Micros, outcomeCount: number): number {
  if (delta === 0n) return 0;
  g.idx.forEach((i, k) => {
    const q = out[i];
    if (q === null || q === undefined) return;
    const t = g.terms[k]!;
    const p = g.side === "bid" ? t.price + delta : t.price - delta;
    out[i] = onGrid(p) ? atBookPrice(q, outcomeCount, p) : null;
  });
  return g.idx.length;
}

export function compact(out: readonly (DesiredQuote | null)[]): DesiredQuote[] {
  return out.filter((q): q is DesiredQuote => q !== null);
}
