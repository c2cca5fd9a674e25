/**
 * The quote-control contract (src/bot/quote/controls/control.ts): applyControls runs the controls
 * in the order given, each on the previous one's output with the same snapshot, and reports the
 * changes by name: summed over controls of one name, and only for names that changed something.
 */
import { describe, expect, it } from "vitest";
import { applyControls, type QuoteControl } from "../../../../src/bot/quote/controls/control.js";
import type { CycleSnapshot } from "../../../../src/bot/quote/cycle.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { NOW, cycleSnapshot, quote } from "./fixtures.js";

/** A control that records what it saw and returns `out` of it. */
function spy(name: string, out: (qs: readonly DesiredQuote[]) => { quotes: DesiredQuote[]; changed: number }) {
  const seen: { prices: bigint[]; s: CycleSnapshot }[] = [];
  const c: QuoteControl = {
    name,
    apply: (qs, s) => {
      seen.push({ prices: qs.map((q) => q.price), s });
      return out(qs);
    },
  };
  return { c, seen };
}

describe("applyControls", () => {
  it("no controls: the quotes as given and no changes", () => {
    const qs = [quote("BUY", "0.40")];
    const r = applyControls([], qs, cycleSnapshot());
    expect(r.quotes).toBe(qs);
    expect(r.changes.size).toBe(0);
  });

  it("each control sees the previous one's output and the same snapshot", () => {
    const s = cycleSnapshot();
    const a = spy("widen", (qs) => ({ quotes: qs.map((q) => ({ ...q, price: q.price - m("0.01") })), changed: qs.length }));
    const b = spy("drop_sells", (qs) => ({ quotes: qs.filter((q) => q.side === "BUY"), changed: qs.filter((q) => q.side !== "BUY").length }));
    const c = spy("last", (qs) => ({ quotes: [...qs], changed: 0 }));
    const r = applyControls([a.c, b.c, c.c], [quote("BUY", "0.40"), quote("SELL", "0.60")], s);
    expect(a.seen.map((x) => x.prices)).toEqual([[m("0.40"), m("0.60")]]);
    expect(b.seen.map((x) => x.prices)).toEqual([[m("0.39"), m("0.59")]]);
    expect(c.seen.map((x) => x.prices)).toEqual([[m("0.39")]]);
    for (const x of [...a.seen, ...b.seen, ...c.seen]) expect(x.s).toBe(s);
    expect(r.quotes.map((q) => [q.side, q.price])).toEqual([["BUY", m("0.39")]]);
    // "last" changed nothing: not reported.
    expect([...r.changes]).toEqual([
      ["widen", 2],
      ["drop_sells", 1],
    ]);
  });

  it("two controls of one name add up; a control may add quotes (counted as changes)", () => {
    const add = spy("ladder", (qs) => ({ quotes: [...qs, quote("BUY", "0.30", { level: 1 })], changed: 1 }));
    const r = applyControls([add.c, add.c, add.c], [quote("BUY", "0.40")], cycleSnapshot({ nowMs: NOW + 5 }));
    expect(r.quotes).toHaveLength(4);
    expect(r.changes.get("ladder")).toBe(3);
    expect(add.seen.map((x) => x.prices.length)).toEqual([1, 2, 3]);
  });

  it("the input list is not changed by a control that returns a new one", () => {
    const qs = [quote("BUY", "0.40"), quote("SELL", "0.60")];
    const clear: QuoteControl = { name: "clear", apply: () => ({ quotes: [], changed: 2 }) };
    const r = applyControls([clear], qs, cycleSnapshot());
    expect(r.quotes).toEqual([]);
    expect(qs.map((q) => q.price)).toEqual([m("0.40"), m("0.60")]);
    expect(r.changes.get("clear")).toBe(2);
  });
});
