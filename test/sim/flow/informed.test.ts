/**
 * Informed takers: they take only what the book prices on the wrong side of the true fair value
 * (best ask below fair - edge: they buy; best bid above fair + edge: they sell), never past
 * fair -/+ edge, sized by the mispricing, and only while the market is OPEN.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { SCALE, type Micros } from "../../../src/core/money.js";
import { informedSize } from "../../../src/sim/flow/index.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { flowScenarioYaml, flowSim, flowWallet, px, QUIET, rest, tradesOf, US } from "./helpers.js";

const SYM = "INF";
/** Informed flow that never looks by itself (a look every 10^6 minutes): the tests call look(). */
const INFORMED = `${QUIET}
informed: { arrivalPerMin: 0.000001, edge: "0.005", sizePerCent: "20", maxSize: "50" }`;

function informedParams(sizePerCent: string, maxSize: string) {
  const s = parseScenario(flowScenarioYaml([{ symbol: SYM, flow: `informed: { arrivalPerMin: 1, sizePerCent: "${sizePerCent}", maxSize: "${maxSize}" }` }]), "t.yaml");
  return s.events[0]!.markets[0]!.flow.informed;
}

describe("informed takers", () => {
  it("buy what is offered below fair - edge, up to that price, and leave fairly priced quotes alone", () => {
    const { sim } = flowSim([{ symbol: SYM, fairValue: "0.5", flow: INFORMED }]);
    const agent = sim.flow.agent(SYM)!;
    rest(sim, SYM, 0, "SELL", "0.480", "10");
    rest(sim, SYM, 0, "SELL", "0.495", "10");
    rest(sim, SYM, 0, "SELL", "0.497", "10");
    rest(sim, SYM, 0, "BUY", "0.470", "10");
    agent.informed!.look();
    const trades = tradesOf(sim, SYM);
    const informed = flowWallet(SYM, "informed");
    // mispricing 0.02 -> 40 shares wanted at most, limit 0.495: the 0.480 and 0.495 asks, not 0.497
    expect(trades.map((t) => [t.takerWallet.toLowerCase(), t.side, t.makerPrice, t.quantity])).toEqual([
      [informed, "BUY", px("0.48"), px("10")],
      [informed, "BUY", px("0.495"), px("10")],
    ]);
    // the bid is under the fair value: not touched, and a second look finds nothing to do
    agent.informed!.look();
    expect(tradesOf(sim, SYM)).toHaveLength(2);
    expect(sim.engine.book(SYM, 0).bestBid).toBe(px("0.47"));
    expect(sim.engine.book(SYM, 0).bestAsk).toBe(px("0.497"));
    expect(agent.stats.informed).toMatchObject({ looks: 2, orders: 1, boughtQty: px("20"), soldQty: 0n });
    sim.stop();
  });

  it("sell to bids above fair + edge when the fair value falls under the book", () => {
    const { sim } = flowSim([{ symbol: SYM, fairValue: "0.5", flow: INFORMED }]);
    const agent = sim.flow.agent(SYM)!;
    rest(sim, SYM, 0, "BUY", "0.49", "30");
    rest(sim, SYM, 0, "BUY", "0.46", "30");
    rest(sim, SYM, 0, "SELL", "0.51", "30");
    agent.informed!.look();
    expect(tradesOf(sim, SYM)).toEqual([]);
    sim.flow.setFairValue(SYM, [450_000n, 550_000n]);
    agent.informed!.look();
    const trades = tradesOf(sim, SYM);
    // bid 0.49 is 0.04 over the fair value: 80 shares wanted, capped at maxSize 50, limit 0.455
    expect(trades.map((t) => [t.side, t.makerSide, t.makerPrice, t.quantity])).toEqual([
      ["SELL", "BUY", px("0.49"), px("30")],
      ["SELL", "BUY", px("0.46"), px("20")],
    ]);
    expect(trades.every((t) => t.makerWallet.toLowerCase() === US)).toBe(true);
    expect(sim.engine.book(SYM, 0).bids[0]).toMatchObject({ price: px("0.46"), quantity: px("10") });
    sim.stop();
  });

  it("trade in the direction of the mispricing on every outcome of a multi-outcome market, never on a fair book", () => {
    const fairs = ["0.4", "0.3", "0.2", "0.1"];
    const { sim } = flowSim([{ symbol: "MULTI", outcomes: ["A", "B", "C", "D"], fairValue: fairs, flow: INFORMED }]);
    const agent = sim.flow.agent("MULTI")!;
    const fair = sim.flow.fairValue("MULTI")!;
    // outcome 0 offered cheap, outcome 1 bid rich, outcomes 2 and 3 quoted inside the edge
    rest(sim, "MULTI", 0, "SELL", ((Number(fair[0]!) - 20_000) / 1e6).toFixed(3), "5");
    rest(sim, "MULTI", 1, "BUY", ((Number(fair[1]!) + 20_000) / 1e6).toFixed(3), "5");
    rest(sim, "MULTI", 2, "BUY", ((Number(fair[2]!) - 4_000) / 1e6).toFixed(3), "5");
    rest(sim, "MULTI", 3, "SELL", ((Number(fair[3]!) + 4_000) / 1e6).toFixed(3), "5");
    agent.informed!.look();
    const trades = tradesOf(sim, "MULTI");
    expect(trades.map((t) => [t.outcome, t.side])).toEqual([
      [0, "BUY"],
      [1, "SELL"],
    ]);
    sim.stop();
  });

  it("over many random books, take only mispriced quotes and always toward the fair value", () => {
    const rng = new Rng(77);
    const { sim } = flowSim([{ symbol: SYM, fairValue: "0.5", flow: INFORMED }]);
    const agent = sim.flow.agent(SYM)!;
    const informed = flowWallet(SYM, "informed");
    const edge = 5_000n;
    let mispricedBooks = 0;
    for (let round = 0; round < 60; round++) {
      sim.engine.cancelAll(US, SYM);
      const f = BigInt(200_000 + rng.int(600) * 1_000);
      sim.flow.setFairValue(SYM, [f, SCALE - f]);
      const bid = f - BigInt(rng.int(30) * 1_000) + 10_000n;
      const ask = bid + BigInt((1 + rng.int(20)) * 1_000);
      rest(sim, SYM, 0, "BUY", (Number(bid) / 1e6).toFixed(3), "5");
      rest(sim, SYM, 0, "SELL", (Number(ask) / 1e6).toFixed(3), "5");
      if (ask < f - edge || bid > f + edge) mispricedBooks++;
      const before = tradesOf(sim, SYM).length;
      agent.informed!.look();
      for (const t of tradesOf(sim, SYM).slice(before)) {
        expect(t.takerWallet.toLowerCase()).toBe(informed);
        if (t.side === "BUY") expect(t.makerPrice <= f - edge).toBe(true);
        else expect(t.makerPrice >= f + edge).toBe(true);
      }
      const traded = tradesOf(sim, SYM).length > before;
      expect(traded, `round ${round}: fair ${f} bid ${bid} ask ${ask}`).toBe(ask < f - edge || bid > f + edge);
    }
    expect(mispricedBooks).toBeGreaterThan(10);
    sim.stop();
  });

  it("do nothing before the market opens", () => {
    const { sim } = flowSim([{ symbol: SYM, fairValue: "0.5", preMarketStartsAt: "-1h", opensAt: "+10m", flow: INFORMED }]);
    rest(sim, SYM, 0, "SELL", "0.40", "10", { postOnly: true });
    sim.flow.agent(SYM)!.informed!.look();
    expect(tradesOf(sim, SYM)).toEqual([]);
    sim.stop();
  });

  it("size by the mispricing: sizePerCent per 0.01, in 0.01-share lots, at least one lot, at most maxSize", () => {
    const p = informedParams("20", "150");
    const size = (m: Micros) => informedSize(p, m);
    expect(size(10_000n)).toBe(px("20"));
    expect(size(25_000n)).toBe(px("50"));
    expect(size(1_000n)).toBe(px("2"));
    expect(size(1n)).toBe(px("0.01"));
    expect(size(500_000n)).toBe(px("150"));
    expect(informedSize(informedParams("0.333", "1000"), 10_000n)).toBe(px("0.33"));
  });
});
