/**
 * `mode: paper` (docs/backtest.md, "Paper trading"): the daemon reads a real platform's public
 * market data and never sends an order; its orders are matched locally (src/paper) by the fast
 * engine's exchange model against the books and trades it reads.
 *
 *   mode: paper
 *   platform:
 *     baseUrl: https://platform.example     # public reads go here
 *     apiKey: ${MM_API_KEY}                 # optional: sent on the public reads when given
 *   paper:
 *     seed: 1                # wallet keys without privateKey derive from it; latency draws
 *     startingCash: "10000"  # settlement token per wallet
 *     latency: { entryMs: 20, responseMs: 20 }
 *     queue: { model: risk-averse }         # prob-power | prob-log | prob-power-fraction (with n)
 *
 * Wallets may omit `privateKey` as in simulator mode (derived from `paper.seed`): nothing is ever
 * signed for a platform in paper mode.
 */
import { z } from "zod";
import { moneyField, secretField, textField, type LoadContext } from "./fields.js";

export const PAPER_QUEUE_MODELS = ["risk-averse", "prob-power", "prob-log", "prob-power-fraction"] as const;
export type PaperQueueModel = (typeof PAPER_QUEUE_MODELS)[number];

/** The public-read part of `platform:` in paper mode (the rate fields are added by schema.ts). */
export function paperPlatformFields(ctx: LoadContext) {
  return {
    baseUrl: textField(ctx).pipe(z.url({ protocol: /^https?$/, error: "expected an http(s) URL" })),
    /** Optional: public reads need no key; a key given is sent with them. */
    apiKey: secretField(ctx, "apiKey").optional(),
  };
}

const queueSchema = z
  .strictObject({
    model: z.enum(PAPER_QUEUE_MODELS).default("risk-averse"),
    /** The exponent of prob-power and prob-power-fraction (> 0); not taken by the others. */
    n: z.number().gt(0, "must be above 0").max(1_000).optional(),
  })
  .superRefine((q, c) => {
    const needsN = q.model === "prob-power" || q.model === "prob-power-fraction";
    if (needsN && q.n === undefined) c.addIssue({ code: "custom", path: ["n"], message: `queue model ${q.model} needs n (a number above 0)` });
    if (!needsN && q.n !== undefined) c.addIssue({ code: "custom", path: ["n"], message: `queue model ${q.model} takes no n` });
  })
  .prefault({});

export function paperSectionSchema() {
  return z
    .strictObject({
      seed: z.int().min(0).max(0xffff_ffff).default(1),
      /** Settlement token each wallet starts with. */
      startingCash: moneyField({ positive: true }).prefault("10000"),
      latency: z
        .strictObject({
          /** ms from a request leaving to the modelled exchange handling it. */
          entryMs: z.int().min(0).max(60_000).default(20),
          /** ms from the modelled exchange answering to the answer (or a fill notice) arriving. */
          responseMs: z.int().min(0).max(60_000).default(20),
        })
        .prefault({}),
      queue: queueSchema,
    })
    .prefault({});
}

export type PaperSettings = z.output<ReturnType<typeof paperSectionSchema>>;
