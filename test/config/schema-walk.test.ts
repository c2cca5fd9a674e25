/**
 * Walking a zod schema next to a value: the keys a mapping accepts at a path (through wrappers,
 * pipes, arrays, records and every union option), and money fields given as YAML numbers read
 * from their source text instead of the double, for plain decimals only.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { moneyField, priceField } from "../../src/config/fields.js";
import { knownKeysAt, markMoney, moneyFromSource } from "../../src/config/schema-walk.js";

const schema = z.strictObject({
  cash: moneyField(),
  count: z.number(),
  risk: z.strictObject({ maxNotional: moneyField({ positive: true }).optional(), levels: z.int().optional() }).prefault({}),
  quotes: z.array(z.strictObject({ price: priceField(), size: moneyField().default(1n) })),
  budgets: z.record(z.string(), moneyField()),
  venue: z.union([z.strictObject({ kind: z.literal("sim"), fee: moneyField() }), z.strictObject({ kind: z.literal("live"), url: z.string() })]),
  piped: z
    .strictObject({ limit: moneyField() })
    .transform((v) => v.limit)
    .optional(),
});

describe("knownKeysAt", () => {
  it("the top level's keys", () => {
    expect(knownKeysAt(schema, [])).toEqual(["cash", "count", "risk", "quotes", "budgets", "venue", "piped"]);
  });

  it("looks through prefault / optional wrappers and the input side of a pipe", () => {
    expect(knownKeysAt(schema, ["risk"])).toEqual(["maxNotional", "levels"]);
    expect(knownKeysAt(schema, ["piped"])).toEqual(["limit"]);
  });

  it("an array's element by numeric index, a record's value type by any key", () => {
    expect(knownKeysAt(schema, ["quotes", 3])).toEqual(["price", "size"]);
    expect(knownKeysAt(schema, ["quotes", "3"])).toEqual([]);
    expect(knownKeysAt(z.record(z.string(), z.object({ a: z.number() })), ["anything"])).toEqual(["a"]);
  });

  it("a union offers every option's keys, once each", () => {
    expect(knownKeysAt(schema, ["venue"])).toEqual(["kind", "fee", "url"]);
  });

  it("an unknown path or a leaf: no keys", () => {
    expect(knownKeysAt(schema, ["nope"])).toEqual([]);
    expect(knownKeysAt(schema, ["cash"])).toEqual([]);
    expect(knownKeysAt(schema, ["risk", "levels", "deeper"])).toEqual([]);
  });
});

describe("moneyFromSource", () => {
  /** The source text at each path, as a YAML file would have it. */
  const sourceOf =
    (texts: Record<string, string>) =>
    (path: readonly PropertyKey[]): string | undefined =>
      texts[path.map(String).join(".")];

  it("replaces numbers at money fields with their source text; other numbers stay numbers", () => {
    const value = { cash: 0.1, count: 0.1, risk: { maxNotional: 50.5, levels: 3 } };
    const out = moneyFromSource(schema, value, sourceOf({ cash: "0.10", count: "0.1", "risk.maxNotional": " 50.5 ", "risk.levels": "3" }));
    expect(out).toEqual({ cash: "0.10", count: 0.1, risk: { maxNotional: "50.5", levels: 3 } });
    expect(value.cash).toBe(0.1); // a copy: the input is not changed
  });

  it("walks arrays, records, union options and pipes", () => {
    const out = moneyFromSource(
      schema,
      { quotes: [{ price: 0.45, size: 10 }], budgets: { w1: 2.5 }, venue: { kind: "sim", fee: 0.002 }, piped: { limit: 7 } },
      sourceOf({ "quotes.0.price": "0.45", "quotes.0.size": "10", "budgets.w1": "2.5", "venue.fee": "0.002", "piped.limit": "7" }),
    );
    expect(out).toEqual({ quotes: [{ price: "0.45", size: "10" }], budgets: { w1: "2.5" }, venue: { kind: "sim", fee: "0.002" }, piped: { limit: "7" } });
  });

  it("reads plain decimals only: a leading + is dropped, exponents, hex and .inf stay numbers", () => {
    const at = (text: string, n: number): unknown => (moneyFromSource(schema, { cash: n }, () => text) as { cash: unknown }).cash;
    expect(at("+0.25", 0.25)).toBe("0.25");
    expect(at("-3", -3)).toBe("-3");
    expect(at(".5", 0.5)).toBe(".5");
    expect(at("5.", 5)).toBe("5.");
    expect(at("1e2", 100)).toBe(100);
    expect(at("0x10", 16)).toBe(16);
    expect(at(".inf", Infinity)).toBe(Infinity);
  });

  it("no source text (a value that did not come from the file): the number stays", () => {
    expect(moneyFromSource(schema, { cash: 12.5 }, () => undefined)).toEqual({ cash: 12.5 });
  });

  it("strings, booleans and null are left as they are, and unknown keys are copied untouched", () => {
    const value = { cash: "1.5", risk: null, extra: { n: 0.3 }, count: true };
    expect(moneyFromSource(schema, value, () => "9")).toEqual(value);
  });

  it("markMoney marks any schema, and returns it", () => {
    const plain = z.unknown();
    expect(markMoney(plain)).toBe(plain);
    expect(moneyFromSource(z.object({ m: plain }), { m: 1.5 }, () => "1.50")).toEqual({ m: "1.50" });
    expect(moneyFromSource(z.object({ m: z.unknown() }), { m: 1.5 }, () => "1.50")).toEqual({ m: 1.5 });
  });
});
