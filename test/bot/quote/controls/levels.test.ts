/** order_levels (controls/levels.ts): level 0 kept, deeper levels rebuilt with spacing and size steps. */
import { describe, expect, it } from "vitest";
import { orderLevels } from "../../../../src/bot/quote/controls/levels.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { cycleSnapshot, quote } from "./fixtures.js";

const show = (qs: DesiredQuote[]) => qs.map((q) => `${q.outcome}:${q.side}@${Number(q.price) / 1e6}x${Number(q.size) / 1e6}#${q.level}`);
const s = cycleSnapshot();

describe("order_levels", () => {
  it("three levels each side, two ticks apart, five shares more per level", () => {
    const out = orderLevels({ count: 3, spacingTicks: 2, sizeStep: m("5") }).apply([quote("BUY", "0.45"), quote("BUY", "0.45", { outcome: 1 })], s);
    // The ask (a NO bid at 0.45 = a YES ask at 0.55) steps up the YES book: NO bids at 0.448, 0.446.
    expect(show(out.quotes)).toEqual(["0:BUY@0.45x10#0", "0:BUY@0.448x15#1", "0:BUY@0.446x20#2", "1:BUY@0.45x10#0", "1:BUY@0.448x15#1", "1:BUY@0.446x20#2"]);
    expect(out.changed).toBe(4);
  });
  it("the strategy's own deeper levels are replaced", () => {
    const out = orderLevels({ count: 2, spacingTicks: 10, sizeStep: 0n }).apply([quote("BUY", "0.45"), quote("BUY", "0.44", { level: 1, size: m("3") }), quote("BUY", "0.43", { level: 2 })], s);
    expect(show(out.quotes)).toEqual(["0:BUY@0.45x10#0", "0:BUY@0.44x10#1"]);
    expect(out.changed).toBe(3);
  });
  it("a ladder equal to the strategy's changes nothing", () => {
    const out = orderLevels({ count: 2, spacingTicks: 10, sizeStep: 0n }).apply([quote("BUY", "0.45"), quote("BUY", "0.44", { level: 1 })], s);
    expect(out.changed).toBe(0);
  });
  it("count 1: only level 0", () => {
    const out = orderLevels({ count: 1, spacingTicks: 1, sizeStep: 0n }).apply([quote("BUY", "0.45"), quote("BUY", "0.44", { level: 1 })], s);
    expect(show(out.quotes)).toEqual(["0:BUY@0.45x10#0"]);
    expect(out.changed).toBe(1);
  });
  it("a split level 0 (SELL of held NO + BUY YES): deeper levels repeat the BUY only, sized on the whole level", () => {
    const sellNo = quote("SELL", "0.55", { outcome: 1, size: m("4"), reducesInventory: true });
    const buyYes = quote("BUY", "0.45", { size: m("6") });
    const out = orderLevels({ count: 2, spacingTicks: 1, sizeStep: m("1") }).apply([sellNo, buyYes], s);
    expect(show(out.quotes)).toEqual(["1:SELL@0.55x4#0", "0:BUY@0.45x6#0", "0:BUY@0.449x11#1"]);
  });
  it("only reducing quotes on a side (a multi-outcome ask): no deeper levels", () => {
    const three = cycleSnapshot({ market: { outcomeCount: 3, feeTakerBps: 0 } });
    const out = orderLevels({ count: 3, spacingTicks: 1, sizeStep: 0n }).apply([quote("SELL", "0.55", { outcome: 2, reducesInventory: true })], three);
    expect(show(out.quotes)).toEqual(["2:SELL@0.55x10#0"]);
  });
  it("levels stop at the edge of the price grid", () => {
    const out = orderLevels({ count: 5, spacingTicks: 1, sizeStep: 0n }).apply([quote("BUY", "0.002")], s);
    expect(show(out.quotes)).toEqual(["0:BUY@0.002x10#0", "0:BUY@0.001x10#1"]);
  });
});
