/**
 * `autoMerge:` of the daemon config: off by default with its documented amounts, amounts as
 * decimal strings in whole micro-units (never floats), every bound refused by field, and a minimum
 * merge larger than the threshold refused.
 */
import { describe, expect, it } from "vitest";
import { autoMergeSectionSchema } from "../../src/config/auto-merge-section.js";

const parse = (v: unknown) => autoMergeSectionSchema().safeParse(v);

describe("autoMerge section", () => {
  it("defaults to off, merging pairs of 50 shares and never less than 5, every 15 s", () => {
    expect(autoMergeSectionSchema().parse(undefined)).toEqual({ enabled: false, threshold: 50_000_000n, minSize: 5_000_000n, checkIntervalSec: 15 });
  });

  it("reads amounts from decimal strings", () => {
    expect(autoMergeSectionSchema().parse({ enabled: true, threshold: "12.5", minSize: "2" })).toEqual({ enabled: true, threshold: 12_500_000n, minSize: 2_000_000n, checkIntervalSec: 15 });
  });

  it.each([
    [{ threshold: "0.5" }, "threshold"],
    [{ minSize: "0" }, "minSize"],
    [{ threshold: 0.1 }, "threshold"],
    [{ threshold: "ten" }, "threshold"],
    [{ checkIntervalSec: 0 }, "checkIntervalSec"],
    [{ checkIntervalSec: 3_601 }, "checkIntervalSec"],
    [{ enabled: 1 }, "enabled"],
  ] as [Record<string, unknown>, string][])("refuses %o", (value, field) => {
    const r = parse(value);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toContain(field);
  });

  it("refuses an unknown key, and a minimum merge larger than the threshold", () => {
    expect(parse({ mergeEvery: 3 }).success).toBe(false);
    const r = parse({ threshold: "5", minSize: "6" });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(["minSize"]);
    expect(parse({ threshold: "5", minSize: "5" }).success).toBe(true);
  });
});
