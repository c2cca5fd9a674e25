/**
 * The compacted part of the fill ledger (src/bot/fills/fill-checkpoint.ts) on its own: the totals
 * arithmetic it folds with (src/bot/fills/fill-totals.ts), the watermark order (time, then trade id
 * in natural order), what absorb does to the watermark, counts and totals, and the archive kept only
 * when asked. fill-compaction.test.ts drives it through the ledger; this file pins the pieces the
 * ledger relies on.
 */
import { describe, expect, it } from "vitest";
import { FillCheckpoint, atOrBelow } from "../../../src/bot/fills/fill-checkpoint.js";
import { addToTotals, emptyTotals, mergeTotals } from "../../../src/bot/fills/fill-totals.js";
import type { Fill } from "../../../src/bot/fills/fill-types.js";
import { parseMicros } from "../../../src/core/money.js";

const m = parseMicros;
const W = "0x" + "ab".repeat(20);
const W2 = "0x" + "cd".repeat(20);

function fill(tradeId: string, ts: number, over: Partial<Fill> = {}): Fill {
  return { tradeId, wallet: W, orderId: "o1", marketId: "MKT", outcome: 0, side: "BUY", price: m("0.4"), qty: m("10"), fee: 0n, role: "maker", ts, source: "trades_pull", ...over };
}

const keyOf = (f: Fill) => `${f.wallet}|${f.tradeId}|${f.orderId}`;

describe("totals", () => {
  it("count roles and sides apart, with exact notionals in micro x micro-shares", () => {
    const t = emptyTotals();
    addToTotals(t, { role: "maker", side: "BUY", qty: m("10"), price: m("0.401"), fee: 0n });
    addToTotals(t, { role: "taker", side: "SELL", qty: m("3.333333"), price: m("0.333"), fee: m("0.02") });
    addToTotals(t, { role: "unknown", side: "BUY", qty: m("0.000001"), price: m("0.999"), fee: 1n });
    expect(t).toEqual({
      fills: 3,
      maker: 1,
      taker: 1,
      unknownRole: 1,
      bought: m("10.000001"),
      sold: m("3.333333"),
      // 0.401 x 10 + 0.999 x 0.000001, kept to the micro² (no rounding).
      buyNotional2: 401_000n * 10_000_000n + 999_000n * 1n,
      sellNotional2: 333_000n * 3_333_333n,
      fees: m("0.020001"),
    });
  });

  it("merge adds every field", () => {
    const a = emptyTotals();
    addToTotals(a, { role: "maker", side: "BUY", qty: m("1"), price: m("0.5"), fee: 0n });
    const b = emptyTotals();
    addToTotals(b, { role: "taker", side: "SELL", qty: m("2"), price: m("0.6"), fee: m("0.01") });
    addToTotals(b, { role: "maker", side: "BUY", qty: m("3"), price: m("0.4"), fee: 0n });
    mergeTotals(a, b);
    expect(a).toEqual({
      fills: 3,
      maker: 2,
      taker: 1,
      unknownRole: 0,
      bought: m("4"),
      sold: m("2"),
      buyNotional2: 500_000n * 1_000_000n + 400_000n * 3_000_000n,
      sellNotional2: 600_000n * 2_000_000n,
      fees: m("0.01"),
    });
    // The merged-from totals are not changed.
    expect(b.fills).toBe(2);
  });
});

describe("atOrBelow", () => {
  it("orders by time first, then by trade id in natural order (t9 before t10)", () => {
    const w = { ts: 1_000, tradeId: "t10" };
    expect(atOrBelow({ ts: 999, tradeId: "t99" }, w)).toBe(true);
    expect(atOrBelow({ ts: 1_000, tradeId: "t9" }, w)).toBe(true);
    expect(atOrBelow({ ts: 1_000, tradeId: "t10" }, w)).toBe(true);
    expect(atOrBelow({ ts: 1_000, tradeId: "t11" }, w)).toBe(false);
    expect(atOrBelow({ ts: 1_000, tradeId: "t100" }, w)).toBe(false);
    expect(atOrBelow({ ts: 1_001, tradeId: "t1" }, w)).toBe(false);
  });
});

