/**
 * `inventory-skew`: a ladder around a reservation price that leans against the position, with
 * a spread that widens with short-horizon volatility.
 *
 *   q          = net exposure / inventoryUnit          (net YES shares on a binary market)
 *   shift      = clamp(-skewTicksPerUnit * q, +-maxSkewTicks) ticks
 *   r          = reference + shift                     (long -> r below the mid: asks get keener)
 *   sigma_h    = volatility of the mid over volHorizonMs (realized, from the last volWindowMs)
 *   halfSpread = min(halfSpreadTicks * 0.001 + volMultiplier * sigma_h, maxHalfSpreadTicks * 0.001)
 *   quotes at r -+ halfSpread
 *
 * The mid history is per-market state kept by the pure reducer `reduce`.
 */
import { z } from "zod";
import type { DesiredQuote, StrategyContext } from "./contract.js";
import { netExposure } from "./contract.js";
import { ONE } from "../src/core/money.js";
import { buildQuotes, isQuotingPhase } from "./build.js";
import { TICK_PROB, historyPrice, recordHistory, referencePrice, volatility, type MidHistory } from "./lib.js";
import { commonParamsShape, sizeParam } from "./params.js";
import type { Strategy } from "./types.js";

export const inventorySkewParamsSchema = z
  .strictObject({
    ...commonParamsShape,
    /** Half spread with no volatility, in ticks. */
    halfSpreadTicks: z.number().int().min(1).max(500).default(2),
    /** Cap on the half spread after volatility widening, in ticks. */
    maxHalfSpreadTicks: z.number().int().min(1).max(500).default(50),
    /** Shares that make one unit of inventory for the skew. */
    inventoryUnit: sizeParam.default(10n * ONE),
    /** Reservation shift in ticks per unit of inventory (against the position). */
    skewTicksPerUnit: z.number().min(0).max(1000).default(1),
    maxSkewTicks: z.number().int().min(0).max(500).default(20),
    /** Window of mid history the volatility is measured on. */
    volWindowMs: z.number().int().min(1000).default(300_000),
    /** Horizon the volatility is scaled to (the spread covers a move over this long). */
    volHorizonMs: z.number().int().min(1).default(60_000),
    volMultiplier: z.number().min(0).max(100).default(1),
    maxSamples: z.number().int().min(2).max(100_000).default(600),
  })
  .refine((p) => p.maxHalfSpreadTicks >= p.halfSpreadTicks, {
    message: "maxHalfSpreadTicks must be >= halfSpreadTicks",
    path: ["maxHalfSpreadTicks"],
  });

export type InventorySkewParams = z.output<typeof inventorySkewParamsSchema>;
export type InventorySkewState = MidHistory;

type Ctx = StrategyContext<InventorySkewParams, InventorySkewState>;

/** Reservation price and half spread, in probability units (exported for tests and tools). */
export function inventorySkewModel(ctx: Ctx, ref: number): { reservation: number; halfSpread: number } {
  const p = ctx.params;
  const q = Number(netExposure(ctx.inventory, ctx.quoteOutcome ?? 0, ctx.outcomeCount)) / Number(p.inventoryUnit);
  const shiftTicks = Math.max(-p.maxSkewTicks, Math.min(p.maxSkewTicks, -p.skewTicksPerUnit * q));
  const sigma = volatility(ctx.state?.samples ?? [], p.volHorizonMs) ?? 0;
  const half = Math.min(p.halfSpreadTicks * TICK_PROB + p.volMultiplier * sigma, p.maxHalfSpreadTicks * TICK_PROB);
  return { reservation: ref + shiftTicks * TICK_PROB, halfSpread: half };
}

export const inventorySkew: Strategy<InventorySkewParams, InventorySkewState> = {
  name: "inventory-skew",
  description: "reservation price shifted by inventory, spread widened with short-horizon volatility",
  paramsSchema: inventorySkewParamsSchema,
  reduce(prev: InventorySkewState | undefined, ctx: Ctx): InventorySkewState {
    // History only from the market (no fallback constant: it would fake a calm market).
    const taken = historyPrice(ctx.book, ctx.params.reference, ctx.recentTrades, prev);
    return recordHistory(prev, ctx.nowMs, taken, ctx.params.volWindowMs, ctx.params.maxSamples);
  },
  quote(ctx: Ctx): DesiredQuote[] {
    if (!isQuotingPhase(ctx.phase)) return [];
    const ref = referencePrice(ctx.book, ctx.params.reference, ctx.recentTrades, ctx.params.fallbackPrice);
    if (ref === null) return [];
    const { reservation, halfSpread } = inventorySkewModel(ctx, ref);
    return buildQuotes(ctx, { bid: reservation - halfSpread, ask: reservation + halfSpread });
  },
};
