/**
 * The adverse-selection quote controls (controls/index.ts puts them last, after hanging orders,
 * so what they pull is pulled whatever an earlier control kept):
 *
 *   toxicity  in book terms (controls/sides.ts: on a binary market BUY NO is the YES ask, SELL NO
 *             the YES bid): a book side any toxic (outcome, side) maps to is in that side's
 *             state, the stronger one when two map to it. In state `widen` a quote on it moves
 *             `widenTicks` away from the mid on its book (bids down, asks up) and its size times
 *             `sizeFactor` (rounded down to 0.01 share); a quote pushed off the price grid or to
 *             size 0 is dropped. In state `pull` the book side quotes nothing.
 *   jump      while the market cools after a jump (jump.ts), no quote at all.
 *
 * Both read `s.signals` (signals.ts: `toxicity`, `jump`) and nothing else; pure.
 */
import { PRICE_TICK } from "../../../core/amounts.js";
import type { Micros } from "../../../core/money.js";
import type { QuoteControl } from "../controls/control.js";
import { atBookPrice, away, bookTerms, onGrid, outcomeCountOf } from "../controls/sides.js";
import type { DesiredQuote } from "../quotes.js";

export interface ToxicityControlParams {
  widenTicks: number;
  /** Size factor in (0, 1]. */
  sizeFactor: number;
}

/** Scaled sizes are rounded down to this (0.01 share), as inventory_target does: no dust sizes. */
const SIZE_STEP: Micros = 10_000n;
const STRENGTH = { normal: 0, widen: 1, pull: 2 } as const;

export function toxicityControl(p: ToxicityControlParams): QuoteControl {
  const shift = BigInt(p.widenTicks) * PRICE_TICK;
  const ppm = BigInt(Math.floor(p.sizeFactor * 1_000_000));
  return {
    name: "toxicity",
    apply(quotes, s) {
      const sides = s.signals?.toxicity;
      if (sides === undefined || sides.length === 0 || !sides.some((v) => v.level !== "normal")) return { quotes: [...quotes], changed: 0 };
      const n = outcomeCountOf(s);
      // The level of each book side: the strongest of the toxic sides that map to it.
      const levels = new Map<string, "widen" | "pull">();
      for (const v of sides) {
        if (v.level === "normal") continue;
        const t = bookTerms({ outcome: v.outcome, side: v.side, price: PRICE_TICK }, n);
        const k = `${t.book}:${t.side}`;
        const cur = levels.get(k);
        if (cur === undefined || STRENGTH[v.level] > STRENGTH[cur]) levels.set(k, v.level);
      }
      const out: DesiredQuote[] = [];
      let changed = 0;
      for (const q of quotes) {
        const t = bookTerms(q, n);
        const level = levels.get(`${t.book}:${t.side}`);
        if (level === undefined) {
          out.push(q);
          continue;
        }
        changed++;
        if (level === "pull") continue;
        const bookPrice = away(t.side, t.price, shift);
        const scaled = (q.size * ppm) / 1_000_000n;
        const size = scaled - (scaled % SIZE_STEP);
        if (!onGrid(bookPrice) || size <= 0n) continue;
        out.push({ ...atBookPrice(q, n, bookPrice), size });
      }
      return { quotes: out, changed };
    },
  };
}

export function jumpControl(): QuoteControl {
  return {
    name: "jump",
    apply(quotes, s) {
      const until = s.signals?.jump?.coolingUntilMs;
      if (until === undefined || until === null || s.nowMs >= until) return { quotes: [...quotes], changed: 0 };
      return { quotes: [], changed: quotes.length };
    },
  };
}
