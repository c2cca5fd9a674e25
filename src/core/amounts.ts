/**
 * Signed-order amounts and the taker fee curve (spec 2.6, 2.12).
 *
 * Order amounts (all in micro-units, 6 decimals):
 *   BUY : makerAmount = ceil(price * qty / 1e6)   (settlement token paid; CEIL is mandatory,
 *                                                  a floor-rounded value is refused with
 *                                                  `order_signed_with_floor_notional`)
 *         takerAmount = qty                       (outcome shares received)
 *   SELL: makerAmount = qty                       (outcome shares given, exact)
 *         takerAmount = floor(price * qty / 1e6)  (settlement token received; FLOOR so the
 *                                                  signed minimum never exceeds what the
 *                                                  price allows; see docs/spec-gaps.md)
 *
 * Taker fee (charged on every fill to the taker, in the settlement token, at the fill price):
 *   fee = ceil(feeTakerBps * p * (1 - p) * qty / 10_000)
 * with p the fill price in whole units. At p = 0.5 the fee per share is feeTakerBps / 4 / 10000,
 * the peak the spec gives; it falls to zero toward 0 and 1. Rounded up to the micro so a fee is
 * never under-counted (see docs/spec-gaps.md).
 */
import { MoneyError, ONE, SCALE, divRound, notional, type Micros } from "./money.js";

export type Side = "BUY" | "SELL";

/** The signed-order `side` integer: BUY = 0, SELL = 1 (see docs/spec-gaps.md). */
export const SIDE_CODE: Readonly<Record<Side, 0 | 1>> = { BUY: 0, SELL: 1 };
export function sideFromCode(code: number): Side {
  if (code === 0) return "BUY";
  if (code === 1) return "SELL";
  throw new MoneyError(`side must be 0 (BUY) or 1 (SELL), got ${code}`);
}

/** Price grid: prices are multiples of 0.001 strictly between 0 and 1 (docs/spec-gaps.md). */
export const PRICE_TICK: Micros = 1_000n;
export const MIN_PRICE: Micros = PRICE_TICK;
export const MAX_PRICE: Micros = ONE - PRICE_TICK;
/** Number of price levels on the grid (0.001 .. 0.999). */
export const PRICE_LEVELS = Number((ONE - PRICE_TICK) / PRICE_TICK); // 999

/** The signed `feeRateBps` may not exceed this (spec 8.3). */
export const MAX_FEE_RATE_BPS = 1000;

export function isValidPrice(price: Micros): boolean {
  return price >= MIN_PRICE && price <= MAX_PRICE && price % PRICE_TICK === 0n;
}

export function assertValidPrice(price: Micros): void {
  if (!isValidPrice(price)) {
    throw new MoneyError(`price must be a multiple of 0.001 in [0.001, 0.999], got ${price} micros`);
  }
}

export function assertValidQuantity(qty: Micros): void {
  if (qty <= 0n) throw new MoneyError(`quantity must be positive, got ${qty} micros`);
}

export interface OrderAmounts {
  makerAmount: Micros;
  takerAmount: Micros;
}

/** The makerAmount/takerAmount pair a correctly signed order carries. */
export function orderAmounts(side: Side, price: Micros, qty: Micros): OrderAmounts {
  assertValidPrice(price);
  assertValidQuantity(qty);
  return side === "BUY"
    ? { makerAmount: notional(price, qty, "ceil"), takerAmount: qty }
    : { makerAmount: qty, takerAmount: notional(price, qty, "floor") };
}

/** The floor-rounded BUY makerAmount that `order_signed_with_floor_notional` refuses. */
export function floorBuyMakerAmount(price: Micros, qty: Micros): Micros {
  return notional(price, qty, "floor");
}

/** Quantity of shares an order is for, read back from its amounts. */
export function quantityOf(side: Side, amounts: OrderAmounts): Micros {
  return side === "BUY" ? amounts.takerAmount : amounts.makerAmount;
}

/** Taker fee in settlement micros for a fill of `qty` at `price` (see the header). */
export function takerFee(price: Micros, qty: Micros, feeRateBps: number): Micros {
  if (!Number.isInteger(feeRateBps) || feeRateBps < 0) throw new MoneyError(`bad feeRateBps ${feeRateBps}`);
  // Outside [0, 1] the curve p * (1 - p) turns negative: a fee must never become a rebate.
  if (price < 0n || price > ONE) throw new MoneyError(`fee price must be in [0, 1], got ${price} micros`);
  if (qty < 0n) throw new MoneyError(`fee quantity must not be negative, got ${qty} micros`);
  if (feeRateBps === 0 || qty === 0n) return 0n;
  const num = BigInt(feeRateBps) * price * (ONE - price) * qty;
  return divRound(num, 10_000n * SCALE * SCALE, "ceil");
}

/** The largest fee a fill of `qty` can cost at any price (the peak at 0.5): for fund locks. */
export function maxTakerFee(qty: Micros, feeRateBps: number): Micros {
  return takerFee(ONE / 2n, qty, feeRateBps);
}

/** The complementary price on a binary book: NO at p is YES at 1 - p. */
export function complementPrice(price: Micros): Micros {
  return ONE - price;
}
