/** per_side_spreads and fee_min_spread (controls/spreads.ts): each side at least a distance from the mid, widen only. */
import { describe, expect, it } from "vitest";
import { feeHalfSpread, feeMinSpread, perSideSpreads } from "../../../../src/bot/quote/controls/spreads.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { cycleSnapshot, quote } from "./fixtures.js";

const s = cycleSnapshot();
/** A YES bid at `bid` and a YES ask at `ask` written as a NO bid at the complement. */
const pair = (bid: string, ask: string): DesiredQuote[] => [quote("BUY", bid), quote("BUY", (1 - Number(ask)).toFixed(3), { outcome: 1 })];
const prices = (qs: DesiredQuote[]) => qs.map((q) => `${q.outcome}:${q.side}@${Number(q.price) / 1e6}`);

describe("per_side_spreads", () => {
  const rows: { name: string; bid?: string; ask?: string; quotes: DesiredQuote[]; want: string[]; changed: number }[] = [
    { name: "both sides too close: moved out", bid: "0.02", ask: "0.03", quotes: pair("0.49", "0.51"), want: ["0:BUY@0.48", "1:BUY@0.47"], changed: 2 },
    { name: "already wide enough: unchanged", bid: "0.02", ask: "0.03", quotes: pair("0.45", "0.55"), want: ["0:BUY@0.45", "1:BUY@0.45"], changed: 0 },
    { name: "only the bid has a floor", bid: "0.05", quotes: pair("0.49", "0.51"), want: ["0:BUY@0.45", "1:BUY@0.49"], changed: 1 },
    {
      name: "a ladder moves as a whole",
      bid: "0.02",
      quotes: [quote("BUY", "0.49"), quote("BUY", "0.47", { level: 1 })],
      want: ["0:BUY@0.48", "0:BUY@0.46"],
      changed: 2,
    },
    { name: "a SELL of NO is a YES bid", bid: "0.02", quotes: [quote("SELL", "0.51", { outcome: 1 })], want: ["1:SELL@0.52"], changed: 1 },
    { name: "a YES SELL is an ask", ask: "0.03", quotes: [quote("SELL", "0.51")], want: ["0:SELL@0.53"], changed: 1 },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const c = perSideSpreads({ bid: r.bid === undefined ? undefined : m(r.bid), ask: r.ask === undefined ? undefined : m(r.ask) });
      const out = c.apply(r.quotes, s);
      expect(prices(out.quotes)).toEqual(r.want);
      expect(out.changed).toBe(r.changed);
    });
  }
  it("no mid: nothing changes", () => {
    const out = perSideSpreads({ bid: m("0.1") }).apply(pair("0.49", "0.51"), cycleSnapshot({ mids: {} }));
    expect(out.changed).toBe(0);
  });
  it("an off-centre mid floors bids and ceils asks onto the grid", () => {
    const out = perSideSpreads({ bid: m("0.01"), ask: m("0.01") }).apply(pair("0.455", "0.456"), cycleSnapshot({ mids: { 0: m("0.4555") } }));
    expect(prices(out.quotes)).toEqual(["0:BUY@0.445", "1:BUY@0.534"]);
  });
  it("a quote pushed off the price grid is dropped", () => {
    const out = perSideSpreads({ bid: m("0.05") }).apply([quote("BUY", "0.03")], cycleSnapshot({ mids: { 0: m("0.035") } }));
    expect(out.quotes).toEqual([]);
    expect(out.changed).toBe(1);
  });
});

describe("fee_min_spread", () => {
  it("the half-spread is the taker fee per share at the mid times the multiple, plus extra", () => {
    expect(feeHalfSpread(m("0.5"), 100, 1, 0n)).toBe(m("0.0025"));
    expect(feeHalfSpread(m("0.5"), 100, 2, m("0.001"))).toBe(m("0.006"));
    expect(feeHalfSpread(m("0.9"), 100, 1, 0n)).toBe(m("0.0009"));
    expect(feeHalfSpread(m("0.5"), 0, 1, m("0.002"))).toBe(m("0.002"));
  });
  const rows: { name: string; feeMultiple: number; extra: string; bps: number; quotes: DesiredQuote[]; want: string[] }[] = [
    { name: "100 bps at 0.50: 0.0025 a side, floored/ceiled to the grid", feeMultiple: 1, extra: "0", bps: 100, quotes: pair("0.499", "0.501"), want: ["0:BUY@0.497", "1:BUY@0.497"] },
    { name: "two fees plus 0.001", feeMultiple: 2, extra: "0.001", bps: 100, quotes: pair("0.499", "0.501"), want: ["0:BUY@0.494", "1:BUY@0.494"] },
    { name: "no fee and no extra: unchanged", feeMultiple: 1, extra: "0", bps: 0, quotes: pair("0.499", "0.501"), want: ["0:BUY@0.499", "1:BUY@0.499"] },
    { name: "wide quotes: unchanged", feeMultiple: 1, extra: "0", bps: 100, quotes: pair("0.45", "0.55"), want: ["0:BUY@0.45", "1:BUY@0.45"] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = feeMinSpread({ feeMultiple: r.feeMultiple, extra: m(r.extra) }).apply(r.quotes, cycleSnapshot({ market: { outcomeCount: 2, feeTakerBps: r.bps } }));
      expect(prices(out.quotes)).toEqual(r.want);
    });
  }
});
