import { describe, expect, it } from "vitest";
import { ONE } from "../../../src/core/money.js";
import { DEFAULT_TUNING, RiskSnapshot, applyLimits, priceProblem, type RiskLimits } from "../../../src/bot/risk/index.js";
import { ask, bid, demoLimits, exposure, held, limits, live, m, sizes } from "./fixtures.js";

const W = "maker-1";
const MKT = "BTC-UP";

function run(
  desired: Parameters<typeof applyLimits>[2],
  exposures: ConstructorParameters<typeof RiskSnapshot>[0] = [],
  over: Partial<RiskLimits> = {},
  tuning = DEFAULT_TUNING,
) {
  return applyLimits(W, MKT, desired, new RiskSnapshot(exposures), limits(over), tuning);
}

describe("price band and validity", () => {
  it("never quotes at 0 or 1, off the grid, or outside the configured band", () => {
    const r = run([bid("0.5"), bid("0.01"), bid("0.99"), { ...bid("0.5"), price: 0n }, { ...bid("0.5"), price: ONE }, bid("0.5005")]);
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x10"]);
    expect(r.dropped.map((d) => d.reason)).toEqual(["price_band", "price_band", "price_invalid", "price_invalid", "price_invalid"]);
  });

  it("applies the band to risk-reducing quotes too", () => {
    const r = run([ask("0.99", "5")], [exposure(W, MKT, { positions: [held(0, "50")] })]);
    expect(r.allowed).toEqual([]);
    expect(r.dropped[0]?.reason).toBe("price_band");
  });

  it("accepts the band edges", () => {
    const band = { min: m("0.02"), max: m("0.98") };
    expect(priceProblem(m("0.02"), band)).toBeNull();
    expect(priceProblem(m("0.98"), band)).toBeNull();
    expect(priceProblem(m("0.019"), band)).toBe("price_band");
    expect(priceProblem(m("0.981"), band)).toBe("price_band");
    expect(priceProblem(0n, { min: 0n, max: ONE })).toBe("price_invalid");
    expect(priceProblem(ONE, { min: 0n, max: ONE })).toBe("price_invalid");
  });

  it("drops non-positive sizes and outcomes the market does not have", () => {
    const r = run([bid("0.5", "0"), bid("0.5", "1", { outcome: 2 }), bid("0.5", "1", { outcome: -1 })]);
    expect(r.allowed).toEqual([]);
    expect(r.dropped.map((d) => d.reason)).toEqual(["size_invalid", "outcome_invalid", "outcome_invalid"]);
  });
});

describe("order size", () => {
  it("resizes an order above maxOrderSize", () => {
    const r = run([bid("0.5", "150")]);
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x100"]);
    expect(r.resized).toEqual([{ quote: bid("0.5", "150"), size: m("100"), reason: "order_size" }]);
  });

  it("takes its limits from the config schema (configs/demo.yaml)", () => {
    const l = demoLimits();
    expect(l.maxOrderSize).toBe(m("50"));
    const r = applyLimits(W, MKT, [bid("0.5", "80")], new RiskSnapshot([]), l, DEFAULT_TUNING);
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x50"]);
  });
});

describe("position per market", () => {
  it("resizes the buy that would take the position past the limit, drops the next", () => {
    const r = run([bid("0.5", "20", { level: 0 }), bid("0.49", "20", { level: 1 })], [exposure(W, MKT, { positions: [held(0, "490")] })]);
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x10"]);
    expect(r.resized[0]?.reason).toBe("position");
    expect(r.dropped).toEqual([{ quote: bid("0.49", "20", { level: 1 }), reason: "position" }]);
  });

  it("always allows selling what is held, even far beyond every limit", () => {
    const r = run(
      [ask("0.6", "100"), bid("0.4", "10")],
      [exposure(W, MKT, { positions: [held(0, "900", "0.9")] })],
      { maxNotionalPerWallet: m("10"), maxNotionalTotal: m("10") },
    );
    expect(sizes(r.allowed)).toEqual(["SELL:0@0.6x100"]);
    expect(r.dropped.map((d) => d.reason)).toEqual(["position"]);
  });

  it("cuts a sell to the shares held (no short inventory)", () => {
    const r = run([ask("0.6", "20")], [exposure(W, MKT, { positions: [held(0, "5")] })]);
    expect(sizes(r.allowed)).toEqual(["SELL:0@0.6x5"]);
    expect(r.resized[0]?.reason).toBe("exceeds_holdings");
    expect(run([ask("0.6", "20")]).dropped[0]?.reason).toBe("exceeds_holdings");
  });

  it("counts sells still cancelling against the holdings", () => {
    const r = run(
      [ask("0.6", "20")],
      [exposure(W, MKT, { positions: [held(0, "30")], openOrders: [live("c1", "0.7", "15", { side: "SELL", state: "cancelling" })] })],
    );
    expect(sizes(r.allowed)).toEqual(["SELL:0@0.6x15"]);
  });

  it("on a binary market, buying the complement of a position is reducing and always allowed", () => {
    // Net YES exposure 400 (limit 500); buying 100 NO merges into pairs: allowed whatever the notional.
    const r = run(
      [bid("0.3", "100", { outcome: 1 })],
      [exposure(W, MKT, { positions: [held(0, "400")] })],
      { maxNotionalPerWallet: m("1"), maxNotionalTotal: m("1") },
    );
    expect(sizes(r.allowed)).toEqual(["BUY:1@0.3x100"]);
  });

  it("judges a binary position on the net exposure: held NO makes room for YES buys", () => {
    // Holding 500 NO: net YES = -500. Buying 100 YES is reducing; nothing is increasing.
    const r = run([bid("0.5", "100")], [exposure(W, MKT, { positions: [held(1, "500")] })], { maxPositionPerMarket: m("50") });
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x100"]);
  });

  it("counts buys still cancelling as exposure (they may fill)", () => {
    const r = run(
      [bid("0.5", "50")],
      [exposure(W, MKT, { positions: [held(0, "420")], openOrders: [live("c1", "0.45", "60", { state: "cancelling" })] })],
    );
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x20"]);
  });

  it("does not count open orders the desired set replaces", () => {
    // 480 held + a resting 20 buy: the desired 20 replaces it, so it fits exactly.
    const r = run([bid("0.5", "20")], [exposure(W, MKT, { positions: [held(0, "480")], openOrders: [live("o1", "0.5", "20")] })]);
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x20"]);
  });

  it("uses per-outcome holdings on multi-outcome markets", () => {
    const r = run(
      [bid("0.2", "50", { outcome: 2 }), bid("0.2", "50", { outcome: 1 })],
      [exposure(W, MKT, { outcomeCount: 3, positions: [held(2, "480"), held(0, "480")] })],
    );
    expect(sizes(r.allowed)).toEqual(["BUY:2@0.2x20", "BUY:1@0.2x50"]);
  });
});

