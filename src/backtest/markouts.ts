/**
 * Markouts of our fills: how the mid moved after each fill, signed so that a positive markout is
 * good for us. For a fill at price p and the mid m(t + h) in effect h after it:
 *
 *   BUY:  m(t + h) - p        SELL:  p - m(t + h)        (micros per share, exact)
 *
 * The value of one fill's markout is that times its quantity (micros x micro-shares: exact; turned
 * into micros, rounded down, only when summed for the report). Per group (side x role) the
 * average per share is sum(markout x qty) / sum(qty), rounded down to the micro.
 *
 * The mid a markout uses is the one the recorder last observed at or before t + h, observed before
 * anything that happened at a later time (series.ts: the engine calls `advance(ts)` before it
 * applies the events of ts), so a markout never sees the future. A fill whose horizon reaches past
 * the end of the data, or with no mid then, has no markout at that horizon (null).
 */
import { divRound, formatMicros, type Micros } from "../core/money.js";
import type { FillSide } from "../bot/quote/adverse/markout.js";

// The definition of a signed markout is shared with the daemon's live tracker (src/bot must not
// import src/backtest): it lives in src/bot/quote/adverse/markout.ts.
export { MARKOUT_HORIZONS_MS, markoutPerShare, type FillSide } from "../bot/quote/adverse/markout.js";

export interface MarkoutGroup {
  side: FillSide | "all";
  role: string;
  horizonMs: number;
  /** Fills with a markout at this horizon. */
  fills: number;
  /** Their shares. */
  shares: string;
  /** sum(markout x qty), in settlement micros rounded down. */
  value: string;
  /** value per share: sum(markout x qty) / sum(qty), rounded down; null without fills. */
  perShare: string | null;
}

/** Sums per (side, role, horizon), in exact bigint until formatted. */
export class MarkoutSums {
  private readonly sums = new Map<string, { side: FillSide | "all"; role: string; h: number; fills: number; qty: bigint; value2: bigint }>();

  add(side: FillSide, role: string, horizonIndex: number, perShare: Micros, qty: Micros): void {
    this.bump(side, role, horizonIndex, perShare, qty);
    this.bump("all", "all", horizonIndex, perShare, qty);
  }

  private bump(side: FillSide | "all", role: string, h: number, perShare: Micros, qty: Micros): void {
    const k = `${side}|${role}|${h}`;
    let s = this.sums.get(k);
    if (s === undefined) this.sums.set(k, (s = { side, role, h, fills: 0, qty: 0n, value2: 0n }));
    s.fills++;
    s.qty += qty;
    s.value2 += perShare * qty;
  }

  /** Groups ordered: all first, then BUY before SELL, roles by name, then by horizon. */
  groups(horizonsMs: readonly number[]): MarkoutGroup[] {
    const rank = (s: string): number => (s === "all" ? 0 : s === "BUY" ? 1 : 2);
    return [...this.sums.values()]
      .sort((a, b) => rank(a.side) - rank(b.side) || (a.role === b.role ? 0 : a.role === "all" ? -1 : b.role === "all" ? 1 : a.role < b.role ? -1 : 1) || a.h - b.h)
      .map((s) => ({
        side: s.side,
        role: s.role,
        horizonMs: horizonsMs[s.h]!,
        fills: s.fills,
        shares: formatMicros(s.qty),
        value: formatMicros(divRound(s.value2, 1_000_000n, "floor")),
        perShare: s.qty === 0n ? null : formatMicros(divRound(s.value2, s.qty, "floor")),
      }));
  }
}
