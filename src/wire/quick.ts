/**
 * Hand-written checks for the few wire shapes read or sent on the order hot path, beside their zod
 * schemas: the order book answer (every poll, just before a quote cycle) and the cancel bodies
 * (checked before every cancel leaves). Only where one measures faster than the schema
 * (bench/wire-quick.bench.ts): the cancel answers were tried and zod reads them as fast.
 *
 * The contract, tested against the schemas on generated and mutated inputs
 * (test/wire/quick.test.ts): a quick check either says nothing (undefined), and the schema then
 * decides with its own errors, or returns exactly what the schema would have returned. It never
 * accepts what the schema refuses, so it can only be narrower than the schema, never wider.
 */
import type { z } from "zod";
import { tryParseMicros } from "../core/money.js";

/** A quick check: the schema's output for `value`, or undefined to leave it to the schema. */
export type Quick = (value: unknown) => unknown;

const QUICK = new Map<z.ZodType, Quick>();

/** Give `schema` a quick check (next to the schema's definition; see the contract above). */
export function registerQuick(schema: z.ZodType, quick: Quick): void {
  QUICK.set(schema, quick);
}

/** `schema.safeParse(value)`, through the schema's quick check first when it has one. */
export function safeParseQuick<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const quick = QUICK.get(schema);
  if (quick !== undefined) {
    const data = quick(value);
    if (data !== undefined) return { success: true, data: data as z.output<S> };
  }
  return schema.safeParse(value);
}

/** The quick check of `schema`, if it has one (tests). */
export function quickCheckOf(schema: z.ZodType): Quick | undefined {
  return QUICK.get(schema);
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A plain data object (what JSON.parse makes), without a `__proto__` key of its own: anything else goes to the schema. */
export function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && !hasOwn(v, "__proto__");
}

export function onlyKey(o: Record<string, unknown>, key: string): boolean {
  const keys = Object.keys(o);
  return keys.length === 1 && keys[0] === key;
}

export function isNonEmptyString(v: unknown): v is string {
  return typeof v === "string" && v.length > 0;
}

/** A micros string (money.ts exact rules) within [lo, hi] (hi undefined: no upper bound). */
export function isMicrosIn(v: unknown, lo: bigint, hi?: bigint): v is string {
  if (typeof v !== "string") return false;
  const m = tryParseMicros(v, "exact");
  return m !== undefined && m >= lo && (hi === undefined || m <= hi);
}

/** wire amountString: a non-negative micros string. */
export function isAmount(v: unknown): v is string {
  return isMicrosIn(v, 0n);
}

/**
 * What a loose object schema returns: the shape's keys first, in the shape's order (`checked`
 * values where given; an optional key the input lacks stays absent), then the input's other keys
 * in their order.
 */
export function looseOutput(o: Record<string, unknown>, shape: readonly string[], checked: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of shape) {
    if (hasOwn(checked, k)) out[k] = checked[k];
    else if (hasOwn(o, k)) out[k] = o[k];
  }
  for (const k of Object.keys(o)) if (!shape.includes(k)) out[k] = o[k];
  return out;
}

