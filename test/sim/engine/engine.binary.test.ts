import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, fixture, u } from "./helpers.js";

describe("binary markets: one YES-denominated book", () => {
  it("BUY YES x SELL YES transfers YES at the maker's price", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    expect([f.cash(ALICE), f.shares(ALICE, 0), f.shares(ALICE, 1)]).toEqual([u("990"), u("10"), u("10")]);
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.60"), quantity: u("4") });
    expect(f.engine.positions(ALICE, "M")[0]).toMatchObject({ outcome: 0, quantity: u("10"), locked: u("4") });
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.65"), quantity: u("4") });
    expect(r.trades).toHaveLength(1);
    expect(r.trades[0]).toMatchObject({
      kind: "transfer", outcome: 0, side: "BUY", price: u("0.60"), quantity: u("4"), makerSide: "SELL", makerPrice: u("0.60"),
      takerCash: u("2.4"), makerCash: u("2.4"), fee: 0n,
    });
    expect([f.cash(ALICE), f.cash(BOB)]).toEqual([u("992.4"), u("997.6")]);
    expect([f.shares(ALICE, 0), f.shares(BOB, 0), f.shares(BOB, 1)]).toEqual([u("6"), u("4"), 0n]);
    expect(f.locked(BOB)).toBe(0n); // the 0.05 price improvement was released with the order
    f.assertConsistent();
  });

  it("BUY YES x BUY NO mints a pair from both parties' collateral", () => {
    const f = fixture();
    const maker = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.55"), quantity: u("10") });
    expect(f.locked(ALICE)).toBe(u("5.5"));
    const r = f.place(BOB, { outcome: 1, side: "BUY", price: u("0.45"), quantity: u("10") });
    expect(r.status).toBe("FILLED");
    expect(r.trades[0]).toMatchObject({
      kind: "mint", outcome: 1, tokenId: "M:1", side: "BUY", price: u("0.45"), makerOrderId: maker.orderId,
      makerOutcome: 0, makerTokenId: "M:0", makerSide: "BUY", makerPrice: u("0.55"), takerCash: u("4.5"), makerCash: u("5.5"),
    });
    expect([f.cash(ALICE), f.cash(BOB), f.locked(ALICE), f.locked(BOB)]).toEqual([u("994.5"), u("995.5"), 0n, 0n]);
    expect([f.shares(ALICE, 0), f.shares(ALICE, 1), f.shares(BOB, 0), f.shares(BOB, 1)]).toEqual([u("10"), 0n, 0n, u("10")]);
    expect(f.engine.ledger.sets[0]).toBe(u("10"));
    f.assertConsistent();
  });

  it("a NO buyer crossing a higher YES bid mints at the maker's price (price improvement for the taker)", () => {
    const f = fixture();
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.60"), quantity: u("10") });
    const r = f.place(BOB, { outcome: 1, side: "BUY", price: u("0.45"), quantity: u("10") });
    expect(r.trades[0]).toMatchObject({ kind: "mint", price: u("0.40"), makerPrice: u("0.60") });
    expect([f.cash(ALICE), f.cash(BOB), f.locked(BOB)]).toEqual([u("994"), u("996"), 0n]);
    f.assertConsistent();
  });

  it("SELL YES x SELL NO merges the pair and releases the collateral to both at their prices", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("5"));
    f.engine.split(BOB, "M", u("5"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.70"), quantity: u("5") }); // YES ask 0.70
    expect(f.place(BOB, { outcome: 1, side: "SELL", price: u("0.35"), quantity: u("5") }).status).toBe("OPEN"); // YES bid 0.65
    f.engine.cancelAll(BOB);
    const r = f.place(BOB, { outcome: 1, side: "SELL", price: u("0.30"), quantity: u("5") }); // YES bid 0.70: crosses
    expect(r.trades[0]).toMatchObject({ kind: "merge", outcome: 1, side: "SELL", price: u("0.30"), makerPrice: u("0.70") });
    expect([f.cash(ALICE), f.cash(BOB)]).toEqual([u("995") + u("3.5"), u("995") + u("1.5")]);
    expect([f.shares(ALICE, 0), f.shares(ALICE, 1), f.shares(BOB, 0), f.shares(BOB, 1)]).toEqual([0n, u("5"), u("5"), 0n]);
    expect(f.engine.ledger.sets[0]).toBe(u("5"));
    f.assertConsistent();
  });

  it("SELL NO x BUY NO transfers NO", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("8"));
    f.place(ALICE, { outcome: 1, side: "SELL", price: u("0.30"), quantity: u("8") }); // YES bid 0.70
    const r = f.place(BOB, { outcome: 1, side: "BUY", price: u("0.31"), quantity: u("8") }); // YES ask 0.69: crosses
    expect(r.trades[0]).toMatchObject({ kind: "transfer", outcome: 1, price: u("0.30"), makerPrice: u("0.30"), takerCash: u("2.4") });
    expect([f.shares(BOB, 1), f.shares(ALICE, 1), f.shares(ALICE, 0)]).toEqual([u("8"), 0n, u("8")]);
    expect([f.cash(ALICE), f.cash(BOB)]).toEqual([u("992") + u("2.4"), u("1000") - u("2.4")]);
    f.assertConsistent();
  });

  it("rounds each order on its cumulative notional: BUY pays exactly its makerAmount, the legs' difference goes to the house", () => {
    const f = fixture();
    for (const w of [BOB, CAROL]) f.engine.split(w, "M", u("5"));
    const buy = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.333"), quantity: u("3") });
    expect(f.locked(ALICE)).toBe(999_000n);
    const fills = [
      f.place(BOB, { outcome: 0, side: "SELL", price: u("0.333"), quantity: 1_000_001n }).trades[0]!,
      f.place(CAROL, { outcome: 0, side: "SELL", price: u("0.333"), quantity: 999_999n }).trades[0]!,
      f.place(BOB, { outcome: 0, side: "SELL", price: u("0.333"), quantity: 1_000_000n }).trades[0]!,
    ];
    expect(fills.map((t) => [t.makerCash, t.takerCash])).toEqual([
      [333_001n, 333_000n], // ceil(333000.333), floor(333000.333)
      [332_999n, 332_999n], // ALICE's cumulative ceil(666000) - 333001; floor(332999.667)
      [333_000n, 333_000n],
    ]);
    expect(f.engine.getOrder(buy.orderId)).toBeUndefined();
    expect([f.cash(ALICE), f.locked(ALICE)]).toEqual([u("1000") - 999_000n, 0n]);
    expect(f.engine.ledger.houseDust).toBe(1n);
    f.assertConsistent();
  });

  it("refuses a SELL without the shares and a BUY without the collateral", () => {
    const f = fixture({ deposit: "1" });
    expect(f.place(ALICE, { outcome: 1, side: "SELL", price: u("0.5"), quantity: u("1") })).toMatchObject({
      status: "REJECTED", code: "insufficient_funds",
    });
    expect(f.place(ALICE, { outcome: 1, side: "BUY", price: u("0.5"), quantity: u("2.000001") })).toMatchObject({
      status: "REJECTED", code: "insufficient_funds",
    });
    expect(f.place(ALICE, { outcome: 1, side: "BUY", price: u("0.5"), quantity: u("2") }).status).toBe("OPEN");
    expect(f.place("0x9999999999999999999999999999999999999999", { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1") }).code)
      .toBe("insufficient_funds");
    f.assertConsistent();
  });
});
