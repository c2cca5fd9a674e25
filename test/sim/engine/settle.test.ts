/**
 * Settlement of one fill (src/sim/engine/settle.ts), through the engine: what each leg does to the
 * cost basis, that a SELL order receives the floor of its cumulative notional (as a BUY pays the
 * ceil), that the legs' difference of a mint, a merge and a transfer goes to the house's rounding
 * account and is never negative, and the balance events a fill leaves (trade legs and the taker's
 * fee, linked to the trade). engine.binary.test.ts and engine.fees.test.ts cover the kinds and the
 * fee amounts themselves.
 */
import { describe, expect, it } from "vitest";
import { ALICE, BOB, CAROL, DAVE, fixture, u } from "./helpers.js";

const slot = (f: ReturnType<typeof fixture>, w: string, outcome: number) => {
  const L = f.engine.ledger;
  return L.peekSlot(L.find(w)!, f.engine.market("M"), outcome);
};
const cost = (f: ReturnType<typeof fixture>, w: string, outcome: number) => f.engine.ledger.posCost[slot(f, w, outcome)]!;

describe("cost basis", () => {
  it("the buyer's grows by what it paid; the seller's shrinks pro rata with the shares that left", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("10"));
    const before = cost(f, ALICE, 0);
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.7"), quantity: u("4") });
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.7"), quantity: u("4") });
    expect(cost(f, BOB, 0)).toBe(r.trades[0]!.takerCash);
    expect(cost(f, ALICE, 0)).toBe(before - (before * 4n) / 10n);
    f.assertConsistent();
  });

  it("a mint gives each buyer shares at what it paid", () => {
    const f = fixture();
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.62"), quantity: u("5") });
    f.place(BOB, { outcome: 1, side: "BUY", price: u("0.38"), quantity: u("5") });
    expect(cost(f, ALICE, 0)).toBe(u("3.1"));
    expect(cost(f, BOB, 1)).toBe(u("1.9"));
  });
});

describe("rounding of each order on its cumulative notional", () => {
  it("a resting SELL receives floor(sum) after every fill, so in total exactly its takerAmount", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("5"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.333"), quantity: u("3") });
    const fills = [1_000_001n, 999_999n, 1_000_000n].map((q, i) => f.place([BOB, CAROL, DAVE][i]!, { outcome: 0, side: "BUY", price: u("0.333"), quantity: q }).trades[0]!);
    expect(fills.map((t) => [t.takerCash, t.makerCash])).toEqual([
      [333_001n, 333_000n], // buyer ceil(333000.333); seller floor(333000.333)
      [333_000n, 333_000n], // buyer ceil(332999.667); seller floor(666000) - 333000
      [333_000n, 333_000n],
    ]);
    expect(fills.reduce((n, t) => n + t.makerCash, 0n)).toBe(999_000n);
    // What the buyers paid beyond what the seller received is the house's.
    expect(f.engine.ledger.houseDust).toBe(1n);
    f.assertConsistent();
  });

  it("a mint's legs may pay more than the pair: the excess goes to the house", () => {
    const f = fixture();
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.333"), quantity: 1_000_001n });
    const t = f.place(BOB, { outcome: 1, side: "BUY", price: u("0.667"), quantity: 1_000_001n }).trades[0]!;
    expect(t.kind).toBe("mint");
    expect([t.makerCash, t.takerCash]).toEqual([333_001n, 667_001n]);
    expect(f.engine.ledger.houseDust).toBe(t.makerCash + t.takerCash - 1_000_001n);
    expect(f.engine.ledger.houseDust).toBe(1n);
    f.assertConsistent();
  });

  it("a merge's legs may receive less than the pair releases: the rest goes to the house", () => {
    const f = fixture();
    f.engine.split(ALICE, "M", u("2"));
    f.engine.split(BOB, "M", u("2"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.333"), quantity: 1_000_001n });
    const t = f.place(BOB, { outcome: 1, side: "SELL", price: u("0.667"), quantity: 1_000_001n }).trades[0]!;
    expect(t.kind).toBe("merge");
    expect([t.makerCash, t.takerCash]).toEqual([333_000n, 667_000n]);
    expect(f.engine.ledger.houseDust).toBe(1_000_001n - t.makerCash - t.takerCash);
    expect(f.engine.ledger.houseDust).toBe(1n);
    f.assertConsistent();
  });
});

describe("balance events of a fill", () => {
  it("each party's leg is a trade event linked to the trade; the taker's fee is its own event", () => {
    const f = fixture({ feeRateBps: 100 });
    f.engine.split(ALICE, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.5"), quantity: u("10") });
    const t = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("10") }).trades[0]!;
    expect(t.fee).toBeGreaterThan(0n);
    const bob = f.engine.ledger.balanceEvents(BOB).slice(1).map((e) => [e.kind, e.amount, e.tradeId, e.marketId]);
    expect(bob).toEqual([
      ["trade", -u("5"), t.id, "M"],
      ["fee", -t.fee, t.id, "M"],
    ]);
    const alice = f.engine.ledger.balanceEvents(ALICE).filter((e) => e.kind === "trade").map((e) => [e.amount, e.tradeId]);
    expect(alice).toEqual([[u("5"), t.id]]);
    expect(f.engine.ledger.houseFees).toBe(t.fee);
    f.assertConsistent();
  });
});
