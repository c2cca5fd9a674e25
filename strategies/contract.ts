/**
 * The strategy contract's data: what the engine shows a strategy (book, trades, inventory, phase,
 * time) and what a strategy answers (desired quotes). It lives with the strategies, the lowest of
 * its users; the daemon (src/bot/quote/quotes.ts) and the risk layer read it from here.
 *
 * Everything here is a value: no methods, no I/O, no clock. Prices and sizes are bigint micros
 * (see src/core/money.ts); times are epoch milliseconds handed in by the engine's Clock.
 *
 * Binary markets: outcome 0 is YES, outcome 1 is NO, and the book a strategy sees is the YES
 * book (a NO bid at x is a YES ask at 1 - x). `complementBook` gives the NO view of it.
 */
import { complementPrice, type Side } from "../src/core/amounts.js";
import type { Micros } from "../src/core/money.js";

export type { Side } from "../src/core/amounts.js";

/** Outcome index of YES / NO on a binary market (the order of `outcomeLabels`). */
export const YES = 0;
export const NO = 1;

/** One order a strategy wants resting on the book. */
export interface DesiredQuote {
  outcome: number;
  side: Side;
  /** Micros per share, on the 0.001 grid, inside [0.001, 0.999]. */
  price: Micros;
  /** Micro-shares, > 0. */
  size: Micros;
  postOnly: boolean;
  /** Ladder level, 0 = closest to the reference price. The reconciler places low levels first. */
  level?: number;
  /** Free label for logs and metrics (strategies put "bid" / "ask": the YES-side intent). */
  tag?: string;
  /**
   * True when filling this quote shrinks the wallet's exposure (selling shares it holds, or
   * buying the complement of a net position). Absent: the reconciler treats SELL as reducing.
   */
  reducesInventory?: boolean;
}

export interface BookLevel {
  price: Micros;
  size: Micros;
}

/** Bids best (highest) first, asks best (lowest) first. */
export interface BookView {
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
  lastTradePrice?: Micros;
  updatedAtMs: number;
}

/**
 * What the market's lifecycle allows (mapped from the 3.1 status and the trading window by the
 * engine): `pre_market` post-only quoting, `open` full matching, `pull` cancel everything and
 * quote nothing (paused, near closesAt, risk halt), `stopped` no longer tradeable.
 */
export type MarketPhase = "pre_market" | "open" | "pull" | "stopped";

/** A public trade on the quoted book; `side` is the taker's side, YES-denominated on binaries. */
export interface TradeView {
  price: Micros;
  size: Micros;
  side: Side;
  ts: number;
}

/** The wallet's holding of one outcome. `qty` is signed micro-shares; `avgCost` micros per share. */
export interface PositionView {
  outcome: number;
  qty: Micros;
  avgCost: Micros | null;
}

/** Everything the engine knows about one market at one instant, without strategy params. */
export interface StrategyInput {
  marketId: string;
  outcomeCount: number;
  phase: MarketPhase;
  book: BookView;
  /** Oldest first. */
  recentTrades: readonly TradeView[];
  /** One entry per held outcome; missing outcomes hold zero. */
  inventory: readonly PositionView[];
  nowMs: number;
  closesAtMs: number | null;
  timeToCloseMs: number | null;
  /** The market's taker fee rate (makers pay nothing, docs/spec-gaps.md). */
  feeTakerBps: number;
  /**
   * Outcome whose book `book` is. Default 0 (YES). On multi-outcome markets the engine runs the
   * strategy once per outcome with that outcome's book.
   */
  quoteOutcome?: number;
  /**
   * The neg-risk event group the market belongs to (its markets resolve together: one winner);
   * absent when it is in none. docs/strategies.md, "Event-group risk".
   */
  eventGroup?: EventGroupInput;
}

/** A sibling market of the quoted one in its neg-risk event group. */
export interface EventSibling {
  marketId: string;
  /** The market's label inside the event (groupItemTitle), or null. */
  label: string | null;
  /** Its YES book as last read (our own orders not taken out); undefined: not read yet. */
  book: BookView | undefined;
  /** This wallet's positions in it. */
  inventory: readonly PositionView[];
}

export interface EventGroupInput {
  eventId: string;
  /** The other binary neg-risk markets of the event the daemon follows, by market id. */
  siblings: readonly EventSibling[];
}

export interface StrategyContext<P = unknown, S = unknown> extends StrategyInput {
  params: P;
  /** The per-market state from the strategy's reducer, when it has one. */
  state?: S;
}

/** Signed quantity held of `outcome` (0 when absent). Duplicate entries are summed. */
export function positionQty(inventory: readonly PositionView[], outcome: number): Micros {
  let total = 0n;
  for (const p of inventory) if (p.outcome === outcome) total += p.qty;
  return total;
}

/**
 * Net exposure to `outcome`, in shares: on a binary market holding NO is being short YES, so
 * the net YES exposure is YES held minus NO held (a YES + NO pair merges back to collateral).
 */
export function netExposure(inventory: readonly PositionView[], outcome: number, outcomeCount: number): Micros {
  const own = positionQty(inventory, outcome);
  if (outcomeCount !== 2) return own;
  return own - positionQty(inventory, outcome === YES ? NO : YES);
}

/** The NO view of a YES book: NO bids are YES asks at 1 - p, NO asks are YES bids at 1 - p. */
export function complementBook(book: BookView): BookView {
  const flip = (l: BookLevel): BookLevel => ({ price: complementPrice(l.price), size: l.size });
  const out: BookView = {
    bids: book.asks.map(flip),
    asks: book.bids.map(flip),
    updatedAtMs: book.updatedAtMs,
  };
  if (book.lastTradePrice !== undefined) out.lastTradePrice = complementPrice(book.lastTradePrice);
  return out;
}
