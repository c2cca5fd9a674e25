/**
 * Read-only ledger views (src/sim/engine/views.ts): a wallet's balance (total, locked, available,
 * fees paid; zeros under the lower-cased name for a wallet never seen), its non-zero positions in
 * market then outcome order with locked shares and the average entry price (fees excluded, rounded
 * down), one market's positions, and a trade as each of its parties sees it. Expected amounts are
 * worked out by hand from the orders placed.
 */
import { describe, expect, it } from "vitest";
import { balanceOf, partyFill, positionsOf } from "../../../src/sim/engine/views.js";
import { ALICE, BOB, CAROL, fixture, u } from "./helpers.js";

const STRANGER = "0xABCDEF0000000000000000000000000000000001";

/**
 * Fee 200 bps. ALICE splits 3 on the three-outcome market N (1 collateral of cost per outcome),
 * then buys 5 YES of M at 0.40 from BOB (BOB buys NO at 0.60, taker fee 0.02 * 0.6 * 0.4 * 5 =
 * 0.024) and 5 YES at 0.50 from CAROL; rests a BUY of 10 at 0.10 (lock 1 + max fee 0.05) and a
 * SELL of 4 YES at 0.90 (4 shares locked).
 */
function world() {
  const f = fixture({ feeRateBps: 200 });
  f.engine.addMarket({ id: "N", outcomeCount: 3, feeRateBps: 0 });
  f.engine.split(ALICE, "N", u("3"));
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.40"), quantity: u("5") });
  const first = f.place(BOB, { outcome: 1, side: "BUY", price: u("0.60"), quantity: u("5") });
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.50"), quantity: u("5") });
  f.place(CAROL, { outcome: 1, side: "BUY", price: u("0.50"), quantity: u("5") });
  f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.10"), quantity: u("10") });
  f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.90"), quantity: u("4") });
  return { ...f, ledger: f.engine.ledger, first: first.trades[0]! };
}

describe("balanceOf", () => {
  it("a maker's balance: total after its buys, the resting BUY's lock, nothing paid in fees", () => {
    const w = world();
    // 1000 - 3 (split) - 2 - 2.5 = 992.5; locked 1 + 0.05
    expect(balanceOf(w.ledger, ALICE)).toEqual({ wallet: ALICE, total: u("992.5"), locked: u("1.05"), available: u("991.45"), feesPaid: 0n });
  });

  it("a taker's balance counts its fee in the total and in feesPaid", () => {
    const w = world();
    expect(balanceOf(w.ledger, BOB)).toEqual({ wallet: BOB, total: u("996.976"), locked: 0n, available: u("996.976"), feesPaid: u("0.024") });
  });

  it("a wallet never seen has zeros under its lower-cased name, and is not created", () => {
    const w = world();
    const before = w.ledger.accountList.length;
    expect(balanceOf(w.ledger, STRANGER)).toEqual({ wallet: STRANGER.toLowerCase(), total: 0n, locked: 0n, available: 0n, feesPaid: 0n });
    expect(w.ledger.accountList.length).toBe(before);
  });

  it("finds a wallet whatever the case it is asked in", () => {
    const f = fixture();
    f.engine.deposit(STRANGER.toLowerCase(), u("5"));
    expect(balanceOf(f.engine.ledger, STRANGER)).toMatchObject({ wallet: STRANGER.toLowerCase(), total: u("5") });
  });
});

describe("positionsOf", () => {
  it("lists non-zero positions in market then outcome order, with locked shares and the average entry price", () => {
    const w = world();
    expect(positionsOf(w.ledger, ALICE)).toEqual([
      // 5 at 0.40 + 5 at 0.50 = 4.5 for 10 shares; the NO slot (0 shares) is left out
      { marketId: "M", tokenId: "M:0", outcome: 0, quantity: u("10"), locked: u("4"), avgPrice: u("0.45") },
      // a split of 3 costs 1 per outcome for 3 shares: 0.333333 (rounded down)
      { marketId: "N", tokenId: "N:0", outcome: 0, quantity: u("3"), locked: 0n, avgPrice: u("0.333333") },
      { marketId: "N", tokenId: "N:1", outcome: 1, quantity: u("3"), locked: 0n, avgPrice: u("0.333333") },
      { marketId: "N", tokenId: "N:2", outcome: 2, quantity: u("3"), locked: 0n, avgPrice: u("0.333333") },
    ]);
  });

  it("restricts to one market when asked", () => {
    const w = world();
    expect(positionsOf(w.ledger, ALICE, w.engine.market("N")).map((p) => p.tokenId)).toEqual(["N:0", "N:1", "N:2"]);
    expect(positionsOf(w.ledger, BOB, w.engine.market("N"))).toEqual([]);
    expect(positionsOf(w.ledger, BOB, w.engine.market("M"))).toEqual([{ marketId: "M", tokenId: "M:1", outcome: 1, quantity: u("5"), locked: 0n, avgPrice: u("0.60") }]);
  });

  it("is empty for a wallet never seen or one with cash only", () => {
    const w = world();
    expect(positionsOf(w.ledger, STRANGER)).toEqual([]);
    expect(positionsOf(fixture().engine.ledger, ALICE)).toEqual([]);
  });
});

describe("partyFill", () => {
  it("the taker sees its own token, side, price and fee", () => {
    const w = world();
    expect(partyFill(w.first, "taker")).toEqual({
      tradeId: w.first.id,
      orderId: w.first.takerOrderId,
      role: "taker",
      marketId: "M",
      tokenId: "M:1",
      outcome: 1,
      side: "BUY",
      price: u("0.60"),
      quantity: u("5"),
      fee: u("0.024"),
      createdAtMs: w.clock.now(),
    });
  });

  it("the maker sees its own token, side and price, and pays no fee", () => {
    const w = world();
    expect(partyFill(w.first, "maker")).toEqual({
      tradeId: w.first.id,
      orderId: w.first.makerOrderId,
      role: "maker",
      marketId: "M",
      tokenId: "M:0",
      outcome: 0,
      side: "BUY",
      price: u("0.40"),
      quantity: u("5"),
      fee: 0n,
      createdAtMs: w.clock.now(),
    });
    expect(w.first.makerOrderId).not.toBe(w.first.takerOrderId);
  });
});
