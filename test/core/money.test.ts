import { Decimal } from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MoneyError,
  SCALE,
  divRound,
  formatFixed,
  formatMicros,
  notional,
  parseMicros,
  tryParseMicros,
  type Rounding,
} from "../../src/core/money.js";

// Fixed seed: the same cases every run (deterministic), still hundreds of them.
const RUNS = { seed: 20260101, numRuns: 500 } as const;

const D = Decimal.clone({ precision: 200 });
const toBig = (d: Decimal): bigint => BigInt(d.toFixed(0));

/** Decimal strings: optional "-", 1..25 integer digits, optional fraction of 1..12 digits. */
const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.stringMatching(/^(0|[1-9][0-9]{0,24})$/),
    fc.option(fc.stringMatching(/^[0-9]{1,12}$/), { nil: undefined }),
  )
  .map(([neg, whole, frac]) => `${neg ? "-" : ""}${whole}${frac === undefined ? "" : `.${frac}`}`);

describe("parseMicros / formatMicros", () => {
  it("round-trips every bigint through the canonical string", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), (x) => {
        expect(parseMicros(formatMicros(x))).toBe(x);
      }),
      RUNS,
    );
  });

  it("formats canonically: no exponent, no trailing fraction zeros, no '-0'", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (x) => {
        const s = formatMicros(x);
        expect(s).toMatch(/^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
        expect(s).not.toBe("-0");
        // Independent value check through decimal.js.
        expect(new D(s).times(1_000_000).toFixed(0)).toBe(x.toString());
      }),
      RUNS,
    );
    expect(formatMicros(0n)).toBe("0");
    expect(formatMicros(-1n)).toBe("-0.000001");
    expect(formatMicros(550_000n)).toBe("0.55");
    expect(formatMicros(12_000_000n)).toBe("12");
  });

  it("parses any decimal of at most 6 decimals to exactly value * 1e6", () => {
    fc.assert(
      fc.property(decimalText, (s) => {
        const frac = s.split(".")[1] ?? "";
        if (frac.replace(/0+$/, "").length > 6) return;
        expect(parseMicros(s)).toBe(toBig(new D(s).times(1_000_000)));
      }),
      RUNS,
    );
  });

  it.each(["1e5", "1E5", " 1", "1 ", "1.", ".5", "NaN", "Infinity", "-Infinity", "0x10", "", "-", "+1", "--1", "1..2", "1,5", "1_000", "٣", "0.1.2", "- 1"])(
    "refuses %j with a MoneyError",
    (text) => {
      expect(() => parseMicros(text)).toThrow(MoneyError);
      expect(tryParseMicros(text)).toBeUndefined();
    },
  );

  it("refuses non-strings with a MoneyError", () => {
    expect(() => parseMicros(5 as unknown as string)).toThrow(MoneyError);
    expect(tryParseMicros(5)).toBeUndefined();
  });

  it("exact refuses a 7th significant decimal, trailing zeros are fine", () => {
    expect(() => parseMicros("0.0000001")).toThrow(MoneyError);
    expect(parseMicros("0.1000000000")).toBe(100_000n);
  });

  it("floor <= exact value <= ceil, at most one micro apart, equal when exact", () => {
    fc.assert(
      fc.property(decimalText, (s) => {
        const exact = new D(s).times(1_000_000);
        const floor = parseMicros(s, "floor");
        const ceil = parseMicros(s, "ceil");
        expect(new D(floor.toString()).lte(exact)).toBe(true);
        expect(new D(ceil.toString()).gte(exact)).toBe(true);
        expect(ceil - floor).toBe(exact.isInteger() ? 0n : 1n);
        expect(floor).toBe(toBig(exact.floor()));
        expect(ceil).toBe(toBig(exact.ceil()));
      }),
      RUNS,
    );
  });

  it("rounds negatives toward -inf (floor) and +inf (ceil)", () => {
    expect(parseMicros("-0.0000001", "floor")).toBe(-1n);
    expect(parseMicros("-0.0000001", "ceil")).toBe(0n);
    expect(parseMicros("0.0000001", "floor")).toBe(0n);
    expect(parseMicros("0.0000001", "ceil")).toBe(1n);
  });
});

describe("divRound and notional", () => {
  it("floor <= a/b <= ceil for any sign of a", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (a, b) => {
        const exact = new D(a.toString()).div(b.toString());
        expect(divRound(a, b, "floor")).toBe(toBig(exact.floor()));
        expect(divRound(a, b, "ceil")).toBe(toBig(exact.ceil()));
        if (a % b === 0n) expect(divRound(a, b, "exact")).toBe(a / b);
        else expect(() => divRound(a, b, "exact")).toThrow(MoneyError);
      }),
      RUNS,
    );
    expect(() => divRound(1n, 0n, "floor")).toThrow(MoneyError);
    expect(() => divRound(1n, -1n, "floor")).toThrow(MoneyError);
  });

  it("notional is price * qty / 1e6 in the asked direction", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: SCALE }), fc.bigInt({ min: 0n, max: 10n ** 15n }), (p, q) => {
        const exact = new D(p.toString()).times(q.toString()).div(1_000_000);
        expect(notional(p, q, "ceil")).toBe(toBig(exact.ceil()));
        expect(notional(p, q, "floor")).toBe(toBig(exact.floor()));
      }),
      RUNS,
    );
  });
});

