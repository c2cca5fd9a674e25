/**
 * What a set of fills adds up to: one accumulator for every tally of fills in the package. The fill
 * ledger's checkpoint (fill-checkpoint.ts) folds compacted fills into it, the full-engine report
 * (backtest/figures.ts) sums a wallet's fills on a market with it, and the fast engine's and paper
 * trading's reports (backtest/market-figures.ts) count their fills with it. Micro-exact: notionals
 * are kept as price x quantity (micros x micro-shares) and rounded only where a report formats them.
 */
import type { Micros } from "../../core/money.js";
import type { Fill } from "./fill-types.js";

/** What a set of fills adds up to. Notionals are exact (micro²). */
export interface FillTotals {
  fills: number;
  maker: number;
  taker: number;
  unknownRole: number;
  /** Micro-shares bought / sold. */
  bought: Micros;
  sold: Micros;
  /** sum(price x qty) of the BUY / SELL fills, micros x micro-shares. */
  buyNotional2: bigint;
  sellNotional2: bigint;
  fees: Micros;
}

/** The part of a fill a tally reads. */
export type TalliedFill = Pick<Fill, "role" | "side" | "qty" | "price" | "fee">;

export function emptyTotals(): FillTotals {
  return { fills: 0, maker: 0, taker: 0, unknownRole: 0, bought: 0n, sold: 0n, buyNotional2: 0n, sellNotional2: 0n, fees: 0n };
}

/** Count one fill in. */
export function addToTotals(t: FillTotals, f: TalliedFill): void {
  t.fills += 1;
  if (f.role === "maker") t.maker += 1;
  else if (f.role === "taker") t.taker += 1;
  else t.unknownRole += 1;
  if (f.side === "BUY") {
    t.bought += f.qty;
    t.buyNotional2 += f.price * f.qty;
  } else {
    t.sold += f.qty;
    t.sellNotional2 += f.price * f.qty;
  }
  t.fees += f.fee;
}

/** Add every field of `x` into `into` (`x` is not changed). */
export function mergeTotals(into: FillTotals, x: FillTotals): void {
  into.fills += x.fills;
  into.maker += x.maker;
  into.taker += x.taker;
  into.unknownRole += x.unknownRole;
  into.bought += x.bought;
  into.sold += x.sold;
  into.buyNotional2 += x.buyNotional2;
  into.sellNotional2 += x.sellNotional2;
  into.fees += x.fees;
}

/** The totals of a list of fills. */
export function totalsOf(fills: Iterable<TalliedFill>): FillTotals {
  const t = emptyTotals();
  for (const f of fills) addToTotals(t, f);
  return t;
}
