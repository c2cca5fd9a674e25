/**
 * Book helpers of the quote cycle (cycle.ts): which outcomes a market quotes, its books without
 * our own orders, reference prices, and the phase rule every quote obeys.
 *
 * - Binary markets quote from the YES book (outcome 0, the platform's one book for YES and NO);
 *   multi-outcome markets run the strategy once per outcome on that outcome's book.
 * - Our own orders are taken out of the book the strategy sees (exactly those that were resting
 *   when the book was read: own-orders.ts), so a strategy does not chase its own quotes.
 * - In PRE_MARKET every quote is post-only, whatever the strategy or risk said (spec 3.1).
 */
import { complementPrice } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { BookLevel, BookView, DesiredQuote, MarketPhase } from "./quotes.js";
import type { BookSnapshot } from "../market/market-data.js";
import type { OwnOrderView } from "./own-orders.js";

/** Outcomes whose books a market needs: [0] for binary, every outcome otherwise. */
export function quotedOutcomes(outcomeCount: number): number[] {
  return outcomeCount === 2 ? [0] : Array.from({ length: outcomeCount }, (_, i) => i);
}

function subtract(levels: readonly BookLevel[], price: Micros, size: Micros): BookLevel[] {
  const out: BookLevel[] = [];
  for (const l of levels) {
    if (l.price !== price) out.push(l);
    else if (l.size > size) out.push({ price: l.price, size: l.size - size });
  }
  return out;
}

/** The book without our own orders resting in it (see the header and own-orders.ts). */
export function excludeOwn(book: BookView, own: readonly OwnOrderView[], bookOutcome: number, binary: boolean): BookView {
  let bids = book.bids;
  let asks = book.asks;
  for (const o of own) {
    if (o.remaining <= 0n) continue;
    let side: "bid" | "ask" | undefined;
    let price = o.price;
    if (o.outcome === bookOutcome) side = o.side === "BUY" ? "bid" : "ask";
    else if (binary) {
      // A NO order is a YES order at the complement price, on the other side.
      side = o.side === "BUY" ? "ask" : "bid";
      price = complementPrice(o.price);
    }
    if (side === "bid") bids = subtract(bids, price, o.remaining);
    else if (side === "ask") asks = subtract(asks, price, o.remaining);
  }
  if (bids === book.bids && asks === book.asks) return book;
  const out: BookView = { bids, asks, updatedAtMs: book.updatedAtMs };
  if (book.lastTradePrice !== undefined) out.lastTradePrice = book.lastTradePrice;
  return out;
}

/** Mid of a two-sided, uncrossed book. */
export function midOf(book: BookView | undefined): Micros | undefined {
  const bid = book?.bids[0]?.price;
  const ask = book?.asks[0]?.price;
  if (bid === undefined || ask === undefined || bid >= ask) return undefined;
  return (bid + ask) / 2n;
}

/** Reference prices per outcome for the reconciler's closest-to-mid ordering. */
export function midsOf(books: ReadonlyMap<number, BookSnapshot | undefined>, outcomeCount: number): Record<number, Micros> {
  const mids: Record<number, Micros> = {};
  for (const [o, snap] of books) {
    const m = midOf(snap?.view);
    if (m === undefined) continue;
    mids[o] = m;
    if (outcomeCount === 2 && o === 0) mids[1] = complementPrice(m);
  }
  return mids;
}

/** Nothing in pull/stopped; post-only in pre_market (defence in depth behind the strategy). */
export function enforcePhase(quotes: readonly DesiredQuote[], phase: MarketPhase): DesiredQuote[] {
  if (phase === "pull" || phase === "stopped") return [];
  if (phase !== "pre_market") return [...quotes];
  return quotes.map((q) => (q.postOnly ? q : { ...q, postOnly: true }));
}
