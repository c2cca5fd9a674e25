/**
 * The adverse-selection quote controls (controls/index.ts puts them last, after hanging orders,
 * so what they pull is pulled whatever an earlier control kept):
 *
 *   toxicity  a side (outcome, side) in state `widen` (toxicity.ts) moves its price `widenTicks`
 *             away from the mid (BUY down, SELL up) and its size times `sizeFactor` (rounded down
 *             to the micro-share); a quote pushed off the price grid or to size 0 is dropped. A
 *             side in state `pull` quotes nothing.
 *   jump      while the market cools after a jump (jump.ts), no quote at all.
 *
 * Both read `s.signals` (signals.ts: `toxicity`, `jump`) and nothing else; pure.
 */
import { MAX_PRICE, MIN_PRICE, PRICE_TICK } from "../../../core/amounts.js";
import type { QuoteControl } from "../controls/control.js";
import type { DesiredQuote } from "../quotes.js";

export interface ToxicityControlParams {
  widenTicks: number;
  /** Size factor in (0, 1]. */
  sizeFactor: number;
}

export function toxicityControl(p: ToxicityControlParams): QuoteControl {
  const shift = BigInt(p.widenTicks) * PRICE_TICK;
  const ppm = BigInt(Math.floor(p.sizeFactor * 1_000_000));
  return {
    name: "toxicity",
    apply(quotes, s) {
      const sides = s.signals?.toxicity;
      if (sides === undefined || sides.length === 0 || !sides.some((v) => v.level !== "normal")) return { quotes: [...quotes], changed: 0 };
      const out: DesiredQuote[] = [];
      let changed = 0;
      for (const q of quotes) {
        const v = sides.find((x) => x.outcome === q.outcome && x.side === q.side);
        if (v === undefined || v.level === "normal") {
          out.push(q);
          continue;
        }
        changed++;
        if (v.level === "pull") continue;
        const price = q.side === "BUY" ? q.price - shift : q.price + shift;
        const size = (q.size * ppm) / 1_000_000n;
        if (price < MIN_PRICE || price > MAX_PRICE || size <= 0n) continue;
        out.push({ ...q, price, size });
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
