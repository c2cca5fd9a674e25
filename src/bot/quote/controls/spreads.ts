/**
 * Per-side spreads and the fee-aware minimum spread: each side of each book at least some distance
 * from the mid. A side whose closest quote is nearer is moved out as a whole (its levels keep
 * their spacing): bids down to at most floor(mid - distance), asks up to at least
 * ceil(mid + distance), on the 0.001 grid. Without a mid (one-sided book) nothing changes. These
 * only ever widen, so they cannot make a quote cross the book.
 *
 *   per_side_spreads  distance = controls.spreads.bid / .ask (a side left out: no floor)
 *   fee_min_spread    distance = ceil(feeMultiple x taker fee per share at the mid) + extra:
 *                     the fee curve of src/core/amounts.ts (feeTakerBps x p x (1 - p)); with
 *                     feeMultiple 1, a fill that is then closed as a taker near the mid still
 *                     does not lose the fee.
 */
import { takerFee } from "../../../core/amounts.js";
import { ONE, type Micros } from "../../../core/money.js";
import type { CycleSnapshot } from "../cycle.js";
import type { DesiredQuote } from "../quotes.js";
import type { ControlResult, QuoteControl } from "./control.js";
import { ceilTick, compact, floorTick, groupBySide, outcomeCountOf, shiftGroup, type BookSide } from "./sides.js";

/** Widen each side to `distance(side, mid)` from the mid (undefined: leave the side alone). */
export function widenFromMid(quotes: readonly DesiredQuote[], s: CycleSnapshot, distance: (side: BookSide, mid: Micros) => Micros | undefined): ControlResult {
  const n = outcomeCountOf(s);
  const out: (DesiredQuote | null)[] = [...quotes];
  let changed = 0;
  for (const g of groupBySide(quotes, n)) {
    const mid = s.mids[g.book];
    if (mid === undefined) continue;
    const d = distance(g.side, mid);
    if (d === undefined) continue;
    const limit = g.side === "bid" ? floorTick(mid - d) : ceilTick(mid + d);
    const delta = g.side === "bid" ? g.top - limit : limit - g.top;
    if (delta > 0n) changed += shiftGroup(out, g, -delta, n);
  }
  return changed === 0 ? { quotes: [...quotes], changed: 0 } : { quotes: compact(out), changed };
}

export function perSideSpreads(o: { bid?: Micros | undefined; ask?: Micros | undefined }): QuoteControl {
  return {
    name: "per_side_spreads",
    apply: (quotes, s) => widenFromMid(quotes, s, (side) => (side === "bid" ? o.bid : o.ask)),
  };
}

/** The fee-aware half-spread at `mid`: ceil(feeMultiple x taker fee per share) + extra. */
export function feeHalfSpread(mid: Micros, feeTakerBps: number, feeMultiple: number, extra: Micros): Micros {
  const fee = feeTakerBps > 0 ? takerFee(mid, ONE, feeTakerBps) : 0n;
  return BigInt(Math.ceil(feeMultiple * Number(fee))) + extra;
}

export function feeMinSpread(o: { feeMultiple: number; extra: Micros }): QuoteControl {
  return {
    name: "fee_min_spread",
    apply: (quotes, s) => {
      const bps = s.market?.feeTakerBps ?? 0;
      return widenFromMid(quotes, s, (_side, mid) => feeHalfSpread(mid, bps, o.feeMultiple, o.extra));
    },
  };
}
