import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "../../src/backtest/duration.js";

describe("parseDuration", () => {
  it("reads the units and their combinations", () => {
    expect(parseDuration("90m")).toBe(90 * 60_000);
    expect(parseDuration("6h")).toBe(6 * 3_600_000);
    expect(parseDuration("2d")).toBe(2 * 86_400_000);
    expect(parseDuration("1h30m")).toBe(90 * 60_000);
    expect(parseDuration("45s")).toBe(45_000);
    expect(parseDuration("250ms")).toBe(250);
  });

  it("says what is wrong with anything else", () => {
    for (const bad of ["", "6", "h", "1.5h", "-2h", "6 h", "6H", "2w", "1h 30m"]) expect(typeof parseDuration(bad)).toBe("string");
    expect(parseDuration("0m")).toMatch(/longer than zero/);
    expect(parseDuration("400d")).toMatch(/at most/);
  });

  it("formats back to a form it reads", () => {
    for (const ms of [250, 45_000, 90 * 60_000, 6 * 3_600_000, 2 * 86_400_000 + 61_001]) expect(parseDuration(formatDuration(ms))).toBe(ms);
    expect(formatDuration(90 * 60_000)).toBe("1h30m");
  });
});
