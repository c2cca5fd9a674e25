/**
 * Walking the config schema alongside a config value, for what zod's issues do not carry:
 *  - the keys a mapping accepts, so an unknown key gets "did you mean" (knownKeysAt);
 *  - where the money fields are, so a YAML number written there is read from its source text
 *    instead of from the double YAML parsed it into (moneyFromSource).
 *
 * It reads zod's definitions (`_zod.def`): wrappers (default, prefault, optional, ...) are
 * looked through, pipes by their input side, objects by their shape, arrays by their element,
 * records by their value type, unions by every option.
 */
import type { z } from "zod";

type Schema = z.core.$ZodType;

interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
  options?: Schema[];
}

const MONEY = new WeakSet<Schema>();

/** Mark a schema as a money amount (fields.ts: moneyField, priceField). */
export function markMoney<T extends Schema>(schema: T): T {
  MONEY.add(schema);
  return schema;
}

function defOf(s: Schema): Def {
  return (s as unknown as { _zod: { def: Def } })._zod.def;
}

const WRAPPERS = new Set(["default", "prefault", "optional", "nullable", "nonoptional", "readonly", "catch"]);

/** The schemas one level in (a wrapper or pipe unwrapped), the first being `s` itself. */
function layers(s: Schema): Schema[] {
  const out: Schema[] = [];
  let current: Schema | undefined = s;
  while (current !== undefined && out.length < 32) {
    out.push(current);
    const def = defOf(current);
    current = WRAPPERS.has(def.type) ? def.innerType : def.type === "pipe" ? def.in : undefined;
  }
  return out;
}

function isMoney(s: Schema): boolean {
  return layers(s).some((l) => MONEY.has(l));
}

/** The schemas that describe the child `key` of a value of schema `s`. */
function childSchemas(s: Schema, key: PropertyKey): Schema[] {
  const out: Schema[] = [];
  for (const l of layers(s)) {
    const def = defOf(l);
    if (def.type === "object" && def.shape !== undefined && typeof key === "string" && def.shape[key] !== undefined) out.push(def.shape[key]);
    else if (def.type === "array" && def.element !== undefined && typeof key === "number") out.push(def.element);
    else if (def.type === "record" && def.valueType !== undefined && typeof key === "string") out.push(def.valueType);
    else if (def.type === "union" && def.options !== undefined) for (const o of def.options) out.push(...childSchemas(o, key));
  }
  return out;
}

function objectKeys(s: Schema): string[] {
  const out: string[] = [];
  for (const l of layers(s)) {
    const def = defOf(l);
    if (def.type === "object" && def.shape !== undefined) out.push(...Object.keys(def.shape));
    else if (def.type === "union" && def.options !== undefined) for (const o of def.options) out.push(...objectKeys(o));
  }
  return out;
}

/** The keys the mapping at `path` accepts (every union option's), empty when unknown. */
export function knownKeysAt(schema: Schema, path: readonly PropertyKey[]): string[] {
  let here: Schema[] = [schema];
  for (const key of path) here = here.flatMap((s) => childSchemas(s, key));
  return [...new Set(here.flatMap(objectKeys))];
}

/**
 * A copy of `value` where every number sitting at a money field is replaced by `source(path)`,
 * the text the YAML file has there, when that text is a plain decimal (`50.5`, `-3`, `+0.25`);
 * other spellings (`1e2`, `0x10`, `.inf`) stay numbers, which the money field refuses with a hint
 * to quote them.
 */
export function moneyFromSource(schema: Schema, value: unknown, source: (path: readonly PropertyKey[]) => string | undefined): unknown {
  const walk = (schemas: Schema[], v: unknown, path: PropertyKey[]): unknown => {
    if (schemas.length === 0) return v;
    if (typeof v === "number") {
      if (!schemas.some(isMoney)) return v;
      const text = source(path)?.trim();
      return text !== undefined && /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? text.replace(/^\+/, "") : v;
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(schemas.flatMap((s) => childSchemas(s, i)), item, [...path, i]));
    if (typeof v === "object" && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(schemas.flatMap((s) => childSchemas(s, k)), item, [...path, k]);
      return out;
    }
    return v;
  };
  return walk([schema], value, []);
}
