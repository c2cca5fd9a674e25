/**
 * Each quoting control changes the plan as documented (issue 14, "done when"): the same snapshot
 * through quoteCycle with no controls and with one control, and what differs in the places and
 * cancels. The strategy joins the best bid (YES 0.45) and the best ask (as a NO bid at 0.45).
 */
import { describe, expect, it } from "vitest";
import { buildControls } from "../../../../src/bot/quote/controls/index.js";
import { quoteCycle, type CycleSnapshot } from "../../../../src/bot/quote/cycle.js";
import { controlsSectionSchema } from "../../../../src/config/controls-section.js";
import type { LiveOrder } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { NOW, cyclePolicy, cycleSnapshot, fill, liveOrder, signals, yesBook } from "./fixtures.js";

function run(controls: unknown, over: Partial<CycleSnapshot> = {}) {
  const settings = controlsSectionSchema().parse(controls);
  const policy = cyclePolicy(buildControls({ controls: settings, risk: { maxNotionalPerWallet: m("1000"), minQuoteSize: m("1") } }));
  return quoteCycle(policy, cycleSnapshot(over));
}
const places = (c: ReturnType<typeof run>) => c.plan.places.map((q) => `${q.outcome}:${q.side}@${Number(q.price) / 1e6}x${Number(q.size) / 1e6}`).sort();
/** Our resting pair at the strategy's prices: YES bid 0.45 and NO bid 0.45. */
const pairLive = (): LiveOrder[] => [liveOrder("b", "BUY", "0.45"), liveOrder("a", "BUY", "0.45", { outcome: 1 })];

describe("each quoting control changes the plan as documented", () => {
  it("off (controls: {}): the strategy's two quotes are placed", () => {
    const c = run({});
    expect(places(c)).toEqual(["0:BUY@0.45x10", "1:BUY@0.45x10"]);
    expect(c.why.controls.size).toBe(0);
  });
  it("levels: two more levels a side, further out and larger", () => {
    const c = run({ levels: { count: 3, spacingTicks: 10, sizeStep: "5" } });
    expect(places(c)).toEqual(["0:BUY@0.43x20", "0:BUY@0.44x15", "0:BUY@0.45x10", "1:BUY@0.43x20", "1:BUY@0.44x15", "1:BUY@0.45x10"]);
    expect(c.why.controls.get("order_levels")).toBe(4);
  });
  it("queue penny: one tick inside the book on both sides", () => {
    const c = run({ queue: { mode: "penny", maxDistanceTicks: 2 } });
    expect(places(c)).toEqual(["0:BUY@0.451x10", "1:BUY@0.451x10"]);
  });
  it("spreads: the bid at least 0.08 and the ask at least 0.06 from the 0.50 mid", () => {
    const c = run({ spreads: { bid: "0.08", ask: "0.06" } });
    expect(places(c)).toEqual(["0:BUY@0.42x10", "1:BUY@0.44x10"]);
  });
  it("minSpread: a tight book is widened to the fee-aware half-spread (1000 bps: 0.025 at 0.50)", () => {
    const tight = { books: new Map([[0, yesBook([["0.49", "100"]], [["0.51", "100"]])]]), market: { outcomeCount: 2, feeTakerBps: 1000 } };
    expect(places(run({}, tight))).toEqual(["0:BUY@0.49x10", "1:BUY@0.49x10"]);
    expect(places(run({ minSpread: { feeMultiple: 1 } }, tight))).toEqual(["0:BUY@0.475x10", "1:BUY@0.475x10"]);
  });
  it("inventoryTarget: long 400 YES of a 1000 capital with target 0: the bid shrinks to 6", () => {
    const c = run({ inventoryTarget: { fraction: 0, range: 0.5 } }, { inventory: [{ outcome: 0, qty: m("400"), avgCost: m("0.45") }] });
    expect(places(c)).toEqual(["0:BUY@0.45x6", "1:BUY@0.45x10"]);
  });
  it("filledOrderDelay: after a bid fill the resting bid is cancelled and not replaced", () => {
    const over = { live: pairLive(), signals: signals(fill(0, "BUY", NOW - 1_000)) };
    expect(run({}, over).plan.cancels).toEqual([]);
    const c = run({ filledOrderDelay: { sec: 30 } }, over);
    expect(c.plan.cancels.map((o) => o.clientOrderId)).toEqual(["b"]);
    expect(places(c)).toEqual([]);
  });
  it("hangingOrders: after a bid fill, the resting ask stays although the strategy moved", () => {
    // The strategy now joins a book that moved up: YES 0.47 / 0.53 (its ask a NO bid at 0.47).
    const over = { live: pairLive(), signals: signals(fill(0, "BUY", NOW - 1_000)), books: new Map([[0, yesBook([["0.47", "100"]], [["0.53", "100"]])]]) };
    const without = run({}, over);
    expect(without.plan.cancels.map((o) => o.clientOrderId).sort()).toEqual(["a", "b"]);
    const c = run({ hangingOrders: { sec: 60 } }, over);
    expect(c.plan.cancels.map((o) => o.clientOrderId)).toEqual(["b"]);
    expect(places(c)).toEqual(["0:BUY@0.47x10", "1:BUY@0.47x10"]);
  });
});
