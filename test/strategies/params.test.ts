/** The param schemas every strategy shares: decimal strings or numbers to bigint micros, the price grid, strictness. */
import { describe, expect, it } from "vitest";
import { bandParam, commonParamsSchema, microsParam, priceParam, sizeParam } from "../../strategies/params.js";
import { MAX_PRICE, MIN_PRICE } from "../../src/core/amounts.js";
import { ONE, parseMicros } from "../../src/core/money.js";

const ok = <T>(r: { success: true; data: T } | { success: false }): T => {
  if (!r.success) throw new Error("expected the value to parse");
  return r.data;
};
const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }): string[] => (r.error?.issues ?? []).map((i) => i.path.join("."));

describe("microsParam", () => {
  it("reads decimal strings and plain numbers exactly, to micros", () => {
    expect(ok(microsParam.safeParse("12.5"))).toBe(12_500_000n);
    expect(ok(microsParam.safeParse(12.5))).toBe(12_500_000n);
    expect(ok(microsParam.safeParse(" 0.000001 "))).toBe(1n);
    expect(ok(microsParam.safeParse(0.1))).toBe(100_000n); // the shortest decimal form, not 0.1000000000000000055...
  });

  it("refuses more than six decimals, non-numbers and non-finite numbers", () => {
    expect(microsParam.safeParse("0.0000001").success).toBe(false);
    expect(microsParam.safeParse("ten").success).toBe(false);
    expect(microsParam.safeParse(Number.NaN).success).toBe(false);
    expect(microsParam.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
    expect(microsParam.safeParse(true).success).toBe(false);
  });
});

describe("sizeParam and priceParam", () => {
  it("a size must be above zero", () => {
    expect(ok(sizeParam.safeParse("0.000001"))).toBe(1n);
    expect(sizeParam.safeParse("0").success).toBe(false);
    expect(sizeParam.safeParse("-1").success).toBe(false);
  });

  it("a price must sit on the 0.001 grid inside [0.001, 0.999]", () => {
    expect(ok(priceParam.safeParse("0.001"))).toBe(MIN_PRICE);
    expect(ok(priceParam.safeParse(0.999))).toBe(MAX_PRICE);
    expect(ok(priceParam.safeParse("0.45"))).toBe(parseMicros("0.45"));
    for (const bad of ["0", "1", "0.4505", "0.0005", "-0.5"]) expect(priceParam.safeParse(bad).success, bad).toBe(false);
  });
});

describe("bandParam", () => {
  it("defaults to the whole grid and refuses max below min, naming max", () => {
    expect(ok(bandParam.safeParse({}))).toEqual({ min: MIN_PRICE, max: MAX_PRICE });
    expect(ok(bandParam.safeParse({ min: "0.2", max: "0.2" }))).toEqual({ min: parseMicros("0.2"), max: parseMicros("0.2") });
    const r = bandParam.safeParse({ min: "0.6", max: "0.4" });
    expect(r.success).toBe(false);
    expect(paths(r)).toEqual(["max"]);
    expect(bandParam.safeParse({ min: "0.2", mx: "0.4" }).success).toBe(false);
  });
});

describe("commonParamsSchema", () => {
  it("fills in the defaults", () => {
    expect(ok(commonParamsSchema.safeParse({}))).toEqual({
      size: 10n * ONE,
      levels: 1,
      levelSpacingTicks: 1,
      postOnly: true,
      band: { min: MIN_PRICE, max: MAX_PRICE },
      minSize: 1n,
      reference: "mid",
    });
  });

  it("refuses a misspelt key instead of silently using the default", () => {
    const r = commonParamsSchema.safeParse({ sise: "5" });
    expect(r.success).toBe(false);
  });

  it("names the param of a bad value", () => {
    expect(paths(commonParamsSchema.safeParse({ levels: 0 }))).toEqual(["levels"]);
    expect(paths(commonParamsSchema.safeParse({ levels: 1.5 }))).toEqual(["levels"]);
    expect(paths(commonParamsSchema.safeParse({ fallbackPrice: "0.4505" }))).toEqual(["fallbackPrice"]);
    expect(paths(commonParamsSchema.safeParse({ reference: "last" }))).toEqual(["reference"]);
    expect(paths(commonParamsSchema.safeParse({ band: { min: "0.9", max: "0.1" } }))).toEqual(["band.max"]);
  });
});
