/** Order salts: 64 bits, from the OS in production, replayable from a seeded Rng in tests and backtests. */
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { cryptoSaltSource, rngSaltSource } from "../../src/signing/salt.js";

const U64 = 1n << 64n;

describe("rngSaltSource", () => {
  it("packs two draws of the generator into one 64-bit salt, high word first", () => {
    const draws = new Rng(7);
    const hi = draws.nextU32();
    const lo = draws.nextU32();
    const salt = rngSaltSource(new Rng(7));
    expect(salt()).toBe((BigInt(hi) << 32n) | BigInt(lo));
  });

  it("gives the same salts for the same seed, other salts for another", () => {
    const a = rngSaltSource(new Rng(42));
    const b = rngSaltSource(new Rng(42));
    const c = rngSaltSource(new Rng(43));
    const fromA = Array.from({ length: 20 }, () => a());
    expect(Array.from({ length: 20 }, () => b())).toEqual(fromA);
    expect(Array.from({ length: 20 }, () => c())).not.toEqual(fromA);
    expect(new Set(fromA).size).toBe(20);
  });
});

describe("cryptoSaltSource", () => {
  it("draws 64-bit salts that do not repeat", () => {
    const salts = Array.from({ length: 1000 }, () => cryptoSaltSource());
    for (const s of salts) {
      expect(s >= 0n && s < U64).toBe(true);
    }
    expect(new Set(salts).size).toBe(1000);
    // Some salt uses the high word: the two halves are both filled.
    expect(salts.some((s) => s >= 1n << 32n)).toBe(true);
  });
});
