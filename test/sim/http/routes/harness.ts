/**
 * Test harness of the public routes (not a test file): a Simulator on a VirtualClock, the
 * public route table behind Engineer B's pipeline (so routing precedence, error-envelope trace
 * ids and headers are the real ones), and a generated large scenario for the paging rules.
 */
import { VirtualClock } from "../../../../src/core/clock.js";
import { parseMicros } from "../../../../src/core/money.js";
import type { Side } from "../../../../src/core/amounts.js";
import { Pipeline } from "../../../../src/sim/http/pipeline.js";
import { eventRoutes } from "../../../../src/sim/http/routes/events.js";
import { marketRoutes } from "../../../../src/sim/http/routes/markets.js";
import { platformRoutes } from "../../../../src/sim/http/routes/platform.js";
import { defaultScenarioPath, loadScenario, parseScenario, type Scenario } from "../../../../src/sim/platform/index.js";
import { Simulator } from "../../../../src/sim/simulator.js";

export const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
export const HOUR = 3_600_000;

export const u = (s: string): bigint => parseMicros(s);

export const ALICE = "0x1111111111111111111111111111111111111111";
export const BOB = "0x2222222222222222222222222222222222222222";

export interface Res {
  status: number;
  headers: Record<string, string>;
  // Parsed JSON: tests either parse it with a wire schema or poke at it directly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface Harness {
  sim: Simulator;
  clock: VirtualClock;
  get(url: string, headers?: Record<string, string>): Promise<Res>;
  /** Place straight on the engine (the order desk is not part of these tests). */
  place(wallet: string, symbol: string, outcome: number, side: Side, price: string, qty: string, postOnly?: boolean): ReturnType<Simulator["engine"]["place"]>;
}

/** Register every catalogue market in the engine by symbol, unless the Simulator already did. */
export function registerEngineMarkets(sim: Simulator): void {
  const cat = sim.platform.catalogue;
  for (const m of cat.markets("all", true)) {
    if (sim.engine.markets.has(m.symbol)) continue;
    sim.engine.addMarket({ id: m.symbol, outcomeCount: m.outcomeCount, feeRateBps: cat.effectiveFeeTakerBps(m), tokenIds: m.outcomeTokenIds });
  }
}

export function harness(scenario: Scenario = loadScenario(defaultScenarioPath())): Harness {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(scenario, { clock, pepper: new Uint8Array(32) });
  registerEngineMarkets(sim);
  for (const w of [ALICE, BOB]) sim.engine.deposit(w, u("1000000"));
  const pipeline = new Pipeline({ sim, routes: [...marketRoutes, ...eventRoutes, ...platformRoutes], rateLimits: false });
  return {
    sim,
    clock,
    async get(url, headers = {}) {
      const raw = await pipeline.handle({ method: "GET", url, headers, bodyText: "" });
      const lower: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw.headers)) lower[k.toLowerCase()] = v;
      return { status: raw.status, headers: lower, body: raw.bodyText === "" ? undefined : JSON.parse(raw.bodyText) };
    },
    place(wallet, symbol, outcome, side, price, qty, postOnly = false) {
      const r = sim.engine.place({ wallet, marketId: symbol, outcome, side, price: u(price), quantity: u(qty), postOnly });
      if (r.status === "REJECTED") throw new Error(`test order refused: ${r.code} ${r.message}`);
      return r;
    },
  };
}

export const STAGE_CYCLE = ["group", "r16", "final"] as const;
export const TAG_CYCLE = ["tag-a", "tag-b", "tag-c"] as const;

export interface GeneratedShape {
  /** Events in the default list, in catalogue order (open ones plus the in-play fixture). */
  defaultSlugs: string[];
  closedSlugs: string[];
}

/**
 * `n` generated events (catalogue order = index order). Every 10th event (i % 10 === 9) is
 * closed (kickoff two days ago). Event i: vertical football (even) / tennis (odd), tag
 * TAG_CYCLE[i % 3], stage STAGE_CYCLE[i % 3], group "A".."D" (i % 4), teams T{i%10}/T{(i+1)%10},
 * kickoff start + (24 + i) hours for open events; market type MATCH_WINNER, plus a TOTALS
 * market on every 4th event. One extra fixture in play (kickoff 1 h ago, its market CLOSED)
 * comes last.
 */
export function generatedScenario(n: number): { scenario: Scenario; shape: GeneratedShape } {
  const events: unknown[] = [];
  const shape: GeneratedShape = { defaultSlugs: [], closedSlugs: [] };
  for (let i = 0; i < n; i++) {
    const id = String(i).padStart(3, "0");
    const closed = i % 10 === 9;
    const slug = `ev-${id}`;
    (closed ? shape.closedSlugs : shape.defaultSlugs).push(slug);
    const window = closed ? { opensAt: "-3d", closesAt: "-2d" } : { opensAt: "-1h", closesAt: "+60d" };
    const markets: unknown[] = [{ title: `Home wins ${id}`, symbol: `EV${id}-H`, marketType: "MATCH_WINNER", tradingWindow: window }];
    if (i % 4 === 0) markets.push({ title: `Over 2.5 goals ${id}`, symbol: `EV${id}-OU`, marketType: "TOTALS", tradingWindow: window });
    events.push({
      slug,
      title: `Event ${id} ${i % 2 === 0 ? "Alpha" : "Beta"}`,
      vertical: i % 2 === 0 ? "football" : "tennis",
      sport: i % 2 === 0 ? "football" : "tennis",
      tags: [TAG_CYCLE[i % 3]],
      stage: STAGE_CYCLE[i % 3],
      group: "ABCD"[i % 4],
      homeCountry: `T${i % 10}`,
      awayCountry: `T${(i + 1) % 10}`,
      kickoff: closed ? "-2d" : `+${24 + i}h`,
      markets,
    });
  }
  events.push({
    slug: "in-play",
    title: "Fixture in play",
    vertical: "football",
    sport: "football",
    tags: ["tag-a"],
    kickoff: "-1h",
    markets: [{ title: "First goal before half time", symbol: "INPLAY-1", marketType: "MATCH_WINNER", tradingWindow: { opensAt: "-1d", closesAt: "-30m" } }],
  });
  shape.defaultSlugs.push("in-play");
  const scenario = parseScenario(
    JSON.stringify({ seed: 7, start: "now", tags: [{ slug: "tag-a", name: "Tag A", isFeatured: true }], events }),
    "generated.yaml",
  );
  return { scenario, shape };
}
