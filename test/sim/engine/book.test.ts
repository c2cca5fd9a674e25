import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { ALICE, BOB, CAROL, DAVE, EVE, fixture, u } from "./helpers.js";

describe("price-time priority", () => {
  it("fills the better price first, then the earlier order at the same price", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("100"));
    f.engine.split(BOB, "M", u("100"));
    f.engine.split(CAROL, "M", u("100"));
    const a = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.52"), quantity: u("5") });
    const b = f.place(BOB, { outcome: 0, side: "SELL", price: u("0.51"), quantity: u("5") });
    const c = f.place(CAROL, { outcome: 0, side: "SELL", price: u("0.51"), quantity: u("5") });
    const r = f.place(DAVE, { outcome: 0, side: "BUY", price: u("0.52"), quantity: u("12") });
    expect(r.status).toBe("FILLED");
    expect(r.trades.map((t) => [t.makerOrderId, t.price, t.quantity])).toEqual([
      [b.orderId, u("0.51"), u("5")],
      [c.orderId, u("0.51"), u("5")],
      [a.orderId, u("0.52"), u("2")],
    ]);
    expect(f.engine.getOrder(a.orderId)).toMatchObject({ status: "PARTIAL", filledQty: u("2"), remainingQty: u("3") });
    expect(f.engine.getOrder(b.orderId)).toBeUndefined();
    f.assertConsistent();
  });

  it("a partially filled taker rests its remainder at its limit, ahead of later orders there", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("100"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.40"), quantity: u("3") });
    const taker = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.45"), quantity: u("10") });
    expect(taker).toMatchObject({ status: "PARTIAL", filledQty: u("3"), remainingQty: u("7") });
    expect(taker.trades.map((t) => t.price)).toEqual([u("0.40")]);
    const later = f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.45"), quantity: u("1") });
    expect(f.engine.book("M", 0).bids).toEqual([{ price: u("0.45"), quantity: u("8"), orders: 2 }]);
    const s = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.45"), quantity: u("8") });
    expect(s.trades.map((t) => [t.makerOrderId, t.quantity])).toEqual([
      [taker.orderId, u("7")],
      [later.orderId, u("1")],
    ]);
    f.assertConsistent();
  });

  it("a limit order does not trade through its own limit", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.60"), quantity: u("5") });
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.59"), quantity: u("5") });
    expect(r).toMatchObject({ status: "OPEN", filledQty: 0n, trades: [] });
    const book = f.engine.book("M", 0);
    expect([book.bestBid, book.bestAsk]).toEqual([u("0.59"), u("0.60")]);
  });
});

describe("O(1) cancel", () => {
  function level(f: ReturnType<typeof fixture>) {
    const ids = [ALICE, BOB, CAROL, DAVE].map(
      (w, i) => f.place(w, { outcome: 0, side: "BUY", price: u("0.30"), quantity: u(String(i + 1)) }).orderId,
    );
    return ids;
  }

  for (const [name, index] of [["first", 0], ["middle", 1], ["last", 3]] as const) {
    it(`cancelling the ${name} order of a level keeps the FIFO and the totals right`, () => {
      const f = fixture();
      const ids = level(f);
      const res = f.engine.cancel(ids[index]!);
      expect(res).toMatchObject({ ok: true, status: "CANCELLED", remainingQty: u(String(index + 1)) });
      const rest = ids.filter((_, i) => i !== index);
      expect(f.engine.book("M", 0).bids).toEqual([{ price: u("0.30"), quantity: u(String(10 - index - 1)), orders: 3 }]);
      f.assertConsistent();
      // Sell into the whole level: fills come in the original order without the cancelled one.
      f.engine.deposit(EVE, u("20"));
      f.engine.split(EVE, "M", u("20"));
      const s = f.place(EVE, { outcome: 0, side: "SELL", price: u("0.30"), quantity: u("20") });
      expect(s.trades.map((t) => t.makerOrderId)).toEqual(rest);
      f.assertConsistent();
    });
  }

  it("cancelling the only order empties the level and moves the best price", () => {
    const f = fixture();
    const hi = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.31"), quantity: u("1") });
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.20"), quantity: u("1") });
    expect(f.engine.book("M", 0).bestBid).toBe(u("0.31"));
    f.engine.cancel(hi.orderId);
    expect(f.engine.book("M", 0).bestBid).toBe(u("0.20"));
    expect(f.engine.book("M", 0).bids).toHaveLength(1);
    f.assertConsistent();
  });

  it("refuses unknown ids and other wallets' orders, and releases the lock on cancel", () => {
    const f = fixture();
    const r = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("10") });
    expect(f.locked(ALICE)).toBe(u("5"));
    expect(f.engine.cancel("nope")).toEqual({ ok: false, code: "order_not_found", orderId: "nope" });
    expect(f.engine.cancel(r.orderId, BOB)).toEqual({ ok: false, code: "forbidden", orderId: r.orderId });
    expect(f.engine.cancel(r.orderId, ALICE.toUpperCase().replace("0X", "0x")).ok).toBe(true);
    expect(f.locked(ALICE)).toBe(0n);
    expect(f.engine.cancel(r.orderId)).toMatchObject({ ok: false, code: "order_not_found" });
  });

  it("cancelAll cancels a wallet's orders, optionally in one market only", () => {
    const f = fixture();
    f.engine.addMarket({ id: "N", outcomeCount: 2, feeRateBps: 0 });
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.1"), quantity: u("1") });
    f.place(ALICE, { outcome: 1, side: "BUY", price: u("0.1"), quantity: u("1") });
    f.place(ALICE, { marketId: "N", outcome: 0, side: "BUY", price: u("0.1"), quantity: u("1") });
    f.place(BOB, { outcome: 0, side: "BUY", price: u("0.1"), quantity: u("1") });
    expect(f.engine.cancelAll(ALICE, "M").map((o) => o.status)).toEqual(["CANCELLED", "CANCELLED"]);
    expect(f.engine.openOrders(ALICE).map((o) => o.marketId)).toEqual(["N"]);
    expect(f.engine.cancelAll(ALICE)).toHaveLength(1);
    expect(f.engine.openOrders(BOB)).toHaveLength(1);
    expect(f.locked(ALICE)).toBe(0n);
    f.assertConsistent();
  });

  it("lists a wallet's open orders newest first through churn (cancels, fills, slot reuse) against a model", () => {
    const f = fixture({ deposit: "100000" });
    f.engine.split(BOB, "M", u("1000"));
    const rng = new Rng(12);
    const model: string[] = []; // ALICE's resting orders, oldest first
    for (let i = 0; i < 600; i++) {
      const r = rng.float();
      if (r < 0.5 || model.length === 0) {
        const res = f.place(ALICE, { outcome: 0, side: "BUY", price: u(`0.${10 + rng.int(30)}`), quantity: u(String(1 + rng.int(3))) });
        expect(res.status).toBe("OPEN");
        model.push(res.orderId);
      } else if (r < 0.85) {
        const k = rng.int(model.length);
        expect(f.engine.cancel(model[k]!).ok).toBe(true);
        model.splice(k, 1);
      } else {
        // BOB sells into ALICE's best bids: whatever fills completely leaves her list.
        f.place(BOB, { outcome: 0, side: "SELL", price: u("0.01"), quantity: u("3"), type: "market" });
        for (let k = model.length - 1; k >= 0; k--) if (f.engine.getOrder(model[k]!) === undefined) model.splice(k, 1);
      }
      if (i % 50 === 0 || i === 599) {
        expect(f.engine.openOrders(ALICE).map((o) => o.id)).toEqual([...model].reverse());
        f.assertConsistent();
      }
    }
    expect(f.engine.ledger.find(ALICE)!.openOrders).toBe(model.length);
    expect(f.engine.cancelAll(ALICE).map((o) => o.id)).toEqual([...model].reverse());
    expect(f.engine.openOrders(ALICE)).toEqual([]);
  });
});

