/**
 * Shared fixtures of the quote-cycle tests (cycle.test.ts, controls/, adverse/): a binary market
 * `MKT` at `NOW`, open for a day, its books, live orders and the cycle's snapshot (YES book 0.45 / 0.55,
 * nothing live, no inventory, budget to spare, quoting allowed).
 */
import type { CycleSnapshot, EnginePhase, QuotedBook } from "../../../src/bot/quote/cycle.js";
import type { LiveOrder } from "../../../src/bot/quote/quotes.js";
import { RiskSnapshot } from "../../../src/bot/risk/exposure.js";
import { m } from "../risk/fixtures.js";

export const NOW = 1_700_000_000_000;
export const SYMBOL = "MKT";
export const OPEN_PHASE: EnginePhase = { phase: "open", reason: "open", closesAtMs: NOW + 86_400_000 };

/** One outcome's book, levels as [[price, size], ...] a side, read at NOW; `own` our orders in it. */
export function quotedBook(outcome: number, bids: [string, string][], asks: [string, string][], own: QuotedBook["own"] = []): QuotedBook {
  return {
    snapshot: {
      symbol: SYMBOL,
      outcome,
      view: { bids: bids.map(([p, q]) => ({ price: m(p), size: m(q) })), asks: asks.map(([p, q]) => ({ price: m(p), size: m(q) })), updatedAtMs: NOW },
      fetchedAtMs: NOW,
      sentSeq: 1,
    },
    own,
    trades: [],
  };
}

/** A resting post-only order of 10 YES shares, placed 10 s before NOW. */
export function liveOrder(id: string, side: "BUY" | "SELL", price: string, over: Partial<LiveOrder> = {}): LiveOrder {
  return { clientOrderId: id, orderId: `o-${id}`, outcome: 0, side, price: m(price), size: m("10"), remaining: m("10"), postOnly: true, createdAtMs: NOW - 10_000, state: "open", ...over };
}

/** The cycle's snapshot of MKT for wallet `walletName` (address 0xw); `over` replaces whole fields. */
export function cycleSnapshot(over: Partial<CycleSnapshot> = {}, walletName = "w0"): CycleSnapshot {
  return {
    symbol: SYMBOL,
    nowMs: NOW,
    market: { outcomeCount: 2, feeTakerBps: 100 },
    phase: OPEN_PHASE,
    books: new Map([[0, quotedBook(0, [["0.45", "100"]], [["0.55", "100"]])]]),
    mids: { 0: m("0.50"), 1: m("0.50") },
    live: [],
    inventory: [],
    budget: { cancels: 100, places: 100 },
    gate: { quote: true },
    exposure: new RiskSnapshot(),
    risk: {
      wallet: "0xw",
      walletName,
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
