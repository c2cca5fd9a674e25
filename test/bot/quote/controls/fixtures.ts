/** Shared fixtures of the quote-control tests: the quote cycle's (../fixtures.ts: a snapshot of a binary market, YES book 0.45 / 0.55), quotes, fills and a two-sided strategy. */
import type { StrategyRunner } from "../../../../strategies/registry.js";
import type { CyclePolicy, QuotedBook } from "../../../../src/bot/quote/cycle.js";
import type { QuoteControl } from "../../../../src/bot/quote/controls/index.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import type { MarketSignals, SignalFill } from "../../../../src/bot/quote/signals.js";
import { limits, m } from "../../risk/fixtures.js";
import { quotedBook } from "../fixtures.js";

export { NOW, SYMBOL, OPEN_PHASE, liveOrder, cycleSnapshot } from "../fixtures.js";

export function quote(side: "BUY" | "SELL", price: string, over: Partial<DesiredQuote> = {}): DesiredQuote {
  return { outcome: 0, side, price: m(price), size: m("10"), postOnly: true, level: 0, ...over };
}

export function fill(outcome: number, side: "BUY" | "SELL", ts: number, price = "0.45"): SignalFill {
  return { outcome, side, price: m(price), size: m("5"), role: "maker", ts };
}

export function signals(...lastFills: SignalFill[]): MarketSignals {
  return { lastFills: [...lastFills].sort((a, b) => b.ts - a.ts) };
}

/** A YES book (outcome 0) with one level a side, or several: [[price, size], ...]. */
export function yesBook(bids: [string, string][], asks: [string, string][]): QuotedBook {
  return quotedBook(0, bids, asks);
}

/** Joins the best bid (BUY YES) and the best ask as a NO bid at the complement (BUY NO), 10 shares each. */
export function twoSidedStrategy(): StrategyRunner {
  return {
    name: "two-sided",
    params: {},
    step(input) {
      const bid = input.book.bids[0]?.price ?? m("0.40");
      const ask = input.book.asks[0]?.price ?? m("0.60");
      return {
        quotes: [
          { outcome: 0, side: "BUY", price: bid, size: m("10"), postOnly: true, level: 0, tag: "bid" },
          { outcome: 1, side: "BUY", price: m("1") - ask, size: m("10"), postOnly: true, level: 0, tag: "ask" },
        ],
        state: undefined,
      };
    },
  };
}

export function cyclePolicy(controls: readonly QuoteControl[], strategy: StrategyRunner = twoSidedStrategy()): CyclePolicy {
  return {
    strategy,
    quoting: { priceToleranceTicks: 0, sizeTolerance: 0.1, maxOrderAgeMs: 600_000 },
    limits: limits(),
    tuning: { minQuoteSize: m("1") },
    controls,
  };
}
