/**
 * mm sweep's worker pool (src/sweep/pool.ts): threads for a batch are min(max, batch size); a later
 * larger batch gets a larger pool, a smaller one keeps the threads it has.
 */
import { describe, expect, it } from "vitest";
import { SweepPool } from "../../src/sweep/pool.js";
import { workerModule } from "../../src/sweep/loader.js";

describe("sweep pool", () => {
  it("starts min(max, n) threads for a batch of n and grows only for a larger batch", async () => {
    expect(() => new SweepPool(workerModule(), 0)).toThrow(/maxThreads must be a whole number >= 1/);
    const pool = new SweepPool(workerModule(), 2);
    try {
      expect(pool.threads).toBe(0);
      await pool.prepare(1);
      expect(pool.threads).toBe(1);
      await pool.prepare(5);
      expect(pool.threads).toBe(2);
      await pool.prepare(1);
      expect(pool.threads).toBe(2);
    } finally {
      await pool.destroy();
    }
    expect(pool.threads).toBe(0);
  }, 60_000);
});
