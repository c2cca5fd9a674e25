/**
 * The marks of the report's unrealised PnL, read from the simulator once the daemon has shut
 * down (so our own quotes, all cancelled by then, do not move them), in bigint micros:
 *
 *   1. a market settled during the run (RESOLVED / VOIDED): its payout. Each position is valued at
 *      exactly what the platform pays it, qty x numerator / sum of numerators rounded down per
 *      position (figures.ts); the per-share price shown is that rule for one share;
 *   2. otherwise, per outcome, the book mid, (best bid + best ask) / 2, when the book has both
 *      sides and is not crossed; a binary market is marked from its YES book, NO at 1 - mid (as the
 *      daemon marks its own PnL, status.ts marksFrom);
 *   3. otherwise, per outcome, the last trade price of that book (binary NO: 1 - YES last);
 *   4. otherwise no mark: the position is counted in `unmarked`, its unrealised PnL left out.
 *
 * Each outcome falls back on its own, so one outcome without a book does not unmark the others.
 *
 * Age. A book mid describes the book when it was last refreshed: at the report time for a market
 * still trading (the flow keeps its book around the fair value), otherwise when the market stopped
 * trading (a CLOSED market's book is hours old if it closed hours ago). A last trade is as old as
 * that trade. An unsettled market's mark older than STALE_MARK_MS at the end of trading is stale.
 */
import { ONE, divRound, formatMicros, type Micros } from "../core/money.js";
import type { Marks } from "../bot/fills/inventory.js";
import type { Simulator } from "../sim/simulator.js";
import type { MarkReport, MarkSource } from "./types.js";

export const MARK_METHOD =
  "after shutdown (our orders cancelled): settled markets at their payout (each position qty x numerator / sum of numerators, rounded down, as the platform pays); " +
  "other markets per outcome at the book mid (best bid + best ask) / 2, binary markets from the YES book with NO at 1 - mid; " +
  "an outcome whose book lacks a side at its last trade price; otherwise unmarked (left out of unrealised, counted in pnl.unmarked). " +
  "mark.asOf is the time the price describes (a closed market's book: when it stopped trading); stale: an unsettled mark older than 5 minutes at the end of trading";

/** An unsettled market's mark older than this at the end of trading is flagged stale. */
export const STALE_MARK_MS = 5 * 60_000;

export interface MarketMark {
  sources: MarkSource[];
  /** Per outcome, micros per share; undefined when unmarked. */
  prices: (Micros | undefined)[];
  /** Per outcome, the virtual time the price describes. */
  asOfMs: (number | undefined)[];
  /** A settled market's payout rule (positions valued per position, exactly). */
  settlement?: { nums: readonly bigint[]; den: bigint };
}

/** Where the report reads the simulator, and when. */
export interface MarkContext {
  sim: Simulator;
  /** Virtual time the marks are read (the end of shutdown). */
  reportAtMs: number;
  /** Last trade time per market|outcome (binary markets under outcome 0), from the simulator's trade list. */
  lastTradeAt: ReadonlyMap<string, number>;
}

/** Last trade time per market|outcome over the simulator's whole trade list (any wallet). */
export function lastTradeTimes(sim: Simulator): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of sim.engine.ledger.trades()) {
    const binary = sim.engine.market(t.marketId).outcomeCount === 2;
    const k = `${t.marketId}|${binary ? 0 : t.outcome}`;
    if (t.createdAtMs > (out.get(k) ?? -Infinity)) out.set(k, t.createdAtMs);
  }
  return out;
}

function settlementMark(ctx: MarkContext, symbol: string, outcomeCount: number): MarketMark | undefined {
  const s = ctx.sim.settlements.get(symbol);
  if (s === undefined) return undefined;
  const nums = s.payoutNumerators;
  const den = nums.reduce((a, b) => a + b, 0n);
  if (den <= 0n) return undefined;
  const m = ctx.sim.market(symbol);
  const st = m === undefined ? undefined : ctx.sim.platform.catalogue.lifecycle(m.id);
  const voided = st?.status === "VOIDED";
  const at = (voided ? st?.voidedAtMs : st?.resolvedAtMs) ?? ctx.reportAtMs;
  return {
    sources: new Array<MarkSource>(outcomeCount).fill(voided ? "void" : "resolution"),
    prices: Array.from({ length: outcomeCount }, (_, o) => divRound((nums[o] ?? 0n) * ONE, den, "floor")),
    asOfMs: new Array<number>(outcomeCount).fill(at),
    settlement: { nums, den },
  };
}

