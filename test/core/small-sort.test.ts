import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INSERTION_MAX, sortSmall } from "../../src/core/small-sort.js";

/** Items whose keys repeat, tagged with their position so stability is visible. */
const items = (maxLength: number) =>
  fc.array(fc.record({ key: fc.integer({ min: 0, max: 6 }), tag: fc.nat() }), { maxLength }).map((xs) => xs.map((x, i) => ({ ...x, tag: i })));

describe("sortSmall", () => {
  it("orders like Array.prototype.sort with the same comparator (both stable), short and long lists", () => {
    fc.assert(
      fc.property(items(3 * INSERTION_MAX), (xs) => {
        const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
        const expected = [...xs].sort(byKey);
        const got = [...xs];
        expect(sortSmall(got, byKey)).toBe(got);
        expect(got).toEqual(expected);
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it("keeps equal items in their order and sorts in place", () => {
    const xs = [{ k: 2, t: "a" }, { k: 1, t: "b" }, { k: 2, t: "c" }, { k: 1, t: "d" }, { k: 0, t: "e" }];
    sortSmall(xs, (a, b) => a.k - b.k);
    expect(xs.map((x) => x.t).join("")).toBe("ebdac");
  });

  it("leaves empty and one-item lists alone", () => {
    expect(sortSmall([], () => 1)).toEqual([]);
    expect(sortSmall([5], () => 1)).toEqual([5]);
  });
});
