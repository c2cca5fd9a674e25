/**
 * Taker sizes of the synthetic flow: every size a whole number of 0.01-share lots inside
 * [min, max] (bounds given either way round), `fixed` the mean, `uniform` spread over the range,
 * `lognormal` with the configured mean when the bounds do not cut it, and never zero.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { drawSize, type SizeSpec } from "../../../src/sim/flow/sizes.js";

const SHARE = 1_000_000n;
const LOT = 10_000n;

function draws(spec: SizeSpec, n: number, seed = 5): bigint[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => drawSize(rng, spec));
}

describe("drawSize", () => {
  it("fixed: the mean, rounded to the lot and kept in the bounds", () => {
    expect(draws({ dist: "fixed", min: SHARE, max: 100n * SHARE, mean: 12_345_678n }, 3)).toEqual([12_350_000n, 12_350_000n, 12_350_000n]);
    expect(draws({ dist: "fixed", min: SHARE, max: 5n * SHARE, mean: 9n * SHARE }, 1)).toEqual([5n * SHARE]);
  });

  it("uniform: lots in [min, max] whichever way the bounds are given, reaching both ends", () => {
    for (const [min, max] of [
      [2n * SHARE, 4n * SHARE],
      [4n * SHARE, 2n * SHARE],
    ] as const) {
      const xs = draws({ dist: "uniform", min, max, mean: 3n * SHARE }, 4000);
      for (const x of xs) {
        expect(x % LOT).toBe(0n);
        expect(x >= 2n * SHARE && x <= 4n * SHARE).toBe(true);
      }
      expect(xs.some((x) => x < 2n * SHARE + 5n * LOT)).toBe(true);
      expect(xs.some((x) => x > 4n * SHARE - 5n * LOT)).toBe(true);
    }
  });

  it("lognormal: lots in the bounds with the configured mean when the bounds are wide", () => {
    const xs = draws({ dist: "lognormal", min: LOT, max: 10_000n * SHARE, mean: 20n * SHARE }, 20_000);
    for (const x of xs) expect(x % LOT === 0n && x >= LOT && x <= 10_000n * SHARE).toBe(true);
    const mean = xs.reduce((a, b) => a + b, 0n) / BigInt(xs.length);
    // sigma 0.8: one draw has a standard deviation of about 19 shares, so the mean of 20,000 is within 1 share (7 standard errors).
    expect(Number(mean) / 1e6).toBeGreaterThan(19);
    expect(Number(mean) / 1e6).toBeLessThan(21);
  });

  it("never answers zero: a size that rounds to nothing is one lot", () => {
    expect(draws({ dist: "fixed", min: 0n, max: 0n, mean: 0n }, 2)).toEqual([LOT, LOT]);
  });

  it("is the same for the same seed", () => {
    const spec: SizeSpec = { dist: "lognormal", min: SHARE, max: 50n * SHARE, mean: 5n * SHARE };
    expect(draws(spec, 50, 9)).toEqual(draws(spec, 50, 9));
    expect(draws(spec, 50, 9)).not.toEqual(draws(spec, 50, 10));
  });
});
