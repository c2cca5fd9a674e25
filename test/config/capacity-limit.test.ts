/** What one process was measured to hold, and the bound on wallets x markets `mm check-config` warns beyond. */
import { describe, expect, it } from "vitest";
import { MAX_WALLET_MARKETS, MEASURED_CAPACITY, capacityWarning, marketsUpperBound, type CapacityInput } from "../../src/config/capacity-limit.js";

function input(wallets: (string[] | undefined)[], m: Partial<CapacityInput["markets"]> = {}, filters: Partial<CapacityInput["markets"]["filters"]> = {}): CapacityInput {
  return {
    wallets: wallets.map((markets) => ({ markets })),
    markets: { slugs: [], eventSlugs: [], maxMarkets: 20, ...m, filters: { tag: [], vertical: [], stage: [], ...filters } },
  };
}

describe("marketsUpperBound", () => {
  it("counts the distinct explicit markets when that is all the config names, capped by maxMarkets", () => {
    expect(marketsUpperBound(input([["a", "b"], ["b", "c"]], { slugs: ["a", "d"] }))).toBe(4);
    expect(marketsUpperBound(input([undefined], { slugs: ["a", "a", "b"] }))).toBe(2);
    expect(marketsUpperBound(input([["a", "b", "c"]], { maxMarkets: 2 }))).toBe(2);
  });

  it("is maxMarkets when nothing is named, or when events or any filter may select more", () => {
    expect(marketsUpperBound(input([undefined], { maxMarkets: 30 }))).toBe(30);
    expect(marketsUpperBound(input([["a"]], { maxMarkets: 30, eventSlugs: ["e"] }))).toBe(30);
    for (const f of ["tag", "vertical", "stage"] as const) expect(marketsUpperBound(input([["a"]], { maxMarkets: 30 }, { [f]: ["x"] })), f).toBe(30);
  });
});

describe("capacityWarning", () => {
  it("is the measured figure held: 20 wallets x 50 markets", () => {
    expect(MAX_WALLET_MARKETS).toBe(MEASURED_CAPACITY.held.wallets * MEASURED_CAPACITY.held.markets);
    expect(MAX_WALLET_MARKETS).toBe(1000);
  });

  it("says nothing up to the figure, warns one past it with the product and what to do", () => {
    const wallets = (n: number) => Array.from({ length: n }, () => undefined);
    expect(capacityWarning(input(wallets(20), { maxMarkets: 50 }))).toBeUndefined();
    expect(capacityWarning(input(wallets(1), { maxMarkets: 1000 }))).toBeUndefined();
    const w = capacityWarning(input(wallets(1), { maxMarkets: 1001 }));
    expect(w).toBeDefined();
    expect(w!.startsWith("warning: 1 wallets x 1001 markets = 1001 wallet-markets")).toBe(true);
    expect(w).toContain("20 x 50 = 1000 on 2 cores");
    expect(w).toContain("50 x 100 stalled the loop up to 7.5 s at 90% CPU");
    expect(w).toContain("instance.id");
  });

  it("counts the markets the config can quote, not the markets it allows", () => {
    const many = Array.from({ length: 40 }, () => undefined);
    expect(capacityWarning(input(many, { maxMarkets: 10_000, slugs: ["a", "b"] }))).toBeUndefined();
    expect(capacityWarning(input(many, { maxMarkets: 26, slugs: ["a", "b"] }, { tag: ["t"] }))).toContain("40 wallets x 26 markets = 1040");
  });
});
