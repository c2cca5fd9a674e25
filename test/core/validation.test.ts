/** Zod failures as messages a person can act on: the path of every bad value and what was wrong. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeZodError, formatPath, issuesOf, parseOrThrow, ValidationError } from "../../src/core/validation.js";

const market = z.object({
  symbol: z.string(),
  tradingWindow: z.object({ opensAt: z.string(), closesAt: z.string() }),
});
const page = z.object({ markets: z.array(market) });

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const r = schema.safeParse(value);
  if (r.success) throw new Error("expected a failure");
  return r.error;
}

describe("formatPath", () => {
  it("dots keys, brackets indexes, and names the root", () => {
    expect(formatPath(["markets", 2, "tradingWindow", "opensAt"])).toBe("markets[2].tradingWindow.opensAt");
    expect(formatPath([0, "a", 1, 2])).toBe("[0].a[1][2]");
    expect(formatPath([])).toBe("(root)");
    expect(formatPath([Symbol.for("s"), "x"])).toBe("Symbol(s).x");
  });
});

describe("issuesOf and describeZodError", () => {
  it("name the path of every bad value, in the order zod found them", () => {
    const err = errorOf(page, { markets: [{ symbol: "A", tradingWindow: { opensAt: "x", closesAt: "y" } }, { symbol: 7, tradingWindow: { opensAt: 1 } }] });
    const issues = issuesOf(err);
    expect(issues.map((i) => i.path)).toEqual(["markets[1].symbol", "markets[1].tradingWindow.opensAt", "markets[1].tradingWindow.closesAt"]);
    for (const i of issues) expect(i.message.length).toBeGreaterThan(0);
    expect(describeZodError(err)).toBe(issues.map((i) => `${i.path}: ${i.message}`).join("; "));
  });

  it("cuts a long list and says how many were left out", () => {
    const err = errorOf(z.array(z.string()), [1, 2, 3, 4, 5]);
    const text = describeZodError(err, 2);
    expect(text.startsWith("[0]: ")).toBe(true);
    expect(text).toContain("; [1]: ");
    expect(text).not.toContain("[2]:");
    expect(text.endsWith("; (3 more)")).toBe(true);
    expect(describeZodError(err, 5)).not.toContain("more");
  });

  it("a bad value at the top is at (root)", () => {
    expect(issuesOf(errorOf(z.string(), 5))[0]!.path).toBe("(root)");
  });

  it("a record key refused by its schema says why, not only that the key is invalid", () => {
    const grid = z.record(z.string().regex(/^risk\./, "a key under risk."), z.number());
    const [issue] = issuesOf(errorOf(grid, { "quoting.refreshMs": 1 }));
    expect(issue).toEqual({ path: "quoting.refreshMs", message: "Invalid key in record: a key under risk." });
    expect(describeZodError(errorOf(z.object({ grid }), { grid: { x: 1 } }))).toBe("grid.x: Invalid key in record: a key under risk.");
  });
});

describe("parseOrThrow", () => {
  it("returns the parsed value (with its transforms applied)", () => {
    expect(parseOrThrow(z.string().transform((s) => s.length), "four", "test input")).toBe(4);
  });

  it("throws a ValidationError naming the input and every bad path", () => {
    let caught: unknown;
    try {
      parseOrThrow(market, { symbol: 1, tradingWindow: {} }, "GET /api/markets/X");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    const e = caught as ValidationError;
    expect(e.name).toBe("ValidationError");
    expect(e.where).toBe("GET /api/markets/X");
    expect(e.issues.map((i) => i.path)).toEqual(["symbol", "tradingWindow.opensAt", "tradingWindow.closesAt"]);
    expect(e.message.startsWith("GET /api/markets/X: symbol: ")).toBe(true);
    expect(e.message).toContain("; tradingWindow.closesAt: ");
  });
});
