/**
 * The whole flow (resting liquidity, fair-anchored, informed and noise takers, news, other makers)
 * replays exactly for a seed: same seed, same trade log byte for byte; another seed, another log.
 * Each agent draws from its own stream, so adding one leaves the others' draws alone.
 */
import { describe, expect, it } from "vitest";
import { flowSim, tradeLog, type FlowMarketSpec } from "./helpers.js";

const FULL = `volPerSqrtMin: 0.005
jumpProbPerMin: 0.02
jumpSize: 0.03
takerArrivalPerMin: 5
liquidity: { levels: 3, depthPerLevel: "60", halfSpread: "0.01", levelStep: "0.01" }
informed: { arrivalPerMin: 8, edge: "0.004", sizePerCent: "20", maxSize: "120", reactionMs: 300ms }
news: { ratePerMin: 0.3, size: { dist: exponential, mean: 0.03, min: 0.01, max: 0.1 }, headStartMs: 2s }
noise: { arrivalPerMin: 4 }
makers: { count: 3, refreshPerMin: 8 }`;

function markets(flow: string): FlowMarketSpec[] {
  return [
    { symbol: "DET-B", fairValue: "0.4", flow },
    { symbol: "DET-M", outcomes: ["A", "B", "C"], fairValue: ["0.5", "0.3", "0.2"], flow },
  ];
}

async function run(seed: number, flow = FULL): Promise<{ log: string; jumps: { atMs: number; size: number }[]; noiseArrivals: number }> {
  const { sim, clock } = flowSim(markets(flow), { seed });
  await clock.advance(30 * 60_000);
  sim.stop();
  const agent = sim.flow.agent("DET-B")!;
  return {
    log: tradeLog(sim),
    jumps: agent.news!.jumps.map((j) => ({ atMs: j.atMs, size: j.size })),
    noiseArrivals: agent.stats.noise!.arrivals,
  };
}

describe("research flow determinism", () => {
  it("same seed, same trade log byte for byte; another seed, another log", async () => {
    const a = await run(31);
    expect(a.log.length).toBeGreaterThan(50_000);
    expect((await run(31)).log).toBe(a.log);
    expect((await run(32)).log).not.toBe(a.log);
  });

  it("an agent added to a market leaves the other agents' draws alone", async () => {
    const a = await run(31);
    const b = await run(31, `${FULL}\n`.replace("makers: { count: 3, refreshPerMin: 8 }", "makers: { count: 5, refreshPerMin: 8 }"));
    expect(b.log).not.toBe(a.log);
    expect(b.jumps).toEqual(a.jumps);
    expect(b.noiseArrivals).toBe(a.noiseArrivals);
    expect(a.jumps.length).toBeGreaterThan(3);
  });
});