describe("notional", () => {
  it("resizes to the wallet's remaining notional, counting its other markets", () => {
    const other = exposure(W, "ETH-UP", { openOrders: [live("e1", "0.5", "180")] }); // 90 notional
    const r = run([bid("0.5", "40")], [other], { maxNotionalPerWallet: m("100") });
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x20"]);
    expect(r.resized[0]?.reason).toBe("wallet_notional");
  });

  it("values positions at cost, else the mark, else 1 per share", () => {
    const snap = new RiskSnapshot([
      exposure(W, "A", { positions: [held(0, "10", "0.3")] }),
      exposure(W, "B", { positions: [held(0, "10", null)], marks: { 0: m("0.6") } }),
      exposure(W, "C", { positions: [held(0, "10", null)] }),
    ]);
    expect(snap.walletNotional(W)).toBe(m("3") + m("6") + m("10"));
  });

  it("resizes to the total notional left by other wallets", () => {
    const other = exposure("maker-2", "ETH-UP", { positions: [held(0, "100", "0.95")] }); // 95
    const r = run([bid("0.5", "40")], [other], { maxNotionalTotal: m("100") });
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x10"]);
    expect(r.resized[0]?.reason).toBe("total_notional");
  });

  it("drops a buy resized below minQuoteSize instead of sending dust", () => {
    const other = exposure(W, "ETH-UP", { openOrders: [live("e1", "0.5", "199.5")] }); // 99.75
    const r = run([bid("0.5", "10")], [other], { maxNotionalPerWallet: m("100") });
    expect(r.allowed).toEqual([]);
    expect(r.dropped[0]?.reason).toBe("wallet_notional");
  });

  it("hands the headroom used by one market to the next market of the cycle", () => {
    const snap = new RiskSnapshot([exposure(W, "A"), exposure(W, "B")]);
    const l = limits({ maxNotionalPerWallet: m("30") });
    const a = applyLimits(W, "A", [bid("0.5", "40")], snap, l, DEFAULT_TUNING);
    snap.commit(W, "A", a.restingBuyNotional);
    const b = applyLimits(W, "B", [bid("0.5", "40")], snap, l, DEFAULT_TUNING);
    expect(sizes(a.allowed)).toEqual(["BUY:0@0.5x40"]);
    expect(sizes(b.allowed)).toEqual(["BUY:0@0.5x20"]);
  });
});

describe("open orders per market", () => {
  it("keeps the closest levels and drops the rest, but never a reducing quote", () => {
    const r = run(
      [bid("0.48", "10", { level: 2 }), bid("0.5", "10", { level: 0 }), bid("0.49", "10", { level: 1 }), ask("0.6", "5", { level: 3 })],
      [exposure(W, MKT, { positions: [held(0, "5")] })],
      { maxOpenOrdersPerMarket: 2 },
    );
    // The sell is reducing (judged first), then bids closest level first: one bid still fits.
    expect(sizes(r.allowed)).toEqual(["BUY:0@0.5x10", "SELL:0@0.6x5"]);
    expect(r.dropped.map((d) => [d.quote.level, d.reason])).toEqual([
      [1, "open_orders"],
      [2, "open_orders"],
    ]);
  });

  it("keeps the caller's order in `allowed`", () => {
    const r = run([bid("0.48", "1", { level: 2 }), bid("0.5", "1", { level: 0 }), bid("0.49", "1", { level: 1 })]);
    expect(r.allowed.map((q) => q.level)).toEqual([2, 0, 1]);
  });
});
