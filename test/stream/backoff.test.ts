import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { DEFAULT_BACKOFF, reconnectDelay } from "../../src/stream/index.js";

describe("reconnectDelay", () => {
  it("full jitter stays in [0, cap] and the cap doubles up to maxMs", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer(), (level, seed) => {
        const { delayMs, capMs } = reconnectDelay(level, DEFAULT_BACKOFF, new Rng(seed));
        expect(capMs).toBe(Math.min(30_000, 500 * 2 ** (level - 1)));
        expect(delayMs).toBeGreaterThanOrEqual(0);
        expect(delayMs).toBeLessThanOrEqual(capMs);
      }),
      { seed: 3 },
    );
  });

  it("equal jitter stays in [cap/2, cap]; none is the cap", () => {
    const rng = new Rng(5);
    for (let level = 1; level < 10; level++) {
      const eq = reconnectDelay(level, { ...DEFAULT_BACKOFF, jitter: "equal" }, rng);
      expect(eq.delayMs).toBeGreaterThanOrEqual(eq.capMs / 2);
      expect(eq.delayMs).toBeLessThanOrEqual(eq.capMs);
      expect(reconnectDelay(level, { ...DEFAULT_BACKOFF, jitter: "none" }, rng).delayMs).toBe(eq.capMs);
    }
  });

  it("spreads a crowd: 1000 clients at the same level do not all pick the same wait", () => {
    const rng = new Rng(11);
    const waits = new Set(Array.from({ length: 1000 }, () => reconnectDelay(4, DEFAULT_BACKOFF, rng).delayMs));
    expect(waits.size).toBeGreaterThan(500);
  });
});
