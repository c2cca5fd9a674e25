/**
 * Pricing helpers shared by the strategies: reference prices, snapping model prices onto the
 * 0.001 grid, clamping into the grid, a band and the post-only limit, and a volatility estimate
 * from a mid-price history kept by a pure reducer.
 *
 * Model math runs on JS numbers in probability space (0..1). A number becomes a price only
 * through `snapBidDown` / `snapAskUp`: bids round DOWN and asks round UP, so rounding never makes
 * a quote more aggressive than the model asked for.
 */
import { MAX_PRICE, MIN_PRICE, PRICE_TICK } from "../src/core/amounts.js";
import { maxMicros, minMicros, type Micros } from "../src/core/money.js";
import type { BookView, TradeView } from "./contract.js";

export const TICK: Micros = PRICE_TICK;
/** One tick in probability units. */
export const TICK_PROB = 0.001;
const TICKS_PER_UNIT = 1000;
/**
 * Slack (in ticks) when flooring or ceiling a float: 0.549 * 1000 is 548.9999999999999 in
 * binary floating point and must still snap to 0.549. Far below any meaningful price move.
 */
const SNAP_EPSILON_TICKS = 1e-7;

export function toProb(price: Micros): number {
  return Number(price) / 1e6;
}

export function bestBid(book: BookView): Micros | null {
  return book.bids[0]?.price ?? null;
}

export function bestAsk(book: BookView): Micros | null {
  return book.asks[0]?.price ?? null;
}

/** Mid of the best bid and ask, or null unless the book is two-sided and not crossed. */
export function midPrice(book: BookView): number | null {
  const bid = bestBid(book);
  const ask = bestAsk(book);
  if (bid === null || ask === null || bid >= ask) return null;
  return (toProb(bid) + toProb(ask)) / 2;
}

/**
 * Size-weighted mid: leans toward the side with less size (that side is likelier to be taken
 * out next). Null when the book is not two-sided, or a side has no size.
 */
export function microPrice(book: BookView): number | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (!bid || !ask || bid.price >= ask.price) return null;
  const bidSize = Number(bid.size);
  const askSize = Number(ask.size);
  if (!(bidSize > 0) || !(askSize > 0)) return midPrice(book);
  return (toProb(bid.price) * askSize + toProb(ask.price) * bidSize) / (bidSize + askSize);
}

export type ReferenceKind = "mid" | "microprice";

/**
 * The price to quote around: mid (or microprice), else the book's last trade, else the newest of
 * `recentTrades` (the public tape, oldest first), else `fallback`.
 */
export function referencePrice(book: BookView, kind: ReferenceKind, recentTrades: readonly TradeView[] = [], fallback?: Micros): number | null {
  const fromBook = kind === "microprice" ? microPrice(book) : midPrice(book);
  if (fromBook !== null) return fromBook;
  if (book.lastTradePrice !== undefined) return toProb(book.lastTradePrice);
  const newest = recentTrades[recentTrades.length - 1];
  if (newest !== undefined) return toProb(newest.price);
  return fallback === undefined ? null : toProb(fallback);
}

/**
 * The price a volatility history records this cycle: the book's mid (or microprice), else the
 * newest public trade only when it printed after the last trade the history took (both platform
 * times: the engine's clock may differ), else nothing. A price carried over from an old trade (or
 * a constant fallback) would be sampled again and again and read as a calm market.
 */
export function historyPrice(book: BookView, kind: ReferenceKind, recentTrades: readonly TradeView[], prev: MidHistory | undefined): { price: number | null; tradeTs?: number } {
  const fromBook = kind === "microprice" ? microPrice(book) : midPrice(book);
  const newest = recentTrades[recentTrades.length - 1];
  // A trade printed while the book priced the history is already in it (through the book).
  if (fromBook !== null) return newest === undefined ? { price: fromBook } : { price: fromBook, tradeTs: newest.ts };
  if (newest !== undefined && (prev?.lastTradeTs === undefined || newest.ts > prev.lastTradeTs)) return { price: toProb(newest.price), tradeTs: newest.ts };
  return { price: null };
}

/** The reducer step of the volatility strategies: `recordMid` of `historyPrice`, remembering the trade taken. */
export function recordHistory(
  prev: MidHistory | undefined,
  nowMs: number,
  taken: { price: number | null; tradeTs?: number },
  windowMs: number,
  maxSamples: number,
): MidHistory {
  const next = recordMid(prev, nowMs, taken.price, windowMs, maxSamples);
  const lastTradeTs = taken.tradeTs ?? prev?.lastTradeTs;
  return lastTradeTs === undefined ? next : { ...next, lastTradeTs };
}

