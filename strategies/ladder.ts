/**
 * `ladder`: fixed-spread levels around the reference price (mid, microprice, last trade, the
 * newest public trade or a fallback). No skew and no model: the top bid sits `halfSpreadTicks`
 * under the reference, the top ask as far over it, and `levels` rungs step away by
 * `levelSpacingTicks`. Inventory only changes how an ask is expressed (SELL held shares first)
 * and, with `maxInventory`, how much of the increasing side is quoted.
 */
import { z } from "zod";
import type { DesiredQuote, StrategyContext } from "./contract.js";
import { buildQuotes, isQuotingPhase } from "./build.js";
import { TICK_PROB, referencePrice } from "./lib.js";
import { commonParamsShape } from "./params.js";
import type { Strategy } from "./types.js";

export const ladderParamsSchema = z.strictObject({
  ...commonParamsShape,
  /** Distance from the reference price to the top bid and to the top ask, in 0.001 ticks. */
  halfSpreadTicks: z.number().int().min(1).max(500).default(2),
});

export type LadderParams = z.output<typeof ladderParamsSchema>;

export const ladder: Strategy<LadderParams, undefined> = {
  name: "ladder",
  description: "levels around the mid at a fixed spread",
  paramsSchema: ladderParamsSchema,
  quote(ctx: StrategyContext<LadderParams, undefined>): DesiredQuote[] {
    if (!isQuotingPhase(ctx.phase)) return [];
    const p = ctx.params;
    const ref = referencePrice(ctx.book, p.reference, ctx.recentTrades, p.fallbackPrice);
    if (ref === null) return [];
    const half = p.halfSpreadTicks * TICK_PROB;
    return buildQuotes(ctx, { bid: ref - half, ask: ref + half });
  },
};
