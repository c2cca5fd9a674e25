/**
 * Order levels (hummingbot's order_levels, order_level_spread, order_level_amount): each side's
 * closest quote (level 0, all of its parts) stays; the strategy's deeper quotes on that side are
 * replaced by `count - 1` levels, level k at `k x spacingTicks` further from the mid and sized
 * level 0's total size + k x sizeStep. A deeper level is expressed as level 0's opening part
 * (the part that does not reduce inventory: `BUY YES` for a binary bid, `BUY NO` for a binary
 * ask): a SELL of held shares is never repeated beyond what the strategy sized. A side whose
 * level 0 only reduces inventory (an ask on a multi-outcome market) gets no deeper levels.
 * Levels that would leave the price grid are not quoted. count 1: only level 0 of each side.
 */
import { PRICE_TICK } from "../../../core/amounts.js";
import type { Micros } from "../../../core/money.js";
import type { DesiredQuote } from "../quotes.js";
import type { QuoteControl } from "./control.js";
import { atBookPrice, away, groupBySide, onGrid, outcomeCountOf } from "./sides.js";

export interface LevelsOptions {
  count: number;
  spacingTicks: number;
  /** Shares added per level (micros). */
  sizeStep: Micros;
}

export function orderLevels(o: LevelsOptions): QuoteControl {
  const spacing = BigInt(o.spacingTicks) * PRICE_TICK;
  return {
    name: "order_levels",
    apply(quotes, s) {
      const n = outcomeCountOf(s);
      const out: DesiredQuote[] = [];
      let changed = 0;
      for (const g of groupBySide(quotes, n)) {
        const top: DesiredQuote[] = [];
        // The strategy's deeper quotes: one replaced by an equal level is no change.
        const dropped = new Map<string, number>();
        g.idx.forEach((i, k) => {
          const q = quotes[i]!;
          if (g.terms[k]!.price === g.top) top.push(q.level === 0 ? q : { ...q, level: 0 });
          else {
            changed++;
            const key = sameKey(q);
            dropped.set(key, (dropped.get(key) ?? 0) + 1);
          }
        });
        out.push(...top);
        const opening = top.find((q) => q.reducesInventory !== true && q.side === "BUY");
        if (opening === undefined) continue;
        let base = 0n;
        for (const q of top) base += q.size;
        for (let k = 1; k < o.count; k++) {
          const price = away(g.side, g.top, BigInt(k) * spacing);
          const size = base + BigInt(k) * o.sizeStep;
          if (!onGrid(price) || size <= 0n) break;
          const q: DesiredQuote = { ...atBookPrice(opening, n, price), size, level: k };
          out.push(q);
          const left = dropped.get(sameKey(q)) ?? 0;
          if (left > 0) {
            dropped.set(sameKey(q), left - 1);
            changed--;
          } else changed++;
        }
      }
      return { quotes: out, changed };
    },
  };
}

const sameKey = (q: DesiredQuote): string => `${q.outcome}:${q.side}:${q.price}:${q.size}`;
