/**
 * Up/Down series days (src/sim/platform/updown.ts, spec 2.8's exception): a day qualifies only
 * when every window of the day, listed or not, was VOIDED before it ended; a window voided after
 * its end, a resolved window, a window still to come or a day without windows does not qualify,
 * and neither does an event that is not a series day.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { Catalogue, type MarketInput } from "../../../src/sim/platform/catalogue.js";
import { dayAllVoidedBeforeEnd } from "../../../src/sim/platform/updown.js";
import { T0 } from "./fixtures.js";

const MIN = 60_000;
const SERIES = { id: "btc-up-down-15m" };

const win = (symbol: string, opensMin: number, closesMin: number | null, preMin: number | null = null): MarketInput => ({
  title: symbol,
  symbol,
  window: { preMarketStartsAtMs: preMin === null ? null : T0 + preMin * MIN, opensAtMs: T0 + opensMin * MIN, closesAtMs: closesMin === null ? null : T0 + closesMin * MIN },
});

/** Day D: windows A (-30m..+15m) and B (-15m..+30m); a plain event E with the same kind of market. */
function setup(extra: MarketInput[] = []) {
  const clock = new VirtualClock(T0);
  const cat = new Catalogue({
    clock,
    rng: new Rng(1),
    defaultFeeTakerBps: 0,
    events: [
      { title: "Day", slug: "day", cryptoSeries: SERIES, markets: [win("A", -30, 15), win("B", -15, 30), ...extra] },
      { title: "Plain", slug: "plain", markets: [win("P", -30, 15)] },
      { title: "Empty day", slug: "empty-day", cryptoSeries: SERIES, markets: [] },
    ],
  });
  const ev = (slug: string) => cat.eventBySlug(slug)!;
  const move = (symbol: string, trigger: "void" | "resolve", args = {}) => {
    const r = cat.transition(cat.marketBySymbol(symbol, true)!.id, trigger, args);
    expect(r.ok, `${trigger} ${symbol}`).toBe(true);
  };
  return { clock, cat, ev, move };
}

describe("dayAllVoidedBeforeEnd", () => {
  it("is true once every window of the day was voided before its end", () => {
    const { cat, ev, move } = setup();
    expect(dayAllVoidedBeforeEnd(cat, ev("day"))).toBe(false);
    move("A", "void");
    expect(dayAllVoidedBeforeEnd(cat, ev("day"))).toBe(false);
    move("B", "void");
    expect(dayAllVoidedBeforeEnd(cat, ev("day"))).toBe(true);
  });

  it("is false when a window was voided at or after its end", async () => {
    const { clock, cat, ev, move } = setup();
    move("B", "void");
    await clock.advance(15 * MIN); // A ends now
    move("A", "void");
    expect(dayAllVoidedBeforeEnd(cat, ev("day"))).toBe(false);
  });

  it("is false when a window resolved", () => {
    const { cat, ev, move } = setup();
    move("A", "void");
    move("B", "resolve", { payoutNumerators: [1, 0] });
    expect(dayAllVoidedBeforeEnd(cat, ev("day"))).toBe(false);
  });

  it("counts a window without an end as voided before it", () => {
    const { cat, ev, move } = setup([win("C", -5, null)]);
    for (const s of ["A", "B", "C"]) move(s, "void");
    expect(dayAllVoidedBeforeEnd(cat, ev("day"))).toBe(true);
  });

  it("counts windows not listed yet, which are not voided", () => {
    const { cat, ev, move } = setup([win("LATER", 120, 135, 60)]);
    move("A", "void");
    move("B", "void");
    expect(cat.status(cat.marketBySymbol("LATER", true)!.id)).toBe("SCHEDULED");
    expect(dayAllVoidedBeforeEnd(cat, ev("day"))).toBe(false);
  });

  it("is false for an event that is not a series day, whatever its markets, and for a day without windows", () => {
    const { cat, ev, move } = setup();
    move("P", "void");
    expect(dayAllVoidedBeforeEnd(cat, ev("plain"))).toBe(false);
    expect(dayAllVoidedBeforeEnd(cat, ev("empty-day"))).toBe(false);
  });
});
