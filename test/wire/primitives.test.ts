import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  address,
  amountString,
  caseInsensitiveEnum,
  decimalString,
  isoDateTime,
  microsString,
  positiveAmountString,
  priceString,
  uint256String,
  uuid,
} from "../../src/wire/index.js";

const ok = (s: z.ZodType, v: unknown) => s.safeParse(v).success;

describe("decimal strings", () => {
  it("micros strings follow the money.ts parse rules (at most 6 significant decimals, no exponent)", () => {
    for (const v of ["0", "12", "0.55", "-3.000001", "0.5500000"]) expect(ok(microsString, v), v).toBe(true);
    for (const v of ["", "1e3", " 1", "0.0000001", "NaN", "Infinity", "+1", ".5", "1.", 0.5]) expect(ok(microsString, v), String(v)).toBe(false);
  });

  it("amounts are non-negative and positive amounts are > 0, each with one message", () => {
    expect(ok(amountString, "0")).toBe(true);
    expect(amountString.safeParse("-1").error?.issues.map((i) => i.message)).toEqual(["expected a non-negative amount"]);
    expect(amountString.safeParse("abc").error?.issues).toHaveLength(1);
    expect(ok(positiveAmountString, "0.000001")).toBe(true);
    expect(ok(positiveAmountString, "0")).toBe(false);
  });

  it("prices are in [0, 1]", () => {
    expect(ok(priceString, "1")).toBe(true);
    expect(ok(priceString, "0.999")).toBe(true);
    expect(ok(priceString, "1.001")).toBe(false);
  });

  it("plain decimals allow any number of decimals for computed values", () => {
    expect(ok(decimalString, "0.333333333333")).toBe(true);
    expect(ok(decimalString, "-12.5")).toBe(true);
    expect(ok(decimalString, "1e-3")).toBe(false);
  });
});

describe("uint256, address, date-time, uuid", () => {
  it("uint256 is an unsigned decimal without leading zeros, at most 2^256-1", () => {
    const max = ((1n << 256n) - 1n).toString();
    expect(ok(uint256String, "0")).toBe(true);
    expect(ok(uint256String, max)).toBe(true);
    expect(ok(uint256String, (1n << 256n).toString())).toBe(false);
    expect(ok(uint256String, "007")).toBe(false);
    expect(ok(uint256String, "-1")).toBe(false);
    expect(ok(uint256String, "0x10")).toBe(false);
    expect(uint256String.safeParse("12a").error?.issues).toHaveLength(1);
  });

  it("addresses accept either case, reject wrong length or missing 0x", () => {
    expect(ok(address, "0xab5801a7d398351b8be11c439e05c5b3259aec9b")).toBe(true);
    expect(ok(address, "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B")).toBe(true);
    expect(ok(address, "ab5801a7d398351b8be11c439e05c5b3259aec9b")).toBe(false);
    expect(ok(address, "0xab5801a7d398351b8be11c439e05c5b3259aec9")).toBe(false);
    expect(ok(address, "0xzz5801a7d398351b8be11c439e05c5b3259aec9b")).toBe(false);
  });

  it("date-times are ISO-8601 with Z or offset", () => {
    expect(ok(isoDateTime, "2026-11-20T18:00:00Z")).toBe(true);
    expect(ok(isoDateTime, "2026-11-20T18:00:00.123+00:00")).toBe(true);
    expect(ok(isoDateTime, "2026-11-20")).toBe(false);
    expect(ok(isoDateTime, "2026-11-20T18:00:00")).toBe(false);
  });

  it("uuids are 8-4-4-4-12 hex", () => {
    expect(ok(uuid, "5b1e0c4e-8f1a-4c3e-9d2b-7a6f5e4d3c2b")).toBe(true);
    expect(ok(uuid, "5b1e0c4e8f1a4c3e9d2b7a6f5e4d3c2b")).toBe(false);
  });
});

describe("caseInsensitiveEnum", () => {
  it("normalises to the listed spelling and rejects others", () => {
    const s = caseInsensitiveEnum(["BUY", "SELL"] as const);
    expect(s.parse("buy")).toBe("BUY");
    expect(s.parse("Sell")).toBe("SELL");
    expect(s.safeParse("hold").error?.issues[0]?.message).toContain("BUY, SELL");
  });
});
