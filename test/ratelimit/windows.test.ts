/** Fixed-window arithmetic and the rate-limit headers, shared by the platform side and the client side. */
import { describe, expect, it } from "vitest";
import {
  deltaSeconds,
  formatRateLimitHeaders,
  headerValue,
  intHeader,
  parseRateLimitHeaders,
  windowStart,
} from "../../src/ratelimit/windows.js";

describe("windowStart", () => {
  it("cuts time at whole windows from the epoch, or shifted by a phase", () => {
    expect(windowStart(0, 1000)).toBe(0);
    expect(windowStart(999, 1000)).toBe(0);
    expect(windowStart(1000, 1000)).toBe(1000);
    expect(windowStart(61_234, 60_000)).toBe(60_000);
    // Phase 300: windows [300, 1300), [1300, 2300), ...
    expect(windowStart(1299, 1000, 300)).toBe(300);
    expect(windowStart(1300, 1000, 300)).toBe(1300);
    expect(windowStart(299, 1000, 300)).toBe(-700);
  });
});

describe("deltaSeconds", () => {
  it("rounds up to whole seconds, never below 1", () => {
    expect(deltaSeconds(5_000, 0)).toBe(5);
    expect(deltaSeconds(5_001, 0)).toBe(6);
    expect(deltaSeconds(1, 0)).toBe(1);
    expect(deltaSeconds(0, 0)).toBe(1);
    expect(deltaSeconds(0, 10_000)).toBe(1);
  });
});

describe("rate-limit headers", () => {
  it("formats the three headers, and Retry-After only when given", () => {
    expect(formatRateLimitHeaders({ limit: 240, remaining: 0, resetSec: 17 })).toEqual({
      "X-RateLimit-Limit": "240",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": "17",
    });
    expect(formatRateLimitHeaders({ limit: 1, remaining: 0, resetSec: 2 }, 2)["Retry-After"]).toBe("2");
  });

  it("reads a header whatever its case, from fetch Headers, a Map or a plain record (first of a list)", () => {
    const plain = { "x-ratelimit-limit": "240", "Retry-After": ["3", "4"], other: undefined };
    expect(headerValue(plain, "X-RateLimit-Limit")).toBe("240");
    expect(headerValue(plain, "retry-after")).toBe("3");
    expect(headerValue(plain, "other")).toBeUndefined();
    expect(headerValue(new Map([["X-RATELIMIT-RESET", "9"]]), "x-ratelimit-reset")).toBe("9");
    expect(headerValue(new Headers({ "X-RateLimit-Remaining": "5" }), "x-ratelimit-remaining")).toBe("5");
    expect(headerValue(new Headers(), "x")).toBeUndefined();
    expect(headerValue(undefined, "x")).toBeUndefined();
  });

  it("takes only non-negative whole numbers as integer headers", () => {
    const h = (v: string) => ({ "X-N": v });
    expect(intHeader(h(" 42 "), "x-n")).toBe(42);
    expect(intHeader(h("0"), "x-n")).toBe(0);
    for (const bad of ["-1", "1.5", "1e3", "", "abc", "99999999999999999999"]) expect(intHeader(h(bad), "x-n"), bad).toBeUndefined();
  });

  it("parses the three headers only when all are present and well-formed", () => {
    const full = { "X-RateLimit-Limit": "240", "X-RateLimit-Remaining": "12", "X-RateLimit-Reset": "30" };
    expect(parseRateLimitHeaders(full)).toEqual({ limit: 240, remaining: 12, resetSec: 30 });
    expect(parseRateLimitHeaders(formatRateLimitHeaders({ limit: 3, remaining: 2, resetSec: 1 }, 1))).toEqual({ limit: 3, remaining: 2, resetSec: 1 });
    expect(parseRateLimitHeaders({ ...full, "X-RateLimit-Reset": "soon" })).toBeUndefined();
    expect(parseRateLimitHeaders({ "X-RateLimit-Limit": "240", "X-RateLimit-Remaining": "12" })).toBeUndefined();
    expect(parseRateLimitHeaders(undefined)).toBeUndefined();
  });
});
