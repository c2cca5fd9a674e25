/**
 * What every answer carries besides its body (src/api/meta.ts, spec 4, 8.1, 9): the API version,
 * `X-Server-Time` as a millisecond epoch (from milliseconds, seconds or a date), the request and
 * trace ids, the rate-limit headers (present only when the answer carried one), Retry-After and
 * the attempt count; unreadable values are left out rather than guessed.
 */
import { describe, expect, it } from "vitest";
import { parseServerTime, readMeta } from "../../src/api/meta.js";

/** 2026-01-01T00:00:00Z. */
const NEW_YEAR_MS = 1_767_225_600_000;

describe("parseServerTime", () => {
  it("digits are a millisecond epoch", () => {
    expect(parseServerTime("1767225600123")).toBe(NEW_YEAR_MS + 123);
    expect(parseServerTime(" 1767225600123 ")).toBe(NEW_YEAR_MS + 123);
  });

  it("digits too small to be milliseconds (below 1e11) are seconds, fractions rounded to the millisecond", () => {
    expect(parseServerTime("1767225600")).toBe(NEW_YEAR_MS);
    expect(parseServerTime("1767225600.5")).toBe(NEW_YEAR_MS + 500);
    expect(parseServerTime("1767225600.0004")).toBe(NEW_YEAR_MS);
    expect(parseServerTime("99999999999")).toBe(99_999_999_999_000);
    expect(parseServerTime("100000000000")).toBe(100_000_000_000);
  });

  it("anything else is read as a date: ISO-8601 or an HTTP date", () => {
    expect(parseServerTime("2026-01-01T00:00:00.123Z")).toBe(NEW_YEAR_MS + 123);
    expect(parseServerTime("2026-01-01T01:00:00+01:00")).toBe(NEW_YEAR_MS);
    expect(parseServerTime("Thu, 01 Jan 2026 00:00:00 GMT")).toBe(NEW_YEAR_MS);
  });

  it("absent, blank or unreadable: undefined", () => {
    expect(parseServerTime(undefined)).toBeUndefined();
    expect(parseServerTime("")).toBeUndefined();
    expect(parseServerTime("   ")).toBeUndefined();
    expect(parseServerTime("yesterday")).toBeUndefined();
    expect(parseServerTime("1e12")).toBeUndefined();
    // Date.parse alone reads these as days of 2001: not a server time.
    expect(parseServerTime("-5")).toBeUndefined();
    expect(parseServerTime("5 3")).toBeUndefined();
    expect(parseServerTime("-1767225600000")).toBeUndefined();
  });
});

describe("readMeta", () => {
  it("reads every header of a full answer", () => {
    const meta = readMeta(
      200,
      {
        "x-api-version": "2026-10-09",
        "x-server-time": "1767225600123",
        "x-request-id": "req-1",
        "x-trace-id": "trace-9",
        "x-ratelimit-limit": "100",
        "x-ratelimit-remaining": "7",
        "x-ratelimit-reset": "12",
        "retry-after": "2",
      },
      3,
    );
    expect(meta).toEqual({
      status: 200,
      apiVersion: "2026-10-09",
      serverTime: NEW_YEAR_MS + 123,
      requestId: "req-1",
      traceId: "trace-9",
      rateLimit: { limit: 100, remaining: 7, resetSec: 12 },
      retryAfterSec: 2,
      attempts: 3,
    });
  });

  it("an answer without those headers: every field undefined, and no rate-limit block", () => {
    expect(readMeta(503, {}, 1)).toEqual({
      status: 503,
      apiVersion: undefined,
      serverTime: undefined,
      requestId: undefined,
      traceId: undefined,
      rateLimit: undefined,
      retryAfterSec: undefined,
      attempts: 1,
    });
  });

  it("finds headers in any case", () => {
    const meta = readMeta(200, { "X-Request-Id": "Req-A", "X-RateLimit-Remaining": "0" }, 1);
    expect(meta.requestId).toBe("Req-A");
    expect(meta.rateLimit).toEqual({ limit: undefined, remaining: 0, resetSec: undefined });
  });

  it("reads a rate-limit value only when it is a whole number, spaces allowed; one readable header is enough for the block", () => {
    expect(readMeta(200, { "x-ratelimit-limit": " 60 ", "x-ratelimit-remaining": "-1", "x-ratelimit-reset": "1.5" }, 1).rateLimit).toEqual({ limit: 60, remaining: undefined, resetSec: undefined });
    expect(readMeta(200, { "x-ratelimit-limit": "lots", "x-ratelimit-reset": "99999999999999999999" }, 1).rateLimit).toBeUndefined();
  });

  it("Retry-After in seconds (fractions kept); an HTTP date or a negative value is not read", () => {
    expect(readMeta(429, { "retry-after": "2.5" }, 1).retryAfterSec).toBe(2.5);
    expect(readMeta(429, { "retry-after": "Thu, 01 Jan 2026 00:00:02 GMT" }, 1).retryAfterSec).toBeUndefined();
    expect(readMeta(429, { "retry-after": "-1" }, 1).retryAfterSec).toBeUndefined();
  });
});
