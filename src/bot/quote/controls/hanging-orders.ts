/**
 * Hanging orders (hummingbot's hanging_orders): after one side of a pair fills, our live order on
 * the other side of that book is kept exactly as it rests (price, remaining size, post-only) for
 * `holdMs` after the fill, even when the strategy now wants it elsewhere or not at all: it is
 * added to the desired quotes, so the reconciler keeps it, while the strategy's own quotes are
 * placed beside it. It stays only while
 *   - it was created before the fill (the fill's partner, not a later order),
 *   - it is open or partly filled (not pending, not being cancelled),
 *   - its price is within `maxDistance` of the book's mid (no mid: kept),
 * and the risk step after the controls may still drop or shrink it (the limits always win).
 * A live order some desired quote already keeps (within the reconciler's price and size
 * tolerances, `quoting.priceToleranceTicks` / `sizeTolerance`) is not added again: the copy would
 * keep the live order while the strategy's quote was placed beside it, doubling the side.
 * The reconciler's maxOrderAge may still replace it at the same price.
 */
import type { Micros } from "../../../core/money.js";
import type { DesiredQuote } from "../quotes.js";
import { withinTolerance } from "../reconciler.js";
import type { QuoteControl } from "./control.js";
import { bookTerms, outcomeCountOf } from "./sides.js";

export interface HangingOrdersOptions {
  holdMs: number;
  maxDistance: Micros;
  /** The reconciler's keep rule (config quoting.*); absent: exact price and size. */
  tolerance?: { priceToleranceTicks: number; sizeTolerance: number } | undefined;
}

const NO_BUDGET = { cancels: 0, places: 0 };

export function hangingOrders(o: HangingOrdersOptions): QuoteControl {
  return {
    name: "hanging_orders",
    apply(quotes, s) {
      const fills = s.signals?.lastFills ?? [];
      if (fills.length === 0 || s.live.length === 0) return { quotes: [...quotes], changed: 0 };
      const n = outcomeCountOf(s);
      // Newest fill time per (book, side) still inside the hold.
      const filledAt = new Map<string, number>();
      for (const f of fills) {
        if (s.nowMs - f.ts >= o.holdMs) continue;
        const t = bookTerms(f, n);
        const key = `${t.book}:${t.side}`;
        filledAt.set(key, Math.max(filledAt.get(key) ?? -Infinity, f.ts));
      }
      if (filledAt.size === 0) return { quotes: [...quotes], changed: 0 };
      const out = [...quotes];
      let changed = 0;
      for (const l of s.live) {
        if ((l.state !== "open" && l.state !== "partial") || l.remaining <= 0n) continue;
        const t = bookTerms(l, n);
        const ts = filledAt.get(`${t.book}:${t.side === "bid" ? "ask" : "bid"}`);
        if (ts === undefined || l.createdAtMs > ts) continue;
        const mid = s.mids[t.book];
        if (mid !== undefined && (t.price > mid ? t.price - mid : mid - t.price) > o.maxDistance) continue;
        const keep = { priceToleranceTicks: o.tolerance?.priceToleranceTicks ?? 0, sizeTolerance: o.tolerance?.sizeTolerance ?? 0, maxOrderAgeMs: Infinity, nowMs: s.nowMs, budget: NO_BUDGET };
        if (quotes.some((q) => withinTolerance(q, l, keep))) continue;
        const q: DesiredQuote = { outcome: l.outcome, side: l.side, price: l.price, size: l.remaining, postOnly: l.postOnly, tag: "hanging" };
        out.push(l.side === "SELL" ? { ...q, reducesInventory: true } : q);
        changed++;
      }
      return { quotes: out, changed };
    },
  };
}
