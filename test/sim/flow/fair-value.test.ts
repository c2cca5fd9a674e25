import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { SCALE } from "../../../src/core/money.js";
import { drawSize, FAIR_MAX, FAIR_MIN, FairValue } from "../../../src/sim/flow/index.js";

const T0 = Date.UTC(2026, 5, 1);
const walk = { volPerSqrtMin: 0.01, jumpProbPerMin: 0.05, jumpSize: 0.05 };

describe("FairValue", () => {
  it("moves on the clock, stays in bounds, and replays exactly for a seed", () => {
    const run = (seed: number) => {
      const fv = new FairValue([450_000n, 550_000n], walk, new Rng(seed), T0);
      const path: bigint[] = [];
      for (let i = 1; i <= 600; i++) {
        fv.advanceTo(T0 + i * 10_000);
        const [yes, no] = fv.current();
        expect(yes! + no!).toBe(SCALE);
        expect(yes! >= FAIR_MIN && yes! <= FAIR_MAX).toBe(true);
        path.push(yes!);
      }
      return path;
    };
    const a = run(1);
    expect(run(1)).toEqual(a);
    expect(run(2)).not.toEqual(a);
    expect(new Set(a).size).toBeGreaterThan(100);
    expect(a[a.length - 1]).not.toBe(450_000n);
  });

  it("does not move when time does not, and its spread grows like sqrt(time)", () => {
    const fv = new FairValue([500_000n, 500_000n], { ...walk, jumpProbPerMin: 0 }, new Rng(3), T0);
    fv.advanceTo(T0);
    fv.advanceTo(T0 - 1000);
    expect(fv.value(0)).toBe(500_000n);
    const spread = (minutes: number) => {
      let sq = 0;
      const n = 400;
      for (let i = 0; i < n; i++) {
        const f = new FairValue([500_000n, 500_000n], { ...walk, jumpProbPerMin: 0 }, new Rng(1000 + i), T0);
        f.advanceTo(T0 + minutes * 60_000);
        sq += (Number(f.value(0) - 500_000n) / 1e6) ** 2;
      }
      return Math.sqrt(sq / n);
    };
    const s1 = spread(1);
    const s16 = spread(16);
    expect(s1).toBeGreaterThan(0.007);
    expect(s1).toBeLessThan(0.013);
    expect(s16 / s1).toBeGreaterThan(3);
    expect(s16 / s1).toBeLessThan(5);
  });

  it("multi-outcome values stay a distribution", () => {
    const fv = new FairValue([340_000n, 300_000n, 240_000n, 120_000n], walk, new Rng(5), T0);
    for (let i = 1; i <= 200; i++) {
      fv.advanceTo(T0 + i * 30_000);
      const v = fv.current();
      const sum = v.reduce((a, b) => a + b, 0n);
      expect(sum >= SCALE - 20_000n && sum <= SCALE + 20_000n).toBe(true);
      for (const x of v) expect(x > 0n).toBe(true);
    }
  });
});

describe("drawSize", () => {
  it("respects the distribution bounds and lots", () => {
    const rng = new Rng(9);
    for (const dist of ["fixed", "uniform", "lognormal"] as const) {
      const spec = { dist, min: 1_000_000n, max: 200_000_000n, mean: 15_000_000n };
      let total = 0n;
      for (let i = 0; i < 2000; i++) {
        const s = drawSize(rng, spec);
        expect(s >= spec.min && s <= spec.max).toBe(true);
        expect(s % 10_000n).toBe(0n);
        total += s;
      }
      if (dist === "fixed") expect(total).toBe(2000n * 15_000_000n);
      if (dist === "lognormal") {
        const mean = Number(total / 2000n) / 1e6;
        expect(mean).toBeGreaterThan(11);
        expect(mean).toBeLessThan(19);
      }
    }
  });
});
