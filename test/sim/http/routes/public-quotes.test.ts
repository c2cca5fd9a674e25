/**
 * The quotes market rows are built from (src/sim/http/routes/public-quotes.ts): best bid, best
 * ask and last trade of an outcome read from the engine by the market's symbol (nothing for a
 * market the engine does not have, or an outcome it does not have), and traded volume, the
 * taker legs' cash, in total and over the trailing 24 hours (a trade exactly 24 h old is out).
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../../src/core/rng.js";
import { engineQuotes, marketVolume } from "../../../../src/sim/http/routes/public-quotes.js";
import { Catalogue } from "../../../../src/sim/platform/catalogue.js";
import { ALICE, BOB, fixture, u } from "../../engine/helpers.js";

const DAY = 86_400_000;

/** The engine fixture's market M, and a catalogue listing M and a market B the engine does not have. */
function setup() {
  const f = fixture();
  const window = { preMarketStartsAtMs: null, opensAtMs: f.clock.now() - 60_000, closesAtMs: null };
  const cat = new Catalogue({
    clock: f.clock,
    rng: new Rng(1),
    defaultFeeTakerBps: 0,
    events: [{ title: "E", markets: [{ title: "M?", symbol: "M", window }, { title: "B?", symbol: "B", window }] }],
  });
  const id = (symbol: string) => cat.marketBySymbol(symbol)!.id;
  return { ...f, cat, id };
}

describe("marketVolume", () => {
  it("sums the taker legs' cash, fees excluded, in total and over the last 24 hours", async () => {
    const { engine, clock, place } = setup();
    const t0 = clock.now();
    expect(marketVolume(engine, "M", t0)).toEqual({ total: 0n, last24h: 0n });
    // BOB sells 10 YES into ALICE's bid at 0.4: the taker receives 4.
    place(ALICE, { outcome: 0, side: "BUY", price: u("0.4"), quantity: u("10") });
    engine.split(BOB, "M", u("15"));
    place(BOB, { outcome: 0, side: "SELL", price: u("0.4"), quantity: u("10"), timeInForce: "IOC" });
    expect(marketVolume(engine, "M", t0)).toEqual({ total: u("4"), last24h: u("4") });
    // 25 h later ALICE buys 5 YES from BOB's ask at 0.6: the taker pays 3.
    await clock.advance(25 * 3_600_000);
    place(BOB, { outcome: 0, side: "SELL", price: u("0.6"), quantity: u("5") });
    place(ALICE, { outcome: 0, side: "BUY", price: u("0.6"), quantity: u("5"), timeInForce: "IOC" });
    expect(marketVolume(engine, "M", clock.now())).toEqual({ total: u("7"), last24h: u("3") });
  });

  it("keeps a trade in the window until it is exactly 24 hours old", () => {
    const { engine, clock, place } = setup();
    const t0 = clock.now();
    place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("2") });
    engine.split(BOB, "M", u("2"));
    place(BOB, { outcome: 0, side: "SELL", price: u("0.5"), quantity: u("2") });
    expect(marketVolume(engine, "M", t0 + DAY - 1)).toEqual({ total: u("1"), last24h: u("1") });
    expect(marketVolume(engine, "M", t0 + DAY)).toEqual({ total: u("1"), last24h: 0n });
  });

  it("is undefined for a market the engine does not have", () => {
    const { engine, clock } = setup();
    expect(marketVolume(engine, "B", clock.now())).toBeUndefined();
  });
});

describe("engineQuotes", () => {
  it("reads the touch and the last trade of each outcome, NO as the YES complement", () => {
    const { engine, cat, clock, id, place } = setup();
    place(ALICE, { outcome: 0, side: "BUY", price: u("0.4"), quantity: u("10") });
    engine.split(BOB, "M", u("20"));
    place(BOB, { outcome: 0, side: "SELL", price: u("0.35"), quantity: u("1"), timeInForce: "IOC" }); // trades at ALICE's 0.4
    place(BOB, { outcome: 0, side: "SELL", price: u("0.7"), quantity: u("5") });
    const q = engineQuotes(engine, cat, clock.now());
    const m = id("M");
    expect([q.bestBid(m, 0), q.bestAsk(m, 0), q.lastTradePrice(m, 0)]).toEqual([u("0.4"), u("0.7"), u("0.4")]);
    expect([q.bestBid(m, 1), q.bestAsk(m, 1), q.lastTradePrice(m, 1)]).toEqual([u("0.3"), u("0.6"), u("0.6")]);
    expect(q.volume!(m)).toEqual({ total: u("0.4"), last24h: u("0.4") });
  });

  it("an empty book has no touch and no last trade", () => {
    const { engine, cat, clock, id } = setup();
    const q = engineQuotes(engine, cat, clock.now());
    expect([q.bestBid(id("M"), 0), q.bestAsk(id("M"), 0), q.lastTradePrice(id("M"), 0)]).toEqual([undefined, undefined, undefined]);
  });

  it("answers nothing for a market the engine lacks, an unknown market id or an outcome out of range, and zero volume", () => {
    const { engine, cat, clock, id, place } = setup();
    place(ALICE, { outcome: 0, side: "BUY", price: u("0.4"), quantity: u("10") });
    const q = engineQuotes(engine, cat, clock.now());
    for (const [market, outcome] of [
      [id("B"), 0],
      ["00000000-0000-4000-8000-000000000000", 0],
      [id("M"), 2],
      [id("M"), -1],
    ] as const) {
      expect([q.bestBid(market, outcome), q.bestAsk(market, outcome), q.lastTradePrice(market, outcome)]).toEqual([undefined, undefined, undefined]);
    }
    expect(q.volume!(id("B"))).toEqual({ total: 0n, last24h: 0n });
    expect(q.volume!("nope")).toEqual({ total: 0n, last24h: 0n });
  });
});
