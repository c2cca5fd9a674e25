/**
 * The `flow` section of a scenario market: the synthetic traders of src/sim/flow, per market.
 *
 * The first keys are the original flow (a fair-value walk, resting liquidity, fair-anchored
 * takers). The four sections after them (`informed`, `news`, `noise`, `makers`) add the traders a
 * quoting strategy has to survive; each is off by default (rate or count 0), so a scenario written
 * before they existed runs exactly as it did. docs/simulator.md ("Synthetic flow") explains each.
 * Probability-unit quantities of the fair-value process are plain numbers (`jumpSize: 0.05`); book
 * prices and share quantities are decimal strings, as elsewhere in a scenario.
 */
import { z } from "zod";
import { duration, probabilityPrice, quantity } from "./scenario-values.js";

const SIZE_DISTS = ["fixed", "uniform", "lognormal"] as const;

/** Order sizes in shares: `fixed` (always mean), `uniform` on [min, max], `lognormal` around mean cut to [min, max]. */
function sizeSchema(min: bigint, max: bigint, mean: bigint) {
  return z
    .strictObject({
      dist: z.enum(SIZE_DISTS).default("lognormal"),
      min: quantity.default(min),
      max: quantity.default(max),
      mean: quantity.default(mean),
    })
    .prefault({})
    .superRefine((s, ctx) => {
      if (s.max < s.min) ctx.addIssue({ code: "custom", path: ["max"], message: "must be at least min" });
      else if (s.dist !== "uniform" && (s.mean < s.min || s.mean > s.max)) {
        ctx.addIssue({ code: "custom", path: ["mean"], message: "must be between min and max" });
      }
    });
}

const SHARE = 1_000_000n;

/** Informed takers: they see the true fair value (news included) and take what is priced on the wrong side of it. */
const informedSchema = z
  .strictObject({
    /** Looks at the book per minute (Poisson); 0: no informed flow. */
    arrivalPerMin: z.number().nonnegative().default(0),
    /** Takes only when the best ask is below fair - edge (or the best bid above fair + edge), and never past that price. */
    edge: probabilityPrice.default(5_000n),
    /** Shares per 0.01 of mispricing (fair - best ask, or best bid - fair). */
    sizePerCent: quantity.default(20n * SHARE),
    maxSize: quantity.default(200n * SHARE),
    /** Delay from a news jump to the informed look it triggers. */
    reactionMs: duration.default(0),
  })
  .prefault({});

/** News: fair-value jumps at Poisson times that informed flow learns of `headStartMs` before everyone else. */
const newsSchema = z
  .strictObject({
    ratePerMin: z.number().nonnegative().default(0),
    /** Jump size in probability units (sign 50/50): `exponential` with `mean` cut to [min, max], `uniform` on [min, max], `fixed` = mean. */
    size: z
      .strictObject({
        dist: z.enum(["fixed", "uniform", "exponential"]).default("exponential"),
        mean: z.number().positive().max(1).default(0.03),
        min: z.number().min(0).max(1).default(0),
        max: z.number().min(0).max(1).default(0.2),
      })
      .prefault({})
      .superRefine((s, ctx) => {
        if (s.max < s.min) ctx.addIssue({ code: "custom", path: ["max"], message: "must be at least min" });
        else if (s.dist === "fixed" && (s.mean < s.min || s.mean > s.max)) ctx.addIssue({ code: "custom", path: ["mean"], message: "must be between min and max" });
      }),
    /** How long after the jump the resting liquidity (the `liquidity` book and `makers`) reprices to it. */
    headStartMs: duration.default(2_000),
  })
  .prefault({});

/** Noise takers: uninformed, random outcome, side and size, priced off the book, not the fair value. */
const noiseSchema = z
  .strictObject({
    arrivalPerMin: z.number().nonnegative().default(0),
    size: sizeSchema(SHARE, 100n * SHARE, 10n * SHARE),
    /** How far past the best opposite price an order may fill (IOC limit = best ask + this for a buy). */
    maxSlippage: probabilityPrice.default(20_000n),
  })
  .prefault({});

/** Other market makers: passive post-only quotes around the public fair value that keep their queue place. */
const makersSchema = z
  .strictObject({
    count: z.number().int().min(0).max(20).default(0),
    /** Re-quotes per minute of each maker (Poisson); every maker also re-quotes when news becomes public. */
    refreshPerMin: z.number().positive().max(600).default(6),
    size: sizeSchema(5n * SHARE, 200n * SHARE, 40n * SHARE),
    /** Each quote sits a uniform random distance in [minOffset, maxOffset] from the public fair value. */
    minOffset: probabilityPrice.default(2_000n),
    maxOffset: probabilityPrice.default(8_000n),
  })
  .prefault({})
  .superRefine((m, ctx) => {
    if (m.maxOffset < m.minOffset) ctx.addIssue({ code: "custom", path: ["maxOffset"], message: "must be at least minOffset" });
  });

export const flowSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Random-walk volatility of the fair value (probability units per sqrt(minute)). */
  volPerSqrtMin: z.number().nonnegative().default(0.01),
  jumpProbPerMin: z.number().min(0).max(1).default(0.01),
  /** Typical jump size in probability units. */
  jumpSize: z.number().min(0).max(1).default(0.05),
  takerArrivalPerMin: z.number().nonnegative().default(4),
  takerSize: z
    .strictObject({
      dist: z.enum(SIZE_DISTS).default("lognormal"),
      min: quantity.default(SHARE),
      max: quantity.default(100n * SHARE),
      mean: quantity.default(10n * SHARE),
    })
    .prefault({}),
  liquidity: z
    .strictObject({
      levels: z.number().int().min(0).max(50).default(5),
      depthPerLevel: quantity.default(100n * SHARE),
      /** Distance of the first synthetic level from the fair value, each side. */
      halfSpread: probabilityPrice.default(10_000n),
      levelStep: probabilityPrice.default(10_000n),
    })
    .prefault({}),
  informed: informedSchema,
  news: newsSchema,
  noise: noiseSchema,
  makers: makersSchema,
});

export type FlowSchemaParams = z.output<typeof flowSchema>;
export type InformedParams = FlowSchemaParams["informed"];
export type NewsParams = FlowSchemaParams["news"];
export type NoiseParams = FlowSchemaParams["noise"];
export type MakersParams = FlowSchemaParams["makers"];
