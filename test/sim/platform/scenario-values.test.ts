/**
 * The value types of scenario files (src/sim/platform/scenario-values.ts): durations as ms or
 * text, and decimal amounts, quantities and prices parsed to micros from strings (or safe
 * integers), never through a float; each refusal says what was expected and what came.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { amount, decimal, duration, probabilityPrice, quantity } from "../../../src/sim/platform/scenario-values.js";

/** The one issue message of a refused value. */
function refusal(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  if (r.success) throw new Error(`accepted ${JSON.stringify(value)}`);
  expect(r.error.issues).toHaveLength(1);
  return r.error.issues[0]!.message;
}

describe("duration", () => {
  it("reads a whole number of ms, or text in ms, s, m, h, d", () => {
    expect(duration.parse(0)).toBe(0);
    expect(duration.parse(2500)).toBe(2500);
    expect(duration.parse("250ms")).toBe(250);
    expect(duration.parse("10s")).toBe(10_000);
    expect(duration.parse("1h30m")).toBe(5_400_000);
  });

  it("refuses negative or fractional numbers and text that is no duration", () => {
    expect(duration.safeParse(-1).success).toBe(false);
    expect(duration.safeParse(1.5).success).toBe(false);
    expect(refusal(duration, "soon")).toBe('expected a duration such as 10s, 250ms or 1h30m, got "soon"');
    expect(duration.safeParse(true).success).toBe(false);
  });
});

describe("amount, quantity and probabilityPrice", () => {
  it("read decimal strings exactly, at most 6 decimals", () => {
    expect(amount.parse("0")).toBe(0n);
    expect(amount.parse("1000.5")).toBe(1_000_500_000n);
    expect(quantity.parse("0.000001")).toBe(1n);
    expect(probabilityPrice.parse("0.55")).toBe(550_000n);
    expect(probabilityPrice.parse("0.999999")).toBe(999_999n);
  });

  it("take safe integers unquoted", () => {
    expect(amount.parse(250)).toBe(250_000_000n);
    expect(quantity.parse(3)).toBe(3_000_000n);
  });

  it("refuse numbers with a fraction, which would have passed through a float", () => {
    expect(refusal(probabilityPrice, 0.55)).toBe('a price strictly between 0 and 1: quote decimal values ("0.55"), got the number 0.55');
    expect(refusal(amount, 1.5)).toContain("got the number 1.5");
  });

  it("refuse values out of range or not decimal, saying what was expected", () => {
    expect(refusal(amount, "-1")).toBe('expected a non-negative decimal string with at most 6 decimals, got "-1"');
    expect(refusal(amount, "1.0000001")).toBe('expected a non-negative decimal string with at most 6 decimals, got "1.0000001"');
    expect(refusal(quantity, "0")).toBe('expected a positive decimal quantity with at most 6 decimals, got "0"');
    expect(refusal(probabilityPrice, "1")).toBe('expected a price strictly between 0 and 1, got "1"');
    expect(refusal(probabilityPrice, "0")).toBe('expected a price strictly between 0 and 1, got "0"');
    expect(refusal(probabilityPrice, 0)).toBe("expected a price strictly between 0 and 1, got 0");
    expect(refusal(amount, "ten")).toBe('expected a non-negative decimal string with at most 6 decimals, got "ten"');
    expect(amount.safeParse(null).success).toBe(false);
  });
});

describe("decimal", () => {
  it("builds a schema with its own rule and wording", () => {
    const even = decimal("an even number of whole units", (m) => m % 2_000_000n === 0n);
    expect(even.parse("4")).toBe(4_000_000n);
    expect(refusal(even, "3")).toBe('expected an even number of whole units, got "3"');
    expect(refusal(even, 2.5)).toBe('an even number of whole units: quote decimal values ("0.55"), got the number 2.5');
  });
});