/** When the book was last refreshed: now while trading, else when trading stopped. */
function bookAsOf(ctx: MarkContext, symbol: string): number {
  const m = ctx.sim.market(symbol);
  if (m === undefined) return ctx.reportAtMs;
  const st = ctx.sim.platform.catalogue.lifecycle(m.id);
  if (st.status === "OPEN" || st.status === "PRE_MARKET") return ctx.reportAtMs;
  if (st.status === "PAUSED" && st.pausedAtMs !== null) return st.pausedAtMs;
  // CLOSED and what follows it keep the close time; other holds entered from trading, their entry.
  return st.closedAtMs ?? st.updatedAtMs;
}

function bookMid(sim: Simulator, symbol: string, outcome: number): Micros | undefined {
  const b = sim.engine.book(symbol, outcome, 1);
  if (b.bestBid === null || b.bestAsk === null || b.bestBid >= b.bestAsk) return undefined;
  return (b.bestBid + b.bestAsk) / 2n;
}

function lastTrade(sim: Simulator, symbol: string, outcome: number): Micros | undefined {
  return sim.engine.book(symbol, outcome, 1).lastTradePrice ?? undefined;
}

/** The mark of one market (see the header for the rule). */
export function marketMark(ctx: MarkContext, symbol: string): MarketMark {
  const { sim } = ctx;
  const outcomeCount = sim.engine.market(symbol).outcomeCount;
  const settled = settlementMark(ctx, symbol, outcomeCount);
  if (settled !== undefined) return settled;
  const bookAt = bookAsOf(ctx, symbol);
  const one = (book: number): { source: MarkSource; price: Micros | undefined; at: number | undefined } => {
    const mid = bookMid(sim, symbol, book);
    if (mid !== undefined) return { source: "book_mid", price: mid, at: bookAt };
    const last = lastTrade(sim, symbol, book);
    if (last !== undefined) return { source: "last_trade", price: last, at: ctx.lastTradeAt.get(`${symbol}|${book}`) ?? bookAt };
    return { source: "none", price: undefined, at: undefined };
  };
  if (outcomeCount === 2) {
    const yes = one(0);
    return {
      sources: [yes.source, yes.source],
      prices: yes.price === undefined ? [undefined, undefined] : [yes.price, ONE - yes.price],
      asOfMs: [yes.at, yes.at],
    };
  }
  const per = Array.from({ length: outcomeCount }, (_, o) => one(o));
  return { sources: per.map((p) => p.source), prices: per.map((p) => p.price), asOfMs: per.map((p) => p.at) };
}

/** The Marks function the daemon's Inventory.pnl takes, over precomputed market marks. */
export function marksOf(marks: ReadonlyMap<string, MarketMark>): Marks {
  return (marketId, outcome) => marks.get(marketId)?.prices[outcome];
}

/** The oldest time among the priced outcomes; undefined when none is priced. */
export function oldestAsOf(m: MarketMark): number | undefined {
  let oldest: number | undefined;
  for (const t of m.asOfMs) if (t !== undefined && (oldest === undefined || t < oldest)) oldest = t;
  return oldest;
}

export function isSettledMark(m: MarketMark): boolean {
  return m.settlement !== undefined;
}

export function formatMark(m: MarketMark, endMs: number): MarkReport {
  const first = m.sources[0] ?? "none";
  const asOf = oldestAsOf(m);
  const ageMs = asOf === undefined ? null : Math.max(0, endMs - asOf);
  return {
    source: m.sources.every((s) => s === first) ? first : "mixed",
    sources: [...m.sources],
    prices: m.prices.map((p) => (p === undefined ? null : formatMicros(p))),
    asOf: asOf === undefined ? null : new Date(asOf).toISOString(),
    ageMs,
    stale: !isSettledMark(m) && ageMs !== null && ageMs > STALE_MARK_MS,
  };
}
