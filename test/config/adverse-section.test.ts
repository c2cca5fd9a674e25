/** `adverse:` in the daemon config (src/config/adverse-section.ts): off by default, defaults, bounds, cross-field rules. */
import { describe, expect, it } from "vitest";
import { adverseSectionSchema } from "../../src/config/adverse-section.js";
import { buildConfigSchema } from "../../src/config/schema.js";

const section = adverseSectionSchema();
const issues = (v: unknown): string[] => {
  const r = section.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("adverse: section", () => {
  it("absent: markouts measured, no control", () => {
    const schema = buildConfigSchema({ env: {}, baseDir: "/cfg" });
    const r = schema.parse({ mode: "simulator", strategy: { name: "ladder" } });
    expect(r.adverse).toEqual({ markouts: true, maxPendingMarkouts: 10_000 });
  });

  it("an empty block takes the documented defaults (ticks as micros per share)", () => {
    expect(section.parse({ toxicity: {}, jump: {} })).toEqual({
      markouts: true,
      maxPendingMarkouts: 10_000,
      toxicity: { horizonSec: 5, fills: 20, windowSec: 600, minFills: 5, widenEnterTicks: 1_000n, widenExitTicks: 500n, pullEnterTicks: 3_000n, coolingSec: 60, widenTicks: 2, sizeFactor: 0.5 },
      jump: { thresholdTicks: 20_000n, windowSec: 5, coolingSec: 30 },
    });
  });

  it.each<[string, unknown, string]>([
    ["a horizon the tracker does not measure", { toxicity: { horizonSec: 10 } }, "toxicity.horizonSec: expected one of the markout horizons 1, 5, 30, 60, 300 (seconds)"],
    ["minFills above fills", { toxicity: { fills: 3, minFills: 4 } }, "toxicity.minFills: must be at most fills (3)"],
    ["exit more toxic than entry", { toxicity: { widenEnterTicks: 1, widenExitTicks: 2 } }, "toxicity.widenExitTicks: must be at most widenEnterTicks (the exit level is the less toxic one)"],
    ["pull below widen", { toxicity: { widenEnterTicks: 2, widenExitTicks: 1, pullEnterTicks: 1 } }, "toxicity.pullEnterTicks: must be at least widenEnterTicks"],
    ["more than micro precision", { jump: { thresholdTicks: 1.0001 } }, "jump.thresholdTicks: expected at most 3 decimals (the tick is 1,000 micros)"],
    ["a size factor of 0", { toxicity: { sizeFactor: 0 } }, "toxicity.sizeFactor: Too small: expected number to be >0"],
    ["a misspelt key", { jump: { treshold: 3 } }, 'jump: Unrecognized key: "treshold"'],
  ])("refuses %s", (_n, v, want) => {
    expect(issues(v)).toContain(want);
  });
});
