/**
 * `avellaneda-stoikov`: the reservation price and optimal spread of Avellaneda & Stoikov (2008),
 * "High-frequency trading in a limit order book", with the horizon T at the market's closesAt.
 *
 *   r     = s - q * gamma * sigma^2 * tau
 *   delta = gamma * sigma^2 * tau + (2 / gamma) * ln(1 + gamma / k)      (full spread)
 *   quotes at r -+ delta / 2, the half spread kept within [minHalfSpreadTicks, maxHalfSpreadTicks]
 *
 * Units (all prices in probability units, 0..1):
 *   s      the reference price (mid or microprice, else last trade, else the newest public
 *          trade, else fallbackPrice)
 *   q      net exposure in units of `inventoryUnit` shares (net YES shares on a binary market)
 *   tau    T - t in units of `timeUnitMs`: timeToClose capped at `maxHorizonMs`, or
 *          `fallbackHorizonMs` when the market has no closesAt
 *   sigma  volatility of the mid per sqrt(timeUnitMs), realized over the last `volWindowMs` of
 *          mids kept by the reducer, never below `sigmaFloor` (a quiet book is not a riskless one)
 *   gamma  risk aversion (per unit of q and price)
 *   k      order-arrival decay: the fill intensity of a quote d away from the mid falls as
 *          exp(-k * d), d in probability units (k = 100: e-fold per 0.01)
 * As closesAt nears, tau -> 0: both the inventory skew and the risk part of the spread vanish,
 * leaving (2/gamma) ln(1 + gamma/k).
 */
import { z } from "zod";
import type { DesiredQuote, StrategyContext } from "./contract.js";
import { netExposure } from "./contract.js";
import { ONE } from "../src/core/money.js";
import { buildQuotes, isQuotingPhase } from "./build.js";
import { TICK_PROB, historyPrice, recordHistory, referencePrice, volatility, type MidHistory } from "./lib.js";
import { commonParamsShape, sizeParam } from "./params.js";
import type { Strategy } from "./types.js";

const HOUR_MS = 3_600_000;

export const avellanedaStoikovParamsSchema = z
  .strictObject({
    ...commonParamsShape,
    gamma: z.number().positive().max(1000).default(0.5),
    k: z.number().positive().max(1e6).default(100),
    timeUnitMs: z.number().int().min(1).default(HOUR_MS),
    maxHorizonMs: z.number().int().min(1).default(24 * HOUR_MS),
    fallbackHorizonMs: z.number().int().min(1).default(HOUR_MS),
    sigmaFloor: z.number().min(0).max(10).default(0.02),
    inventoryUnit: sizeParam.default(10n * ONE),
    volWindowMs: z.number().int().min(1000).default(900_000),
    maxSamples: z.number().int().min(2).max(100_000).default(900),
    minHalfSpreadTicks: z.number().int().min(1).max(500).default(1),
    maxHalfSpreadTicks: z.number().int().min(1).max(500).default(100),
  })
  .refine((p) => p.maxHalfSpreadTicks >= p.minHalfSpreadTicks, {
    message: "maxHalfSpreadTicks must be >= minHalfSpreadTicks",
    path: ["maxHalfSpreadTicks"],
  });

export type AvellanedaStoikovParams = z.output<typeof avellanedaStoikovParamsSchema>;
export type AvellanedaStoikovState = MidHistory;

type Ctx = StrategyContext<AvellanedaStoikovParams, AvellanedaStoikovState>;

export interface AsInputs {
  s: number;
  q: number;
  gamma: number;
  sigma: number;
  tau: number;
  k: number;
}

/** The closed-form reservation price and full optimal spread (probability units). */
export function asModel(x: AsInputs): { reservation: number; spread: number } {
  const risk = x.gamma * x.sigma * x.sigma * x.tau;
  return {
    reservation: x.s - x.q * risk,
    spread: risk + (2 / x.gamma) * Math.log1p(x.gamma / x.k),
  };
}

/** Time left to T in units of timeUnitMs (see the header). */
export function horizonUnits(ctx: Ctx): number {
  const p = ctx.params;
  const left = ctx.timeToCloseMs ?? (ctx.closesAtMs === null ? null : ctx.closesAtMs - ctx.nowMs);
  const ms = left === null ? p.fallbackHorizonMs : Math.min(Math.max(left, 0), p.maxHorizonMs);
  return ms / p.timeUnitMs;
}

/** Every model input for this context, given the reference price `s`. */
export function asInputs(ctx: Ctx, s: number): AsInputs {
  const p = ctx.params;
  const net = netExposure(ctx.inventory, ctx.quoteOutcome ?? 0, ctx.outcomeCount);
  const measured = volatility(ctx.state?.samples ?? [], p.timeUnitMs);
  return {
    s,
    q: Number(net) / Number(p.inventoryUnit),
    gamma: p.gamma,
    sigma: Math.max(measured ?? 0, p.sigmaFloor),
    tau: horizonUnits(ctx),
    k: p.k,
  };
}

export const avellanedaStoikov: Strategy<AvellanedaStoikovParams, AvellanedaStoikovState> = {
  name: "avellaneda-stoikov",
  description: "reservation price and optimal spread from risk aversion, arrival intensity and volatility, horizon at closesAt",
  paramsSchema: avellanedaStoikovParamsSchema,
  reduce(prev: AvellanedaStoikovState | undefined, ctx: Ctx): AvellanedaStoikovState {
    const taken = historyPrice(ctx.book, ctx.params.reference, ctx.recentTrades, prev);
    return recordHistory(prev, ctx.nowMs, taken, ctx.params.volWindowMs, ctx.params.maxSamples);
  },
  quote(ctx: Ctx): DesiredQuote[] {
    if (!isQuotingPhase(ctx.phase)) return [];
    const p = ctx.params;
    const s = referencePrice(ctx.book, p.reference, ctx.recentTrades, p.fallbackPrice);
    if (s === null) return [];
    const { reservation, spread } = asModel(asInputs(ctx, s));
    const half = Math.min(Math.max(spread / 2, p.minHalfSpreadTicks * TICK_PROB), p.maxHalfSpreadTicks * TICK_PROB);
    return buildQuotes(ctx, { bid: reservation - half, ask: reservation + half });
  },
};
