/**
 * Join or penny the best price (hummingbot's order optimization): the closest quote of each side
 * moves to the best price of OTHER participants on that side (join) or one tick better (penny),
 * when that is within `maxDistanceTicks` of the strategy's price, in either direction: up to the
 * best when the strategy was behind it, back to it when the strategy was needlessly ahead of it.
 * The whole side moves by the same amount (levels keep their spacing).
 *
 * Never crossing (post-only): a bid stays at least one tick under the best ask of others and
 * under our own closest ask on the book (and the mirror for asks). Our own resting orders are
 * taken out of the book first (the QuotedBook's `own`), so we never join or penny ourselves.
 * No others on a side, or no book: that side is left alone.
 */
import { PRICE_TICK } from "../../../core/amounts.js";
import type { Micros } from "../../../core/money.js";
import { excludeOwn } from "../quote-cycle.js";
import type { DesiredQuote } from "../quotes.js";
import type { QuoteControl } from "./control.js";
import { compact, groupBySide, onGrid, outcomeCountOf, shiftGroup, type SideGroup } from "./sides.js";
import type { CycleSnapshot } from "../cycle.js";

export interface JoinPennyOptions {
  mode: "join" | "penny";
  maxDistanceTicks: number;
}

export function joinPenny(o: JoinPennyOptions): QuoteControl {
  const maxMove = BigInt(o.maxDistanceTicks) * PRICE_TICK;
  const improve = o.mode === "penny" ? PRICE_TICK : 0n;
  return {
    name: "join_penny",
    apply(quotes, s) {
      const n = outcomeCountOf(s);
      const groups = groupBySide(quotes, n);
      // Each side's target from the others' book, then capped under our own other side's final price.
      const targets = groups.map((g) => targetOf(g, s, n === 2, improve, maxMove));
      const finalTop = (i: number): Micros => targets[i] ?? groups[i]!.top;
      const out: (DesiredQuote | null)[] = [...quotes];
      let changed = 0;
      groups.forEach((g, i) => {
        let target = targets[i];
        if (target === undefined) return;
        const j = groups.findIndex((x) => x.book === g.book && x.side !== g.side);
        if (j >= 0) {
          const opp = finalTop(j);
          if (g.side === "bid" && target >= opp) target = opp - PRICE_TICK;
          if (g.side === "ask" && target <= opp) target = opp + PRICE_TICK;
        }
        if (!onGrid(target)) return;
        const move = target - g.top;
        const dist = move < 0n ? -move : move;
        if (dist === 0n || dist > maxMove) return;
        // Positive delta: toward the other side.
        changed += shiftGroup(out, g, g.side === "bid" ? move : -move, n);
      });
      return changed === 0 ? { quotes: [...quotes], changed: 0 } : { quotes: compact(out), changed };
    },
  };
}

/** The join or penny price of a side against the others' book (never crossing their other side), if the move is within the limit. */
function targetOf(g: SideGroup, s: CycleSnapshot, binary: boolean, improve: Micros, maxMove?: Micros): Micros | undefined {
  const b = s.books.get(g.book);
  if (b === undefined) return undefined;
  const others = excludeOwn(b.snapshot.view, b.own, g.book, binary);
  let target: Micros;
  if (g.side === "bid") {
    const best = others.bids[0]?.price;
    if (best === undefined) return undefined;
    target = best + improve;
    const ask = others.asks[0]?.price;
    if (ask !== undefined && target >= ask) target = ask - PRICE_TICK;
  } else {
    const best = others.asks[0]?.price;
    if (best === undefined) return undefined;
    target = best - improve;
    const bid = others.bids[0]?.price;
    if (bid !== undefined && target <= bid) target = bid + PRICE_TICK;
  }
  if (maxMove !== undefined) {
    const move = target - g.top;
    if ((move < 0n ? -move : move) > maxMove) return undefined;
  }
  return target;
}
