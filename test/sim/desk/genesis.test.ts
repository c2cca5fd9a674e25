/**
 * Starting positions (src/sim/desk/genesis.ts): a granted outcome is minted the conditional-token
 * way (the treasury deposits and splits, keeps the other outcomes, hands the wanted one over), so
 * every ledger invariant holds, no trade is printed, and the wallet's cost basis is the given price;
 * a non-positive quantity does nothing; a bad outcome or market is refused naming it.
 */
import { describe, expect, it } from "vitest";
import { grantShares, TREASURY_WALLET } from "../../../src/sim/desk/genesis.js";
import { checkInvariants } from "../../../src/sim/engine/invariants.js";
import { ALICE, BOB, fixture, u } from "../engine/helpers.js";

const qty = (f: ReturnType<typeof fixture>, wallet: string, marketId = "M") =>
  f.engine.positions(wallet, marketId).map((p) => [p.outcome, p.quantity, p.avgPrice]);

describe("grantShares", () => {
  it("gives the wallet the shares at the cost price; the treasury keeps the other outcome; invariants hold", () => {
    const f = fixture();
    grantShares(f.engine, ALICE, "M", 0, u("10"), u("0.62"));
    expect(qty(f, ALICE)).toEqual([[0, u("10"), u("0.62")]]);
    expect(f.engine.positions(TREASURY_WALLET, "M").map((p) => [p.outcome, p.quantity])).toEqual([[1, u("10")]]);
    // The treasury's deposit went into the complete sets; the wallet's cash is untouched.
    expect(f.engine.balance(TREASURY_WALLET).total).toBe(0n);
    expect(f.engine.balance(ALICE).total).toBe(u("1000"));
    expect(checkInvariants(f.engine)).toEqual([]);
  });

  it("prints no trade and writes no balance event for the wallet", () => {
    const f = fixture();
    grantShares(f.engine, ALICE, "M", 1, u("4"), u("0.5"));
    expect(f.engine.ledger.tradeLog.count).toBe(0);
    const alice = f.engine.ledger.find(ALICE)!;
    const kinds = f.engine.ledger.balanceLog.rowsOfAccount(alice).map((r) => f.engine.ledger.balanceLog.get(r).kind);
    expect(kinds).toEqual(["deposit"]); // the fixture's funding only
  });

  it("on a three-outcome market the treasury keeps both other outcomes", () => {
    const f = fixture({ outcomes: 3 });
    grantShares(f.engine, BOB, "M", 1, u("3"), u("0.333333"));
    // cost 3 * 0.333333 = 0.999999 for 3 shares: average 0.333333
    expect(qty(f, BOB)).toEqual([[1, u("3"), u("0.333333")]]);
    expect(f.engine.positions(TREASURY_WALLET, "M").map((p) => [p.outcome, p.quantity])).toEqual([
      [0, u("3")],
      [2, u("3")],
    ]);
    expect(checkInvariants(f.engine)).toEqual([]);
  });

  it("grants add up, the cost basis averaging the prices", () => {
    const f = fixture();
    grantShares(f.engine, ALICE, "M", 0, u("10"), u("0.5"));
    grantShares(f.engine, ALICE, "M", 0, u("10"), u("0.7"));
    expect(qty(f, ALICE)).toEqual([[0, u("20"), u("0.6")]]);
    expect(f.engine.positions(TREASURY_WALLET, "M").map((p) => p.quantity)).toEqual([u("20")]);
    expect(checkInvariants(f.engine)).toEqual([]);
  });

  it("granted shares can be sold like traded ones", () => {
    const f = fixture();
    grantShares(f.engine, ALICE, "M", 0, u("5"), u("0.5"));
    f.place(BOB, { outcome: 0, side: "BUY", price: u("0.55"), quantity: u("5") });
    const r = f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.55"), quantity: u("5") });
    expect(r.status).toBe("FILLED");
    expect(f.engine.balance(ALICE).total).toBe(u("1002.75"));
    expect(checkInvariants(f.engine)).toEqual([]);
  });

  it("a zero or negative quantity does nothing (no treasury account is made)", () => {
    const f = fixture();
    grantShares(f.engine, ALICE, "M", 0, 0n, u("0.5"));
    grantShares(f.engine, ALICE, "M", 0, -1n, u("0.5"));
    expect(qty(f, ALICE)).toEqual([]);
    expect(f.engine.ledger.find(TREASURY_WALLET)).toBeUndefined();
  });

  it("refuses an outcome outside the market or not an integer, naming it and the market", () => {
    const f = fixture();
    expect(() => grantShares(f.engine, ALICE, "M", 2, u("1"), u("0.5"))).toThrow("outcome 2 out of range for M");
    expect(() => grantShares(f.engine, ALICE, "M", -1, u("1"), u("0.5"))).toThrow("outcome -1 out of range for M");
    expect(() => grantShares(f.engine, ALICE, "M", 0.5, u("1"), u("0.5"))).toThrow("outcome 0.5 out of range for M");
    expect(f.engine.ledger.find(TREASURY_WALLET)).toBeUndefined();
  });

  it("refuses an unknown market", () => {
    const f = fixture();
    expect(() => grantShares(f.engine, ALICE, "NOPE", 0, u("1"), u("0.5"))).toThrow(/NOPE/);
  });

  it("the treasury is a lower-case address", () => {
    expect(TREASURY_WALLET).toMatch(/^0x[0-9a-f]{40}$/);
  });
});
