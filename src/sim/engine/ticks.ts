/**
 * The price grid as integer ticks (tick t is price t * 0.001, docs/spec-gaps.md, t in 1..999) and
 * the amount bounds that keep every amount the engine stores inside int64 (BigInt64Array).
 */
import { PRICE_TICK } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";

/** Tick of price 1.0; a NO price p sits on the YES book at TICK_ONE - p. */
export const TICK_ONE = 1000;
export const MIN_TICK = 1;
export const MAX_TICK = 999;

/** TICK_BIG[t] === BigInt(t). */
export const TICK_BIG: readonly bigint[] = Array.from({ length: TICK_ONE + 1 }, (_, t) => BigInt(t));
/** PRICE_OF_TICK[t] === price of tick t in micros. */
export const PRICE_OF_TICK: readonly Micros[] = Array.from({ length: TICK_ONE + 1 }, (_, t) => BigInt(t) * PRICE_TICK);

/**
 * Largest order quantity: 1,000,000 shares. With it a price level overflows int64 only past
 * 9.2 million maximum-size orders, and an order's exact notional (tick * qty) stays below 1e15.
 */
export const MAX_ORDER_QTY: Micros = 1_000_000_000_000n;
/**
 * Ceiling on deposits minus withdrawals over the whole ledger (about 4.6e12 tokens). Every balance,
 * lock, position and complete-set count is bounded by it, so none can leave int64.
 */
export const MAX_TOTAL_DEPOSITS: Micros = 1n << 62n;

const TICK_N = Number(PRICE_TICK);
const MAX_PRICE_N = Number(PRICE_OF_TICK[MAX_TICK]!);

/** Tick of a price in micros, or -1 when off the grid or outside [0.001, 0.999]. */
export function tickOf(price: Micros): number {
  if (typeof price === "bigint") {
    // One conversion instead of a bigint remainder and quotient: Number() is exact on the grid's
    // range and monotone outside it, so the range test on the double decides as on the bigint.
    const n = Number(price);
    if (!(n >= TICK_N && n <= MAX_PRICE_N)) return -1;
    return n % TICK_N === 0 ? n / TICK_N : -1;
  }
  if (price < PRICE_TICK || price > PRICE_OF_TICK[MAX_TICK]!) return -1;
  if (price % PRICE_TICK !== 0n) return -1;
  return Number(price / PRICE_TICK);
}
