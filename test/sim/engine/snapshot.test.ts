/**
 * Aggregated book views (src/sim/engine/snapshot.ts): per-level price, quantity and order count,
 * best first, cut at `depth`; best bid/ask and the last trade price; the NO view of a binary market
 * as the complement of the YES book (NO bids are YES asks at 1 - p); per-outcome books of a
 * multi-outcome market; an out-of-range outcome refused.
 */
import { describe, expect, it } from "vitest";
import { bookSnapshot } from "../../../src/sim/engine/snapshot.js";
import { ALICE, BOB, CAROL, DAVE, fixture, u } from "./helpers.js";

/** YES bids 0.40 x (5 + 3), 0.38 x 2; YES asks 0.45 x 4 and a NO BUY at 0.30 x 6 (a YES ask at 0.70). */
function book() {
  const f = fixture();
  f.engine.split(ALICE, "M", u("10"));
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.40"), quantity: u("5") });
  f.place(BOB, { outcome: 0, side: "BUY", price: u("0.40"), quantity: u("3") });
  f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.38"), quantity: u("2") });
  f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.45"), quantity: u("4") });
  f.place(DAVE, { outcome: 1, side: "BUY", price: u("0.30"), quantity: u("6") });
  return f;
}

describe("bookSnapshot of a binary market", () => {
  it("the YES view lists levels best first with quantities and order counts", () => {
    const f = book();
    expect(bookSnapshot(f.engine.market("M"), 0)).toEqual({
      marketId: "M",
      outcome: 0,
      tokenId: "M:0",
      bids: [
        { price: u("0.40"), quantity: u("8"), orders: 2 },
        { price: u("0.38"), quantity: u("2"), orders: 1 },
      ],
      asks: [
        { price: u("0.45"), quantity: u("4"), orders: 1 },
        { price: u("0.70"), quantity: u("6"), orders: 1 },
      ],
      bestBid: u("0.40"),
      bestAsk: u("0.45"),
      lastTradePrice: null,
    });
  });

  it("the NO view is the complement: NO bids are YES asks at 1 - p, NO asks YES bids at 1 - p", () => {
    const f = book();
    expect(bookSnapshot(f.engine.market("M"), 1)).toEqual({
      marketId: "M",
      outcome: 1,
      tokenId: "M:1",
      bids: [
        { price: u("0.55"), quantity: u("4"), orders: 1 },
        { price: u("0.30"), quantity: u("6"), orders: 1 },
      ],
      asks: [
        { price: u("0.60"), quantity: u("8"), orders: 2 },
        { price: u("0.62"), quantity: u("2"), orders: 1 },
      ],
      bestBid: u("0.55"),
      bestAsk: u("0.60"),
      lastTradePrice: null,
    });
  });

  it("depth cuts each side to its best levels; the best prices do not depend on it", () => {
    const f = book();
    const s = bookSnapshot(f.engine.market("M"), 0, 1);
    expect([s.bids.length, s.asks.length, s.bestBid, s.bestAsk]).toEqual([1, 1, u("0.40"), u("0.45")]);
    expect(bookSnapshot(f.engine.market("M"), 0, 0)).toMatchObject({ bids: [], asks: [], bestBid: u("0.40") });
  });

  it("the last trade price is in the requested outcome's token", () => {
    const f = book();
    f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.45"), quantity: u("1") });
    const m = f.engine.market("M");
    expect(bookSnapshot(m, 0).lastTradePrice).toBe(u("0.45"));
    expect(bookSnapshot(m, 1).lastTradePrice).toBe(u("0.55"));
    expect(bookSnapshot(m, 0).asks[0]).toEqual({ price: u("0.45"), quantity: u("3"), orders: 1 });
  });

  it("an empty book has no levels and null prices", () => {
    const f = fixture();
    expect(bookSnapshot(f.engine.market("M"), 1)).toEqual({ marketId: "M", outcome: 1, tokenId: "M:1", bids: [], asks: [], bestBid: null, bestAsk: null, lastTradePrice: null });
  });
});

describe("bookSnapshot of a multi-outcome market", () => {
  it("each outcome has its own book, in its own prices", () => {
    const f = fixture({ outcomes: 3 });
    f.place(ALICE, { outcome: 2, side: "BUY", price: u("0.20"), quantity: u("5") });
    f.place(BOB, { outcome: 0, side: "BUY", price: u("0.50"), quantity: u("1") });
    const m = f.engine.market("M");
    expect(bookSnapshot(m, 2)).toMatchObject({ tokenId: "M:2", bids: [{ price: u("0.20"), quantity: u("5"), orders: 1 }], asks: [], bestBid: u("0.20"), bestAsk: null });
    expect(bookSnapshot(m, 1)).toMatchObject({ bids: [], asks: [], bestBid: null });
    expect(bookSnapshot(m, 0).bids).toEqual([{ price: u("0.50"), quantity: u("1"), orders: 1 }]);
  });
});

describe("bookSnapshot refusals", () => {
  it("refuses an outcome outside 0..outcomeCount-1 or not an integer, naming the range", () => {
    const m = fixture().engine.market("M");
    expect(() => bookSnapshot(m, 2)).toThrow(new RangeError("outcome must be 0..1"));
    expect(() => bookSnapshot(m, -1)).toThrow(RangeError);
    expect(() => bookSnapshot(m, 0.5)).toThrow(/outcome must be 0\.\.1/);
  });
});
