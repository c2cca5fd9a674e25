import { Decimal } from "decimal.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_PRICE,
  MIN_PRICE,
  PRICE_LEVELS,
  PRICE_TICK,
  SIDE_CODE,
  assertValidPrice,
  complementPrice,
  floorBuyMakerAmount,
  isValidPrice,
  maxTakerFee,
  orderAmounts,
  quantityOf,
  sideFromCode,
  takerFee,
} from "../../src/core/amounts.js";
import { MoneyError, ONE } from "../../src/core/money.js";

const RUNS = { seed: 424242, numRuns: 500 } as const;
const D = Decimal.clone({ precision: 100 });
const big = (d: Decimal): bigint => BigInt(d.toFixed(0));

/** A price on the grid, in micros. */
const gridPrice = fc.integer({ min: 1, max: PRICE_LEVELS }).map((k) => BigInt(k) * PRICE_TICK);
/** A positive quantity in micro-shares, up to 10^9 shares. */
const qty = fc.bigInt({ min: 1n, max: 10n ** 15n });
const bps = fc.integer({ min: 0, max: 1000 });

describe("price grid", () => {
  it("accepts exactly the multiples of 0.001 in [0.001, 0.999]", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -2n * ONE, max: 2n * ONE }), (p) => {
        const expected = p >= 1_000n && p <= 999_000n && p % 1_000n === 0n;
        expect(isValidPrice(p)).toBe(expected);
        if (!expected) expect(() => assertValidPrice(p)).toThrow(MoneyError);
      }),
      RUNS,
    );
    expect(PRICE_LEVELS).toBe(999);
    expect([MIN_PRICE, MAX_PRICE]).toEqual([1_000n, 999_000n]);
    expect(complementPrice(550_000n)).toBe(450_000n);
  });
});

describe("order amounts", () => {
  it("BUY: makerAmount = ceil(p*q/1e6), takerAmount = qty", () => {
    fc.assert(
      fc.property(gridPrice, qty, (p, q) => {
        const a = orderAmounts("BUY", p, q);
        const exact = new D(p.toString()).times(q.toString()).div(1_000_000);
        expect(a.makerAmount).toBe(big(exact.ceil()));
        expect(a.takerAmount).toBe(q);
        expect(quantityOf("BUY", a)).toBe(q);
        expect(floorBuyMakerAmount(p, q)).toBe(big(exact.floor()));
      }),
      RUNS,
    );
  });

  it("SELL: makerAmount = qty, takerAmount = floor(p*q/1e6)", () => {
    fc.assert(
      fc.property(gridPrice, qty, (p, q) => {
        const a = orderAmounts("SELL", p, q);
        const exact = new D(p.toString()).times(q.toString()).div(1_000_000);
        expect(a.makerAmount).toBe(q);
        expect(a.takerAmount).toBe(big(exact.floor()));
        expect(quantityOf("SELL", a)).toBe(q);
      }),
      RUNS,
    );
  });

  it("the implied price is never better for the signer than the limit, and off by < 1 micro of notional", () => {
    fc.assert(
      fc.property(gridPrice, qty, (p, q) => {
        const exact = new D(p.toString()).times(q.toString()).div(1_000_000);
        // BUY: the signer pays makerAmount for q shares: at least the limit price, under 1 micro more.
        const buy = orderAmounts("BUY", p, q);
        const paid = new D(buy.makerAmount.toString());
        expect(paid.gte(exact)).toBe(true);
        expect(paid.minus(exact).lt(1)).toBe(true);
        expect(paid.times(1_000_000).div(buy.takerAmount.toString()).gte(p.toString())).toBe(true);
        // SELL: the signer asks takerAmount for q shares: at most the limit price, under 1 micro less.
        const sell = orderAmounts("SELL", p, q);
        const asked = new D(sell.takerAmount.toString());
        expect(asked.lte(exact)).toBe(true);
        expect(exact.minus(asked).lt(1)).toBe(true);
        expect(asked.times(1_000_000).div(sell.makerAmount.toString()).lte(p.toString())).toBe(true);
      }),
      RUNS,
    );
  });

  it("refuses off-grid prices and non-positive quantities", () => {
    expect(() => orderAmounts("BUY", 550_500n, ONE)).toThrow(MoneyError);
    expect(() => orderAmounts("BUY", 0n, ONE)).toThrow(MoneyError);
    expect(() => orderAmounts("SELL", ONE, ONE)).toThrow(MoneyError);
    expect(() => orderAmounts("SELL", 500_000n, 0n)).toThrow(MoneyError);
    expect(() => orderAmounts("BUY", 500_000n, -1n)).toThrow(MoneyError);
  });

  it("side codes: BUY 0, SELL 1, round trip, others refused", () => {
    expect(SIDE_CODE).toEqual({ BUY: 0, SELL: 1 });
    expect(sideFromCode(SIDE_CODE.BUY)).toBe("BUY");
    expect(sideFromCode(SIDE_CODE.SELL)).toBe("SELL");
    for (const bad of [2, -1, 0.5, NaN]) expect(() => sideFromCode(bad)).toThrow(MoneyError);
  });
});

