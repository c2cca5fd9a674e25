/**
 * The quote-control framework: controls run in order after the strategy and before risk, their
 * changes are counted by name, PRE_MARKET post-only holds after them, and SignalBook keeps the
 * newest fill per (outcome, side).
 */
import { describe, expect, it } from "vitest";
import { applyControls, buildControls, type QuoteControl } from "../../../../src/bot/quote/controls/index.js";
import { SignalBook, lastFillOf } from "../../../../src/bot/quote/signals.js";
import { quoteCycle } from "../../../../src/bot/quote/cycle.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { OPEN_PHASE, cyclePolicy, cycleSnapshot, quote } from "./fixtures.js";

const shift = (name: string, by: bigint): QuoteControl => ({
  name,
  apply: (qs) => ({ quotes: qs.map((q) => ({ ...q, price: q.price + by })), changed: qs.length }),
});
const dropAll: QuoteControl = { name: "drop_all", apply: (qs) => ({ quotes: [], changed: qs.length }) };

describe("applyControls", () => {
  it("runs controls in order and counts changes by name", () => {
    const qs: DesiredQuote[] = [quote("BUY", "0.40")];
    const r = applyControls([shift("a", m("0.01")), shift("b", m("0.02"))], qs, cycleSnapshot());
    expect(r.quotes.map((q) => q.price)).toEqual([m("0.43")]);
    expect([...r.changes]).toEqual([["a", 1], ["b", 1]]);
    expect(qs[0]!.price).toBe(m("0.40"));
  });
  it("a config without controls builds none", () => {
    expect(buildControls({ risk: { maxNotionalPerWallet: m("1000") } })).toEqual([]);
  });
});

describe("quoteCycle with controls", () => {
  it("applies them before risk and reports why.controls", () => {
    const c = quoteCycle(cyclePolicy([shift("up", m("0.01"))]), cycleSnapshot());
    expect(c.desired.map((q) => q.price)).toEqual([m("0.46"), m("0.46")]);
    expect(c.why.controls.get("up")).toBe(2);
  });
  it("risk still narrows what the controls produce (the price band)", () => {
    const c = quoteCycle(cyclePolicy([shift("far", m("0.60"))]), cycleSnapshot());
    expect(c.desired).toEqual([]);
    expect(c.why.controls.get("far")).toBe(2);
  });
  it("no controls: an empty why.controls", () => {
    const c = quoteCycle(cyclePolicy([]), cycleSnapshot());
    expect(c.why.controls.size).toBe(0);
  });
  it("pre_market: post-only again after the controls", () => {
    const loosen: QuoteControl = { name: "loosen", apply: (qs) => ({ quotes: qs.map((q) => ({ ...q, postOnly: false })), changed: qs.length }) };
    const c = quoteCycle(cyclePolicy([loosen]), cycleSnapshot({ phase: { ...OPEN_PHASE, phase: "pre_market" } }));
    expect(c.desired.length).toBe(2);
    expect(c.desired.every((q) => q.postOnly)).toBe(true);
  });
  it("a pulled market: controls never run", () => {
    const c = quoteCycle(cyclePolicy([dropAll]), cycleSnapshot({ phase: { ...OPEN_PHASE, phase: "pull" } }));
    expect(c.why.controls.size).toBe(0);
  });
});

describe("SignalBook", () => {
  it("keeps the newest fill per (outcome, side), per wallet and market", () => {
    const b = new SignalBook();
    b.onFill("w", "M", { outcome: 0, side: "BUY", price: m("0.4"), size: m("5"), role: "maker", ts: 10 });
    b.onFill("w", "M", { outcome: 0, side: "BUY", price: m("0.41"), size: m("5"), role: "maker", ts: 20 });
    b.onFill("w", "M", { outcome: 0, side: "BUY", price: m("0.39"), size: m("5"), role: "maker", ts: 15 });
    b.onFill("w", "M", { outcome: 1, side: "BUY", price: m("0.5"), size: m("1"), role: "taker", ts: 12 });
    const v = b.view("w", "M", 30);
    expect(v.lastFills.map((f) => [f.outcome, f.ts])).toEqual([[0, 20], [1, 12]]);
    expect(lastFillOf(v, 0, "BUY")?.price).toBe(m("0.41"));
    expect(lastFillOf(v, 0, "SELL")).toBeUndefined();
    expect(b.view("w", "OTHER", 30).lastFills).toEqual([]);
    expect(b.view("w", "M", 31)).toBe(v);
    b.forget("M");
    expect(b.size).toBe(0);
  });
});
