/** Shared fixtures of the quote-control tests: a snapshot of a binary market (YES book 0.45 / 0.55) and a two-sided strategy. */
import type { StrategyRunner } from "../../../../strategies/registry.js";
import type { CyclePolicy, CycleSnapshot, EnginePhase, QuotedBook } from "../../../../src/bot/quote/cycle.js";
import type { QuoteControl } from "../../../../src/bot/quote/controls/index.js";
import type { DesiredQuote, LiveOrder } from "../../../../src/bot/quote/quotes.js";
import { RiskSnapshot } from "../../../../src/bot/risk/exposure.js";
import type { MarketSignals, SignalFill } from "../../../../src/bot/quote/signals.js";
import { limits, m } from "../../risk/fixtures.js";

export const NOW = 1_700_000_000_000;
export const SYMBOL = "MKT";
export const OPEN_PHASE: EnginePhase = { phase: "open", reason: "open", closesAtMs: NOW + 86_400_000 };

export function quote(side: "BUY" | "SELL", price: string, over: Partial<DesiredQuote> = {}): DesiredQuote {
  return { outcome: 0, side, price: m(price), size: m("10"), postOnly: true, level: 0, ...over };
}

export function liveOrder(id: string, side: "BUY" | "SELL", price: string, over: Partial<LiveOrder> = {}): LiveOrder {
  return { clientOrderId: id, orderId: `o-${id}`, outcome: 0, side, price: m(price), size: m("10"), remaining: m("10"), postOnly: true, createdAtMs: NOW - 10_000, state: "open", ...over };
}

export function fill(outcome: number, side: "BUY" | "SELL", ts: number, price = "0.45"): SignalFill {
  return { outcome, side, price: m(price), size: m("5"), role: "maker", ts };
}

export function signals(...lastFills: SignalFill[]): MarketSignals {
  return { lastFills: [...lastFills].sort((a, b) => b.ts - a.ts) };
}

/** A YES book (outcome 0) with one level a side, or several: [[price, size], ...]. */
export function yesBook(bids: [string, string][], asks: [string, string][]): QuotedBook {
  return {
    snapshot: {
      symbol: SYMBOL,
      outcome: 0,
      view: { bids: bids.map(([p, q]) => ({ price: m(p), size: m(q) })), asks: asks.map(([p, q]) => ({ price: m(p), size: m(q) })), updatedAtMs: NOW },
      fetchedAtMs: NOW,
      sentSeq: 1,
    },
    own: [],
    trades: [],
  };
}

export function cycleSnapshot(over: Partial<CycleSnapshot> = {}): CycleSnapshot {
  return {
    symbol: SYMBOL,
    nowMs: NOW,
    market: { outcomeCount: 2, feeTakerBps: 100 },
    phase: OPEN_PHASE,
    books: new Map([[0, yesBook([["0.45", "100"]], [["0.55", "100"]])]]),
    mids: { 0: m("0.50"), 1: m("0.50") },
    live: [],
    inventory: [],
    budget: { cancels: 100, places: 100 },
    gate: { quote: true },
    exposure: new RiskSnapshot(),
    risk: {
      wallet: "0xw",
      walletName: "w0",
      marketId: SYMBOL,
      outcomeCount: 2,
      nowMs: NOW,
      phase: "open",
      phaseReason: "open",
      book: undefined,
      dataAgeMs: 0,
      inventory: [],
      live: [],
      stream: { subscribed: true, downSinceMs: undefined },
      engine: undefined as never,
    },
    ...over,
  };
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
