/**
 * `controls:` in the daemon config: the strategy-independent quoting controls (the ones operators
 * know from hummingbot), applied to every strategy's quotes by the pure quote cycle
 * (src/bot/quote/controls/, docs/strategies.md "Quoting controls"). Each control is off unless
 * its block is present; an empty `controls:` (the default) changes nothing.
 *
 *   controls:
 *     levels: { count: 3, spacingTicks: 5, sizeStep: "5" }       # order levels
 *     queue: { mode: penny, maxDistanceTicks: 3 }                 # join or penny the best price
 *     spreads: { bid: "0.01", ask: "0.02" }                      # per-side spreads from the mid
 *     minSpread: { feeMultiple: 1, extra: "0.002" }               # fee-aware minimum spread
 *     inventoryTarget: { fraction: 0.2, range: 0.5 }              # inventory target, fraction of capital
 *     filledOrderDelay: { sec: 15, sides: filled }                # pause a side after a fill
 *     hangingOrders: { sec: 120, maxDistance: "0.05" }            # keep the other side after a fill
 *
 * Prices and sizes are decimal strings (bigint micros inside), like every money field.
 */
import { z } from "zod";
import { moneyField } from "./fields.js";
import type { Micros } from "../core/money.js";

const int = (min: number, max: number): z.ZodInt => z.int().min(min).max(max);

/** A distance in price units (e.g. "0.01" = 1 cent of probability): a multiple of 0.001 in [0, 0.5]. */
function distanceField(): z.ZodType<Micros, unknown> {
  return moneyField().transform((micros, c) => {
    if (micros % 1_000n !== 0n || micros > 500_000n) {
      c.addIssue({ code: "custom", message: "expected a price distance that is a multiple of 0.001 in [0, 0.5], such as \"0.01\"" });
      return z.NEVER;
    }
    return micros;
  });
}

export function controlsSectionSchema() {
  return z
    .strictObject({
      /** Order levels: the strategy's closest quote per side, repeated `count` times, each level `spacingTicks` further out and `sizeStep` shares larger. */
      levels: z
        .strictObject({
          count: int(1, 20),
          spacingTicks: int(1, 100),
          sizeStep: moneyField().prefault("0"),
        })
        .optional(),
      /** Join (same price) or penny (one tick better) the best price of others, when that is within maxDistanceTicks of the strategy's price; never crossing. */
      queue: z
        .strictObject({
          mode: z.enum(["join", "penny"]),
          maxDistanceTicks: int(1, 100),
        })
        .optional(),
      /** Per-side spreads: each side at least this far from the mid (price units); absent side: no floor. */
      spreads: z
        .strictObject({ bid: distanceField().optional(), ask: distanceField().optional() })
        .refine((v) => v.bid !== undefined || v.ask !== undefined, "give bid, ask or both")
        .optional(),
      /** Fee-aware minimum spread: each side at least feeMultiple x the taker fee per share at the mid, plus extra, from the mid. */
      minSpread: z
        .strictObject({
          feeMultiple: z.number().min(0).max(10).default(1),
          extra: distanceField().prefault("0"),
        })
        .optional(),
      /** Inventory target: sizes skewed toward holding `fraction` of capital in the quoted outcome; full skew `range` x capital away. */
      inventoryTarget: z
        .strictObject({
          fraction: z.number().min(-1).max(1),
          range: z.number().gt(0).max(1).default(0.5),
          /** Capital the fractions are of; absent: risk.maxNotionalPerWallet. */
          capital: moneyField({ positive: true }).optional(),
        })
        .optional(),
      /** Filled-order delay: after a fill, no quotes on the filled side (or both sides) for `sec`. */
      filledOrderDelay: z
        .strictObject({
          sec: int(1, 86_400),
          sides: z.enum(["filled", "both"]).default("filled"),
        })
        .optional(),
      /** Hanging orders: after a fill, our live order on the other side stays as it is for `sec`, while within maxDistance of the mid. */
      hangingOrders: z
        .strictObject({
          sec: int(1, 86_400),
          maxDistance: distanceField().prefault("0.1"),
        })
        .optional(),
    })
    .prefault({});
}

export type ControlsSettings = z.output<ReturnType<typeof controlsSectionSchema>>;
