import { describe, expect, it } from "vitest";
import { onePer } from "../../src/core/memo.js";

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
