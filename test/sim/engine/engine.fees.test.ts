import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxTakerFee, takerFee } from "../../../src/core/amounts.js";
import { ALICE, BOB, CAROL, fixture, u } from "./helpers.js";

describe("taker fee", () => {
  it("a BUY taker pays the fee on top, the maker pays nothing (exact micros)", () => {
    const f = fixture({ feeRateBps: 100 });
    f.engine.split(ALICE, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.40"), quantity: u("10") });
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.40"), quantity: u("10") });
    // 100 bps * 0.4 * 0.6 * 10 / 10000 = 0.024
    expect(r.trades[0]!.fee).toBe(24_000n);
    expect(f.cash(BOB)).toBe(u("1000") - u("4") - 24_000n);
    expect(f.cash(ALICE)).toBe(u("990") + u("4"));
    expect(f.engine.balance(BOB).feesPaid).toBe(24_000n);
    expect(f.engine.balance(ALICE).feesPaid).toBe(0n);
    expect(f.engine.ledger.houseFees).toBe(24_000n);
    expect(f.engine.ledger.balanceEvents(BOB).map((e) => [e.kind, e.amount])).toEqual([
      ["deposit", u("1000")], ["trade", -u("4")], ["fee", -24_000n],
    ]);
    f.assertConsistent();
  });

  it("a SELL taker has the fee deducted from its proceeds", () => {
    const f = fixture({ feeRateBps: 250 });
    f.engine.split(BOB, "M", u("10"));
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.7"), quantity: u("10") });
    const r = f.place(BOB, { outcome: 0, side: "SELL", price: u("0.6"), quantity: u("10") });
    // at the maker's 0.7: 250 * 0.7 * 0.3 * 10 / 10000 = 0.0525
    expect(r.trades[0]).toMatchObject({ price: u("0.7"), fee: 52_500n });
    expect(f.cash(BOB)).toBe(u("990") + u("7") - 52_500n);
    f.assertConsistent();
  });

  it("a NO taker pays on its own price (the curve is symmetric) and tiny fills round up to a micro", () => {
    const f = fixture({ feeRateBps: 100 });
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("1") });
    const r = f.place(BOB, { outcome: 1, side: "BUY", price: u("0.5"), quantity: 1n });
    expect(r.trades[0]!.fee).toBe(1n); // ceil(0.0025 micro)
    const g = fixture({ feeRateBps: 100 });
    g.place(ALICE, { outcome: 0, side: "BUY", price: u("0.2"), quantity: u("3") });
    const s = g.place(BOB, { outcome: 1, side: "BUY", price: u("0.8"), quantity: u("3") });
    expect(s.trades[0]).toMatchObject({ price: u("0.8"), fee: takerFee(u("0.8"), u("3"), 100) });
  });

  it("a BUY locks makerAmount + maxTakerFee and the maker's fee lock is released pro rata as it fills", () => {
    const f = fixture({ feeRateBps: 100 });
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("10") });
    expect(f.locked(ALICE)).toBe(u("5") + maxTakerFee(u("10"), 100)); // 5.025
    f.engine.split(BOB, "M", u("4"));
    f.place(BOB, { outcome: 0, side: "SELL", price: u("0.5"), quantity: u("4") });
    expect(f.locked(ALICE)).toBe(u("3") + 15_000n);
    expect(f.cash(ALICE)).toBe(u("998"));
    f.assertConsistent();
  });

  it("price improvement: a BUY taker resting its remainder keeps exactly what the remainder can cost", () => {
    const f = fixture({ feeRateBps: 100 });
    f.engine.split(ALICE, "M", u("3"));
    f.place(ALICE, { outcome: 0, side: "SELL", price: u("0.40"), quantity: u("3") });
    const r = f.place(BOB, { outcome: 0, side: "BUY", price: u("0.45"), quantity: u("10") });
    expect(r).toMatchObject({ status: "PARTIAL", remainingQty: u("7") });
    const fee = takerFee(u("0.40"), u("3"), 100);
    expect(f.cash(BOB)).toBe(u("1000") - u("1.2") - fee);
    expect(f.locked(BOB)).toBe(u("3.15") + maxTakerFee(u("7"), 100));
    f.assertConsistent();
  });

  it("the fee cannot overdraw a vault: with nothing available it is capped", () => {
    const f = fixture({ feeRateBps: 1000 });
    f.engine.split(CAROL, "M", u("1"));
    f.engine.withdraw(CAROL, f.cash(CAROL));
    f.place(ALICE, { outcome: 0, side: "BUY", price: u("0.001"), quantity: u("1") });
    // proceeds floor(0.001 * 1 micro) = 0, fee ceil(...) = 1 micro, nothing available to pay it
    const r = f.place(CAROL, { outcome: 0, side: "SELL", price: u("0.001"), quantity: 1n });
    expect(r.trades[0]).toMatchObject({ fee: 0n, takerCash: 0n });
    expect(f.cash(CAROL)).toBe(0n);
    f.assertConsistent();
  });

  it("the engine's int64-safe fee forms equal takerFee and maxTakerFee of src/core/amounts.ts", () => {
    const f = fixture({ feeRateBps: 0 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 999 }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (bps, t, q) => {
        const id = `F${bps}`;
        if (!f.engine.markets.has(id)) f.engine.addMarket({ id, outcomeCount: 2, feeRateBps: bps });
        const m = f.engine.market(id);
        expect(m.fillFee(t, q)).toBe(takerFee(BigInt(t) * 1000n, q, bps));
        expect(m.maxFee(q)).toBe(maxTakerFee(q, bps));
      }),
      { numRuns: 2000, seed: 42 },
    );
  });
});
