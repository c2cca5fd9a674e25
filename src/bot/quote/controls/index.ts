/**
 * The quote controls a config asks for (`controls:`, src/config/controls-section.ts), in the order
 * the cycle applies them (docs/strategies.md, "Quoting controls"):
 *
 *   1. order_levels        the ladder: level 0 of each side kept, deeper levels rebuilt
 *   2. join_penny          level 0 to the best price of others (or a tick better), within a limit
 *   3. per_side_spreads    each side at least its spread from the mid (widen only)
 *   4. fee_min_spread      each side at least the fee-aware half-spread from the mid (widen only)
 *   5. inventory_target    the side moving away from the target shrinks
 *   6. filled_order_delay  a side that just filled quotes nothing for a while
 *   7. hanging_orders      the other side's live order of a filled pair is kept as it rests
 *   8. toxicity            a side with toxic fills widens and shrinks, or is pulled (`adverse.toxicity`)
 *   9. jump                nothing while the market cools after a jump (`adverse.jump`)
 *
 * Prices first (1-4: the floors after join/penny, so a join never goes inside a spread floor),
 * then sizes (5), then which sides quote at all (6), and hanging orders last so a delay or a
 * size cut does not cancel the order it keeps; the adverse-selection pulls (8, 9) after those, so
 * they pull whatever an earlier control kept. Risk runs after all of them.
 *
 * An absent block is an absent control: `buildControls` of a config without `controls:` is [].
 */
import type { AdverseSettings } from "../../../config/adverse-section.js";
import type { ControlsSettings } from "../../../config/controls-section.js";
import { jumpControl, toxicityControl } from "../adverse/controls.js";
import type { Micros } from "../../../core/money.js";
import type { QuoteControl } from "./control.js";
import { filledOrderDelay } from "./filled-order-delay.js";
import { hangingOrders } from "./hanging-orders.js";
import { inventoryTarget } from "./inventory-target.js";
import { joinPenny } from "./join-penny.js";
import { orderLevels } from "./levels.js";
import { feeMinSpread, perSideSpreads } from "./spreads.js";

export type { ControlResult, QuoteControl } from "./control.js";
export { applyControls } from "./control.js";

/** The parts of the config the controls are built from. */
export interface ControlsConfigView {
  controls?: ControlsSettings | undefined;
  adverse?: AdverseSettings | undefined;
  risk: { maxNotionalPerWallet: Micros; minQuoteSize?: Micros | undefined };
  /** The reconciler's tolerances (hanging orders must not duplicate an order a quote already keeps). */
  quoting?: { priceToleranceTicks: number; sizeTolerance: number } | undefined;
}

export function buildControls(config: ControlsConfigView): QuoteControl[] {
  return [...quotingControls(config), ...adverseControls(config.adverse)];
}

/** 8 and 9: `adverse:` (src/config/adverse-section.ts; the trackers they read are in SignalBook). */
function adverseControls(a: AdverseSettings | undefined): QuoteControl[] {
  const out: QuoteControl[] = [];
  if (a?.toxicity !== undefined) out.push(toxicityControl({ widenTicks: a.toxicity.widenTicks, sizeFactor: a.toxicity.sizeFactor }));
  if (a?.jump !== undefined) out.push(jumpControl());
  return out;
}

function quotingControls(config: ControlsConfigView): QuoteControl[] {
  const c = config.controls;
  if (c === undefined) return [];
  const out: QuoteControl[] = [];
  if (c.levels !== undefined) out.push(orderLevels(c.levels));
  if (c.queue !== undefined) out.push(joinPenny(c.queue));
  if (c.spreads !== undefined) out.push(perSideSpreads(c.spreads));
  if (c.minSpread !== undefined) out.push(feeMinSpread(c.minSpread));
  if (c.inventoryTarget !== undefined) {
    const t = c.inventoryTarget;
    out.push(inventoryTarget({ fraction: t.fraction, range: t.range, capital: t.capital ?? config.risk.maxNotionalPerWallet, minSize: config.risk.minQuoteSize ?? 0n }));
  }
  if (c.filledOrderDelay !== undefined) out.push(filledOrderDelay({ delayMs: c.filledOrderDelay.sec * 1000, sides: c.filledOrderDelay.sides }));
  if (c.hangingOrders !== undefined) out.push(hangingOrders({ holdMs: c.hangingOrders.sec * 1000, maxDistance: c.hangingOrders.maxDistance, tolerance: config.quoting }));
  return out;
}
