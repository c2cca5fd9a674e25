/**
 * driftReport on hand-made inputs: every position that differs from the platform's, and the cash
 * when it was anchored, becomes a drift record with the platform's side minus ours; nothing else.
 */
import { describe, expect, it } from "vitest";
import { driftReport } from "../../../src/bot/fills/inventory-drift.js";
import { parseMicros } from "../../../src/core/money.js";
import type { Balances, Position } from "../../../src/wire/portfolio.js";

const W = "0xw";
const held = (marketId: string, outcome: number, qty: string) => ({ marketId, outcome, qty: parseMicros(qty) });
const theirs = (marketId: string, outcome: number, quantity: string): Position => ({ marketId, tokenId: "1", outcome, quantity, locked: "0", avgPrice: null });
const balances = (total: string): Balances => ({
  walletAddress: "0x00000000000000000000000000000000000000aa",
  vaultAddress: "0x00000000000000000000000000000000000000bb",
  collateral: { total, locked: "0", available: total },
});

describe("driftReport", () => {
  it("is clean when every position agrees, whatever the order of either list", () => {
    const r = driftReport(W, [held("B", 1, "3"), held("A", 0, "10")], [theirs("A", 0, "10"), theirs("B", 1, "3")], undefined, undefined);
    expect(r).toEqual({ positions: [], clean: true });
  });

  it("records each difference as theirs - ours, sorted by market then outcome", () => {
    const r = driftReport(
      W,
      [held("B", 0, "5"), held("A", 1, "2"), held("A", 0, "1")],
      [theirs("A", 1, "2"), theirs("B", 0, "4.5"), theirs("A", 0, "1.25")],
      undefined,
      undefined,
    );
    expect(r.clean).toBe(false);
    expect(r.positions).toEqual([
      { wallet: W, marketId: "A", outcome: 0, ours: parseMicros("1"), theirs: parseMicros("1.25"), diff: parseMicros("0.25") },
      { wallet: W, marketId: "B", outcome: 0, ours: parseMicros("5"), theirs: parseMicros("4.5"), diff: -parseMicros("0.5") },
    ]);
  });

  it("counts a position only one side knows as zero on the other", () => {
    const r = driftReport(W, [held("OURS", 0, "2")], [theirs("THEIRS", 1, "7")], undefined, undefined);
    expect(r.positions.map((d) => [d.marketId, d.outcome, d.ours, d.theirs, d.diff])).toEqual([
      ["OURS", 0, parseMicros("2"), 0n, -parseMicros("2")],
      ["THEIRS", 1, 0n, parseMicros("7"), parseMicros("7")],
    ]);
    // A zero on both sides is agreement, not drift.
    expect(driftReport(W, [held("Z", 0, "0")], [theirs("Z", 0, "0")], undefined, undefined).clean).toBe(true);
  });

  it("sums platform rows of the same market and outcome before comparing", () => {
    const rows = [theirs("A", 0, "4"), theirs("A", 0, "6")];
    expect(driftReport(W, [held("A", 0, "10")], rows, undefined, undefined).clean).toBe(true);
    expect(driftReport(W, [held("A", 0, "6")], rows, undefined, undefined).positions[0]).toMatchObject({ theirs: parseMicros("10"), diff: parseMicros("4") });
  });

  it("compares cash only when it was anchored and the balances were read", () => {
    const pos = [held("A", 0, "1")];
    const plat = [theirs("A", 0, "1")];
    expect(driftReport(W, pos, plat, balances("100"), undefined).clean).toBe(true);
    expect(driftReport(W, pos, plat, undefined, parseMicros("90")).clean).toBe(true);
    expect(driftReport(W, pos, plat, balances("100.000001"), parseMicros("100.000001"))).toEqual({ positions: [], clean: true });
    const r = driftReport(W, pos, plat, balances("99.5"), parseMicros("100"));
    expect(r.clean).toBe(false);
    expect(r.positions).toEqual([]);
    expect(r.cash).toEqual({ wallet: W, ours: parseMicros("100"), theirs: parseMicros("99.5"), diff: -parseMicros("0.5") });
  });
});
