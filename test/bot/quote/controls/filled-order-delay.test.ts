/** filled_order_delay (controls/filled-order-delay.ts): the filled side (or the book) pauses after a fill. */
import { describe, expect, it } from "vitest";
import { filledOrderDelay } from "../../../../src/bot/quote/controls/filled-order-delay.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import type { SignalFill } from "../../../../src/bot/quote/signals.js";
import { NOW, cycleSnapshot, fill, quote, signals } from "./fixtures.js";

const pair = (): DesiredQuote[] => [quote("BUY", "0.45", { tag: "bid" }), quote("BUY", "0.45", { outcome: 1, tag: "ask" })];
const tags = (qs: DesiredQuote[]) => qs.map((q) => q.tag);

describe("filled_order_delay", () => {
  const rows: { name: string; sides: "filled" | "both"; fills: SignalFill[]; want: (string | undefined)[] }[] = [
    { name: "no fill: unchanged", sides: "filled", fills: [], want: ["bid", "ask"] },
    { name: "a YES buy 5 s ago: the bid pauses", sides: "filled", fills: [fill(0, "BUY", NOW - 5_000)], want: ["ask"] },
    { name: "a NO buy (a YES ask fill): the ask pauses", sides: "filled", fills: [fill(1, "BUY", NOW - 5_000)], want: ["bid"] },
    { name: "a NO sell (a YES bid fill): the bid pauses", sides: "filled", fills: [fill(1, "SELL", NOW - 5_000)], want: ["ask"] },
    { name: "the delay is over (10 s exactly): unchanged", sides: "filled", fills: [fill(0, "BUY", NOW - 10_000)], want: ["bid", "ask"] },
    { name: "sides both: the whole book pauses", sides: "both", fills: [fill(0, "BUY", NOW - 5_000)], want: [] },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = filledOrderDelay({ delayMs: 10_000, sides: r.sides }).apply(pair(), cycleSnapshot({ signals: signals(...r.fills) }));
      expect(tags(out.quotes)).toEqual(r.want);
      expect(out.changed).toBe(2 - r.want.length);
    });
  }
  it("multi-outcome: only the filled outcome's side", () => {
    const three = cycleSnapshot({ market: { outcomeCount: 3, feeTakerBps: 0 }, signals: signals(fill(1, "BUY", NOW - 1_000)) });
    const qs = [quote("BUY", "0.3", { outcome: 1, tag: "b1" }), quote("SELL", "0.4", { outcome: 1, tag: "a1" }), quote("BUY", "0.3", { outcome: 2, tag: "b2" })];
    expect(tags(filledOrderDelay({ delayMs: 10_000, sides: "filled" }).apply(qs, three).quotes)).toEqual(["a1", "b2"]);
  });
});
