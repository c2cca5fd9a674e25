/**
 * `record:` in the daemon config: the running daemon records into a data set (docs/backtest.md,
 * "Recording from inside the daemon") what the platform publishes for its markets and what the
 * daemon itself did: its order requests, the platform's acknowledgements, its fills and its
 * request latencies. Absent: nothing is recorded.
 *
 *   record:
 *     dir: ./data/run-1            # the data set (created, or resumed); relative to the config file
 *     markets: [BTC-100K-DEC]      # market data of these symbols; absent: the markets the daemon quotes
 *     rotateMb: 64                 # seal the segment into Parquet after this much line log
 *     rotateMinutes: 60            # ... or after this long (0: never by time)
 *     include: [books, trades, orders, fills, latencies]   # what to record; absent: all of it
 */
import { z } from "zod";
import { pathField, type LoadContext } from "./fields.js";

export const RECORD_KINDS = ["books", "trades", "orders", "fills", "latencies"] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export function recordSectionSchema(ctx: LoadContext) {
  return z.strictObject({
    dir: pathField(ctx),
    markets: z
      .array(z.string().min(1, "a market symbol must not be empty"))
      .min(1, "list at least one market symbol, or leave markets out to record the markets the daemon quotes")
      .refine((l) => new Set(l).size === l.length, "a market symbol is listed twice")
      .optional(),
    rotateMb: z.number().gt(0, "must be above 0 MiB").max(65_536, "must be at most 65536 MiB").default(64),
    rotateMinutes: z.int().min(0).max(1440).default(60),
    include: z
      .array(z.enum(RECORD_KINDS))
      .min(1, `list at least one of ${RECORD_KINDS.join(", ")}, or leave include out to record all of them`)
      .refine((l) => new Set(l).size === l.length, "a kind is listed twice")
      .default([...RECORD_KINDS]),
  });
}

export type RecordSettings = z.output<ReturnType<typeof recordSectionSchema>>;
