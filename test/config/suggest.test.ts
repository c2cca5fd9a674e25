/**
 * "Did you mean ...?": the edit distance on hand-worked pairs (a swap of neighbours is one edit,
 * case is ignored), and the rule for offering a name: within a third of the longer name (at least
 * 1, at most 3 edits), the closest first, the first of equals, never the name itself.
 */
import { describe, expect, it } from "vitest";
import { closest, didYouMean, editDistance } from "../../src/config/suggest.js";

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["", "abc", 3],
    ["abc", "abc", 0],
    ["ABC", "abc", 0],
    ["kitten", "sitting", 3],
    ["flaw", "lawn", 2],
    ["ca", "ac", 1], // one transposition, not two substitutions
    ["strategy", "stratgey", 1],
    ["refreshMs", "refershMs", 1],
    ["abc", "ca", 3], // optimal string alignment: no edits of a transposed pair
  ])("%j to %j is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("closest and didYouMean", () => {
  const known = ["backtest", "record", "sweep", "status", "paper", "run", "sim"];

  it("offers the closest known name to a typo", () => {
    expect(closest("bakctest", known)).toBe("backtest");
    expect(closest("swep", known)).toBe("sweep");
    expect(didYouMean("staus", known)).toBe(" (did you mean status?)");
  });

  it("offers nothing when the closest is further than a third of the longer name", () => {
    expect(closest("zzz", known)).toBeUndefined();
    expect(closest("rnu", known)).toBe("run"); // 1 edit allowed at length 3
    expect(closest("xyz", ["run"])).toBeUndefined();
    expect(closest("backtesting", known)).toBe("backtest"); // 3 edits, the cap at length 11
    expect(closest("backtestingxx", known)).toBeUndefined(); // 5 edits: over the cap of 3
    expect(didYouMean("zzz", known)).toBe("");
  });

  it("never offers the name itself, and keeps the first of equally close names", () => {
    expect(closest("run", known)).toBeUndefined();
    expect(closest("bat", ["cat", "hat"])).toBe("cat");
    expect(closest("bat", ["hat", "cat"])).toBe("hat");
  });
});
