/** hanging_orders (controls/hanging-orders.ts): the other side's live order of a filled pair is kept as it rests. */
import { describe, expect, it } from "vitest";
import { hangingOrders } from "../../../../src/bot/quote/controls/hanging-orders.js";
import type { DesiredQuote, LiveOrder } from "../../../../src/bot/quote/quotes.js";
import type { SignalFill } from "../../../../src/bot/quote/signals.js";
import { m } from "../../risk/fixtures.js";
import { NOW, cycleSnapshot, fill, liveOrder, quote, signals } from "./fixtures.js";

/** The strategy moved: a YES bid at 0.44 and a NO bid at 0.44 (YES ask 0.56). */
const moved = (): DesiredQuote[] => [quote("BUY", "0.44"), quote("BUY", "0.44", { outcome: 1 })];
/** Our resting ask of the pair: a NO bid at 0.45 (YES ask 0.55), 6 of 10 left. */
const restingAsk = (over: Partial<LiveOrder> = {}): LiveOrder => liveOrder("a", "BUY", "0.45", { outcome: 1, remaining: m("6"), ...over });
const opts = { holdMs: 120_000, maxDistance: m("0.1") };
const show = (qs: DesiredQuote[]) => qs.map((q) => `${q.outcome}:${q.side}@${Number(q.price) / 1e6}x${Number(q.size) / 1e6}${q.tag === "hanging" ? " hanging" : ""}`);

describe("hanging_orders", () => {
  const rows: { name: string; fills: SignalFill[]; live: LiveOrder[]; o?: Partial<typeof opts>; hangs: boolean }[] = [
    { name: "the bid filled 5 s ago: the resting ask stays beside the strategy's quotes", fills: [fill(0, "BUY", NOW - 5_000)], live: [restingAsk()], hangs: true },
    { name: "no fill: nothing kept", fills: [], live: [restingAsk()], hangs: false },
    { name: "the fill was on the ask itself: nothing kept", fills: [fill(1, "BUY", NOW - 5_000)], live: [restingAsk()], hangs: false },
    { name: "the hold is over", fills: [fill(0, "BUY", NOW - 120_000)], live: [restingAsk()], hangs: false },
    { name: "the order is newer than the fill (not its partner)", fills: [fill(0, "BUY", NOW - 5_000)], live: [restingAsk({ createdAtMs: NOW - 1_000 })], hangs: false },
    { name: "being cancelled: not kept", fills: [fill(0, "BUY", NOW - 5_000)], live: [restingAsk({ state: "cancelling" })], hangs: false },
    { name: "pending: not kept", fills: [fill(0, "BUY", NOW - 5_000)], live: [restingAsk({ state: "pending" })], hangs: false },
    { name: "too far from the mid (0.05 > 0.04)", fills: [fill(0, "BUY", NOW - 5_000)], live: [restingAsk()], o: { maxDistance: m("0.04") }, hangs: false },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = hangingOrders({ ...opts, ...r.o }).apply(moved(), cycleSnapshot({ signals: signals(...r.fills), live: r.live }));
      expect(show(out.quotes)).toEqual(["0:BUY@0.44x10", "1:BUY@0.44x10", ...(r.hangs ? ["1:BUY@0.45x6 hanging"] : [])]);
      expect(out.changed).toBe(r.hangs ? 1 : 0);
    });
  }
  it("a quote the reconciler would keep it for (within the size tolerance): nothing added, the side is not doubled", () => {
    const near = [quote("BUY", "0.44"), quote("BUY", "0.45", { outcome: 1, size: m("6.3") })];
    const snap = cycleSnapshot({ signals: signals(fill(0, "BUY", NOW - 5_000)), live: [restingAsk()] });
    expect(hangingOrders({ ...opts, tolerance: { priceToleranceTicks: 0, sizeTolerance: 0.1 } }).apply(near, snap).changed).toBe(0);
    // Exact tolerances: 6.3 is not 6, the resting order is kept beside it.
    expect(hangingOrders(opts).apply(near, snap).changed).toBe(1);
  });
  it("already desired as it rests: nothing added", () => {
    const same = [quote("BUY", "0.44"), quote("BUY", "0.45", { outcome: 1, size: m("6") })];
    const out = hangingOrders(opts).apply(same, cycleSnapshot({ signals: signals(fill(0, "BUY", NOW - 5_000)), live: [restingAsk()] }));
    expect(out.changed).toBe(0);
  });
  it("kept even when the strategy quotes nothing on that side", () => {
    const out = hangingOrders(opts).apply([], cycleSnapshot({ signals: signals(fill(0, "BUY", NOW - 5_000)), live: [restingAsk()] }));
    expect(show(out.quotes)).toEqual(["1:BUY@0.45x6 hanging"]);
  });
  it("a YES SELL kept after a bid fill is marked as reducing", () => {
    const out = hangingOrders(opts).apply([], cycleSnapshot({ signals: signals(fill(0, "BUY", NOW - 5_000)), live: [liveOrder("s", "SELL", "0.55")] }));
    expect(out.quotes).toEqual([{ outcome: 0, side: "SELL", price: m("0.55"), size: m("10"), postOnly: true, tag: "hanging", reducesInventory: true }]);
  });
});
