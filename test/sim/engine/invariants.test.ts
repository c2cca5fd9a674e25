/**
 * The engine's consistency checker (src/sim/engine/invariants.ts) must catch what it claims to: a
 * consistent engine after trading gives no message, and each kind of corruption (conservation,
 * locks beyond the total, locks without orders, outcome supply against complete sets, order counts,
 * the house's rounding account) gives a message naming it. The property tests rely on it staying
 * silent; this file proves it is not silent when something is wrong.
 */
import { describe, expect, it } from "vitest";
import { checkInvariants } from "../../../src/sim/engine/invariants.js";
import { ALICE, BOB, CAROL, fixture, u } from "./helpers.js";

/** An engine after some trading: resting orders on both sides, shares held, a mint and a transfer. */
function traded() {
  const f = fixture({ feeRateBps: 100 });
  f.engine.split(ALICE, "M", u("10"));
  f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.6"), quantity: u("4") });
  f.place(BOB, { outcome: 0, side: "BUY", price: u("0.6"), quantity: u("2") });
  f.place(CAROL, { outcome: 0, side: "BUY", price: u("0.45"), quantity: u("3") });
  f.place(BOB, { outcome: 1, side: "BUY", price: u("0.55"), quantity: u("1") });
  f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.7"), quantity: u("2") });
  return f;
}

const idx = (f: ReturnType<typeof fixture>, w: string) => f.engine.ledger.find(w)!.index;

describe("checkInvariants", () => {
  it("is silent on a consistent engine, after trades, cancels and a resolution", () => {
    const f = traded();
    expect(checkInvariants(f.engine)).toEqual([]);
    f.engine.cancelAll(CAROL);
    expect(checkInvariants(f.engine)).toEqual([]);
    f.engine.resolve("M", [1, 0]);
    expect(checkInvariants(f.engine)).toEqual([]);
  });

  it("catches settlement token created or lost (conservation)", () => {
    const f = traded();
    const L = f.engine.ledger;
    L.cash[idx(f, ALICE)] = L.cash[idx(f, ALICE)]! + 1n;
    expect(checkInvariants(f.engine)).toEqual([expect.stringMatching(/^conservation: .* != deposits /)]);
  });

  it("catches a wallet's lock that its orders do not explain, and a lock above its total", () => {
    const f = traded();
    const L = f.engine.ledger;
    const c = idx(f, CAROL);
    L.locked[c] = L.locked[c]! + 5n;
    expect(checkInvariants(f.engine)).toEqual([expect.stringMatching(new RegExp(`^${CAROL.toLowerCase()}: locked \\d+ != order locks \\d+$`))]);
    L.locked[c] = L.cash[c]! + 1n;
    const out = checkInvariants(f.engine);
    expect(out).toContainEqual(expect.stringMatching(new RegExp(`^${CAROL.toLowerCase()}: cash \\d+ locked \\d+$`)));
  });

  it("catches shares locked without sell orders and outcome supply that differs from the complete sets", () => {
    const f = traded();
    const L = f.engine.ledger;
    const m = f.engine.market("M");
    const p = L.peekSlot(L.find(ALICE)!, m, 1);
    L.posLocked[p] = 1n;
    expect(checkInvariants(f.engine)).toEqual([expect.stringMatching(/M\/1: locked 1 != sell orders 0$/)]);
    L.posLocked[p] = 0n;
    L.posQty[p] = L.posQty[p]! + 1n;
    expect(checkInvariants(f.engine)).toEqual([expect.stringMatching(/^M: outcome 1 supply \d+ != sets \d+$/)]);
  });

  it("catches an open-order count that differs from the wallet's order list", () => {
    const f = traded();
    f.engine.ledger.find(CAROL)!.openOrders += 1;
    expect(checkInvariants(f.engine)).toEqual([`${CAROL.toLowerCase()}: openOrders 2 != 1`]);
  });

  it("catches a negative house rounding account", () => {
    const f = traded();
    const L = f.engine.ledger;
    // Keep conservation: move the difference into a wallet.
    const dust = L.house[1]!;
    L.house[1] = -1n;
    L.cash[idx(f, BOB)] = L.cash[idx(f, BOB)]! + dust + 1n;
    expect(checkInvariants(f.engine)).toEqual([expect.stringMatching(/^house rounding account negative: -1$/)]);
  });

  it("reports every violation, not only the first", () => {
    const f = traded();
    const L = f.engine.ledger;
    f.engine.ledger.find(CAROL)!.openOrders += 1;
    L.cash[idx(f, ALICE)] = L.cash[idx(f, ALICE)]! + 1n;
    expect(checkInvariants(f.engine)).toHaveLength(2);
  });
});
