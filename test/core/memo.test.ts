import { describe, expect, it } from "vitest";
import { boundedMemo, onePer } from "../../src/core/memo.js";

describe("onePer", () => {
  it("makes one value per object on first use and hands the same one back", () => {
    const made: object[] = [];
    const of = onePer((k: { n: number }) => {
      made.push(k);
      return { of: k.n };
    });
    const a = { n: 1 };
    const b = { n: 2 };
    const va = of(a);
    expect(va).toEqual({ of: 1 });
    expect(of(a)).toBe(va);
    expect(of(b)).toEqual({ of: 2 });
    expect(of(b)).not.toBe(va);
    expect(made).toEqual([a, b]);
  });

  it("two memos over the same object are independent", () => {
    const k = {};
    const x = onePer(() => ({ id: "x" }));
    const y = onePer(() => ({ id: "y" }));
    expect(x(k).id).toBe("x");
    expect(y(k).id).toBe("y");
  });
});

describe("boundedMemo", () => {
  it("computes a key once, answers it from memory after, and starts afresh when full", () => {
    const calls: string[] = [];
    const len = boundedMemo(2, (k) => {
      calls.push(k);
      return k.length;
    });
    expect([len("a"), len("bb"), len("a"), len("bb")]).toEqual([1, 2, 1, 2]);
    expect(calls).toEqual(["a", "bb"]);
    expect(len("ccc")).toBe(3); // full: emptied, then "ccc" kept
    expect(len("a")).toBe(1);
    expect(calls).toEqual(["a", "bb", "ccc", "a"]);
    expect(len("ccc")).toBe(3);
    expect(calls).toHaveLength(4);
  });

  it("remembers NaN as an answer (an unreadable date is parsed once)", () => {
    let n = 0;
    const parse = boundedMemo(8, (k) => {
      n++;
      return Date.parse(k);
    });
    expect(parse("not a date")).toBeNaN();
    expect(parse("not a date")).toBeNaN();
    expect(n).toBe(1);
  });
});
