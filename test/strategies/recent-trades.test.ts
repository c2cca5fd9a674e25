/** The public tape (`recentTrades`) as a reference price when the book has neither a mid nor a last trade. */
import { describe, expect, it } from "vitest";
import type { TradeView } from "../../src/bot/quote/quotes.js";
import { strategyNames } from "../../strategies/index.js";
import { BOOK, book, input, m, run, yesView } from "./helpers.js";

const TAPE: TradeView[] = [
  { price: m("0.30"), size: m("4"), side: "SELL", ts: 990_000 },
  { price: m("0.42"), size: m("2"), side: "BUY", ts: 995_000 },
];

/** Mid of the top bid and ask a strategy quotes (YES terms), in micros. */
function quotedMid(name: string, over: Parameters<typeof input>[0], params: Record<string, unknown> = {}): bigint | null {
  const v = yesView(run(name, { levels: 1, ...params }, input(over)).quotes);
  const bid = v.bids[0]?.price;
  const ask = v.asks[0]?.price;
  return bid === undefined || ask === undefined ? null : (bid + ask) / 2n;
}

describe.each(strategyNames())("%s with an empty book", (name) => {
  it("quotes around the newest public trade", () => {
    expect(quotedMid(name, { book: book([], []), recentTrades: TAPE })).toBe(m("0.42"));
  });

  it("prefers the tape to fallbackPrice, and uses fallbackPrice without a tape", () => {
    expect(quotedMid(name, { book: book([], []), recentTrades: TAPE }, { fallbackPrice: "0.7" })).toBe(m("0.42"));
    expect(quotedMid(name, { book: book([], []), recentTrades: [] }, { fallbackPrice: "0.7" })).toBe(m("0.7"));
    expect(quotedMid(name, { book: book([], []), recentTrades: [] })).toBeNull();
  });

  it("prefers the book's own last trade, and the mid, to the tape", () => {
    expect(quotedMid(name, { book: book([], [], "0.61"), recentTrades: TAPE })).toBe(m("0.61"));
    expect(quotedMid(name, { book: BOOK, recentTrades: TAPE })).toBe(m("0.55"));
  });
});
