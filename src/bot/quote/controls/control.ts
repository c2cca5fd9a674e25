/**
 * The quote-control contract: a strategy-independent step of the pure quote cycle (cycle.ts)
 * that reshapes the strategy's quotes before risk sees them. Controls run in the order
 * buildControls (index.ts) gives, right after the strategy and the phase rule and before the risk
 * limits (which can still only narrow); PRE_MARKET post-only is enforced again after them.
 *
 * A control is pure: no clock (it reads `s.nowMs`), no I/O, no mutation of its inputs. What it
 * knows beyond the snapshot's books and orders comes from `s.signals` (signals.ts), kept by the
 * shell between cycles.
 */
import type { CycleSnapshot } from "../cycle.js";
import type { DesiredQuote } from "../quotes.js";

export interface ControlResult {
  quotes: DesiredQuote[];
  /** Quotes this control dropped, resized or moved (or added). */
  changed: number;
}

export interface QuoteControl {
  /** snake_case, a bounded metric label: "filled_order_delay", "toxicity", "jump", ... */
  readonly name: string;
  /** Pure: no clock, no I/O, no mutation. */
  apply(quotes: readonly DesiredQuote[], s: CycleSnapshot): ControlResult;
}

/** Run the controls in order; the changes each made, by name (only names that changed something). */
export function applyControls(
  controls: readonly QuoteControl[],
  quotes: DesiredQuote[],
  s: CycleSnapshot,
): { quotes: DesiredQuote[]; changes: Map<string, number> } {
  const changes = new Map<string, number>();
  let out = quotes;
  for (const c of controls) {
    const r = c.apply(out, s);
    out = r.quotes;
    if (r.changed > 0) changes.set(c.name, (changes.get(c.name) ?? 0) + r.changed);
  }
  return { quotes: out, changes };
}
