/**
 * A deployment's own numbers for buckets of the 8.2 table. The spec calls its numbers "default
 * values": an environment may run others (a staging platform with smaller buckets, a simulator
 * scaled down so a test can reach an ip bucket's limit in seconds). The client's gate and the
 * simulator's limiter take the same overrides, so they agree on every bucket.
 *
 * Shape, in a daemon config (`platform.rateLimits`) and in a scenario (`platform.rateLimits`):
 *
 *   rateLimits:
 *     orders-post-ip: { limit: 600, windowSec: 10 }
 *
 * Keys are bucket ids of the table (RATE_TABLE); an unknown id is refused with the known ones named.
 */
import { z } from "zod";
import { DEFAULT_RATE_TABLE, RATE_TABLE, RateTable, type BucketRule } from "./table.js";

export interface BucketOverride {
  readonly limit?: number | undefined;
  readonly windowSec?: number | undefined;
}
export type BucketOverrides = Readonly<Record<string, BucketOverride | undefined>>;

/** Every bucket id of the table, in table order. */
export const BUCKET_IDS: readonly string[] = RATE_TABLE.map((r) => r.id);

const overrideSchema = z
  .strictObject({
    limit: z.int().min(1).max(1_000_000_000).optional(),
    windowSec: z.int().min(1).max(86_400).optional(),
  })
  .refine((o) => o.limit !== undefined || o.windowSec !== undefined, "give limit, windowSec or both");

/** The overrides as a config or scenario section: bucket id -> { limit?, windowSec? }. */
export function bucketOverridesSchema() {
  const id = z.string().refine((k) => BUCKET_IDS.includes(k), { error: (i) => `unknown rate bucket "${String(i.input)}" (known: ${BUCKET_IDS.join(", ")})` });
  // The key's own message, not zod's "Invalid key in record" around it.
  return z.record(id, overrideSchema, { error: (i) => (i.code === "invalid_key" ? i.issues[0]?.message : undefined) });
}

/** The table with `overrides` applied; the default table itself when there are none. Throws RangeError on an unknown id. */
export function rateTableWith(overrides: BucketOverrides | undefined): RateTable {
  if (overrides === undefined) return DEFAULT_RATE_TABLE;
  const ids = Object.keys(overrides).filter((id) => overrides[id] !== undefined);
  if (ids.length === 0) return DEFAULT_RATE_TABLE;
  const unknown = ids.filter((id) => !BUCKET_IDS.includes(id));
  if (unknown.length > 0) throw new RangeError(`unknown rate bucket ${unknown.map((u) => `"${u}"`).join(", ")} (known: ${BUCKET_IDS.join(", ")})`);
  return new RateTable(RATE_TABLE.map((r): BucketRule => {
    const o = overrides[r.id];
    return o === undefined ? r : { ...r, limit: o.limit ?? r.limit, windowSec: o.windowSec ?? r.windowSec };
  }));
}

/** The gate's options from a config's `platform` section: tier, safety margin, the environment's table. */
export function platformGateOptions(p: { rateLimitPerMin: number; rateSafetyMargin: number; rateLimits?: BucketOverrides | undefined }): {
  rateLimitPerMin: number;
  safetyMargin: number;
  table: RateTable;
} {
  return { rateLimitPerMin: p.rateLimitPerMin, safetyMargin: p.rateSafetyMargin, table: rateTableWith(p.rateLimits) };
}
