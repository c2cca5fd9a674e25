/**
 * Issue 14 part 1 against the simulator: the daemon quotes a three-market neg-risk event with the
 * ladder (bids on YES and on NO in every market) while takers trade. With risk.maxEventLoss the
 * wallet's worst case over every winner (and "none wins"), fills at their price and the platform's
 * open orders wherever filling them loses, stays within the cap at every step; without it the same run goes
 * beyond it, while each market's own caps hold in both. quoting.sizeTolerance is 0: the reconciler
 * keeps a live order up to that fraction larger than a quote a limit trimmed (docs/strategies.md).
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros, type Micros } from "../../../src/core/money.js";
import { InProcessSocketConnector, InProcessTransport } from "../../../src/sim/http/in-process.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { parseScenario } from "../../../src/sim/platform/index.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { WsHub } from "../../../src/sim/ws/hub.js";
import { scenarioPnl, worstCase, type LegOrder } from "../../../src/bot/risk/event-group.js";
import { RecordingTransport, START, daemonConfig, makeDaemon, platformOpenOrders, run, scenarioYaml, settle, simFills, walletAddress, type SimHarness } from "../../integration/harness.js";

const MARKETS = ["EV-A", "EV-B", "EV-C"];
const CAP = parseMicros("20");

function startNegRiskSim(): SimHarness {
  const yaml = scenarioYaml({
    wallets: 1,
    seed: 1414,
    markets: MARKETS.map((symbol, i) => ({ symbol, opensAt: "-1h", closesAt: "+1d", fairValue: ["0.45", "0.30", "0.25"][i], takerArrivalPerMin: 60, takerMean: "15" })),
  }).replace(/(symbol: EV-[A-C])\n/g, "$1\n        negRiskEligible: true\n");
  const clock = new VirtualClock(START);
  const sim = new Simulator(parseScenario(yaml, "event-group.yaml"), { clock, pepper: new Uint8Array(32), recoveryCache: null });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const hub = new WsHub({ sim, pipeline });
  const transport = new RecordingTransport(new InProcessTransport(pipeline), clock);
  const connector = new InProcessSocketConnector(hub);
  sim.start();
  return { clock, sim, pipeline, hub, transport, connector, addFault: (rule) => sim.platform.faults.add(rule, clock.now()) };
}

/** The wallet's worst case on the platform's side: its fills (positions at their price) and open orders wherever filling them loses. */
async function platformWorst(h: SimHarness, wallet: string): Promise<Micros> {
  const legs = new Map<string, { positions: { outcome: number; qty: Micros; avgCost: Micros | null }[]; orders: LegOrder[] }>();
  const leg = (mk: string) => {
    const sym = h.sim.platform.catalogue.market(mk)?.symbol ?? mk;
    let l = legs.get(sym);
    if (l === undefined) legs.set(sym, (l = { positions: [], orders: [] }));
    return l;
  };
  // A fill is a position bought (or sold: negative) at its price.
  for (const f of simFills(h.sim, wallet)) leg(f.marketId).positions.push({ outcome: f.outcome, qty: f.side === "BUY" ? f.qty : -f.qty, avgCost: f.price });
  for (const o of (await platformOpenOrders(h, wallet)) as unknown as { marketId: string; outcome: number; side: "BUY" | "SELL"; price: string; remainingQty: string }[]) {
    leg(o.marketId).orders.push({ outcome: o.outcome, side: o.side, price: parseMicros(o.price), remaining: parseMicros(o.remainingQty) });
  }
  return worstCase(scenarioPnl({ eventId: "E", markets: MARKETS }, (mk) => legs.get(mk)));
}

async function runDaemon(maxEventLoss: string | undefined): Promise<{ worst: Micros; everyStep: Micros[]; places: number }> {
  const h = startNegRiskSim();
  const risk: Record<string, unknown> = { maxPositionPerMarket: "500", maxOrderSize: "100" };
  if (maxEventLoss !== undefined) risk["maxEventLoss"] = maxEventLoss;
  const d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: MARKETS, strategy: { levels: 2, size: "25", halfSpreadTicks: 3 }, risk, quoting: { sizeTolerance: 0 } }));
  const wallet = walletAddress(0);
  const everyStep: Micros[] = [];
  try {
    await settle(h.clock, d.daemon.start());
    for (let s = 0; s < 6; s++) {
      await run(h.clock, 2_000);
      everyStep.push(await platformWorst(h, wallet));
    }
    await settle(h.clock, d.daemon.stop());
    return { worst: await platformWorst(h, wallet), everyStep, places: h.transport.places().length };
  } finally {
    h.sim.stop();
  }
}

describe("event-group risk in the daemon against the simulator (three neg-risk markets)", () => {
  it("maxEventLoss bounds the worst case at every step; without it the same run goes beyond the cap", async () => {
    const capped = await runDaemon("20");
    const free = await runDaemon(undefined);
    expect(capped.places).toBeGreaterThan(0);
    // A micro of rounding per fill at most: the daemon costs a position at its average cost, ceil.
    const slack = 1_000n;
    for (const w of capped.everyStep) expect(w).toBeGreaterThanOrEqual(-CAP - slack);
    expect(worstCase(free.everyStep)).toBeLessThan(-CAP);
  }, 240_000);
});
