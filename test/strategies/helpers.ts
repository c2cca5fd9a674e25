/** Context builders and a YES-space view of quotes for the strategy tests. */
import { complementPrice } from "../../src/core/amounts.js";
import { parseMicros, type Micros } from "../../src/core/money.js";
import type { BookView, DesiredQuote, PositionView, StrategyInput } from "../../src/bot/quote/quotes.js";
import { createStrategyRunner, type StepResult } from "../../strategies/index.js";

export const m = (s: string): Micros => parseMicros(s);

/** A book from [price, size] decimal pairs, best first. */
export function book(bids: [string, string][], asks: [string, string][], last?: string): BookView {
  const b: BookView = {
    bids: bids.map(([p, s]) => ({ price: m(p), size: m(s) })),
    asks: asks.map(([p, s]) => ({ price: m(p), size: m(s) })),
    updatedAtMs: 1_000,
  };
  if (last !== undefined) b.lastTradePrice = m(last);
  return b;
}

export const BOOK = book([["0.50", "100"]], [["0.60", "100"]]); // mid 0.55, 100 ticks wide

export function input(over: Partial<StrategyInput> = {}): StrategyInput {
  return {
    marketId: "MKT",
    outcomeCount: 2,
    phase: "open",
    book: BOOK,
    recentTrades: [],
    inventory: [],
    nowMs: 1_000_000,
    closesAtMs: null,
    timeToCloseMs: null,
    feeTakerBps: 100,
    ...over,
  };
}

export function yes(qty: string): PositionView[] {
  return [{ outcome: 0, qty: m(qty), avgCost: m("0.5") }];
}
export function no(qty: string): PositionView[] {
  return [{ outcome: 1, qty: m(qty), avgCost: m("0.5") }];
}

export function run(name: string, params: unknown, inp: StrategyInput, state?: unknown): StepResult {
  return createStrategyRunner(name, params).step(inp, state);
}

/** Run a strategy over a sequence of books (one per second) and return the last step. */
export function runSeries(name: string, params: unknown, books: BookView[], last: Partial<StrategyInput> = {}): StepResult {
  const runner = createStrategyRunner(name, params);
  let state: unknown;
  let result: StepResult = { quotes: [], state: undefined };
  books.forEach((b, i) => {
    const isLast = i === books.length - 1;
    result = runner.step(input({ book: b, nowMs: 1_000_000 + i * 1000, ...(isLast ? last : {}) }), state);
    state = result.state;
  });
  return result;
}

export interface YesLevel {
  price: Micros;
  size: Micros;
}
/**
 * YES-space view: BUY YES @ p and SELL NO @ 1-p are YES bids at p; SELL YES @ p and
 * BUY NO @ 1-p are YES asks at p. Sizes of the same price summed. Best first.
 */
export function yesView(quotes: DesiredQuote[]): { bids: YesLevel[]; asks: YesLevel[] } {
  const bids = new Map<Micros, Micros>();
  const asks = new Map<Micros, Micros>();
  for (const q of quotes) {
    const isYes = q.outcome === 0;
    const price = isYes ? q.price : complementPrice(q.price);
    const isBid = (q.side === "BUY") === isYes;
    const map = isBid ? bids : asks;
    map.set(price, (map.get(price) ?? 0n) + q.size);
  }
  const list = (mp: Map<Micros, Micros>, desc: boolean): YesLevel[] =>
    [...mp.entries()]
      .map(([price, size]) => ({ price, size }))
      .sort((a, b) => (desc ? Number(b.price - a.price) : Number(a.price - b.price)));
  return { bids: list(bids, true), asks: list(asks, false) };
}

export function topBid(quotes: DesiredQuote[]): Micros | undefined {
  return yesView(quotes).bids[0]?.price;
}
export function topAsk(quotes: DesiredQuote[]): Micros | undefined {
  return yesView(quotes).asks[0]?.price;
}
