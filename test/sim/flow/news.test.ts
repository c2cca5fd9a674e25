/**
 * News jumps: the true fair value jumps at once and informed flow trades on it at once (or after
 * its reaction delay), while the resting liquidity and the other makers keep pricing off the
 * public value until the head start is over; then the book moves to the news.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { drawJump } from "../../../src/sim/flow/index.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { flowScenarioYaml, flowSim, flowWallet, tradesOf } from "./helpers.js";

const SYM = "NEWS";

/** Resting liquidity and two makers around 0.5, informed flow that only looks on news, news only when a test calls jump(). */
function newsFlow(reactionMs = 0): string {
  return `volPerSqrtMin: 0
jumpProbPerMin: 0
takerArrivalPerMin: 0
liquidity: { levels: 3, depthPerLevel: "50", halfSpread: "0.01", levelStep: "0.01" }
makers: { count: 2, refreshPerMin: 30, size: { dist: fixed, mean: "20" }, minOffset: "0.003", maxOffset: "0.006" }
informed: { arrivalPerMin: 0.000001, edge: "0.005", sizePerCent: "30", maxSize: "400", reactionMs: ${reactionMs} }
news: { ratePerMin: 0.000001, size: { dist: fixed, mean: 0.06 }, headStartMs: 3000 }`;
}

function mid(sim: ReturnType<typeof flowSim>["sim"]): number {
  const b = sim.engine.book(SYM, 0);
  return (Number(b.bestBid!) + Number(b.bestAsk!)) / 2e6;
}

describe("news", () => {
  it("is traded on by informed flow before the book moves; the book follows when the head start is over", async () => {
    const { sim, clock } = flowSim([{ symbol: SYM, fairValue: "0.5", flow: newsFlow() }]);
    const agent = sim.flow.agent(SYM)!;
    await clock.advance(20_000);
    const before = mid(sim);
    expect(Math.abs(before - 0.5)).toBeLessThan(0.01);
    expect(tradesOf(sim, SYM)).toEqual([]);

    const t = clock.now();
    const jump = agent.news!.jump();
    const up = jump.change[0]! > 0n;
    expect(Math.abs(Number(jump.change[0]!))).toBe(60_000);
    expect(sim.flow.fairValue(SYM)![0]).toBe(up ? 560_000n : 440_000n);
    expect(agent.market.publicValue(0)).toBe(500_000n);

    // informed flow has already swept the stale side, in the direction of the news
    const informed = flowWallet(SYM, "informed");
    const swept = tradesOf(sim, SYM);
    expect(swept.length).toBeGreaterThan(0);
    for (const tr of swept) {
      expect(tr.createdAtMs).toBe(t);
      expect(tr.takerWallet.toLowerCase()).toBe(informed);
      expect(tr.side).toBe(up ? "BUY" : "SELL");
    }

    // during the head start the makers keep quoting around the old value
    await clock.advance(2_999);
    expect(agent.market.publicValue(0)).toBe(500_000n);
    const stale = sim.engine.book(SYM, 0);
    if (up) expect(stale.bestBid! < 500_000n).toBe(true);
    else expect(stale.bestAsk! > 500_000n).toBe(true);
    expect(agent.market.hiddenCount()).toBe(1);

    // at the reveal everyone reprices around the new value
    await clock.advance(1);
    expect(agent.market.publicValue(0)).toBe(up ? 560_000n : 440_000n);
    expect(agent.market.hiddenCount()).toBe(0);
    expect(Math.abs(mid(sim) - (up ? 0.56 : 0.44))).toBeLessThan(0.01);
    expect(agent.stats.newsJumps).toBe(1);
    sim.stop();
  });

  it("with a reaction delay, informed flow trades after the delay and still before the reveal", async () => {
    const { sim, clock } = flowSim([{ symbol: SYM, fairValue: "0.5", flow: newsFlow(1_000) }]);
    const agent = sim.flow.agent(SYM)!;
    await clock.advance(20_000);
    const jump = agent.news!.jump();
    expect(tradesOf(sim, SYM)).toEqual([]);
    await clock.advance(1_000);
    const trades = tradesOf(sim, SYM);
    expect(trades.length).toBeGreaterThan(0);
    for (const tr of trades) expect(tr.createdAtMs).toBe(jump.atMs + 1_000);
    expect(jump.revealMs).toBe(jump.atMs + 3_000);
    sim.stop();
  });

  it("arrives at its Poisson rate, with sizes from its distribution, and the same jumps for the same seed", async () => {
    const flow = `volPerSqrtMin: 0
jumpProbPerMin: 0
takerArrivalPerMin: 0
liquidity: { levels: 0 }
news: { ratePerMin: 0.5, size: { dist: uniform, min: 0.01, max: 0.03 }, headStartMs: 2s }`;
    const run = async (seed: number) => {
      const { sim, clock } = flowSim([{ symbol: SYM, fairValue: "0.5", flow }], { seed });
      await clock.advance(4 * 3_600_000);
      const jumps = sim.flow.agent(SYM)!.news!.jumps;
      sim.stop();
      return jumps;
    };
    const a = await run(1);
    // 4 h at 0.5 per minute: 120 expected (sd about 11)
    expect(a.length).toBeGreaterThan(90);
    expect(a.length).toBeLessThan(150);
    for (const j of a) {
      expect(Math.abs(j.size)).toBeGreaterThanOrEqual(0.01);
      expect(Math.abs(j.size)).toBeLessThanOrEqual(0.03);
      expect(j.revealMs - j.atMs).toBe(2_000);
    }
    const ups = a.filter((j) => j.size > 0).length;
    expect(ups).toBeGreaterThan(a.length * 0.3);
    expect(ups).toBeLessThan(a.length * 0.7);
    expect(await run(1)).toEqual(a);
    expect(await run(2)).not.toEqual(a);
  });

  it("draws exponential sizes cut to [min, max], with a random sign and outcome", () => {
    const s = parseScenario(flowScenarioYaml([{ symbol: SYM, flow: "news: { ratePerMin: 1, size: { mean: 0.03, min: 0.005, max: 0.08 } }" }]), "t.yaml");
    const size = s.events[0]!.markets[0]!.flow.news.size;
    expect(size.dist).toBe("exponential");
    const rng = new Rng(3);
    let sum = 0;
    const outcomes = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const j = drawJump(rng, size, 4);
      expect(Math.abs(j.size)).toBeGreaterThanOrEqual(0.005);
      expect(Math.abs(j.size)).toBeLessThanOrEqual(0.08);
      sum += Math.abs(j.size);
      outcomes[j.outcome]!++;
    }
    expect(sum / 4000).toBeGreaterThan(0.026);
    expect(sum / 4000).toBeLessThan(0.034);
    for (const n of outcomes) expect(n).toBeGreaterThan(850);
  });
});
