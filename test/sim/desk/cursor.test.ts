/** Keyset cursors of the simulator's order lists: natural id order, opaque encoding, legacy ISO cursors. */
import { describe, expect, it } from "vitest";
import { base64url, compareIds, compareKeys, decodeCursor, encodeCursor, fromBase64url, isBelow, legacyBeforeMs } from "../../../src/sim/desk/cursor.js";

describe("ordering", () => {
  it("orders ids naturally: shorter first, then lexically (o9 before o10)", () => {
    expect(compareIds("o9", "o10")).toBeLessThan(0);
    expect(compareIds("o10", "o9")).toBeGreaterThan(0);
    expect(compareIds("o10", "o11")).toBeLessThan(0);
    expect(compareIds("o10", "o10")).toBe(0);
    expect(["o10", "o2", "o1", "o9"].sort(compareIds)).toEqual(["o1", "o2", "o9", "o10"]);
  });

  it("orders keys by time, then id", () => {
    expect(compareKeys({ ms: 1, id: "o10" }, { ms: 2, id: "o1" })).toBeLessThan(0);
    expect(compareKeys({ ms: 2, id: "o10" }, { ms: 2, id: "o9" })).toBeGreaterThan(0);
    expect(compareKeys({ ms: 2, id: "o9" }, { ms: 2, id: "o9" })).toBe(0);
  });
});

describe("cursors", () => {
  it("round-trip a key through opaque base64url text", () => {
    const text = encodeCursor({ ms: 1_767_225_600_000, id: "o42" });
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(text).toBe(base64url("1767225600000:o42"));
    expect(fromBase64url(text)).toBe("1767225600000:o42");
    expect(decodeCursor(text)).toEqual({ kind: "key", key: { ms: 1_767_225_600_000, id: "o42" } });
  });

  it("read an ISO-8601 time as a legacy 'created strictly before' cursor", () => {
    expect(decodeCursor("2026-01-01T00:00:00Z")).toEqual({ kind: "time", beforeMs: Date.UTC(2026, 0, 1) });
    expect(decodeCursor("2026-01-01T01:00:00.5+01:00")).toEqual({ kind: "time", beforeMs: Date.UTC(2026, 0, 1) + 500 });
  });

  it("refuse what is not one of ours", () => {
    expect(fromBase64url("not base64!")).toBeUndefined();
    expect(decodeCursor("")).toBeUndefined();
    expect(decodeCursor("abc=")).toBeUndefined();
    expect(decodeCursor(base64url("o42"))).toBeUndefined();
    expect(decodeCursor(base64url("12:"))).toBeUndefined();
    expect(decodeCursor(base64url("-5:o1"))).toBeUndefined();
    expect(decodeCursor(base64url("12:has space"))).toBeUndefined();
    expect(decodeCursor(base64url(`${"9".repeat(17)}:o1`))).toBeUndefined();
    expect(decodeCursor(base64url(`12:${"x".repeat(129)}`))).toBeUndefined();
  });

  it("a row is below a key cursor when its key is strictly older, below a time cursor when created strictly before", () => {
    const key = decodeCursor(encodeCursor({ ms: 100, id: "o10" }));
    expect(isBelow({ ms: 100, id: "o9" }, key)).toBe(true);
    expect(isBelow({ ms: 100, id: "o10" }, key)).toBe(false);
    expect(isBelow({ ms: 99, id: "o99" }, key)).toBe(true);
    expect(isBelow({ ms: 101, id: "o1" }, key)).toBe(false);
    const time = { kind: "time" as const, beforeMs: 100 };
    expect(isBelow({ ms: 99, id: "o1" }, time)).toBe(true);
    expect(isBelow({ ms: 100, id: "o1" }, time)).toBe(false);
    expect(isBelow({ ms: 1e15, id: "o1" }, undefined)).toBe(true);
  });
});

describe("legacyBeforeMs", () => {
  it("reads epoch milliseconds and ISO-8601 date-times", () => {
    expect(legacyBeforeMs("1780315200000")).toBe(1_780_315_200_000);
    expect(legacyBeforeMs("0")).toBe(0);
    expect(legacyBeforeMs("2026-06-01T12:00:00Z")).toBe(Date.UTC(2026, 5, 1, 12));
    expect(legacyBeforeMs("2026-06-01T12:00:00.250+02:00")).toBe(Date.UTC(2026, 5, 1, 10, 0, 0, 250));
  });

  it("refuses a bare date, anything Date.parse alone would guess at, and impossible dates", () => {
    for (const text of ["2026-06-01", "-5", "5 3", "yesterday", "2026-06-01 12:00", "2026-13-45T00:00:00Z", "2026-06-01T99:99:99Z", "12345678901234567", ""]) {
      expect([text, legacyBeforeMs(text)]).toEqual([text, undefined]);
    }
  });
});
