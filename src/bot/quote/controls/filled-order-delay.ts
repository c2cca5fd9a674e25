/**
 * Filled-order delay (hummingbot's filled_order_delay, per side): after one of our orders fills,
 * the side of the book it filled on quotes nothing for `delayMs` (sides "filled"), or the whole
 * book does (sides "both"). Dropping the quotes cancels what still rests there (a partly filled
 * order included): the side pauses instead of being refilled at once into a move that just took
 * it. The fill times come from the shell's SignalBook (the newest fill per outcome and side,
 * in book terms: a NO buy on a binary market is a fill on the YES ask side).
 */
import type { DesiredQuote } from "../quotes.js";
import type { QuoteControl } from "./control.js";
import { bookTerms, outcomeCountOf } from "./sides.js";

export interface FilledOrderDelayOptions {
  delayMs: number;
  sides: "filled" | "both";
}

export function filledOrderDelay(o: FilledOrderDelayOptions): QuoteControl {
  return {
    name: "filled_order_delay",
    apply(quotes, s) {
      const fills = s.signals?.lastFills ?? [];
      if (fills.length === 0) return { quotes: [...quotes], changed: 0 };
      const n = outcomeCountOf(s);
      const paused = new Set<string>();
      for (const f of fills) {
        if (s.nowMs - f.ts >= o.delayMs) continue;
        const t = bookTerms(f, n);
        if (o.sides === "both") {
          paused.add(`${t.book}:bid`);
          paused.add(`${t.book}:ask`);
        } else paused.add(`${t.book}:${t.side}`);
      }
      if (paused.size === 0) return { quotes: [...quotes], changed: 0 };
      const out: DesiredQuote[] = [];
      for (const q of quotes) {
        const t = bookTerms(q, n);
        if (!paused.has(`${t.book}:${t.side}`)) out.push(q);
      }
      return { quotes: out, changed: quotes.length - out.length };
    },
  };
}
