/**
 * One position as a fold over its fills (src/bot/fills/inventory-position.ts): the average-cost
 * method in exact micro² arithmetic, closing and flipping, settlement (payout = qty x num / den,
 * floored), fills stamped after the settlement, and compaction (folding the oldest fills into the
 * base) giving the same summary as the full fold. inventory.test.ts drives the same fold through
 * the Inventory; here the functions are called directly on a Pos.
 */
import { describe, expect, it } from "vitest";
import {
  compactPosition,
  emptyPos,
  floorMicros,
  foldFill,
  posKey,
  refoldPosition,
  summarise,
  type InventoryFill,
  type Pos,
  type Settlement,
} from "../../../src/bot/fills/inventory-position.js";
import { parseMicros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";

const m = parseMicros;
const W = "0x" + "ab".repeat(20);
let seq = 0;

function f(side: "BUY" | "SELL", qty: string, price: string, over: Partial<InventoryFill> = {}): InventoryFill {
  seq += 1;
  return { tradeId: `t${seq}`, wallet: W, orderId: "o", marketId: "MKT", outcome: 0, side, price: m(price), qty: m(qty), fee: 0n, ts: seq * 10, ...over };
}

function folded(fills: InventoryFill[], s?: Settlement, outcome = 0): Pos {
  const p = emptyPos(W, "MKT", outcome);
  p.fills = fills;
  refoldPosition(p, s);
  return p;
}

describe("foldFill (average cost)", () => {
  it("buys average in; a sell realises against the average and keeps the average of what is left", () => {
    const p = folded([f("BUY", "10", "0.4"), f("BUY", "10", "0.5"), f("SELL", "5", "0.6")]);
    const s = summarise(p);
    expect(s.qty).toBe(m("15"));
    expect(s.avgCost).toBe(m("0.45"));
    expect(s.costBasis).toBe(m("6.75"));
    expect(s.realisedPnl).toBe(m("0.75"));
  });

  it("fees add up apart from the cost", () => {
    const p = folded([f("BUY", "10", "0.4", { fee: m("0.02") }), f("SELL", "10", "0.4", { fee: m("0.03") })]);
    expect(summarise(p)).toMatchObject({ qty: 0n, avgCost: null, costBasis: 0n, realisedPnl: 0n, fees: m("0.05") });
  });

  it("a sell through zero closes the long and opens a short at the fill price; covering it realises the difference", () => {
    const p = folded([f("BUY", "20", "0.45"), f("SELL", "30", "0.6")]);
    expect(summarise(p)).toMatchObject({ qty: m("-10"), avgCost: m("0.6"), costBasis: m("-6"), realisedPnl: m("3") });
    foldFill(p, f("BUY", "10", "0.5"));
    expect(summarise(p)).toMatchObject({ qty: 0n, avgCost: null, costBasis: 0n, realisedPnl: m("4") });
  });

  it("keeps the basis exact in micro²: a partial close of a third floors the loss in the summary only", () => {
    const p = folded([f("BUY", "1", "0.1"), f("BUY", "2", "0.2"), f("SELL", "1", "0.1")]);
    const s = summarise(p);
    // Cost 0.5 over 3 shares; a third of it (0.1666...) goes with the share sold at 0.1.
    expect(p.realised).toBe(100_000n * 1_000_000n - 166_666_666_666n);
    expect(s.realisedPnl).toBe(-66_667n);
    expect(s.avgCost).toBe(166_666n);
    // Closing the rest takes the whole remaining basis (the truncated micro² included): bought 0.5,
    // sold 0.1 + 0.4, so the round trip realises exactly 0, no residue.
    foldFill(p, f("SELL", "2", "0.2"));
    expect(p.cost).toBe(0n);
    expect(p.realised).toBe(0n);
    expect(summarise(p).realisedPnl).toBe(0n);
  });

  it("floorMicros rounds micro² down, negatives away from zero", () => {
    expect(floorMicros(1_999_999n)).toBe(1n);
    expect(floorMicros(-1n)).toBe(-1n);
    expect(floorMicros(-2_000_000n)).toBe(-2n);
  });
});

describe("settlement", () => {
  const won: Settlement = { ts: 1_000, nums: [1n, 0n], den: 1n };

  it("pays qty x num / den floored, realises payout - cost and flattens", () => {
    const yes = folded([f("BUY", "10", "0.4", { ts: 100 })], won, 0);
    expect(summarise(yes)).toMatchObject({ qty: 0n, settled: true, payout: m("10"), realisedPnl: m("6"), costBasis: 0n, avgCost: null });
    const no = folded([f("BUY", "10", "0.6", { ts: 100, outcome: 1 })], won, 1);
    expect(summarise(no)).toMatchObject({ settled: true, payout: 0n, realisedPnl: m("-6") });
    const third = folded([f("BUY", "0.000002", "0.5", { ts: 100 })], { ts: 1_000, nums: [1n, 1n, 1n], den: 3n }, 0);
    // 2 micro-shares x 1/3 = 0.67 micros, floored to 0.
    expect(summarise(third).payout).toBe(0n);
  });

  it("an outcome the numerators do not list pays nothing", () => {
    const p = folded([f("BUY", "5", "0.2", { ts: 100, outcome: 2 })], won, 2);
    expect(summarise(p)).toMatchObject({ payout: 0n, realisedPnl: m("-1"), settled: true });
  });

  it("folds the fills stamped before it first, and counts those stamped after as anomalies", () => {
    const p = folded([f("BUY", "10", "0.4", { ts: 900 }), f("BUY", "3", "0.5", { ts: 1_001 })], won);
    const s = summarise(p);
    expect(s.payout).toBe(m("10"));
    expect(s.fillsAfterSettlement).toBe(1);
    expect(s.settled).toBe(true);
    // The late fill is still folded (the platform says it happened): it is held, not paid.
    expect(s.qty).toBe(m("3"));
  });

  it("refolding is idempotent", () => {
    const p = folded([f("BUY", "10", "0.4", { ts: 100 })], won);
    const once = summarise(p);
    refoldPosition(p, won);
    expect(summarise(p)).toEqual(once);
  });
});

describe("compactPosition", () => {
  it("folds the first n fills into the base, drops them, and leaves the summary unchanged", () => {
    const fills = [f("BUY", "10", "0.4"), f("BUY", "10", "0.5"), f("SELL", "5", "0.6"), f("BUY", "1", "0.7")];
    const full = folded([...fills]);
    const p = folded([...fills]);
    compactPosition(p, 2, undefined);
    expect(p.fills.map((x) => x.tradeId)).toEqual([fills[2]!.tradeId, fills[3]!.tradeId]);
    expect(p.base.fills).toBe(2);
    expect(p.openQty).toBe(m("20"));
    expect(summarise(p)).toEqual(summarise(full));
    compactPosition(p, 0, undefined);
    expect(p.fills).toHaveLength(2);
  });

  it("a settlement between compacted fills goes into the base; one after them still applies after the fills kept", () => {
    const s: Settlement = { ts: 25, nums: [0n, 1n], den: 1n };
    const between = [f("BUY", "10", "0.4", { ts: 10 }), f("BUY", "2", "0.5", { ts: 30 }), f("SELL", "1", "0.5", { ts: 40 })];
    const p = folded([...between], s);
    const want = summarise(folded([...between], s));
    compactPosition(p, 2, s);
    expect(p.base).toMatchObject({ settled: true, afterSettlement: 1, fills: 2, realised: -4_000_000n * 1_000_000n });
    expect(summarise(p)).toEqual(want);

    const later: Settlement = { ts: 1_000, nums: [1n, 0n], den: 1n };
    const before = [f("BUY", "10", "0.4", { ts: 10 }), f("BUY", "2", "0.5", { ts: 30 })];
    const q = folded([...before], later);
    compactPosition(q, 1, later);
    expect(q.base.settled).toBe(false);
    expect(summarise(q)).toMatchObject({ settled: true, payout: m("12"), qty: 0n });
    expect(summarise(q)).toEqual(summarise(folded([...before], later)));
  });

  it("any cut of a seeded random history gives the full fold's summary", () => {
    const rng = new Rng(11);
    for (let round = 0; round < 50; round++) {
      const fills: InventoryFill[] = [];
      let held = 0n;
      for (let i = 0; i < 12; i++) {
        const qty = BigInt(1 + rng.int(20)) * 500_000n;
        const price = BigInt(1 + rng.int(999)) * 1_000n;
        const sell = held > 0n && rng.bool(0.4);
        const q = sell && qty > held ? held : qty;
        held += sell ? -q : q;
        fills.push({ tradeId: `r${round}-${i}`, wallet: W, orderId: "o", marketId: "MKT", outcome: 0, side: sell ? "SELL" : "BUY", price, qty: q, fee: BigInt(rng.int(100)), ts: i * 10 });
      }
      const s: Settlement | undefined = rng.bool(0.5) ? { ts: rng.int(130), nums: [1n, 0n], den: 1n } : undefined;
      const want = summarise(folded([...fills], s));
      const cut = rng.int(fills.length + 1);
      const p = folded([...fills], s);
      compactPosition(p, cut, s);
      expect(summarise(p)).toEqual(want);
      expect(p.fills).toHaveLength(fills.length - cut);
    }
  });
});

describe("keys and empties", () => {
  it("a key per wallet, market and outcome; an empty position summarises flat", () => {
    expect(posKey(W, "MKT", 1)).toBe(`${W}|MKT|1`);
    expect(posKey(W, "MKT", 1)).not.toBe(posKey(W, "MKT", 0));
    expect(summarise(emptyPos(W, "MKT", 1))).toEqual({
      wallet: W,
      marketId: "MKT",
      outcome: 1,
      qty: 0n,
      avgCost: null,
      costBasis: 0n,
      realisedPnl: 0n,
      fees: 0n,
      payout: 0n,
      settled: false,
      fillsAfterSettlement: 0,
    });
  });
});
