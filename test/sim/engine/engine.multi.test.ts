import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, fixture, u } from "./helpers.js";

describe("multi-outcome markets", () => {
  it("have one independent book per outcome; shares come from splitting collateral", () => {
    const f = fixture({ outcomes: 3, feeRateBps: 100 });
    f.engine.split(ALICE, "M", u("6"));
    expect([0, 1, 2].map((i) => f.shares(ALICE, i))).toEqual([u("6"), u("6"), u("6")]);
    f.place(ALICE, { outcome: 2, side: "SELL", price: u("0.2"), quantity: u("6") });
    // A BUY on outcome 1 does not see outcome 2's book.
    expect(f.place(BOB, { outcome: 1, side: "BUY", price: u("0.9"), quantity: u("1") }).status).toBe("OPEN");
    const r = f.place(CAROL, { outcome: 2, side: "BUY", price: u("0.25"), quantity: u("5") });
    expect(r.trades[0]).toMatchObject({ kind: "transfer", outcome: 2, tokenId: "M:2", price: u("0.2"), quantity: u("5") });
    expect(f.shares(CAROL, 2)).toBe(u("5"));
    expect(f.engine.book("M", 2)).toMatchObject({ asks: [{ price: u("0.2"), quantity: u("1"), orders: 1 }], lastTradePrice: u("0.2") });
    expect(f.engine.book("M", 1).bids).toEqual([{ price: u("0.9"), quantity: u("1"), orders: 1 }]);
    expect(f.engine.book("M", 0)).toMatchObject({ bids: [], asks: [], lastTradePrice: null });
    expect(f.place(BOB, { outcome: 3, side: "BUY", price: u("0.5"), quantity: u("1") }).code).toBe("invalid_outcome");
    expect(() => f.engine.book("M", 3)).toThrow(RangeError);
    f.assertConsistent();
  });

  it("merge turns complete sets back into collateral and refuses locked or missing shares", () => {
    const f = fixture({ outcomes: 3 });
    f.engine.split(ALICE, "M", u("4"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.5"), quantity: u("3") });
    expect(() => f.engine.merge(ALICE, "M", u("2"))).toThrow(/fewer than/);
    f.engine.merge(ALICE, "M", u("1"));
    expect(f.cash(ALICE)).toBe(u("997"));
    expect([0, 1, 2].map((i) => f.shares(ALICE, i))).toEqual([u("3"), u("3"), u("3")]);
    expect(() => f.engine.merge(BOB, "M", u("1"))).toThrow(/fewer than/);
    expect(() => f.engine.split(BOB, "M", u("1001"))).toThrow(/available/);
    f.assertConsistent();
  });

  it("positions report the average entry price of the shares held", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.4"), quantity: u("4") });
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.6"), quantity: u("4") });
    f.place(BOB, { outcome: 0, side: "BUY", price: u("0.6"), quantity: u("8") });
    expect(f.engine.positions(BOB, "M")).toEqual([
      { marketId: "M", tokenId: "M:0", outcome: 0, quantity: u("8"), locked: 0n, avgPrice: u("0.5") },
    ]);
    // Selling half keeps the average of what is left.
    f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.9"), quantity: u("4") });
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.9"), quantity: u("4") });
    expect(f.engine.positions(BOB, "M")[0]).toMatchObject({ quantity: u("4"), avgPrice: u("0.5") });
  });
});

describe("share transfers", () => {
  it("move free shares with their cost basis (or a given cost price) and refuse locked ones", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.9"), quantity: u("6") });
    expect(() => f.engine.transferShares(ALICE, BOB, "M", 0, u("5"))).toThrow(/free shares/);
    f.engine.transferShares(ALICE, BOB, "M", 0, u("4"));
    expect(f.engine.positions(BOB, "M")).toEqual([
      { marketId: "M", tokenId: "M:0", outcome: 0, quantity: u("4"), locked: 0n, avgPrice: u("0.5") },
    ]);
    f.engine.transferShares(ALICE, CAROL, "M", 1, u("2"), u("0.3"));
    expect(f.engine.positions(CAROL, "M")[0]).toMatchObject({ outcome: 1, quantity: u("2"), avgPrice: u("0.3") });
    expect(() => f.engine.transferShares(ALICE, BOB, "M", 2, u("1"))).toThrow(RangeError);
    f.assertConsistent();
  });
});