describe("taker fee curve", () => {
  it("equals ceil(bps * p * (1-p) * qty / 10000) computed independently", () => {
    fc.assert(
      fc.property(gridPrice, qty, bps, (p, q, b) => {
        const price = new D(p.toString()).div(1_000_000);
        const expected = new D(b).times(price).times(new D(1).minus(price)).times(q.toString()).div(10_000);
        expect(takerFee(p, q, b)).toBe(big(expected.ceil()));
      }),
      RUNS,
    );
  });

  it("peaks at 0.5 at feeTakerBps/4/10000 per share", () => {
    fc.assert(
      fc.property(bps, fc.integer({ min: 1, max: 1_000_000 }), (b, shares) => {
        const q = BigInt(shares) * ONE;
        // per share: b/4/10000 units = b * 25 micros, exact for whole shares
        expect(takerFee(ONE / 2n, q, b)).toBe(BigInt(b) * 25n * BigInt(shares));
        expect(maxTakerFee(q, b)).toBe(takerFee(ONE / 2n, q, b));
      }),
      RUNS,
    );
    expect(takerFee(ONE / 2n, ONE, 100)).toBe(2_500n); // 100 bps: 0.0025 per share
  });

  it("is symmetric in p <-> 1-p and never above the peak", () => {
    fc.assert(
      fc.property(gridPrice, qty, bps, (p, q, b) => {
        expect(takerFee(p, q, b)).toBe(takerFee(ONE - p, q, b));
        expect(takerFee(p, q, b)).toBeLessThanOrEqual(maxTakerFee(q, b));
      }),
      RUNS,
    );
  });

  it("is zero at 0 bps and for zero quantity, never negative, monotone in qty", () => {
    fc.assert(
      fc.property(gridPrice, qty, qty, bps, (p, q1, q2, b) => {
        expect(takerFee(p, q1, 0)).toBe(0n);
        expect(takerFee(p, 0n, b)).toBe(0n);
        const [lo, hi] = q1 <= q2 ? [q1, q2] : [q2, q1];
        expect(takerFee(p, lo, b)).toBeGreaterThanOrEqual(0n);
        expect(takerFee(p, lo, b)).toBeLessThanOrEqual(takerFee(p, hi, b));
      }),
      RUNS,
    );
  });

  it("vanishes at the ends of the price range", () => {
    expect(takerFee(0n, ONE, 1000)).toBe(0n);
    expect(takerFee(ONE, ONE, 1000)).toBe(0n);
  });

  it("refuses inputs that would make a negative or meaningless fee", () => {
    expect(() => takerFee(500_000n, ONE, -1)).toThrow(MoneyError);
    expect(() => takerFee(500_000n, ONE, 1.5)).toThrow(MoneyError);
    expect(() => takerFee(ONE + 1n, ONE, 100)).toThrow(MoneyError);
    expect(() => takerFee(-1n, ONE, 100)).toThrow(MoneyError);
    expect(() => takerFee(500_000n, -ONE, 100)).toThrow(MoneyError);
  });
});
