/**
 * The pure half of a quote cycle: from what the engine knows about one (wallet, market) to the
 * quotes it wants. The wallet runner does the I/O around it.
 *
 * - Binary markets quote from the YES book (outcome 0, the platform's one book for YES and NO);
 *   multi-outcome markets run the strategy once per outcome on that outcome's book.
 * - Our own orders are taken out of the book the strategy sees (exactly those that were resting
 *   when the book was read: own-orders.ts), so a strategy does not chase its own quotes.
 * - In PRE_MARKET every quote is post-only, whatever the strategy or risk said (spec 3.1).
 * - `recentTrades` are the public trades of the quoted outcome (YES terms on binary markets) as
 *   the trade feed holds them (trade-feed.ts): the stored list, not a copy.
 */
import { complementPrice } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import type { StrategyRunner } from "../../../strategies/registry.js";
import type { BookLevel, BookView, DesiredQuote, MarketPhase, PositionView, TradeView } from "./quotes.js";
import type { BookSnapshot } from "../market/market-data.js";
import type { OwnOrderView } from "./own-orders.js";
import type { TradeSource } from "../market/trade-feed.js";

const NO_TRADES: readonly TradeView[] = Object.freeze([]);

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

export interface DesiredArgs {
  strategy: StrategyRunner;
  /** Per-outcome strategy state, carried between cycles (updated in place). */
  states: Map<number, unknown>;
  marketId: string;
  outcomeCount: number;
  phase: MarketPhase;
  books: ReadonlyMap<number, BookSnapshot | undefined>;
  /** Public trades per outcome; absent: none. */
  trades?: TradeSource | undefined;
  /** Our orders that were on a book (of `outcome` on multi-outcome markets) when its read was sent. */
  ownAt: (sentSeq: number, outcome: number | undefined) => readonly OwnOrderView[];
  inventory: readonly PositionView[];
  nowMs: number;
  closesAtMs: number | null;
  feeTakerBps: number;
}

/** The strategy's quotes for one market (empty unless the phase allows quoting). */
export function desiredQuotes(a: DesiredArgs): DesiredQuote[] {
  if (a.phase !== "open" && a.phase !== "pre_market") return [];
  const binary = a.outcomeCount === 2;
  const out: DesiredQuote[] = [];
  for (const o of quotedOutcomes(a.outcomeCount)) {
    const snap = a.books.get(o);
    if (snap === undefined) continue;
    const book = excludeOwn(snap.view, a.ownAt(snap.sentSeq, binary ? undefined : o), o, binary);
    const step = a.strategy.step(
      {
        marketId: a.marketId,
        outcomeCount: a.outcomeCount,
        phase: a.phase,
        book,
        recentTrades: a.trades?.recent(a.marketId, o) ?? NO_TRADES,
        inventory: a.inventory,
        nowMs: a.nowMs,
        closesAtMs: a.closesAtMs,
        timeToCloseMs: a.closesAtMs === null ? null : a.closesAtMs - a.nowMs,
        feeTakerBps: a.feeTakerBps,
        quoteOutcome: o,
      },
      a.states.get(o),
    );
    a.states.set(o, step.state);
    out.push(...step.quotes);
  }
  return enforcePhase(out, a.phase);
}

/** Nothing in pull/stopped; post-only in pre_market (defence in depth behind the strategy). */
export function enforcePhase(quotes: readonly DesiredQuote[], phase: MarketPhase): DesiredQuote[] {
  if (phase === "pull" || phase === "stopped") return [];
  if (phase !== "pre_market") return [...quotes];
  return quotes.map((q) => (q.postOnly ? q : { ...q, postOnly: true }));
}