/** A probability to a grid price rounded DOWN (bids). Null for NaN/Infinity. Not yet clamped. */
export function snapBidDown(p: number): Micros | null {
  if (!Number.isFinite(p)) return null;
  return BigInt(Math.floor(p * TICKS_PER_UNIT + SNAP_EPSILON_TICKS)) * TICK;
}

/** A probability to a grid price rounded UP (asks). Null for NaN/Infinity. Not yet clamped. */
export function snapAskUp(p: number): Micros | null {
  if (!Number.isFinite(p)) return null;
  return BigInt(Math.ceil(p * TICKS_PER_UNIT - SNAP_EPSILON_TICKS)) * TICK;
}

export interface ClampOptions {
  /** Allowed YES prices (inclusive). Intersected with [0.001, 0.999]. */
  band: { min: Micros; max: Micros };
  postOnly: boolean;
  book: BookView;
}

/**
 * Clamp a grid bid in the safe direction: down to the band's top and, when post-only, to one
 * tick under the best ask (so it never crosses). A bid that ends below the band (or 0.001) is
 * not quoted: raising it would buy higher than the model wants. Null = no bid.
 */
export function clampBid(bid: Micros, opts: ClampOptions): Micros | null {
  let p = minMicros(bid, minMicros(opts.band.max, MAX_PRICE));
  const ask = bestAsk(opts.book);
  if (opts.postOnly && ask !== null) p = minMicros(p, ask - TICK);
  return p < maxMicros(opts.band.min, MIN_PRICE) ? null : p;
}

/** The mirror of clampBid: up to the band's bottom and one tick over the best bid. Null = no ask. */
export function clampAsk(ask: Micros, opts: ClampOptions): Micros | null {
  let p = maxMicros(ask, maxMicros(opts.band.min, MIN_PRICE));
  const bid = bestBid(opts.book);
  if (opts.postOnly && bid !== null) p = maxMicros(p, bid + TICK);
  return p > minMicros(opts.band.max, MAX_PRICE) ? null : p;
}

// ---- volatility from a mid-price history ------------------------------------------------------

export interface MidSample {
  ts: number;
  mid: number;
}

/** Reducer state: reference prices seen, oldest first, inside a sliding window. */
export interface MidHistory {
  samples: readonly MidSample[];
  /** Platform time of the newest public trade taken as a sample (one-sided books). */
  lastTradeTs?: number;
}

/**
 * Pure reducer step: append (ts, mid) and drop samples older than `windowMs` or beyond
 * `maxSamples`. A sample at the same ts as the last one replaces it; an older ts (a clock that
 * went backwards) is ignored. A null mid (empty book) leaves the history as it is, except for
 * expiring old samples.
 */
export function recordMid(
  prev: MidHistory | undefined,
  ts: number,
  mid: number | null,
  windowMs: number,
  maxSamples: number,
): MidHistory {
  const kept = (prev?.samples ?? []).filter((s) => s.ts >= ts - windowMs && s.ts <= ts);
  if (mid !== null && Number.isFinite(mid)) {
    const last = kept[kept.length - 1];
    if (last && last.ts === ts) kept[kept.length - 1] = { ts, mid };
    else kept.push({ ts, mid });
  }
  return { samples: kept.length > maxSamples ? kept.slice(kept.length - maxSamples) : kept };
}

/**
 * Realized variance of the mid per millisecond: sum of squared changes over elapsed time. It
 * does not depend on how often the engine samples (more samples, smaller squared moves), which
 * matters because cycles are irregular. Null with fewer than two samples or no elapsed time.
 */
export function realizedVariancePerMs(samples: readonly MidSample[]): number | null {
  if (samples.length < 2) return null;
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const elapsed = last.ts - first.ts;
  if (!(elapsed > 0)) return null;
  let sum = 0;
  for (let i = 1; i < samples.length; i++) {
    const d = samples[i]!.mid - samples[i - 1]!.mid;
    sum += d * d;
  }
  return sum / elapsed;
}

/** Volatility of the mid (probability units) over a horizon of `unitMs`: sqrt(variance * unitMs). */
export function volatility(samples: readonly MidSample[], unitMs: number): number | null {
  const v = realizedVariancePerMs(samples);
  return v === null ? null : Math.sqrt(v * unitMs);
}
