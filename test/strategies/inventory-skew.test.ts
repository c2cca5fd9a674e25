import { describe, expect, it } from "vitest";
import type { BookView } from "../../src/bot/quote/quotes.js";
import { inventorySkew, inventorySkewModel, inventorySkewParamsSchema, type InventorySkewState } from "../../strategies/index.js";
import { book, input, m, no, run, runSeries, yes, yesView } from "./helpers.js";

/** A book 100 ticks wide around `mid` (mid in ticks). */
function around(midTicks: number): BookView {
  return book([[`${(midTicks - 50) / 1000}`, "100"]], [[`${(midTicks + 50) / 1000}`, "100"]]);
}

describe("inventory-skew", () => {
  it("with long inventory moves the reservation price down: asks and bids get lower", () => {
    const p = { halfSpreadTicks: 2, skewTicksPerUnit: 2, inventoryUnit: "10" };
    const flat = yesView(run("inventory-skew", p, input()).quotes);
    const long = yesView(run("inventory-skew", p, input({ inventory: yes("30") })).quotes);
    // q = 3 units -> shift -6 ticks
    expect(flat.bids[0]!.price).toBe(m("0.548"));
    expect(flat.asks[0]!.price).toBe(m("0.552"));
    expect(long.bids[0]!.price).toBe(m("0.542"));
    expect(long.asks[0]!.price).toBe(m("0.546"));
    expect(long.asks[0]!.price < flat.asks[0]!.price).toBe(true);
  });

  it("with NO held (short YES) moves it up", () => {
    const p = { halfSpreadTicks: 2, skewTicksPerUnit: 1 };
    const short = yesView(run("inventory-skew", p, input({ inventory: no("20") })).quotes);
    expect(short.bids[0]!.price).toBe(m("0.55"));
    expect(short.asks[0]!.price).toBe(m("0.554"));
  });

  it("caps the skew at maxSkewTicks", () => {
    const p = { halfSpreadTicks: 2, skewTicksPerUnit: 1, maxSkewTicks: 5 };
    const v = yesView(run("inventory-skew", p, input({ inventory: yes("1000") })).quotes);
    expect(v.asks[0]!.price).toBe(m("0.547"));
  });

  it("widens the spread with short-horizon volatility (checked against a hand computation)", () => {
    const p = { halfSpreadTicks: 2, volHorizonMs: 60_000, volMultiplier: 1 };
    const calm = runSeries("inventory-skew", p, Array.from({ length: 11 }, () => around(550)));
    // Mid alternates 0.550 / 0.552 each second: 10 moves of 0.002 over 10 s.
    const wild = runSeries("inventory-skew", p, Array.from({ length: 11 }, (_, i) => around(i % 2 === 0 ? 550 : 552)));
    const c = yesView(calm.quotes);
    const w = yesView(wild.quotes);
    expect(c.asks[0]!.price - c.bids[0]!.price).toBe(m("0.004"));
    // sigma over 60 s = sqrt(10 * 0.002^2 / 10_000 ms * 60_000 ms) = 0.0154919; half = 0.0174919
    const half = 0.002 + Math.sqrt(((10 * 0.002 ** 2) / 10_000) * 60_000);
    expect(half).toBeCloseTo(0.0174919, 6);
    expect(w.bids[0]!.price).toBe(m("0.532")); // floor(0.55 - 0.0174919)
    expect(w.asks[0]!.price).toBe(m("0.568")); // ceil(0.55 + 0.0174919)
  });

  it("does not widen when volMultiplier is 0, and caps at maxHalfSpreadTicks", () => {
    const books = Array.from({ length: 11 }, (_, i) => around(i % 2 === 0 ? 550 : 560));
    const off = yesView(runSeries("inventory-skew", { volMultiplier: 0 }, books).quotes);
    expect(off.asks[0]!.price - off.bids[0]!.price).toBe(m("0.004"));
    const capped = yesView(runSeries("inventory-skew", { volMultiplier: 100, maxHalfSpreadTicks: 10 }, books).quotes);
    expect(capped.bids[0]!.price).toBe(m("0.54"));
    expect(capped.asks[0]!.price).toBe(m("0.56"));
  });

  it("keeps its mid history as pure per-market state", () => {
    const params = inventorySkewParamsSchema.parse({ volWindowMs: 5_000 });
    const s0: InventorySkewState = { samples: [{ ts: 0, mid: 0.5 }] };
    const frozen = JSON.stringify(s0);
    const s1 = inventorySkew.reduce!(s0, { ...input({ nowMs: 4_000 }), params });
    expect(JSON.stringify(s0)).toBe(frozen);
    expect(s1.samples).toEqual([
      { ts: 0, mid: 0.5 },
      { ts: 4_000, mid: 0.55 },
    ]);
    const s2 = inventorySkew.reduce!(s1, { ...input({ nowMs: 6_000 }), params });
    expect(s2.samples.map((s) => s.ts)).toEqual([4_000, 6_000]);
    const model = inventorySkewModel({ ...input(), params, state: s2 }, 0.55);
    expect(model.reservation).toBeCloseTo(0.55, 12);
  });
});
