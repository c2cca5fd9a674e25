/**
 * Value types shared by the scenario schema and its flow section (flow-schema.ts): durations and
 * decimal amounts, prices and quantities parsed to micros without ever passing through a float.
 */
import { z } from "zod";
import { tryParseMicros, SCALE, type Micros } from "../../core/money.js";
import { parseDurationMs } from "./time.js";

/** A duration: a number of ms, or text such as `250ms`, `10s`, `1h30m`. */
export const duration = z.union([z.number().int().nonnegative(), z.string()]).transform((v, ctx): number => {
  if (typeof v === "number") return v;
  const ms = parseDurationMs(v);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `expected a duration such as 10s, 250ms or 1h30m, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return ms;
});

/** Decimal amount as a string (integers may be unquoted); never through a float. */
export function decimal(what: string, ok: (m: Micros) => boolean) {
  return z.union([z.string(), z.number()]).transform((v, ctx): Micros => {
    if (typeof v === "number" && !Number.isSafeInteger(v)) {
      ctx.addIssue({ code: "custom", message: `${what}: quote decimal values ("0.55"), got the number ${v}` });
      return z.NEVER;
    }
    const m = tryParseMicros(String(v));
    if (m === undefined || !ok(m)) {
      ctx.addIssue({ code: "custom", message: `expected ${what}, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return m;
  });
}

export const amount = decimal("a non-negative decimal string with at most 6 decimals", (m) => m >= 0n);
export const quantity = decimal("a positive decimal quantity with at most 6 decimals", (m) => m > 0n);
export const probabilityPrice = decimal("a price strictly between 0 and 1", (m) => m > 0n && m < SCALE);
