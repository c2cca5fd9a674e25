/**
 * A market as the engine sees it (src/sim/engine/market.ts): one book for a binary market and one
 * per outcome otherwise, default and given token ids, the post-only flag, and the fee curve in tick
 * units (fill fee ceil(bps * t * (1000 - t) * q / 1e10), the BUY fee lock ceil(bps * q / 40000)),
 * checked against values worked out by hand.
 */
import { describe, expect, it } from "vitest";
import { MarketState } from "../../../src/sim/engine/market.js";
import { OrderStore } from "../../../src/sim/engine/order.js";
import { u } from "./helpers.js";

function market(over: { id?: string; outcomes?: number; bps?: number; tokenIds?: string[]; postOnlyOnly?: boolean } = {}): MarketState {
  const id = over.id ?? "M";
  const outcomeCount = over.outcomes ?? 2;
  const feeRateBps = over.bps ?? 200;
  return new MarketState(id, 3, outcomeCount, feeRateBps, {
    id,
    outcomeCount,
    feeRateBps,
    ...(over.tokenIds ? { tokenIds: over.tokenIds } : {}),
    ...(over.postOnlyOnly !== undefined ? { postOnlyOnly: over.postOnlyOnly } : {}),
  }, new OrderStore(16));
}

describe("MarketState shape", () => {
  it("a binary market has one YES-denominated book shared by both outcomes", () => {
    const m = market();
    expect(m.binary).toBe(true);
    expect(m.books).toHaveLength(1);
    expect(m.bookOf(0)).toBe(m.books[0]);
    expect(m.bookOf(1)).toBe(m.books[0]);
  });

  it("a market of three or more outcomes has a book per outcome", () => {
    const m = market({ outcomes: 3 });
    expect(m.binary).toBe(false);
    expect(m.books).toHaveLength(3);
    expect(new Set([m.bookOf(0), m.bookOf(1), m.bookOf(2)]).size).toBe(3);
    expect(m.bookOf(2)).toBe(m.books[2]);
  });

  it("token ids default to `${id}:${outcome}`; given ones are copied", () => {
    expect(market({ id: "TST", outcomes: 3 }).tokenIds).toEqual(["TST:0", "TST:1", "TST:2"]);
    const given = ["111", "222"];
    const m = market({ tokenIds: given });
    expect(m.tokenIds).toEqual(["111", "222"]);
    given[0] = "changed";
    expect(m.tokenIds[0]).toBe("111");
  });

  it("starts open, without holders or payout, post-only only when the spec says so", () => {
    const m = market();
    expect([m.phase, m.holders.size, m.payoutNumerators, m.postOnlyOnly, m.index, m.feeRateBps, m.feeBps]).toEqual(["open", 0, undefined, false, 3, 200, 200n]);
    expect(market({ postOnlyOnly: true }).postOnlyOnly).toBe(true);
  });
});

describe("fee curve", () => {
  it("feeNum[t] is bps * t * (1000 - t), zero at the grid's ends", () => {
    const m = market({ bps: 200 });
    expect(m.feeNum).toHaveLength(1001);
    expect([m.feeNum[0], m.feeNum[1000]]).toEqual([0n, 0n]);
    expect(m.feeNum[1]).toBe(200n * 999n);
    expect(m.feeNum[500]).toBe(200n * 250_000n);
    expect(m.feeNum[610]).toBe(200n * 610n * 390n);
  });

  it("fillFee at 0.61 for 12.5 shares and 200 bps: 0.02 * 0.61 * 0.39 * 12.5 = 0.059475 exactly", () => {
    expect(market({ bps: 200 }).fillFee(610, u("12.5"))).toBe(u("0.059475"));
  });

  it("fillFee rounds up: one micro-share at any price pays one micro", () => {
    const m = market({ bps: 200 });
    expect(m.fillFee(610, 1n)).toBe(1n);
    expect(m.fillFee(1, 1n)).toBe(1n);
    expect(m.fillFee(999, 1n)).toBe(1n);
  });

  it("fillFee is symmetric in t and 1000 - t (a YES price and its NO complement pay alike)", () => {
    const m = market({ bps: 150 });
    expect(m.fillFee(300, u("7"))).toBe(m.fillFee(700, u("7")));
    // 0.015 * 0.3 * 0.7 * 7 = 0.02205
    expect(m.fillFee(300, u("7"))).toBe(u("0.02205"));
  });

  it("maxFee is the fee at 0.50, the curve's top: 0.02 * 0.25 * 10 = 0.05, rounded up for odd sizes", () => {
    const m = market({ bps: 200 });
    expect(m.maxFee(u("10"))).toBe(u("0.05"));
    expect(m.maxFee(u("10"))).toBe(m.fillFee(500, u("10")));
    expect(m.maxFee(1n)).toBe(1n);
    // 200 * 3 / 40000 = 0.015 micros -> 1
    expect(m.maxFee(3n)).toBe(1n);
    // 200 * 400_001 / 40000 = 2000.005 -> 2001
    expect(m.maxFee(400_001n)).toBe(2_001n);
  });

  it("a fee-free market charges nothing anywhere", () => {
    const m = market({ bps: 0 });
    expect([m.fillFee(500, u("1000")), m.maxFee(u("1000"))]).toEqual([0n, 0n]);
  });
});
