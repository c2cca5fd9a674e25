/**
 * Retry waits of spec 7.4 rule 3 (src/api/backoff.ts): exponential from 200 ms with jitter added on
 * top (never below the base, never reaching the next retry's base), capped at 10 s; the defaults are
 * the spec's numbers. The Rng is a stub returning chosen draws, or a seeded one for the properties.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY, backoffDelay, type RetryOptions } from "../../src/api/backoff.js";
import { Rng } from "../../src/core/rng.js";

/** An Rng whose float() returns `u` (only float is used by backoffDelay). */
const fixed = (u: number) => ({ float: () => u }) as unknown as Rng;

describe("DEFAULT_RETRY", () => {
  it("holds the spec's numbers: 3 attempts, 200 ms first wait, 10 s cap, 429 waited out", () => {
    expect(DEFAULT_RETRY).toMatchObject({ maxAttempts: 3, initialDelayMs: 200, maxDelayMs: 10_000, maxRateLimitRetries: 3, defaultRetryAfterSec: 1 });
  });
});

describe("backoffDelay", () => {
  it("is the base with no jitter drawn, doubling per retry", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, DEFAULT_RETRY, fixed(0)))).toEqual([200, 400, 800, 1_600, 3_200]);
  });

  it("adds up to half the base with the default jitter, rounded to the millisecond", () => {
    expect(backoffDelay(1, DEFAULT_RETRY, fixed(0.5))).toBe(250);
    expect(backoffDelay(2, DEFAULT_RETRY, fixed(0.999))).toBe(Math.round(400 * 1.4995));
    expect(backoffDelay(1, DEFAULT_RETRY, fixed(0.0013))).toBe(200);
  });

  it("a retry number below 1 waits like the first retry", () => {
    expect(backoffDelay(0, DEFAULT_RETRY, fixed(0))).toBe(200);
    expect(backoffDelay(-3, DEFAULT_RETRY, fixed(0))).toBe(200);
  });

  it("never exceeds maxDelayMs, jitter included", () => {
    const opts: RetryOptions = { ...DEFAULT_RETRY, initialDelayMs: 1_000, maxDelayMs: 3_000 };
    expect(backoffDelay(2, opts, fixed(0.9))).toBe(2_900);
    expect(backoffDelay(2, opts, fixed(0.99))).toBe(2_990);
    expect(backoffDelay(3, opts, fixed(0))).toBe(3_000);
    expect(backoffDelay(60, opts, fixed(0.5))).toBe(3_000);
  });

  it("with jitter 0 the waits are exact; with any jitter each wait is shorter than the next retry's base", () => {
    expect(backoffDelay(3, { ...DEFAULT_RETRY, jitter: 0 }, fixed(0.99))).toBe(800);
    const rng = new Rng(3);
    for (let i = 0; i < 500; i++) {
      for (let n = 1; n <= 5; n++) {
        const d = backoffDelay(n, DEFAULT_RETRY, rng);
        expect(d).toBeGreaterThanOrEqual(200 * 2 ** (n - 1));
        expect(d).toBeLessThan(200 * 2 ** n);
      }
    }
  });

  it("the same seed gives the same waits", () => {
    const a = new Rng(11);
    const b = new Rng(11);
    const waits = (r: Rng) => Array.from({ length: 20 }, (_, i) => backoffDelay(1 + (i % 6), DEFAULT_RETRY, r));
    expect(waits(a)).toEqual(waits(b));
  });
});
