/**
 * Fill totals (src/bot/fills/fill-totals.ts): counts by role, shares bought and sold, the exact
 * notionals (micros x micro-shares, never rounded) and fees, one fill at a time, merged, and over
 * a list; the figures below are worked out by hand.
 */
import { describe, expect, it } from "vitest";
import { addToTotals, emptyTotals, mergeTotals, totalsOf, type TalliedFill } from "../../../src/bot/fills/fill-totals.js";
import { parseMicros } from "../../../src/core/money.js";

const m = parseMicros;

function fill(side: "BUY" | "SELL", price: string, qty: string, role: TalliedFill["role"] = "maker", fee = "0"): TalliedFill {
  return { side, price: m(price), qty: m(qty), role, fee: m(fee) };
}

describe("emptyTotals", () => {
  it("is all zeros, and a fresh object each time", () => {
    const a = emptyTotals();
    expect(a).toEqual({ fills: 0, maker: 0, taker: 0, unknownRole: 0, bought: 0n, sold: 0n, buyNotional2: 0n, sellNotional2: 0n, fees: 0n });
    a.fills = 3;
    expect(emptyTotals().fills).toBe(0);
  });
});

describe("addToTotals", () => {
  it("counts a BUY in bought and its notional as price x qty in micro squared", () => {
    const t = emptyTotals();
    addToTotals(t, fill("BUY", "0.45", "10", "maker"));
    // 450_000 micros x 10_000_000 micro-shares
    expect(t).toEqual({ ...emptyTotals(), fills: 1, maker: 1, bought: 10_000_000n, buyNotional2: 4_500_000_000_000n });
  });

  it("counts a SELL in sold, a taker's fee, and an unknown role apart", () => {
    const t = emptyTotals();
    addToTotals(t, fill("SELL", "0.6", "2.5", "taker", "0.015"));
    addToTotals(t, fill("SELL", "0.4", "1", "unknown"));
    expect(t.fills).toBe(2);
    expect([t.maker, t.taker, t.unknownRole]).toEqual([0, 1, 1]);
    expect(t.sold).toBe(3_500_000n);
    // 600_000 x 2_500_000 + 400_000 x 1_000_000
    expect(t.sellNotional2).toBe(1_500_000_000_000n + 400_000_000_000n);
    expect(t.fees).toBe(15_000n);
    expect(t.bought).toBe(0n);
    expect(t.buyNotional2).toBe(0n);
  });

  it("keeps sub-micro notionals exact: 0.000001 x 0.000001 is 1 micro squared, not 0", () => {
    const t = emptyTotals();
    addToTotals(t, fill("BUY", "0.000001", "0.000001"));
    addToTotals(t, fill("BUY", "0.000001", "0.000001"));
    expect(t.buyNotional2).toBe(2n);
  });
});

describe("mergeTotals", () => {
  it("adds every field of the second into the first and leaves the second as it was", () => {
    const a = totalsOf([fill("BUY", "0.5", "4", "maker", "0"), fill("SELL", "0.55", "1", "taker", "0.01")]);
    const b = totalsOf([fill("BUY", "0.25", "2", "unknown", "0.002")]);
    const bBefore = { ...b };
    mergeTotals(a, b);
    expect(a).toEqual({
      fills: 3,
      maker: 1,
      taker: 1,
      unknownRole: 1,
      bought: 6_000_000n,
      sold: 1_000_000n,
      // 500_000 x 4_000_000 + 250_000 x 2_000_000
      buyNotional2: 2_000_000_000_000n + 500_000_000_000n,
      sellNotional2: 550_000_000_000n,
      fees: 12_000n,
    });
    expect(b).toEqual(bBefore);
  });

  it("merging empty totals changes nothing", () => {
    const a = totalsOf([fill("SELL", "0.3", "3")]);
    const before = { ...a };
    mergeTotals(a, emptyTotals());
    expect(a).toEqual(before);
  });
});

describe("totalsOf", () => {
  it("of no fills is the empty totals; of any iterable, the sum of its fills", () => {
    expect(totalsOf([])).toEqual(emptyTotals());
    function* gen(): Generator<TalliedFill> {
      yield fill("BUY", "0.1", "1");
      yield fill("BUY", "0.2", "1");
    }
    const t = totalsOf(gen());
    expect(t.fills).toBe(2);
    expect(t.bought).toBe(2_000_000n);
    expect(t.buyNotional2).toBe(100_000n * 1_000_000n + 200_000n * 1_000_000n);
  });
});
