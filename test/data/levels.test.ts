/**
 * A recorded book side as a window over shared typed arrays: reading levels by index from the
 * window's start only, building one from pairs, the empty side, and toArray's copy.
 */
import { describe, expect, it } from "vitest";
import { Levels } from "../../src/data/levels.js";

describe("Levels", () => {
  it("builds from [price, quantity] pairs, best first, and gives them back", () => {
    const l = Levels.of([
      [420_000n, 10_000_000n],
      [410_000n, 2_500_000n],
    ]);
    expect(l.length).toBe(2);
    expect([l.price(0), l.quantity(0), l.price(1), l.quantity(1)]).toEqual([420_000n, 10_000_000n, 410_000n, 2_500_000n]);
    expect(l.toArray()).toEqual([
      [420_000n, 10_000_000n],
      [410_000n, 2_500_000n],
    ]);
  });

  it("reads a window of shared arrays from its own start", () => {
    const prices = BigInt64Array.from([1n, 2n, 3n, 4n, 5n]);
    const qtys = BigInt64Array.from([10n, 20n, 30n, 40n, 50n]);
    const mid = new Levels(prices, qtys, 2, 2);
    expect(mid.toArray()).toEqual([
      [3n, 30n],
      [4n, 40n],
    ]);
    expect(new Levels(prices, qtys, 4, 1).price(0)).toBe(5n);
  });

  it("has an empty side", () => {
    expect(Levels.EMPTY.length).toBe(0);
    expect(Levels.EMPTY.toArray()).toEqual([]);
    expect(Levels.of([]).length).toBe(0);
  });

  it("hands out a copy: changing it leaves the levels as they were", () => {
    const l = Levels.of([[500_000n, 1_000_000n]]);
    const a = l.toArray();
    a[0]![0] = 1n;
    expect(l.price(0)).toBe(500_000n);
  });
});
