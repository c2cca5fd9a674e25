/**
 * The signed markout of one fill: how the mid moved after it, signed so that a positive markout is
 * good for us. For a fill at price p and the mid m(t + h) in effect h after it:
 *
 *   BUY:  m(t + h) - p        SELL:  p - m(t + h)        (micros per share, exact)
 *
 * One definition for the backtest report (src/backtest/markouts.ts re-exports it) and the live
 * tracker (markout-tracker.ts): the daemon cannot import src/backtest, so it lives here.
 */
import type { Side } from "../../../core/amounts.js";
import type { Micros } from "../../../core/money.js";

/** 1 s, 5 s, 30 s, 60 s, 5 min: the horizons of the report and of the live histograms. */
export const MARKOUT_HORIZONS_MS: readonly number[] = [1_000, 5_000, 30_000, 60_000, 300_000];

export type FillSide = Side;

/** The signed markout of one fill per share (micros): positive is good for us. */
export function markoutPerShare(side: FillSide, price: Micros, mid: Micros): Micros {
  return side === "BUY" ? mid - price : price - mid;
}
