/** The signed markout of one fill (src/bot/quote/adverse/markout.ts): positive is good for us. */
import { describe, expect, it } from "vitest";
import { MARKOUT_HORIZONS_MS, markoutPerShare, type FillSide } from "../../../../src/bot/quote/adverse/markout.js";
import { parseMicros as m } from "../../../../src/core/money.js";

describe("markoutPerShare", () => {
  it.each<{ name: string; side: FillSide; price: string; mid: string; want: string }>([
    { name: "a buy, mid up: good", side: "BUY", price: "0.50", mid: "0.53", want: "0.03" },
    { name: "a buy, mid down: bad", side: "BUY", price: "0.50", mid: "0.47", want: "-0.03" },
    { name: "a sell, mid down: good", side: "SELL", price: "0.50", mid: "0.47", want: "0.03" },
    { name: "a sell, mid up: bad", side: "SELL", price: "0.50", mid: "0.531", want: "-0.031" },
    { name: "mid unchanged: zero", side: "SELL", price: "0.42", mid: "0.42", want: "0" },
    { name: "exact in micros, off the tick grid", side: "BUY", price: "0.5", mid: "0.500001", want: "0.000001" },
  ])("$name", ({ side, price, mid, want }) => {
    expect(markoutPerShare(side, m(price), m(mid))).toBe(m(want));
  });

  it("a buy and a sell at the same price and mid are opposite", () => {
    for (const [p, mid] of [["0.31", "0.29"], ["0.9", "0.95"]] as const) expect(markoutPerShare("BUY", m(p), m(mid))).toBe(-markoutPerShare("SELL", m(p), m(mid)));
  });
});

describe("MARKOUT_HORIZONS_MS", () => {
  it("is strictly increasing and positive (the tracker schedules one check per horizon in this order)", () => {
    expect(MARKOUT_HORIZONS_MS.length).toBeGreaterThan(0);
    MARKOUT_HORIZONS_MS.forEach((h, i) => expect(h).toBeGreaterThan(i === 0 ? 0 : MARKOUT_HORIZONS_MS[i - 1]!));
  });
});
