import { describe, expect, it } from "vitest";
import { toxicityControl } from "../../../../src/bot/quote/adverse/controls.js";
import type { ToxicSideView } from "../../../../src/bot/quote/adverse/toxicity.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { NOW, cycleSnapshot, quote } from "../controls/fixtures.js";

const ctl = toxicityControl({ widenTicks: 2, sizeFactor: 0.5 });
const view = (outcome: number, side: "BUY" | "SELL", level: ToxicSideView["level"]): ToxicSideView => ({ outcome, side, level, estimateMicros: m("-0.02"), fills: 5, sinceMs: NOW - 1_000 });
const snap = (tox: ToxicSideView[], outcomeCount = 2) => cycleSnapshot({ signals: { lastFills: [], toxicity: tox }, market: { outcomeCount, feeTakerBps: 100 } });

describe("toxicity control: keyed on the book side (review /tmp/rv2/toxicity-sides.ts)", () => {
  it.each<{ name: string; tox: ToxicSideView[]; quotes: DesiredQuote[]; outcomeCount?: number; out: { side: string; outcome: number; price: bigint; size: bigint }[] }>([
    { name: "YES ask pulled (seen as BUY NO): the ask quoted as SELL YES is pulled", tox: [view(1, "BUY", "pull")], quotes: [quote("SELL", "0.55", { reducesInventory: true })], out: [] },
    { name: "YES ask pulled (seen as SELL YES): the ask quoted as BUY NO is pulled", tox: [view(0, "SELL", "pull")], quotes: [quote("BUY", "0.45", { outcome: 1 })], out: [] },
    { name: "YES bid pulled (seen as SELL NO): the bid quoted as BUY YES is pulled", tox: [view(1, "SELL", "pull")], quotes: [quote("BUY", "0.45")], out: [] },
    {
      name: "YES ask widened: BUY NO 0.45 (YES ask 0.55) moves 2 ticks away from the mid (YES ask 0.552 = BUY NO 0.448)",
      tox: [view(0, "SELL", "widen")],
      quotes: [quote("BUY", "0.45", { outcome: 1 })],
      out: [{ side: "BUY", outcome: 1, price: m("0.448"), size: m("5") }],
    },
    {
      name: "the widened size is rounded down to 0.01 share (3.333 x 0.5 = 1.6665 -> 1.66)",
      tox: [view(0, "BUY", "widen")],
      quotes: [quote("BUY", "0.45", { size: m("3.333") })],
      out: [{ side: "BUY", outcome: 0, price: m("0.448"), size: m("1.66") }],
    },
    { name: "the other book side is untouched", tox: [view(1, "BUY", "pull")], quotes: [quote("BUY", "0.45")], out: [{ side: "BUY", outcome: 0, price: m("0.45"), size: m("10") }] },
    { name: "two views of one book side: the stronger wins", tox: [view(1, "BUY", "widen"), view(0, "SELL", "pull")], quotes: [quote("SELL", "0.55", { reducesInventory: true })], out: [] },
    { name: "multi-outcome: outcome 1 is its own book", tox: [view(1, "BUY", "pull")], quotes: [quote("SELL", "0.55", { reducesInventory: true })], outcomeCount: 3, out: [{ side: "SELL", outcome: 0, price: m("0.55"), size: m("10") }] },
  ])("$name", ({ tox, quotes, outcomeCount, out }) => {
    const r = ctl.apply(quotes, snap(tox, outcomeCount));
    expect(r.quotes.map((q) => ({ side: q.side, outcome: q.outcome, price: q.price, size: q.size }))).toEqual(out);
  });
});
