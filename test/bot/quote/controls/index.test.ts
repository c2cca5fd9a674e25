/**
 * The quote controls a config asks for (src/bot/quote/controls/index.ts): which are built, in the
 * documented order, and what each is built from (risk and quoting settings, seconds as ms).
 */
import { describe, expect, it } from "vitest";
import { adverseSectionSchema } from "../../../../src/config/adverse-section.js";
import { controlsSectionSchema } from "../../../../src/config/controls-section.js";
import { buildControls, type ControlsConfigView } from "../../../../src/bot/quote/controls/index.js";
import type { CycleSnapshot } from "../../../../src/bot/quote/cycle.js";
import type { DesiredQuote, PositionView } from "../../../../src/bot/quote/quotes.js";
import type { SignalFill } from "../../../../src/bot/quote/signals.js";
import { parseMicros as m } from "../../../../src/core/money.js";

const NOW = 1_700_000_000_000;
const ALL_CONTROLS = {
  levels: { count: 2, spacingTicks: 1 },
  queue: { mode: "join", maxDistanceTicks: 1 },
  spreads: { bid: "0.01" },
  minSpread: {},
  inventoryTarget: { fraction: 0 },
  filledOrderDelay: { sec: 1 },
  hangingOrders: { sec: 1 },
};

function view(controls: unknown, adverse?: unknown, risk: ControlsConfigView["risk"] = { maxNotionalPerWallet: m("100") }): ControlsConfigView {
  return {
    controls: controls === undefined ? undefined : controlsSectionSchema().parse(controls),
    adverse: adverse === undefined ? undefined : adverseSectionSchema().parse(adverse),
    risk,
  };
}

describe("buildControls: which, in which order", () => {
  it.each<{ name: string; controls?: unknown; adverse?: unknown; names: string[] }>([
    { name: "no controls: and no adverse: section", names: [] },
    { name: "empty blocks", controls: {}, adverse: {}, names: [] },
    { name: "adverse: with markouts only (measured, no quote changed)", adverse: { markouts: true }, names: [] },
    {
      name: "every quoting control, in the documented order",
      controls: ALL_CONTROLS,
      names: ["order_levels", "join_penny", "per_side_spreads", "fee_min_spread", "inventory_target", "filled_order_delay", "hanging_orders"],
    },
    { name: "toxicity then jump, after the quoting controls", controls: { hangingOrders: { sec: 1 }, levels: { count: 1, spacingTicks: 1 } }, adverse: { jump: {}, toxicity: {} }, names: ["order_levels", "hanging_orders", "toxicity", "jump"] },
    { name: "jump alone", adverse: { jump: {} }, names: ["jump"] },
    { name: "toxicity alone", adverse: { toxicity: {} }, names: ["toxicity"] },
    { name: "order independent of the config's key order", controls: { filledOrderDelay: { sec: 5 }, spreads: { ask: "0.02" }, queue: { mode: "penny", maxDistanceTicks: 2 } }, names: ["join_penny", "per_side_spreads", "filled_order_delay"] },
  ])("$name", ({ controls, adverse, names }) => {
    expect(buildControls(view(controls, adverse)).map((c) => c.name)).toEqual(names);
  });
});

/** A binary market's snapshot with only what these controls read (the rest is never touched). */
function snap(over: { inventory?: PositionView[]; lastFills?: SignalFill[] } = {}): CycleSnapshot {
  return {
    symbol: "M",
    nowMs: NOW,
    market: { outcomeCount: 2, feeTakerBps: 0 },
    mids: { 0: m("0.5"), 1: m("0.5") },
    inventory: over.inventory ?? [],
    signals: { lastFills: over.lastFills ?? [] },
  } as unknown as CycleSnapshot;
}
const BID: DesiredQuote = { outcome: 0, side: "BUY", price: m("0.48"), size: m("10"), postOnly: true };
const ASK: DesiredQuote = { outcome: 0, side: "SELL", price: m("0.52"), size: m("10"), postOnly: true };

describe("buildControls: what each control is built from", () => {
  // 100 YES at a 0.50 mid: 50 held. fraction 0, range 1: d = 50 / capital, the bid shrinks by d.
  const HELD: PositionView[] = [{ outcome: 0, qty: m("100"), avgCost: m("0.5") }];
  it.each<{ name: string; capital?: string; minQuoteSize?: string; bid: string | null }>([
    { name: "capital defaults to risk.maxNotionalPerWallet (100: d 0.5)", bid: "5" },
    { name: "an explicit capital wins (200: d 0.25)", capital: "200", bid: "7.5" },
    { name: "risk.minQuoteSize is the least size kept (6 > 5: dropped)", minQuoteSize: "6", bid: null },
    { name: "risk.minQuoteSize below the shrunk size keeps it", minQuoteSize: "5", bid: "5" },
  ])("inventory_target: $name", ({ capital, minQuoteSize, bid }) => {
    const c = view({ inventoryTarget: { fraction: 0, range: 1, ...(capital === undefined ? {} : { capital }) } }, undefined, {
      maxNotionalPerWallet: m("100"),
      ...(minQuoteSize === undefined ? {} : { minQuoteSize: m(minQuoteSize) }),
    });
    const [control] = buildControls(c);
    const r = control!.apply([BID, ASK], snap({ inventory: HELD }));
    const bids = r.quotes.filter((q) => q.side === "BUY");
    expect(bids.map((q) => q.size)).toEqual(bid === null ? [] : [m(bid)]);
    expect(r.quotes.filter((q) => q.side === "SELL")).toEqual([ASK]);
  });

  it.each([
    { name: "a fill 1.5 s ago, delay 1 s: over, both sides quote", sec: 1, sides: "filled", kept: ["BUY", "SELL"] },
    { name: "a fill 1.5 s ago, delay 2 s: the filled (bid) side waits", sec: 2, sides: "filled", kept: ["SELL"] },
    { name: "a fill 1.5 s ago, delay 2 s, both sides: nothing quotes", sec: 2, sides: "both", kept: [] },
  ])("filled_order_delay, sec in ms: $name", ({ sec, sides, kept }) => {
    const [control] = buildControls(view({ filledOrderDelay: { sec, sides } }));
    const fill: SignalFill = { outcome: 0, side: "BUY", price: m("0.48"), size: m("1"), role: "maker", ts: NOW - 1_500 };
    expect(control!.apply([BID, ASK], snap({ lastFills: [fill] })).quotes.map((q) => q.side)).toEqual(kept);
  });
});
