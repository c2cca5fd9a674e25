/**
 * The pre-sign cache's policy (presign.ts): the prior neighbours until placements are seen, then
 * the offsets where placements went, bounded per market, kept while within reach, signed within a
 * budget that follows the placements and how many pre-signed orders were used.
 */
import { describe, expect, it } from "vitest";
import { PresignCache, type PresignKey } from "../../../src/bot/orders/presign.js";
import type { Side } from "../../../src/core/amounts.js";

const T = 1000n;
const value = { built: {} as never, signature: "0x" as const };
const q = (side: Side, ticks: number, size = 10_000_000n) => ({ outcome: 0, side, price: BigInt(ticks) * T, size, postOnly: true });
const key = (side: Side, ticks: number): PresignKey => ({ marketId: "M", ...q(side, ticks) });

/** Sign everything the cache hands out now; the prices (ticks) in the order asked. */
function signAll(c: PresignCache): number[] {
  const out: number[] = [];
  for (let k = c.nextWanted(); k !== undefined; k = c.nextWanted()) {
    out.push(Number(k.price / T));
    c.put(k, value);
  }
  return out;
}

/** `n` placements of the bid at `offset` ticks from a bid desired at 500 (ask at 510). */
function learn(c: PresignCache, n: number, offset: number): void {
  for (let i = 0; i < n; i++) {
    c.plan("M", [q("BUY", 500), q("SELL", 510)]);
    c.take(key("BUY", 500 + offset));
  }
}

describe("PresignCache policy", () => {
  it("signs the prior neighbours of the closest quote per side until placements have been seen", () => {
    const c = new PresignCache();
    c.plan("M", [q("BUY", 500), q("BUY", 490), q("SELL", 510)]);
    expect(signAll(c)).toEqual([497, 498, 499, 501, 502, 503, 507, 508, 509, 511, 512, 513]);
    expect(c.offsets()).toBeUndefined();
  });

  it("learns the offsets placements went to: the frequent ones, most frequent first, for every quote", () => {
    const c = new PresignCache(256, { budgetStart: 1000, budgetMax: 1000 });
    learn(c, 20, 0);
    learn(c, 10, 2);
    learn(c, 2, -5); // 2 of 32: under 10%, never signed for
    expect(c.offsets()).toEqual([0n, 2n]);
    c.plan("M", [q("BUY", 600), q("SELL", 610)]);
    signAll(c);
    // A fresh cache with the same history: what one plan wants, in order.
    const d = new PresignCache(256, { budgetStart: 1000, budgetMax: 1000 });
    learn(d, 20, 0);
    learn(d, 10, 2);
    learn(d, 2, -5);
    d.clear();
    d.plan("M", [q("BUY", 600), q("SELL", 610)]);
    expect(signAll(d)).toEqual([600, 610, 602, 612]);
  });

  it("wants at most perMarket orders, closest levels first", () => {
    const c = new PresignCache(256, { perMarket: 3, learnAfter: 4, budgetStart: 100 });
    learn(c, 4, 1);
    c.clear();
    c.plan("M", [q("BUY", 500), q("BUY", 499), q("SELL", 510), q("SELL", 511)]);
    expect(signAll(c)).toEqual([501, 500, 511]);
  });

  it("keeps a signed order no longer wanted while it is within reach and there is room, drops it past that", () => {
    const c = new PresignCache(256, { learnAfter: 4, budgetStart: 100 });
    learn(c, 4, 1); // offsets [1]: reach 2 ticks
    c.clear();
    c.plan("M", [q("BUY", 500)]);
    expect(signAll(c)).toEqual([501]);
    c.plan("M", [q("BUY", 502)]); // 501 is 1 tick from 502: kept
    expect(c.size).toBe(1);
    expect(signAll(c)).toEqual([503]);
    c.plan("M", [q("BUY", 520)]); // both far: dropped
    expect(c.size).toBe(0);
    expect(c.counters.dropped).toBe(2);
    expect(c.take(key("BUY", 521))).toBeUndefined();
  });

  it("signs within the budget: a start, then one per placement plus more when pre-signed orders get used", () => {
    const c = new PresignCache(256, { budgetStart: 2, budgetPerPlace: 1, budgetPerPlaceUsed: 4, budgetMax: 48 });
    c.plan("M", [q("BUY", 500)]);
    expect(signAll(c)).toEqual([497, 498]);
    expect(c.counters.starved).toBe(1);
    // A placement (a miss) adds one, plus 4 x the share of recent signatures used (1 of 3 at the
    // start, decayed: about a quarter): one signature.
    expect(c.take(key("BUY", 510))).toBeUndefined();
    c.plan("M", [q("BUY", 500)]);
    expect(signAll(c)).toEqual([499]);
    // A hit raises the used share: the next placement buys three.
    expect(c.take(key("BUY", 497))).toBe(value);
    c.plan("M", [q("BUY", 500)]);
    expect(signAll(c)).toEqual([497, 501, 502]);
    expect(c.counters).toMatchObject({ hits: 1, misses: 1, signed: 6, starved: 3 });
  });

  it("counts signed orders thrown away: dropped when no longer wanted, cleared when the market is pulled", () => {
    const c = new PresignCache();
    c.plan("M", [q("BUY", 500)]);
    signAll(c);
    c.plan("M", [q("BUY", 600)]);
    expect(c.counters.dropped).toBe(6);
    signAll(c);
    c.clear("M");
    expect(c.counters.cleared).toBe(6);
    expect(c.size).toBe(0);
  });
});
