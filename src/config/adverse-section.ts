/**
 * `adverse:` in the daemon config: adverse selection (issue 14 part 4) and live markouts (issue 13
 * item 3). Off by default: without the section the daemon measures its markouts (metrics only) and
 * changes no quote.
 *
 *   adverse:
 *     markouts: true              # measure own fills' markouts at 1 s, 5 s, 30 s, 60 s, 5 min (metrics)
 *     maxPendingMarkouts: 10000   # fill x horizon entries waiting at most (more are dropped, counted)
 *     toxicity:                   # absent: no toxicity control
 *       horizonSec: 5             # the markout horizon the estimate reads: 1, 5, 30, 60 or 300
 *       fills: 20                 # the estimate reads the side's last N fills ...
 *       windowSec: 600            # ... no older than this
 *       minFills: 5               # no action with fewer fills
 *       widenEnterTicks: 1        # widen when the average markout is at or below -1 tick per share
 *       widenExitTicks: 0.5       # back to normal when above -0.5 tick (after coolingSec)
 *       pullEnterTicks: 3         # pull the side at or below -3 ticks
 *       coolingSec: 60            # least time widened; how long a pull lasts
 *       widenTicks: 2             # widen: the side's price moves this many ticks away
 *       sizeFactor: 0.5           # widen: the side's size times this
 *     jump:                       # absent: no jump detector
 *       thresholdTicks: 20        # the mid moving more than 20 ticks (0.02) ...
 *       windowSec: 5              # ... within 5 s is a jump
 *       coolingSec: 30            # every quote of the market pulled this long
 *
 * A tick is the price grid's 0.001 (1,000 micros); tick figures may have up to 3 decimals (micros).
 */
import { z } from "zod";
import type { Micros } from "../core/money.js";

/** The markout horizons (s) of the report and the live histograms (src/bot/quote/adverse/markout.ts). */
export const ADVERSE_HORIZONS_SEC = [1, 5, 30, 60, 300] as const;

/** Ticks (up to 3 decimals) as micros per share. */
function ticksField(min: number, max: number) {
  return z
    .number()
    .min(min)
    .max(max)
    .refine((t) => Math.abs(t * 1000 - Math.round(t * 1000)) < 1e-6, "expected at most 3 decimals (the tick is 1,000 micros)")
    .transform((t): Micros => BigInt(Math.round(t * 1000)));
}

function toxicitySchema() {
  return z
    .strictObject({
      horizonSec: z
        .number()
        .refine((h) => (ADVERSE_HORIZONS_SEC as readonly number[]).includes(h), `expected one of the markout horizons ${ADVERSE_HORIZONS_SEC.join(", ")} (seconds)`)
        .default(5),
      fills: z.int().min(1).max(1_000).default(20),
      windowSec: z.int().min(1).max(86_400).default(600),
      minFills: z.int().min(1).max(1_000).default(5),
      widenEnterTicks: ticksField(0, 1_000).prefault(1),
      widenExitTicks: ticksField(0, 1_000).prefault(0.5),
      pullEnterTicks: ticksField(0, 1_000).prefault(3),
      coolingSec: z.int().min(1).max(86_400).default(60),
      widenTicks: z.int().min(0).max(500).default(2),
      sizeFactor: z.number().gt(0).max(1).default(0.5),
    })
    .superRefine((t, c) => {
      if (t.minFills > t.fills) c.addIssue({ code: "custom", path: ["minFills"], message: `must be at most fills (${t.fills})` });
      if (t.widenExitTicks > t.widenEnterTicks) c.addIssue({ code: "custom", path: ["widenExitTicks"], message: "must be at most widenEnterTicks (the exit level is the less toxic one)" });
      if (t.pullEnterTicks < t.widenEnterTicks) c.addIssue({ code: "custom", path: ["pullEnterTicks"], message: "must be at least widenEnterTicks" });
    });
}

function jumpSchema() {
  return z.strictObject({
    thresholdTicks: ticksField(0.001, 1_000).prefault(20),
    windowSec: z.number().gt(0).max(3_600).default(5),
    coolingSec: z.number().gt(0).max(86_400).default(30),
  });
}

export function adverseSectionSchema() {
  return z
    .strictObject({
      markouts: z.boolean().default(true),
      maxPendingMarkouts: z.int().min(1).max(1_000_000).default(10_000),
      toxicity: toxicitySchema().optional(),
      jump: jumpSchema().optional(),
    })
    .prefault({});
}

export type AdverseSettings = z.output<ReturnType<typeof adverseSectionSchema>>;