describe("formatFixed", () => {
  it("rounds half away from zero to dp decimals", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.integer({ min: 0, max: 6 }), (x, dp) => {
        const expected = new D(x.toString()).div(1_000_000).toFixed(dp, Decimal.ROUND_HALF_UP);
        // decimal.js keeps the sign of a negative value rounded to zero ("-0.00"); we do not.
        expect(formatFixed(x, dp)).toBe(/^-0(\.0+)?$/.test(expected) ? expected.slice(1) : expected);
      }),
      RUNS,
    );
    expect(() => formatFixed(1n, 7)).toThrow(MoneyError);
  });
});

/** parseMicros before its fast path (regex, substrings, two BigInt parses): the oracle. */
function referenceMicros(text: string, rounding: Rounding): bigint {
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new MoneyError(`not a decimal number: ${JSON.stringify(text.slice(0, 40))}`);
  const negative = m[1] === "-";
  const frac = m[3] ?? "";
  let value = BigInt(m[2]!) * 1_000_000n + BigInt(frac.slice(0, 6).padEnd(6, "0"));
  if (/[1-9]/.test(frac.slice(6))) {
    if (rounding === "exact") throw new MoneyError(`more than 6 decimals: ${JSON.stringify(text.slice(0, 40))}`);
    if (negative ? rounding === "floor" : rounding === "ceil") value += 1n;
  }
  return negative ? -value : value;
}

function outcome(f: () => bigint): { value: bigint } | { error: string } {
  try {
    return { value: f() };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

describe("parseMicros: the fast path gives the general parse's value or error, whatever the text", () => {
  const chars = fc.constantFrom("0", "1", "5", "9", ".", "-", "+", "e", " ", "x", "٣");
  const decimal = fc.tuple(fc.boolean(), fc.stringMatching(/^\d{1,12}$/), fc.option(fc.stringMatching(/^\d{1,9}$/))).map(([neg, w, f]) => `${neg ? "-" : ""}${w}${f === null ? "" : "." + f}`);
  const rounding = fc.constantFrom<Rounding>("exact", "floor", "ceil");

  it("on well-formed decimals of every length (the fast path and the general one on each side of its bounds)", () => {
    fc.assert(fc.property(decimal, rounding, (s, r) => {
      expect(outcome(() => parseMicros(s, r))).toEqual(outcome(() => referenceMicros(s, r)));
    }), { numRuns: 5000 });
  });

  it("on arbitrary short strings of digits, dots, signs and junk", () => {
    fc.assert(fc.property(fc.array(chars, { maxLength: 14 }).map((a) => a.join("")), rounding, (s, r) => {
      expect(outcome(() => parseMicros(s, r))).toEqual(outcome(() => referenceMicros(s, r)));
    }), { numRuns: 5000 });
  });

  it("at the edges", () => {
    for (const s of ["", "-", ".", "1.", ".5", "-0", "-0.000000", "999999999.999999", "1000000000", "999999999.9999991", "0.0000001", "00012.500", "-1.5", "1.1234567"]) {
      for (const r of ["exact", "floor", "ceil"] as const) expect(outcome(() => parseMicros(s, r)), `${s} ${r}`).toEqual(outcome(() => referenceMicros(s, r)));
    }
  });
});

/** formatMicros before its fast path (bigint division, a regex): the oracle. */
function referenceFormat(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const frac = abs % 1_000_000n;
  let out = (abs / 1_000_000n).toString();
  if (frac !== 0n) out += "." + frac.toString().padStart(6, "0").replace(/0+$/, "");
  return negative && abs !== 0n ? "-" + out : out;
}

describe("formatMicros: the fast path writes what the general one writes", () => {
  it("on values of every size, both sides of 2^53", () => {
    const big = fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n });
    const near = fc.bigInt({ min: -(2n ** 53n) - 5n, max: 2n ** 53n + 5n });
    const small = fc.bigInt({ min: -10_000_000n, max: 10_000_000n });
    fc.assert(
      fc.property(fc.oneof(big, near, small), (v) => {
        expect(formatMicros(v)).toBe(referenceFormat(v));
      }),
      { numRuns: 20_000 },
    );
    for (const v of [0n, -1n, 1n, 10n, 100_000n, 1_000_000n, -1_000_000n, 2n ** 53n - 1n, -(2n ** 53n) + 1n, 2n ** 53n, -(2n ** 53n), 1_234_500n]) expect(formatMicros(v)).toBe(referenceFormat(v));
  });
});
