/**
 * `autoMerge:` in the daemon config (issue 14 part 2; src/bot/vault/auto-merge.ts,
 * src/bot/engine/auto-merge-runner.ts, docs/operations.md "Auto-merge"): holding both YES and NO
 * of a binary market ties up capital that a merge returns as cash. Off by default.
 *
 *   autoMerge:
 *     enabled: false           # merge YES+NO pairs of the markets we hold
 *     threshold: "50"          # start a merge once a market's pair (min of YES and NO, shares) reaches this
 *     minSize: "5"             # never send a merge smaller than this (shares); at most threshold
 *     checkIntervalSec: 15     # how often pending merges are polled and pairs looked at
 *
 * A merge is never started while the wallet has an order (live or in flight) in that market, nor
 * while another merge of it is pending; amounts are whole shares.
 */
import { z } from "zod";
import { moneyField } from "./fields.js";
import type { Micros } from "../core/money.js";

export interface AutoMergeSettings {
  enabled: boolean;
  threshold: Micros;
  minSize: Micros;
  checkIntervalSec: number;
}

const ONE_SHARE = 1_000_000n;

export function autoMergeSectionSchema() {
  return z
    .strictObject({
      enabled: z.boolean().default(false),
      threshold: moneyField({ min: ONE_SHARE }).default(50_000_000n),
      minSize: moneyField({ min: ONE_SHARE }).default(5_000_000n),
      checkIntervalSec: z.int().min(1).max(3_600).default(15),
    })
    .prefault({})
    .refine((s) => s.minSize <= s.threshold, { message: "minSize must not exceed threshold (no pair that triggers a merge could be merged)", path: ["minSize"] });
}
