/**
 * Noise takers: uninformed, random outcome, side and size. Balanced over many draws (seeded),
 * priced off the book (the best opposite price plus at most maxSlippage), OPEN only.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { drawNoise } from "../../../src/sim/flow/index.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { flowScenarioYaml, flowSim, flowWallet, px, rest, tradesOf } from "./helpers.js";

const SYM = "NOISE";

function noiseParams(flow: string) {
  return parseScenario(flowScenarioYaml([{ symbol: SYM, flow }]), "t.yaml").events[0]!.markets[0]!.flow.noise;
}

describe("noise takers", () => {
  it("are balanced over many draws: sides, volume by side and outcomes", () => {
    const params = noiseParams(`noise: { arrivalPerMin: 5, size: { dist: lognormal, min: "1", max: "100", mean: "10" } }`);
    for (const seed of [1, 2, 3]) {
      const rng = new Rng(seed);
      let buys = 0;
      let buyQty = 0n;
      let sellQty = 0n;
      const outcomes = [0, 0, 0];
      const n = 20_000;
      for (let i = 0; i < n; i++) {
        const d = drawNoise(rng, params, 3);
        outcomes[d.outcome]!++;
        if (d.side === "BUY") {
          buys++;
          buyQty += d.quantity;
        } else sellQty += d.quantity;
        expect(d.quantity >= px("1") && d.quantity <= px("100")).toBe(true);
      }
      expect(buys / n).toBeGreaterThan(0.48);
      expect(buys / n).toBeLessThan(0.52);
      expect(Number(buyQty) / Number(sellQty)).toBeGreaterThan(0.95);
      expect(Number(buyQty) / Number(sellQty)).toBeLessThan(1.05);
      for (const c of outcomes) expect(c / n).toBeGreaterThan(0.31);
      const mean = Number(buyQty + sellQty) / n / 1e6;
      expect(mean).toBeGreaterThan(9);
      expect(mean).toBeLessThan(11);
    }
  });

  it("take from the touch and never past maxSlippage beyond it, on either token", () => {
    const flow = `volPerSqrtMin: 0
jumpProbPerMin: 0
takerArrivalPerMin: 0
liquidity: { levels: 0 }
noise: { arrivalPerMin: 0.000001, size: { dist: fixed, min: "1", max: "500", mean: "500" }, maxSlippage: "0.01" }`;
    const { sim } = flowSim([{ symbol: SYM, fairValue: "0.5", flow }], { seed: 4 });
    const noise = sim.flow.agent(SYM)!.noise!;
    const A = flowWallet(SYM, "test-bids");
    const B = flowWallet(SYM, "test-asks");
    const sides = new Set<string>();
    for (let i = 0; i < 24; i++) {
      sim.engine.cancelAll(A, SYM);
      sim.engine.cancelAll(B, SYM);
      for (const p of ["0.49", "0.485", "0.475"]) rest(sim, SYM, 0, "BUY", p, "10", { wallet: A });
      for (const p of ["0.51", "0.515", "0.525"]) rest(sim, SYM, 0, "SELL", p, "10", { wallet: B });
      const before = tradesOf(sim, SYM).length;
      noise.arrive();
      const fresh = tradesOf(sim, SYM).slice(before);
      // 500 shares wanted: everything within 0.01 of the touch is taken (20 shares), nothing further
      expect(fresh.reduce((q, t) => q + t.quantity, 0n)).toBe(px("20"));
      const yesPrices = fresh.map((t) => (t.makerOutcome === 0 ? t.makerPrice : 1_000_000n - t.makerPrice)).sort();
      const lifted = fresh[0]!.makerWallet.toLowerCase() === B;
      expect(yesPrices).toEqual(lifted ? [px("0.51"), px("0.515")] : [px("0.485"), px("0.49")]);
      sides.add(`${fresh[0]!.outcome}:${fresh[0]!.side}`);
    }
    expect(sides.size).toBe(4);
    sim.stop();
  });

  it("trade both ways in a running market", async () => {
    const flow = `volPerSqrtMin: 0
jumpProbPerMin: 0
takerArrivalPerMin: 0
liquidity: { levels: 5, depthPerLevel: "40", halfSpread: "0.01", levelStep: "0.005" }
noise: { arrivalPerMin: 20, size: { dist: uniform, min: "1", max: "30" }, maxSlippage: "0.01" }`;
    const { sim, clock } = flowSim([{ symbol: SYM, fairValue: "0.5", flow }], { seed: 9 });
    await clock.advance(60 * 60_000);
    sim.stop();
    const noise = flowWallet(SYM, "noise");
    const trades = tradesOf(sim, SYM).filter((t) => t.takerWallet.toLowerCase() === noise);
    // in YES terms: buying YES or selling NO lifts the offer
    const lifts = trades.filter((t) => (t.outcome === 0) === (t.side === "BUY"));
    expect(trades.length).toBeGreaterThan(600);
    expect(lifts.length / trades.length).toBeGreaterThan(0.4);
    expect(lifts.length / trades.length).toBeLessThan(0.6);
    const stats = sim.flow.stats(SYM)!.noise!;
    expect(stats.arrivals).toBeGreaterThan(1000);
    expect(stats.orders).toBeGreaterThan(1000);
  });

  it("do nothing before the market opens", async () => {
    const flow = `takerArrivalPerMin: 0
liquidity: { levels: 3 }
noise: { arrivalPerMin: 60 }`;
    const { sim, clock } = flowSim([{ symbol: SYM, fairValue: "0.5", preMarketStartsAt: "-1h", opensAt: "+10m", flow }]);
    await clock.advance(5 * 60_000);
    expect(tradesOf(sim, SYM)).toEqual([]);
    expect(sim.flow.stats(SYM)!.noise!.arrivals).toBeGreaterThan(100);
    expect(sim.flow.stats(SYM)!.noise!.orders).toBe(0);
    sim.stop();
  });
});
