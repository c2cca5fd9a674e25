/**
 * Markout sums on hand-made inputs (markouts.ts): per (side, role, horizon) and for all fills
 * together, the shares and sum(markout x qty) kept exact and rounded down only when formatted,
 * the average per share rounded down (negative figures towards minus infinity), no average for
 * a group without shares; groups ordered all first, BUY before SELL, roles by name, horizons in
 * order, whatever order the fills came in. The horizons and the signed markout are the ones
 * shared with the daemon's live tracker.
 */
import { describe, expect, it } from "vitest";
import { MARKOUT_HORIZONS_MS, MarkoutSums, markoutPerShare } from "../../src/backtest/markouts.js";

describe("the signed markout", () => {
  it("is the mid after the fill minus the price for a buy, the price minus it for a sell", () => {
    expect(markoutPerShare("BUY", 490_000n, 503_000n)).toBe(13_000n);
    expect(markoutPerShare("SELL", 490_000n, 503_000n)).toBe(-13_000n);
    expect(markoutPerShare("SELL", 515_000n, 512_500n)).toBe(2_500n);
  });

  it("is taken at 1 s, 5 s, 30 s, 60 s and 5 min", () => {
    expect(MARKOUT_HORIZONS_MS).toEqual([1_000, 5_000, 30_000, 60_000, 300_000]);
  });
});

describe("markout sums", () => {
  it("are empty before any fill", () => {
    expect(new MarkoutSums().groups([1_000])).toEqual([]);
  });

  it("sum each group exactly and round down once, ordered all, BUY, SELL, by role, by horizon", () => {
    const s = new MarkoutSums();
    // Added out of order on purpose; horizon index 0 is 1 s, index 1 is 5 s.
    s.add("SELL", "taker", 0, -2_500n, 4_000_001n); // -0.0025 x 4.000001 = -0.0100000025
    s.add("BUY", "taker", 0, 0n, 2_000_000n);
    s.add("BUY", "maker", 1, -1n, 1n); // one micro-share one micro under: -0.000000000001
    s.add("SELL", "maker", 1, 5_000n, 0n); // no shares
    s.add("BUY", "maker", 0, 13_000n, 10_000_000n); // 0.013 x 10 = 0.13
    expect(s.groups([1_000, 5_000])).toEqual([
      // 0.13 + 0 - 0.0100000025 = 0.1199999975 over 16.000001 shares: 0.119999 and 0.007499 (floors)
      { side: "all", role: "all", horizonMs: 1_000, fills: 3, shares: "16.000001", value: "0.119999", perShare: "0.007499" },
      // -0.000000000001: the floor is a whole micro down
      { side: "all", role: "all", horizonMs: 5_000, fills: 2, shares: "0.000001", value: "-0.000001", perShare: "-0.000001" },
      { side: "BUY", role: "maker", horizonMs: 1_000, fills: 1, shares: "10", value: "0.13", perShare: "0.013" },
      { side: "BUY", role: "maker", horizonMs: 5_000, fills: 1, shares: "0.000001", value: "-0.000001", perShare: "-0.000001" },
      { side: "BUY", role: "taker", horizonMs: 1_000, fills: 1, shares: "2", value: "0", perShare: "0" },
      { side: "SELL", role: "maker", horizonMs: 5_000, fills: 1, shares: "0", value: "0", perShare: null },
      // -0.0100000025 floors to -0.010001; per share exactly -0.0025
      { side: "SELL", role: "taker", horizonMs: 1_000, fills: 1, shares: "4.000001", value: "-0.010001", perShare: "-0.0025" },
    ]);
  });

  it("accumulate several fills of one group", () => {
    const s = new MarkoutSums();
    s.add("BUY", "maker", 0, 10_000n, 1_000_000n); // +0.01 on 1 share
    s.add("BUY", "maker", 0, -4_000n, 2_000_000n); // -0.004 on 2 shares
    // sum 0.01 - 0.008 = 0.002 over 3 shares: 0.000666 per share (0.000666.. rounded down)
    expect(s.groups([60_000]).find((g) => g.side === "BUY")).toEqual({ side: "BUY", role: "maker", horizonMs: 60_000, fills: 2, shares: "3", value: "0.002", perShare: "0.000666" });
  });
});
