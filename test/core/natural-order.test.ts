import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareIds } from "../../src/core/natural-order.js";

describe("compareIds", () => {
  it("is a total order: antisymmetric, transitive, zero only for equal ids (property)", () => {
    const id = fc.stringMatching(/^[a-z0-9_-]{0,6}$/);
    fc.assert(
      fc.property(id, id, id, (a, b, c) => {
        expect(Math.sign(compareIds(a, b)) + Math.sign(compareIds(b, a))).toBe(0);
        expect(compareIds(a, b) === 0).toBe(a === b);
        if (compareIds(a, b) < 0 && compareIds(b, c) < 0) expect(compareIds(a, c)).toBeLessThan(0);
      }),
      { seed: 99, numRuns: 3000 },
    );
  });
  it("orders digit runs as numbers", () => {
    expect(["t100", "t9", "t99", "a", "t1000", "t09"].sort(compareIds)).toEqual(["a", "t09", "t9", "t99", "t100", "t1000"]);
  });
});
