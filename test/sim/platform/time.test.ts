/** Scenario durations and times: exact integer milliseconds, relative to the scenario start or absolute. */
import { describe, expect, it } from "vitest";
import { isoOf, isoOrNull, parseDurationMs, parseTimeSpec, resolveTimeSpec } from "../../../src/sim/platform/time.js";

describe("parseDurationMs", () => {
  it("reads every unit and their combinations", () => {
    expect(parseDurationMs("250ms")).toBe(250);
    expect(parseDurationMs("10s")).toBe(10_000);
    expect(parseDurationMs("2m")).toBe(120_000);
    expect(parseDurationMs("1h30m")).toBe(5_400_000);
    expect(parseDurationMs("2d")).toBe(172_800_000);
    expect(parseDurationMs("1m500ms")).toBe(60_500);
    expect(parseDurationMs(" 0 ")).toBe(0);
    expect(parseDurationMs("0s")).toBe(0);
  });

  it("refuses anything else", () => {
    for (const bad of ["", "10", "1.5h", "-1s", "1 h", "1w", "h", "1h 30m"]) expect(parseDurationMs(bad), bad).toBeUndefined();
    expect(parseDurationMs("99999999999999999d")).toBeUndefined(); // beyond safe integers
  });
});

describe("time specs", () => {
  const start = Date.UTC(2026, 4, 1, 12);

  it("reads offsets from the scenario start", () => {
    expect(parseTimeSpec("+2m")).toEqual({ kind: "relative", offsetMs: 120_000 });
    expect(parseTimeSpec("-1h")).toEqual({ kind: "relative", offsetMs: -3_600_000 });
    expect(parseTimeSpec("now")).toEqual({ kind: "relative", offsetMs: 0 });
    expect(parseTimeSpec("0")).toEqual({ kind: "relative", offsetMs: 0 });
    expect(resolveTimeSpec(parseTimeSpec("-1h30m")!, start)).toBe(start - 5_400_000);
  });

  it("reads ISO-8601 dates and date-times as absolute times, whatever the start", () => {
    expect(parseTimeSpec("2026-05-01T13:00:00Z")).toEqual({ kind: "absolute", atMs: Date.UTC(2026, 4, 1, 13) });
    expect(parseTimeSpec("2026-05-01T15:00:00+02:00")).toEqual({ kind: "absolute", atMs: Date.UTC(2026, 4, 1, 13) });
    expect(parseTimeSpec("2026-05-02")).toEqual({ kind: "absolute", atMs: Date.UTC(2026, 4, 2) });
    expect(resolveTimeSpec(parseTimeSpec("2026-05-01T13:00:00Z")!, 0)).toBe(Date.UTC(2026, 4, 1, 13));
  });

  it("refuses what is neither", () => {
    for (const bad of ["2m", "+", "+2x", "tomorrow", "2026-13-45T99:00:00Z", "01/05/2026"]) expect(parseTimeSpec(bad), bad).toBeUndefined();
  });

  it("formats back as ISO-8601, null for no time", () => {
    expect(isoOf(Date.UTC(2026, 0, 1))).toBe("2026-01-01T00:00:00.000Z");
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
    expect(isoOrNull(0)).toBe("1970-01-01T00:00:00.000Z");
  });
});
