/**
 * The backtest report's format version (types.ts): the number docs/backtest.md states ("`version`
 * (now N)"), so a bump of the format is a bump of its documentation too.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REPORT_VERSION } from "../../src/backtest/types.js";

describe("the report's format version", () => {
  it("is 3, the version docs/backtest.md documents", () => {
    const doc = readFileSync(new URL("../../docs/backtest.md", import.meta.url), "utf8");
    const stated = /`version` \(now (\d+)\)/.exec(doc);
    expect(stated, "docs/backtest.md states the report version as `version` (now N)").not.toBeNull();
    expect(REPORT_VERSION).toBe(Number(stated![1]));
    expect(REPORT_VERSION).toBe(3);
  });
});
