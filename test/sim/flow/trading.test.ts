/**
 * What every synthetic trader shares (src/sim/flow/trading.ts): the 0.001 price grid helpers
 * (floor, ceil, on the grid, clamped to it) and the flow wallet that tops itself up, with cash
 * for a BUY and complete sets for a SELL, only when it is short, and says no instead of throwing
 * when the ledger refuses the deposit.
 */
import { describe, expect, it } from "vitest";
import { MAX_TOTAL_DEPOSITS } from "../../../src/sim/engine/index.js";
import { ceilTick, clampPrice, floorTick, FlowAccount, LOT, onGrid } from "../../../src/sim/flow/trading.js";
import { ALICE, BOB, EVE, fixture, u } from "../engine/helpers.js";

describe("the price grid", () => {
  it("floorTick and ceilTick round to the 0.001 tick, leaving prices on it alone", () => {
    expect(floorTick(u("0.4567"))).toBe(u("0.456"));
    expect(ceilTick(u("0.4561"))).toBe(u("0.457"));
    expect(floorTick(u("0.456"))).toBe(u("0.456"));
    expect(ceilTick(u("0.456"))).toBe(u("0.456"));
    expect(floorTick(u("0.000999"))).toBe(0n);
    expect(ceilTick(u("0.000001"))).toBe(u("0.001"));
  });

  it("onGrid accepts 0.001 to 0.999 and nothing outside", () => {
    expect(onGrid(u("0.001"))).toBe(true);
    expect(onGrid(u("0.999"))).toBe(true);
    expect(onGrid(0n)).toBe(false);
    expect(onGrid(u("1"))).toBe(false);
    expect(onGrid(u("-0.001"))).toBe(false);
  });

  it("clampPrice pulls a price back into [0.001, 0.999]", () => {
    expect(clampPrice(u("-0.2"))).toBe(u("0.001"));
    expect(clampPrice(0n)).toBe(u("0.001"));
    expect(clampPrice(u("0.5"))).toBe(u("0.5"));
    expect(clampPrice(u("1.3"))).toBe(u("0.999"));
  });

  it("the smallest flow size is 0.01 share", () => {
    expect(LOT).toBe(u("0.01"));
  });
});

describe("FlowAccount.fund", () => {
  it("a BUY tops the wallet up by the order's cost plus its quantity and a million, once", () => {
    const { engine } = fixture();
    const acct = new FlowAccount(engine, "M", EVE);
    expect(acct.wallet).toBe(EVE);
    // cost 0.4 x 10 = 4, plus the quantity 10 as margin: 14; plus the 1,000,000 top-up.
    expect(acct.fund(0, "BUY", u("0.4"), u("10"))).toBe(true);
    expect(engine.balance(EVE).total).toBe(u("1000014"));
    expect(acct.fund(0, "BUY", u("0.4"), u("10"))).toBe(true);
    expect(engine.balance(EVE).total).toBe(u("1000014"));
  });

  it("a BUY by a wallet that can already pay deposits nothing", () => {
    const { engine } = fixture(); // ALICE holds 1000
    expect(new FlowAccount(engine, "M", ALICE).fund(0, "BUY", u("0.5"), u("100"))).toBe(true);
    expect(engine.balance(ALICE).total).toBe(u("1000"));
  });

  it("a SELL without the shares splits what is missing plus 10,000 sets, funding the split first", () => {
    const { engine } = fixture();
    const acct = new FlowAccount(engine, "M", EVE);
    expect(acct.fund(1, "SELL", u("0.3"), u("10"))).toBe(true);
    // sets = 10 + 10,000; deposited sets + 1,000,000, then the sets are split off the cash.
    const held = engine.positions(EVE, "M").map((p) => [p.outcome, p.quantity]);
    expect(held).toEqual([
      [0, u("10010")],
      [1, u("10010")],
    ]);
    expect(engine.balance(EVE).total).toBe(u("1000000"));
    // Enough free shares now: nothing more is split.
    expect(acct.fund(1, "SELL", u("0.3"), u("10010"))).toBe(true);
    expect(engine.positions(EVE, "M").find((p) => p.outcome === 1)!.quantity).toBe(u("10010"));
  });

  it("a SELL counts only free shares: what rests in an order is topped up", () => {
    const { engine } = fixture(); // BOB holds 1000 cash
    engine.split(BOB, "M", u("10"));
    engine.place({ wallet: BOB, marketId: "M", outcome: 0, side: "SELL", price: u("0.9"), quantity: u("8") });
    // 2 free of 10: short by 3 for a SELL of 5, so 3 + 10,000 sets, paid from a top-up (cash 990 < 10,003).
    expect(new FlowAccount(engine, "M", BOB).fund(0, "SELL", u("0.9"), u("5"))).toBe(true);
    expect(engine.positions(BOB, "M").find((p) => p.outcome === 0)!.quantity).toBe(u("10013"));
    expect(engine.balance(BOB).total).toBe(u("1000990"));
  });

  it("answers false, and changes nothing, when the ledger refuses the deposit", () => {
    const { engine } = fixture();
    engine.deposit(ALICE, MAX_TOTAL_DEPOSITS - 4n * u("1000") - 1n); // the fixture deposited 4 x 1000
    const acct = new FlowAccount(engine, "M", EVE);
    expect(acct.fund(0, "BUY", u("0.5"), u("1"))).toBe(false);
    expect(acct.fund(0, "SELL", u("0.5"), u("1"))).toBe(false);
    expect(engine.balance(EVE).total).toBe(0n);
    expect(engine.positions(EVE, "M").every((p) => p.quantity === 0n)).toBe(true);
  });

  it("does not hide anything but the ledger's refusal: a market the engine does not have throws", () => {
    const { engine } = fixture();
    expect(() => new FlowAccount(engine, "NOPE", EVE).fund(0, "SELL", u("0.5"), u("1"))).toThrow(/NOPE/);
  });
});
