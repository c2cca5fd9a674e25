/**
 * The matching core (src/sim/engine/matcher.ts) through the engine it runs under: a taker sweeps
 * level by level in price-time order at each maker's price, makers filled out leave the book with
 * "filled", the remainder rests at its limit (ahead of nothing, behind what rested there before);
 * the self-trade rule stops the walk at the wallet's own resting order; FOK's fillability walk
 * counts only what lies before that order; and the event stream tells each step in order.
 * book.test.ts and engine.orders.test.ts cover the single cases; this file follows whole sweeps.
 */
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../../src/sim/engine/index.js";
import { ALICE, BOB, CAROL, DAVE, fixture, u } from "./helpers.js";

const kinds = (events: EngineEvent[]) =>
  events.map((e) =>
    e.type === "fill" ? `fill ${e.trade.makerOrderId}@${Number(e.trade.makerPrice) / 1e6}x${Number(e.trade.quantity) / 1e6}` : e.type === "ended" ? `ended ${e.order.id} ${e.reason}` : `${e.type} ${"order" in e ? e.order.id : ""}`.trim(),
  );

describe("a sweep", () => {
  it("takes levels best first and each level oldest first, at the makers' prices; makers filled out leave with 'filled'", () => {
    const f = fixture();
    for (const w of [ALICE, BOB, CAROL]) f.engine.split(w, "M", u("10"));
    const a1 = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.52"), quantity: u("2") }).orderId;
    const b1 = f.place(BOB, { outcome: 0, side: "SELL", price: u("0.51"), quantity: u("1") }).orderId;
    const c1 = f.place(CAROL, { outcome: 0, side: "SELL", price: u("0.52"), quantity: u("3") }).orderId;
    const a2 = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.55"), quantity: u("5") }).orderId;
    f.events.length = 0;
    const r = f.place(DAVE, { outcome: 0, side: "BUY", price: u("0.53"), quantity: u("5") });
    expect(r.trades.map((t) => [t.makerOrderId, t.price, t.quantity])).toEqual([
      [b1, u("0.51"), u("1")],
      [a1, u("0.52"), u("2")],
      [c1, u("0.52"), u("2")],
    ]);
    expect(r.status).toBe("FILLED");
    expect(kinds(f.events)).toEqual([
      `accepted ${r.orderId}`,
      `fill ${b1}@0.51x1`,
      `ended ${b1} filled`,
      `fill ${a1}@0.52x2`,
      `ended ${a1} filled`,
      `fill ${c1}@0.52x2`,
      `ended ${r.orderId} filled`,
    ]);
    // c1 keeps its 1 and its place; the 0.55 level was never reached.
    expect(f.engine.getOrder(c1)).toMatchObject({ remainingQty: u("1"), status: "PARTIAL" });
    expect(f.engine.getOrder(a2)).toMatchObject({ remainingQty: u("5"), status: "OPEN" });
    f.assertConsistent();
  });

  it("stops at its limit and rests the remainder there, ahead of orders that come later at that price", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.50"), quantity: u("1") });
    const far = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.60"), quantity: u("1") }).orderId;
    f.events.length = 0;
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.55"), quantity: u("3") });
    expect(r).toMatchObject({ status: "PARTIAL", filledQty: u("1"), remainingQty: u("2") });
    expect(kinds(f.events).at(-1)).toBe(`rested ${r.orderId}`);
    expect(f.engine.getOrder(far)).toMatchObject({ status: "OPEN", remainingQty: u("1") });
    const later = f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.55"), quantity: u("1") }).orderId;
    // A seller at 0.55 meets the resting remainder first.
    f.engine.split(DAVE, "M", u("5"));
    const s = f.place(DAVE, { outcome: 0, side: "SELL", price: u("0.55"), quantity: u("3") });
    expect(s.trades.map((t) => [t.makerOrderId, t.quantity])).toEqual([
      [r.orderId, u("2")],
      [later, u("1")],
    ]);
    f.assertConsistent();
  });

  it("a NO buyer sweeps the YES bids from the highest, paying the complement of each", () => {
    const f = fixture();
    const hi = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.62"), quantity: u("1") }).orderId;
    const lo = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.60"), quantity: u("1") }).orderId;
    const r = f.place(CAROL, { outcome: 1, side: "BUY", price: u("0.40"), quantity: u("2") });
    expect(r.trades.map((t) => [t.makerOrderId, t.kind, t.price])).toEqual([
      [hi, "mint", u("0.38")],
      [lo, "mint", u("0.40")],
    ]);
    f.assertConsistent();
  });
});

describe("the self-trade rule", () => {
  it("stops the sweep at the wallet's own order: liquidity before it trades, it and what is behind it stay, the rest is cancelled", () => {
    const f = fixture();
    for (const w of [ALICE, BOB]) f.engine.split(w, "M", u("10"));
    const before = f.place(BOB, { outcome: 0, side: "SELL", price: u("0.50"), quantity: u("1") }).orderId;
    const own = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.50"), quantity: u("1") }).orderId;
    const behind = f.place(BOB, { outcome: 0, side: "SELL", price: u("0.50"), quantity: u("1") }).orderId;
    const r = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.50"), quantity: u("3") });
    expect(r.trades.map((t) => t.makerOrderId)).toEqual([before]);
    expect(r).toMatchObject({ status: "CANCELLED", filledQty: u("1"), endReason: "self_trade" });
    expect(f.engine.getOrder(own)).toMatchObject({ status: "OPEN", remainingQty: u("1") });
    expect(f.engine.getOrder(behind)).toMatchObject({ status: "OPEN", remainingQty: u("1") });
    expect(f.locked(ALICE)).toBe(0n);
    f.assertConsistent();
  });

  it("FOK: enough liquidity only behind the wallet's own order is not enough; without own orders a level counts whole", () => {
    const f = fixture();
    for (const w of [ALICE, BOB]) f.engine.split(w, "M", u("10"));
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.50"), quantity: u("1") });
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.51"), quantity: u("1") });
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.52"), quantity: u("5") });
    const blocked = f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.52"), quantity: u("2"), timeInForce: "FOK" });
    expect(blocked).toMatchObject({ status: "CANCELLED", filledQty: 0n, endReason: "fok_unfillable", trades: [] });
    const ok = f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.52"), quantity: u("7"), timeInForce: "FOK" });
    expect(ok).toMatchObject({ status: "FILLED", filledQty: u("7") });
    expect(ok.trades).toHaveLength(3);
    f.assertConsistent();
  });
});

describe("naming", () => {
  it("resolves account and market indexes to the wallet, the market id and the token ids", () => {
    const f = fixture();
    const a = f.engine.ledger.find(BOB)!;
    const m = f.engine.market("M");
    expect(f.engine.wallet(a.index)).toBe(BOB.toLowerCase());
    expect(f.engine.marketId(m.index)).toBe("M");
    expect([f.engine.tokenId(m.index, 0), f.engine.tokenId(m.index, 1)]).toEqual(["M:0", "M:1"]);
  });
});
