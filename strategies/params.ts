/**
 * Param schemas shared by the strategies. Money-like params (sizes, prices) are written in
 * configs as decimal strings ("10", "0.45") or plain YAML numbers and become bigint micros here;
 * a value with more than six decimals, or a price off the 0.001 grid, is refused with the
 * param's name. Objects are strict so a misspelt key is an error, not a silent default.
 */
import { z } from "zod";
import { MAX_PRICE, MIN_PRICE, PRICE_TICK } from "../src/core/amounts.js";
import { ONE, parseMicros, type Micros } from "../src/core/money.js";

/** A decimal amount in micros: "12.5" or 12.5 (numbers go through their shortest decimal form). */
export const microsParam = z.union([z.string(), z.number()]).transform((raw, ctx): Micros => {
  if (typeof raw === "number" && !Number.isFinite(raw)) {
    ctx.addIssue({ code: "custom", message: `expected a decimal number, got ${raw}` });
    return z.NEVER;
  }
  try {
    return parseMicros(String(raw).trim());
  } catch (err) {
    ctx.addIssue({ code: "custom", message: err instanceof Error ? err.message : "not a decimal number" });
    return z.NEVER;
  }
});

/** A positive amount of shares in micro-shares. */
export const sizeParam = microsParam.refine((v) => v > 0n, { message: "must be greater than 0" });

/** A price on the 0.001 grid inside [0.001, 0.999]. */
export const priceParam = microsParam.refine((v) => v >= MIN_PRICE && v <= MAX_PRICE && v % PRICE_TICK === 0n, {
  message: "must be a multiple of 0.001 in [0.001, 0.999]",
});

export const bandParam = z
  .strictObject({ min: priceParam.default(MIN_PRICE), max: priceParam.default(MAX_PRICE) })
  .refine((b) => b.min <= b.max, { message: "band.max must be >= band.min", path: ["max"] });

export type PriceBand = z.output<typeof bandParam>;

/** Params every strategy in this folder accepts (on top of its own). */
export const commonParamsShape = {
  /** Shares per ladder level. */
  size: sizeParam.default(10n * ONE),
  /** Price levels per side; level i sits i * levelSpacingTicks further from the top one. */
  levels: z.number().int().min(1).max(50).default(1),
  levelSpacingTicks: z.number().int().min(1).max(500).default(1),
  /** Forced true in pre_market whatever is set here. */
  postOnly: z.boolean().default(true),
  /** YES prices this strategy may quote; bids are clamped down into it, asks up. */
  band: bandParam.default({ min: MIN_PRICE, max: MAX_PRICE }),
  /** Pieces smaller than this (after inventory splits and caps) are not quoted. */
  minSize: sizeParam.default(1n),
  /** Net exposure (shares of the quoted outcome) beyond which the increasing side is not quoted. */
  maxInventory: sizeParam.optional(),
  /** Reference price when the book is empty and nothing has traded. */
  fallbackPrice: priceParam.optional(),
  /** Mid of best bid and ask, or the size-weighted microprice. */
  reference: z.enum(["mid", "microprice"]).default("mid"),
};

export const commonParamsSchema = z.strictObject(commonParamsShape);
export type CommonParams = z.output<typeof commonParamsSchema>;
