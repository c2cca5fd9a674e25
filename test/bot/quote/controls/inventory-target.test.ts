/** inventory_target (controls/inventory-target.ts): the side moving away from the target shrinks. */
import { describe, expect, it } from "vitest";
import { inventoryDeviation, inventoryTarget } from "../../../../src/bot/quote/controls/inventory-target.js";
import type { DesiredQuote, PositionView } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { cycleSnapshot, quote } from "./fixtures.js";

const pair = (): DesiredQuote[] => [quote("BUY", "0.45", { tag: "bid" }), quote("BUY", "0.45", { outcome: 1, tag: "ask" })];
const sizes = (qs: DesiredQuote[]) => qs.map((q) => `${q.tag}:${Number(q.size) / 1e6}`);
const held = (yes: string, no = "0"): PositionView[] => [
  { outcome: 0, qty: m(yes), avgCost: m("0.5") },
  { outcome: 1, qty: m(no), avgCost: m("0.5") },
];
const base = { fraction: 0, range: 0.5, capital: m("1000"), minSize: m("1") };

describe("inventory_target", () => {
  it("the deviation is (held - target) / (range x capital), clamped", () => {
    expect(inventoryDeviation(m("200"), base)).toBeCloseTo(0.4);
    expect(inventoryDeviation(m("-200"), base)).toBeCloseTo(-0.4);
    expect(inventoryDeviation(m("900"), base)).toBe(1);
    expect(inventoryDeviation(m("200"), { ...base, fraction: 0.2 })).toBe(0);
  });
  const rows: { name: string; opts?: Partial<typeof base>; inv: PositionView[]; want: string[]; changed: number }[] = [
    { name: "flat at target 0: unchanged", inv: [], want: ["bid:10", "ask:10"], changed: 0 },
    { name: "400 YES at 0.50 (200 of 1000, d = 0.4): bids x 0.6", inv: held("400"), want: ["bid:6", "ask:10"], changed: 1 },
    { name: "400 NO (net -400 YES, d = -0.4): asks x 0.6", inv: held("0", "400"), want: ["bid:10", "ask:6"], changed: 1 },
    { name: "YES and NO cancel out: unchanged", inv: held("400", "400"), want: ["bid:10", "ask:10"], changed: 0 },
    { name: "at or past the range: the bid is not quoted", inv: held("2000"), want: ["ask:10"], changed: 1 },
    { name: "target 20% of capital, holding it: unchanged", opts: { fraction: 0.2 }, inv: held("400"), want: ["bid:10", "ask:10"], changed: 0 },
    { name: "target 20% of capital, holding nothing: asks x 0.6", opts: { fraction: 0.2 }, inv: [], want: ["bid:10", "ask:6"], changed: 1 },
    { name: "shrunk below minSize: dropped", opts: { minSize: m("7") }, inv: held("400"), want: ["ask:10"], changed: 1 },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = inventoryTarget({ ...base, ...r.opts }).apply(pair(), cycleSnapshot({ inventory: r.inv }));
      expect(sizes(out.quotes)).toEqual(r.want);
      expect(out.changed).toBe(r.changed);
    });
  }
  it("scaled sizes are rounded down to 0.01 share", () => {
    // 300 YES at 0.50 = 150 of 1000: d = 0.3, 7.777777 x 0.7 = 5.4444439 -> 5.44
    const out = inventoryTarget(base).apply([quote("BUY", "0.45", { size: m("7.777777") })], cycleSnapshot({ inventory: held("300") }));
    expect(out.quotes[0]!.size).toBe(m("5.44"));
  });
  it("no mid: unchanged", () => {
    expect(inventoryTarget(base).apply(pair(), cycleSnapshot({ inventory: held("400"), mids: {} })).changed).toBe(0);
  });
  it("multi-outcome: each outcome's own position on its own book", () => {
    const three = cycleSnapshot({ market: { outcomeCount: 3, feeTakerBps: 0 }, mids: { 0: m("0.5"), 2: m("0.2") }, inventory: [{ outcome: 0, qty: m("400"), avgCost: null }] });
    const out = inventoryTarget(base).apply([quote("BUY", "0.45"), quote("BUY", "0.15", { outcome: 2 })], three);
    expect(out.quotes.map((q) => Number(q.size) / 1e6)).toEqual([6, 10]);
  });
});
