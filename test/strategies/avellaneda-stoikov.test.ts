import { describe, expect, it } from "vitest";
import type { BookView } from "../../src/bot/quote/quotes.js";
import { asInputs, asModel, avellanedaStoikovParamsSchema, horizonUnits } from "../../strategies/index.js";
import { book, input, m, run, runSeries, yes, yesView } from "./helpers.js";

const HOUR = 3_600_000;
const BASE = { gamma: 0.5, k: 100, sigmaFloor: 0.05, inventoryUnit: "10" };

function closingIn(ms: number): { closesAtMs: number; timeToCloseMs: number } {
  return { closesAtMs: 1_000_000 + ms, timeToCloseMs: ms };
}

function around(midTicks: number): BookView {
  return book([[`${(midTicks - 50) / 1000}`, "100"]], [[`${(midTicks + 50) / 1000}`, "100"]]);
}

describe("avellaneda-stoikov", () => {
  it("matches a hand computation of the closed form", () => {
    // s = 0.55, q = 20 shares / 10 = 2, gamma 0.5, sigma 0.05 (floor), tau = 2 h / 1 h = 2, k = 100
    //   gamma sigma^2 tau = 0.5 * 0.0025 * 2 = 0.0025
    //   r     = 0.55 - 2 * 0.0025 = 0.545
    //   delta = 0.0025 + (2 / 0.5) ln(1 + 0.5/100) = 0.0025 + 4 * 0.0049875415 = 0.0224501662
    //   bid = r - delta/2 = 0.5337749 -> 0.533 ; ask = 0.5562251 -> 0.557
    const r = asModel({ s: 0.55, q: 2, gamma: 0.5, sigma: 0.05, tau: 2, k: 100 });
    expect(r.reservation).toBeCloseTo(0.545, 12);
    expect(r.spread).toBeCloseTo(0.0224501662, 9);
    const v = yesView(run("avellaneda-stoikov", BASE, input({ inventory: yes("20"), ...closingIn(2 * HOUR) })).quotes);
    expect(v.bids[0]!.price).toBe(m("0.533"));
    expect(v.asks[0]!.price).toBe(m("0.557"));
  });

  it("derives tau from closesAt, caps it, and falls back when there is no closesAt", () => {
    const params = avellanedaStoikovParamsSchema.parse({ maxHorizonMs: 10 * HOUR, fallbackHorizonMs: 3 * HOUR });
    const at = (over: Parameters<typeof input>[0]): number => horizonUnits({ ...input(over), params });
    expect(at(closingIn(2 * HOUR))).toBe(2);
    expect(at(closingIn(100 * HOUR))).toBe(10);
    expect(at(closingIn(-5000))).toBe(0);
    expect(at({ closesAtMs: 1_000_000 + HOUR / 2, timeToCloseMs: null })).toBe(0.5);
    expect(at({})).toBe(3);
  });

  it("narrows the spread as time to close shrinks", () => {
    const spreadAt = (ms: number): bigint => {
      const v = yesView(run("avellaneda-stoikov", BASE, input(closingIn(ms))).quotes);
      return v.asks[0]!.price - v.bids[0]!.price;
    };
    const spreads = [24, 12, 6, 1, 0].map((h) => spreadAt(h * HOUR));
    for (let i = 1; i < spreads.length; i++) expect(spreads[i]! <= spreads[i - 1]!).toBe(true);
    // tau 24: delta = 0.03 + 0.01995 = 0.04995 -> [0.526, 0.575]; tau 0: delta 0.01995 -> [0.541, 0.560]
    expect(spreads[0]).toBe(m("0.05"));
    expect(spreads[4]).toBe(m("0.02"));
  });

  it("skews less as the close nears (the inventory term scales with tau)", () => {
    const far = yesView(run("avellaneda-stoikov", BASE, input({ inventory: yes("40"), ...closingIn(12 * HOUR) })).quotes);
    const near = yesView(run("avellaneda-stoikov", BASE, input({ inventory: yes("40"), ...closingIn(HOUR / 10) })).quotes);
    expect(far.asks[0]!.price < near.asks[0]!.price).toBe(true);
  });

  it("with long inventory moves the reservation down: asks become more aggressive", () => {
    const flat = yesView(run("avellaneda-stoikov", BASE, input(closingIn(4 * HOUR))).quotes);
    const long = yesView(run("avellaneda-stoikov", BASE, input({ inventory: yes("30"), ...closingIn(4 * HOUR) })).quotes);
    expect(long.asks[0]!.price < flat.asks[0]!.price).toBe(true);
    expect(long.bids[0]!.price < flat.bids[0]!.price).toBe(true);
  });

  it("widens the spread with volatility estimated from the mid history, floored at sigmaFloor", () => {
    const p = { ...BASE, sigmaFloor: 0.001, timeUnitMs: HOUR };
    const calm = yesView(runSeries("avellaneda-stoikov", p, Array.from({ length: 11 }, () => around(550)), closingIn(HOUR)).quotes);
    const wildBooks = Array.from({ length: 11 }, (_, i) => around(i % 2 === 0 ? 550 : 551));
    const wildRes = runSeries("avellaneda-stoikov", p, wildBooks, closingIn(HOUR));
    const wild = yesView(wildRes.quotes);
    expect(wild.asks[0]!.price - wild.bids[0]!.price > calm.asks[0]!.price - calm.bids[0]!.price).toBe(true);
    // The estimate used: 10 moves of 0.001 over 10 s, scaled to one hour.
    const params = avellanedaStoikovParamsSchema.parse(p);
    const inputs = asInputs({ ...input(closingIn(HOUR)), params, state: wildRes.state as never }, 0.55);
    expect(inputs.sigma).toBeCloseTo(Math.sqrt(((10 * 0.001 ** 2) / 10_000) * HOUR), 9);
    const floorOnly = asInputs({ ...input(), params: avellanedaStoikovParamsSchema.parse(BASE) }, 0.55);
    expect(floorOnly.sigma).toBe(0.05);
  });

  it("respects minHalfSpreadTicks and maxHalfSpreadTicks", () => {
    const tiny = yesView(run("avellaneda-stoikov", { gamma: 0.01, k: 1e6, sigmaFloor: 0, minHalfSpreadTicks: 3 }, input()).quotes);
    expect(tiny.bids[0]!.price).toBe(m("0.547"));
    expect(tiny.asks[0]!.price).toBe(m("0.553"));
    const huge = yesView(run("avellaneda-stoikov", { gamma: 10, k: 1, maxHalfSpreadTicks: 20 }, input()).quotes);
    expect(huge.bids[0]!.price).toBe(m("0.53"));
    expect(huge.asks[0]!.price).toBe(m("0.57"));
  });
});