describe("FillCheckpoint", () => {
  it("has no watermark and covers nothing before its first compaction", () => {
    const c = new FillCheckpoint();
    expect(c.watermark(W)).toBeUndefined();
    expect(c.covers(fill("t1", 0))).toBe(false);
    expect(c.count()).toBe(0);
    expect(c.totals()).toEqual([]);
    c.absorb(W, [], keyOf);
    expect(c.watermark(W)).toBeUndefined();
  });

  it("absorb moves the wallet's watermark to the last fill's (ts, tradeId) and covers only that wallet", () => {
    const c = new FillCheckpoint();
    c.absorb(W, [fill("t1", 1_000), fill("t2", 2_000), fill("t3", 2_000)], keyOf);
    expect(c.watermark(W)).toEqual({ ts: 2_000, tradeId: "t3" });
    expect(c.covers(fill("t3", 2_000))).toBe(true);
    expect(c.covers(fill("t0", 1_500))).toBe(true);
    expect(c.covers(fill("t4", 2_000))).toBe(false);
    expect(c.covers(fill("t1", 1_000, { wallet: W2 }))).toBe(false);
    expect(c.watermark(W2)).toBeUndefined();
  });

  it("hands out a copy of the watermark", () => {
    const c = new FillCheckpoint();
    c.absorb(W, [fill("t1", 1_000)], keyOf);
    const w = c.watermark(W)!;
    w.ts = 9_999;
    expect(c.watermark(W)).toEqual({ ts: 1_000, tradeId: "t1" });
  });

  it("refuses a batch that would move the watermark back; a batch ending at the watermark is accepted", () => {
    const c = new FillCheckpoint();
    c.absorb(W, [fill("t5", 5_000)], keyOf);
    expect(() => c.absorb(W, [fill("t4", 5_000)], keyOf)).toThrow(/move its watermark back/);
    expect(() => c.absorb(W, [fill("t1", 4_000)], keyOf)).toThrow(/move its watermark back/);
    expect(c.watermark(W)).toEqual({ ts: 5_000, tradeId: "t5" });
    expect(c.count(W)).toBe(1);
    c.absorb(W, [fill("t6", 6_000)], keyOf);
    expect(c.watermark(W)).toEqual({ ts: 6_000, tradeId: "t6" });
  });

  it("counts and totals per wallet, market and outcome; totals are copies", () => {
    const c = new FillCheckpoint();
    c.absorb(W, [fill("t1", 1), fill("t2", 2, { outcome: 1, side: "SELL", role: "taker", fee: m("0.1") }), fill("t3", 3, { marketId: "OTHER" })], keyOf);
    c.absorb(W2, [fill("u1", 1, { wallet: W2, qty: m("2") })], keyOf);
    expect(c.count()).toBe(4);
    expect(c.count(W)).toBe(3);
    expect(c.count(W2)).toBe(1);
    expect(c.count("0xunknown")).toBe(0);
    const rows = c.totals(W).map((r) => [r.marketId, r.outcome, r.totals.fills, r.totals.bought, r.totals.sold, r.totals.fees]);
    expect(rows).toEqual([
      ["MKT", 0, 1, m("10"), 0n, 0n],
      ["MKT", 1, 1, 0n, m("10"), m("0.1")],
      ["OTHER", 0, 1, m("10"), 0n, 0n],
    ]);
    expect(c.totals().map((r) => r.wallet)).toEqual([W, W, W, W2]);
    const first = c.totals(W)[0]!;
    first.totals.fills = 99;
    expect(c.totals(W)[0]!.totals.fills).toBe(1);
  });

  it("keeps no record unless told to; once told, archives the fills compacted from then on", () => {
    const c = new FillCheckpoint();
    expect(c.keeping).toBe(false);
    const a = fill("t1", 1);
    c.absorb(W, [a], keyOf);
    expect(c.archived(keyOf(a))).toBeUndefined();
    expect(c.archivedFills()).toEqual([]);
    c.keep();
    expect(c.keeping).toBe(true);
    const b = fill("t2", 2);
    const d = fill("u1", 1, { wallet: W2 });
    c.absorb(W, [b], keyOf);
    c.absorb(W2, [d], keyOf);
    expect(c.archived(keyOf(b))).toEqual(b);
    expect(c.archived(keyOf(a))).toBeUndefined();
    expect(c.archivedFills()).toEqual([b, d]);
    expect(c.archivedFills(W2)).toEqual([d]);
  });

  it("constructed keeping, archives from the start", () => {
    const c = new FillCheckpoint(true);
    const a = fill("t1", 1);
    c.absorb(W, [a], keyOf);
    expect(c.keeping).toBe(true);
    expect(c.archivedFills(W)).toEqual([a]);
  });
});