describe("book snapshots", () => {
  it("aggregates levels, limits depth and shows the NO view as the complement", () => {
    const f = fixture();
    f.engine.split(BOB, "M", u("100"));
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.40"), quantity: u("1") });
    f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.40"), quantity: u("2") });
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.39"), quantity: u("4") });
    f.place(ALICE, { outcome: 1, side: "SELL", price: u("0.62"), quantity: u("0") }); // rejected: zero qty
    f.place(BOB, { outcome: 1, side: "SELL", price: u("0.62"), quantity: u("5") }); // a YES bid at 0.38
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.45"), quantity: u("6") });
    f.place(ALICE, { outcome: 1, side: "BUY", price: u("0.50"), quantity: u("7") }); // a YES ask at 0.50

    const yes = f.engine.book("M", 0, 2);
    expect(yes.bids).toEqual([
      { price: u("0.40"), quantity: u("3"), orders: 2 },
      { price: u("0.39"), quantity: u("4"), orders: 1 },
    ]);
    expect(yes.asks).toEqual([
      { price: u("0.45"), quantity: u("6"), orders: 1 },
      { price: u("0.50"), quantity: u("7"), orders: 1 },
    ]);
    expect([yes.bestBid, yes.bestAsk, yes.lastTradePrice]).toEqual([u("0.40"), u("0.45"), null]);

    const no = f.engine.book("M", 1);
    expect(no.tokenId).toBe("M:1");
    expect(no.bids).toEqual([
      { price: u("0.55"), quantity: u("6"), orders: 1 },
      { price: u("0.50"), quantity: u("7"), orders: 1 },
    ]);
    expect(no.asks.map((l) => l.price)).toEqual([u("0.60"), u("0.61"), u("0.62")]);
    expect([no.bestBid, no.bestAsk]).toEqual([u("0.55"), u("0.60")]);

    // A trade at YES 0.45 is last price 0.45 on YES and 0.55 on NO.
    f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.45"), quantity: u("1") });
    expect(f.engine.book("M", 0).lastTradePrice).toBe(u("0.45"));
    expect(f.engine.book("M", 1).lastTradePrice).toBe(u("0.55"));
  });

  it("wouldCross answers for each side and outcome without touching the book", () => {
    const f = fixture();
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.40"), quantity: u("1") });
    expect(f.engine.wouldCross("M", 0, "SELL", u("0.40"))).toBe(true);
    expect(f.engine.wouldCross("M", 0, "SELL", u("0.41"))).toBe(false);
    expect(f.engine.wouldCross("M", 1, "BUY", u("0.60"))).toBe(true); // NO at 0.60 = YES ask at 0.40
    expect(f.engine.wouldCross("M", 1, "BUY", u("0.59"))).toBe(false);
    expect(f.engine.wouldCross("M", 0, "BUY", u("0.99"))).toBe(false);
    expect(f.engine.book("M", 0).bids).toHaveLength(1);
  });
});
