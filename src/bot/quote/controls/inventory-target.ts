/**
 * Inventory target as a fraction of capital (hummingbot's inventory skew, one-sided): the value
 * held in each quoted book's outcome is steered toward `fraction x capital` by shrinking the side
 * that moves it further away.
 *
 *   capital   controls.inventoryTarget.capital, else risk.maxNotionalPerWallet (the most the
 *             wallet may have in orders and positions: the money this control can allocate).
 *   held      the net position of the book's outcome x the book's mid (binary: YES held minus NO
 *             held, valued at the YES mid; a negative value is a net NO holding).
 *   d         (held - fraction x capital) / (range x capital), clamped to [-1, 1].
 *   d > 0     (too much): bid sizes x (1 - d); d < 0 (too little): ask sizes x (1 + d). At
 *             |d| = 1 that side is not quoted at all.
 *
 * Unlike hummingbot, the other side is never made larger than the strategy sized it: a control
 * never adds risk the strategy and the limits did not already allow. Sizes are rounded down to
 * 0.01 share; a quote shrunk below `minSize` (risk.minQuoteSize) is dropped. Without a mid,
 * nothing changes.
 */
import { ONE, type Micros } from "../../../core/money.js";
import { positionQty, netExposure, type DesiredQuote } from "../quotes.js";
import type { QuoteControl } from "./control.js";
import { groupBySide, outcomeCountOf } from "./sides.js";

export interface InventoryTargetOptions {
  fraction: number;
  range: number;
  capital: Micros;
  minSize: Micros;
}

/** The skew `d` of the header, from the held value and the target (both micros). */
export function inventoryDeviation(held: Micros, o: Pick<InventoryTargetOptions, "fraction" | "range" | "capital">): number {
  const cap = Number(o.capital);
  const d = (Number(held) - o.fraction * cap) / (o.range * cap);
  return Math.max(-1, Math.min(1, d));
}

/** Scaled sizes are rounded down to this (0.01 share): no dust sizes, and no dust positions from them. */
const SIZE_STEP: Micros = 10_000n;

/** factor in [0, 1] (6 decimals) applied to a size, rounded down to SIZE_STEP. */
function scale(size: Micros, factor: number): Micros {
  const scaled = (size * BigInt(Math.floor(factor * 1_000_000))) / 1_000_000n;
  return scaled - (scaled % SIZE_STEP);
}

export function inventoryTarget(o: InventoryTargetOptions): QuoteControl {
  return {
    name: "inventory_target",
    apply(quotes, s) {
      const n = outcomeCountOf(s);
      const out: (DesiredQuote | null)[] = [...quotes];
      let changed = 0;
      for (const g of groupBySide(quotes, n)) {
        const mid = s.mids[g.book];
        if (mid === undefined) continue;
        const shares = n === 2 ? netExposure(s.inventory, 0, 2) : positionQty(s.inventory, g.book);
        const d = inventoryDeviation((shares * mid) / ONE, o);
        const factor = g.side === "bid" ? (d > 0 ? 1 - d : 1) : d < 0 ? 1 + d : 1;
        if (factor >= 1) continue;
        for (const i of g.idx) {
          const q = out[i]!;
          const size = scale(q.size, factor);
          out[i] = size <= 0n || size < o.minSize ? null : { ...q, size };
          changed++;
        }
      }
      return changed === 0 ? { quotes: [...quotes], changed: 0 } : { quotes: out.filter((q): q is DesiredQuote => q !== null), changed };
    },
  };
}
