/**
 * The marks of the report's unrealised PnL, read from the simulator once the daemon has shut
 * down (so our own quotes, all cancelled by then, do not move them), in bigint micros:
 *
 *   1. a market settled during the run (RESOLVED / VOIDED): each outcome's payout per share,
 *      numerator x 1 / sum of numerators, rounded down (what the platform pays);
 *   2. otherwise the book mid, (best bid + best ask) / 2, when the book has both sides and is not
 *      crossed; a binary market is marked from its YES book, NO at 1 - mid (as the daemon marks
 *      its own PnL, status.ts marksFrom);
 *   3. otherwise the last trade price of that book (binary NO: 1 - YES last);
 *   4. otherwise no mark: the position is counted in `unmarked`, its unrealised PnL left out.
 *
 * A market's outcomes are marked from one source: the first of 1-3 that prices every outcome.
 */
import { ONE, divRound, formatMicros, type Micros } from "../core/money.js";
import type { Marks } from "../bot/inventory.js";
import type { Simulator } from "../sim/simulator.js";
import type { MarkSource } from "./types.js";

export const MARK_METHOD =
  "after shutdown (our orders cancelled): settled markets at their payout per share (numerator / sum of numerators, rounded down); " +
  "other markets at the book mid (best bid + best ask) / 2, binary markets from the YES book with NO at 1 - mid; " +
  "a book without both sides at its last trade price; otherwise unmarked (left out of unrealised, counted in pnl.unmarked)";

export interface MarketMark {
  source: MarkSource;
  /** Per outcome; undefined when unmarked. */
  prices: (Micros | undefined)[];
}

function settlementMark(sim: Simulator, symbol: string, outcomeCount: number): MarketMark | undefined {
  const s = sim.settlements.get(symbol);
  if (s === undefined) return undefined;
  const den = s.payoutNumerators.reduce((a, b) => a + b, 0n);
  if (den <= 0n) return undefined;
  const prices = Array.from({ length: outcomeCount }, (_, o) => divRound((s.payoutNumerators[o] ?? 0n) * ONE, den, "floor"));
  const m = sim.market(symbol);
  const voided = m !== undefined && sim.platform.catalogue.status(m.id) === "VOIDED";
  return { source: voided ? "void" : "resolution", prices };
}

function bookMid(sim: Simulator, symbol: string, outcome: number): Micros | undefined {
  const b = sim.engine.book(symbol, outcome, 1);
  if (b.bestBid === null || b.bestAsk === null || b.bestBid >= b.bestAsk) return undefined;
  return (b.bestBid + b.bestAsk) / 2n;
}

function lastTrade(sim: Simulator, symbol: string, outcome: number): Micros | undefined {
  return sim.engine.book(symbol, outcome, 1).lastTradePrice ?? undefined;
}

function priced(sim: Simulator, symbol: string, outcomeCount: number, read: (sim: Simulator, symbol: string, outcome: number) => Micros | undefined): (Micros | undefined)[] {
  if (outcomeCount === 2) {
    const yes = read(sim, symbol, 0);
    return yes === undefined ? [undefined, undefined] : [yes, ONE - yes];
  }
  return Array.from({ length: outcomeCount }, (_, o) => read(sim, symbol, o));
}

/** The mark of one market (see the header for the rule). */
export function marketMark(sim: Simulator, symbol: string): MarketMark {
  const outcomeCount = sim.engine.market(symbol).outcomeCount;
  const settled = settlementMark(sim, symbol, outcomeCount);
  if (settled !== undefined) return settled;
  const mids = priced(sim, symbol, outcomeCount, bookMid);
  if (mids.every((p) => p !== undefined)) return { source: "book_mid", prices: mids };
  const last = priced(sim, symbol, outcomeCount, lastTrade);
  if (last.every((p) => p !== undefined)) return { source: "last_trade", prices: last };
  return { source: "none", prices: new Array<Micros | undefined>(outcomeCount).fill(undefined) };
}

/** The Marks function the daemon's Inventory.pnl takes, over precomputed market marks. */
export function marksOf(marks: ReadonlyMap<string, MarketMark>): Marks {
  return (marketId, outcome) => marks.get(marketId)?.prices[outcome];
}

export function formatMark(m: MarketMark): { source: MarkSource; prices: (string | null)[] } {
  return { source: m.source, prices: m.prices.map((p) => (p === undefined ? null : formatMicros(p))) };
}
