import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MinHeap } from "../../src/core/min-heap.js";

describe("MinHeap", () => {
  it("pops by key, equal keys in the order they were pushed (a stable sort of what went in)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (keys) => {
        const h = new MinHeap<number>();
        keys.forEach((k, i) => h.push(k, i));
        expect(h.size).toBe(keys.length);
        const out: number[] = [];
        while (h.size > 0) {
          expect(h.peekKey()).toBe(keys[h.peek()!]);
          out.push(h.pop()!);
        }
        const expected = keys.map((k, i) => [k, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, i]) => i);
        expect(out).toEqual(expected);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it("interleaved pushes and pops keep the order; empty: Infinity and undefined", () => {
    const h = new MinHeap<string>();
    expect(h.peekKey()).toBe(Infinity);
    expect(h.pop()).toBeUndefined();
    h.push(5, "a");
    h.push(3, "b");
    expect(h.pop()).toBe("b");
    h.push(5, "c");
    h.push(1, "d");
    expect([h.pop(), h.pop(), h.pop(), h.pop()]).toEqual(["d", "a", "c", undefined]);
  });
});
