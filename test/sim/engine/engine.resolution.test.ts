import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, fixture, u } from "./helpers.js";

function traded() {
  const f = fixture();
  // ALICE buys 10 YES at 0.6, BOB buys 10 NO at 0.4 (a mint); CAROL holds 3 complete sets.
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.6"), quantity: u("10") });
  f.place(BOB, { outcome: 1, side: "BUY", price: u("0.4"), quantity: u("10") });
  f.engine.split(CAROL, "M", u("3"));
  // Resting orders that resolution must cancel.
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.1"), quantity: u("5") });
  f.place(CAROL, { outcome: 1, side: "SELL", price: u("0.9"), quantity: u("2") });
  return f;
}

describe("resolution", () => {
  it("cancels open orders first, then pays qty * numerator / sum and removes the positions", () => {
    const f = traded();
    const res = f.engine.resolve("M", [1, 0]);
    expect(res.cancelled.map((o) => [o.wallet, o.status, o.endReason])).toEqual([
      [ALICE.toLowerCase(), "CANCELLED", "market_resolved"],
      [CAROL.toLowerCase(), "CANCELLED", "market_resolved"],
    ]);
    expect(res.payouts.filter((p) => p.amount > 0n).map((p) => [p.wallet, p.outcome, p.amount])).toEqual([
      [ALICE.toLowerCase(), 0, u("10")],
      [CAROL.toLowerCase(), 0, u("3")],
    ]);
    expect([f.cash(ALICE), f.cash(BOB), f.cash(CAROL)]).toEqual([u("1004"), u("996"), u("1000")]);
    expect([f.locked(ALICE), f.locked(CAROL)]).toEqual([0n, 0n]);
    expect(f.engine.positions(ALICE)).toEqual([]);
    expect(f.engine.positions(CAROL)).toEqual([]);
    expect(res.dust).toBe(0n);
    expect(f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1") }).code).toBe("market_not_open");
    expect(() => f.engine.voidMarket("M")).toThrow(/already settled/);
    f.assertConsistent();
  });

  it("void pays every outcome 1/outcomeCount (the conditional-token convention)", () => {
    const f = traded();
    const res = f.engine.voidMarket("M");
    expect(res.payoutNumerators).toEqual([1n, 1n]);
    expect([f.cash(ALICE), f.cash(BOB), f.cash(CAROL)]).toEqual([u("999"), u("1001"), u("1000")]);
    f.assertConsistent();
  });

  it("fractional payouts round down per position and the dust goes to the house", () => {
    const f = fixture({ outcomes: 3 });
    f.engine.split(ALICE, "M", 1_000_001n);
    const res = f.engine.resolve("M", [1, 1, 1]);
    // each of 3 positions of 1000001 micro-shares pays floor(1000001 / 3) = 333333
    expect(res.payouts.map((p) => p.amount)).toEqual([333_333n, 333_333n, 333_333n]);
    expect(res.dust).toBe(2n);
    expect(f.engine.ledger.houseDust).toBe(2n);
    f.assertConsistent();
  });

  it("refuses malformed payout vectors", () => {
    const f = traded();
    expect(() => f.engine.resolve("M", [1])).toThrow(/2 entries/);
    expect(() => f.engine.resolve("M", [0, 0])).toThrow(/positive sum/);
    expect(() => f.engine.resolve("M", [-1, 2])).toThrow(/non-negative/);
    expect(f.engine.openOrders(ALICE)).toHaveLength(1);
  });
});
