/**
 * A ledger account's list of resting orders (lazy deletion by generation, compaction when full)
 * against a plain list, over random rests, ends and slot reuse: restingSlots always answers the
 * live orders newest first, per market when asked; and the EIP-55 form of its key.
 */
import { describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { Rng } from "../../../src/core/rng.js";
import { Account, checksumOf } from "../../../src/sim/engine/account.js";

/** An order store reduced to what the account asks: each slot's generation, whether it rests, its market. */
class Slots {
  private readonly gens: number[] = [];
  private readonly resting: boolean[] = [];
  private readonly markets: number[] = [];
  gen(s: number): number {
    return this.gens[s] ?? 0;
  }
  isResting(s: number): boolean {
    return this.resting[s] ?? false;
  }
  market(s: number): number {
    return this.markets[s] ?? -1;
  }
  rest(s: number, market: number): number {
    this.gens[s] = this.gen(s) + 1;
    this.resting[s] = true;
    this.markets[s] = market;
    return this.gens[s];
  }
  end(s: number): void {
    this.resting[s] = false;
  }
}

describe("Account resting orders", () => {
  it("answer the live orders newest first, per market too, under random rests, ends and slot reuse (30 seeded runs)", () => {
    for (let run = 0; run < 30; run++) {
      const rng = new Rng(500 + run);
      const slots = new Slots();
      const acct = new Account("trader", 0);
      /** The reference: live (slot, market) in the order they came to rest. */
      const live: { s: number; m: number }[] = [];
      for (let i = 0; i < 600; i++) {
        if (live.length > 0 && rng.bool(0.45)) {
          const k = rng.int(live.length);
          slots.end(live[k]!.s);
          live.splice(k, 1);
        } else {
          // Reuse a free slot now and then, so a stale entry and a live one share a slot number.
          let s = rng.int(120);
          while (live.some((o) => o.s === s)) s = rng.int(120);
          const m = rng.int(3);
          acct.pushOrder(slots, s, slots.rest(s, m));
          live.push({ s, m });
        }
        const newestFirst = [...live].reverse();
        expect(acct.restingSlots(slots)).toEqual(newestFirst.map((o) => o.s));
        const m = rng.int(3);
        expect(acct.restingSlots(slots, m)).toEqual(newestFirst.filter((o) => o.m === m).map((o) => o.s));
      }
    }
  });
});

describe("checksumOf", () => {
  it("gives a 20-byte hex address its EIP-55 form and keeps any other identifier as it is", () => {
    const a = "0xabcdef0123456789abcdef0123456789abcdef01";
    expect(checksumOf(a)).toBe(getAddress(a));
    expect(new Account(a, 3).checksum).toBe(getAddress(a));
    expect(checksumOf("maker-7")).toBe("maker-7");
    expect(checksumOf("0xabc")).toBe("0xabc");
  });
});
