/**
 * The synthetic traders of one market (src/sim/flow/agent.ts), on a bare engine: which agents
 * and flow wallets a market's `flow` section turns on, the resting liquidity's levels around the
 * public fair value (YES book only on a binary market, post-only in PRE_MARKET, off the price
 * grid skipped, nothing outside OPEN / PRE_MARKET), re-posted only when the value moved or some
 * of it was taken; fair-anchored takers that send IOC orders only while OPEN but draw the same
 * whatever the state; and start / stop on the clock.
 */
import { describe, expect, it } from "vitest";
import { formatMicros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import type { EngineEvent, OrderInfo } from "../../../src/sim/engine/index.js";
import { MarketAgent } from "../../../src/sim/flow/agent.js";
import { addressFromLabel } from "../../../src/sim/platform/derive.js";
import { flowSchema } from "../../../src/sim/platform/flow-schema.js";
import type { LifecycleStatus } from "../../../src/sim/platform/lifecycle.js";
import { ALICE, fixture, u } from "../engine/helpers.js";

const roleWallet = (role: string): string => addressFromLabel(`agent-test:${role}`).toLowerCase();
const LP = roleWallet("lp");
const TAKER = roleWallet("taker");

/** A still fair value, two liquidity levels 0.01 apart starting 0.01 out, no takers: tests add what they need. */
const QUIET = {
  volPerSqrtMin: 0,
  jumpProbPerMin: 0,
  takerArrivalPerMin: 0,
  liquidity: { levels: 2, depthPerLevel: "100", halfSpread: "0.01", levelStep: "0.01" },
};

function setup(opts: { fair?: string[]; flow?: Record<string, unknown>; status?: LifecycleStatus; seed?: number } = {}) {
  const fair = opts.fair ?? ["0.5", "0.5"];
  const f = fixture({ outcomes: fair.length });
  let status: LifecycleStatus = opts.status ?? "OPEN";
  const roles: string[] = [];
  const agent = new MarketAgent({
    clock: f.clock,
    engine: f.engine,
    rng: new Rng(opts.seed ?? 11),
    marketId: "M",
    outcomeCount: fair.length,
    fairValue: fair.map((v) => u(v)),
    params: flowSchema.parse({ ...QUIET, ...opts.flow }),
    wallet: (role) => {
      roles.push(role);
      return roleWallet(role);
    },
    status: () => status,
    refreshMs: 5_000,
  });
  return { ...f, agent, roles, setStatus: (s: LifecycleStatus) => (status = s) };
}

/** A wallet's resting orders as "BUY 0 @0.49 x100" lines, sorted. */
function resting(orders: readonly OrderInfo[]): string[] {
  return orders.map((o) => `${o.side} ${o.outcome} @${formatMicros(o.price)} x${formatMicros(o.remainingQty)}`).sort();
}

describe("MarketAgent: who trades", () => {
  it("with the default sections only the fair-anchored taker and the liquidity have wallets", () => {
    const { agent, roles } = setup();
    expect(roles).toEqual(["taker", "lp"]);
    expect(agent.informed).toBeUndefined();
    expect(agent.noise).toBeUndefined();
    expect(agent.news).toBeUndefined();
    expect(agent.makers).toEqual([]);
    expect(agent.marketId).toBe("M");
    expect(agent.stats).toEqual({ takerOrders: 0, takerFilledQty: 0n, lpPosts: 0, makers: [], newsJumps: 0 });
  });

  it("informed, noise, news and makers each come with their section, each maker its own wallet", () => {
    const { agent, roles } = setup({
      flow: { informed: { arrivalPerMin: 1 }, noise: { arrivalPerMin: 1 }, news: { ratePerMin: 1 }, makers: { count: 2 } },
    });
    expect(roles).toEqual(["taker", "lp", "informed", "noise", "maker1", "maker2"]);
    expect(agent.informed).toBeDefined();
    expect(agent.noise).toBeDefined();
    expect(agent.news).toBeDefined();
    expect(agent.makers).toHaveLength(2);
    const s = agent.stats;
    expect(s.informed).toEqual({ looks: 0, orders: 0, boughtQty: 0n, soldQty: 0n });
    expect(s.noise).toEqual({ arrivals: 0, orders: 0, filledQty: 0n });
    expect(s.makers).toEqual([
      { requotes: 0, posts: 0, kept: 0 },
      { requotes: 0, posts: 0, kept: 0 },
    ]);
  });
});

describe("MarketAgent.refresh: the resting liquidity", () => {
  it("posts `levels` bids and asks per side, halfSpread then levelStep away from the fair value, on the YES book of a binary market", () => {
    const { agent, engine } = setup();
    agent.refresh();
    expect(resting(engine.openOrders(LP, "M"))).toEqual(["BUY 0 @0.48 x100", "BUY 0 @0.49 x100", "SELL 0 @0.51 x100", "SELL 0 @0.52 x100"]);
    expect(engine.openOrders(LP, "M").every((o) => !o.postOnly && o.timeInForce === "GTC")).toBe(true);
    expect(agent.stats.lpPosts).toBe(1);
  });

  it("posts on every book of a multi-outcome market", () => {
    const { agent, engine } = setup({ fair: ["0.5", "0.3", "0.2"], flow: { liquidity: { levels: 1, depthPerLevel: "5", halfSpread: "0.01" } } });
    agent.refresh();
    expect(resting(engine.openOrders(LP, "M"))).toEqual([
      "BUY 0 @0.49 x5",
      "BUY 1 @0.29 x5",
      "BUY 2 @0.19 x5",
      "SELL 0 @0.51 x5",
      "SELL 1 @0.31 x5",
      "SELL 2 @0.21 x5",
    ]);
  });

  it("skips levels that fall off the price grid", () => {
    // Fair 0.02 (the floor): bids at 0.01, 0.00 and -0.01, asks at 0.03, 0.04 and 0.05.
    const { agent, engine } = setup({ fair: ["0.02", "0.98"], flow: { liquidity: { levels: 3, depthPerLevel: "1", halfSpread: "0.01", levelStep: "0.01" } } });
    agent.refresh();
    expect(resting(engine.openOrders(LP, "M"))).toEqual(["BUY 0 @0.01 x1", "SELL 0 @0.03 x1", "SELL 0 @0.04 x1", "SELL 0 @0.05 x1"]);
  });

  it("leaves the book alone while nothing changed, so the orders keep their queue places", () => {
    const { agent, engine } = setup();
    agent.refresh();
    const ids = engine.openOrders(LP, "M").map((o) => o.id);
    agent.refresh();
    agent.refresh();
    expect(engine.openOrders(LP, "M").map((o) => o.id)).toEqual(ids);
    expect(agent.stats.lpPosts).toBe(1);
  });

  it("re-posts around the new value once the fair value moved a tick", () => {
    const { agent, engine } = setup();
    agent.refresh();
    agent.fair.set([u("0.6"), u("0.4")]);
    agent.refresh();
    expect(resting(engine.openOrders(LP, "M"))).toEqual(["BUY 0 @0.58 x100", "BUY 0 @0.59 x100", "SELL 0 @0.61 x100", "SELL 0 @0.62 x100"]);
    expect(agent.stats.lpPosts).toBe(2);
  });

  it("re-posts the whole book once a level was taken", () => {
    const { agent, engine } = setup();
    agent.refresh();
    // ALICE takes all of the 0.51 ask: one order fewer rests.
    expect(engine.place({ wallet: ALICE, marketId: "M", outcome: 0, side: "BUY", price: u("0.51"), quantity: u("100"), timeInForce: "IOC" }).filledQty).toBe(u("100"));
    expect(engine.openOrders(LP, "M")).toHaveLength(3);
    agent.refresh();
    expect(resting(engine.openOrders(LP, "M"))).toEqual(["BUY 0 @0.48 x100", "BUY 0 @0.49 x100", "SELL 0 @0.51 x100", "SELL 0 @0.52 x100"]);
    expect(agent.stats.lpPosts).toBe(2);
  });

  it("posts post-only orders in PRE_MARKET, and none at all outside PRE_MARKET and OPEN", () => {
    const pre = setup({ status: "PRE_MARKET" });
    pre.agent.refresh();
    expect(pre.engine.openOrders(LP, "M")).toHaveLength(4);
    expect(pre.engine.openOrders(LP, "M").every((o) => o.postOnly)).toBe(true);
    for (const status of ["PAUSED", "CLOSED", "RESOLVED"] as const) {
      const s = setup({ status });
      s.agent.refresh();
      expect(s.engine.openOrders(LP, "M"), status).toEqual([]);
      expect(s.agent.stats.lpPosts).toBe(0);
    }
  });
});

describe("MarketAgent.arrive: fair-anchored takers", () => {
  /** The taker's accepted orders, as the engine saw them. */
  const takerOrders = (events: readonly EngineEvent[]) =>
    events.flatMap((e) => (e.type === "accepted" && e.order.wallet === TAKER ? [e.order] : []));

  it("sends IOC orders limited within three half-spreads of the fair value, never resting", () => {
    const { agent, engine, events } = setup({ flow: { liquidity: { levels: 5, depthPerLevel: "1000", halfSpread: "0.01", levelStep: "0.01" } } });
    agent.refresh();
    for (let i = 0; i < 40; i++) agent.arrive();
    const sent = takerOrders(events);
    expect(sent).toHaveLength(40);
    expect(agent.stats.takerOrders).toBe(40);
    for (const o of sent) {
      expect(o.timeInForce).toBe("IOC");
      // BUY at floor(fair + slip), SELL at ceil(fair - slip), slip in [0, 0.03): each outcome's fair value is 0.5.
      if (o.side === "BUY") expect(o.price >= u("0.5") && o.price <= u("0.529")).toBe(true);
      else expect(o.price >= u("0.471") && o.price <= u("0.5")).toBe(true);
    }
    expect(engine.openOrders(TAKER, "M")).toEqual([]);
    const filled = engine.ledger.trades().reduce((s, t) => (t.takerWallet.toLowerCase() === TAKER ? s + t.quantity : s), 0n);
    expect(agent.stats.takerFilledQty).toBe(filled);
    expect(filled > 0n).toBe(true);
  });

  it("sends nothing unless the market is OPEN, but draws the same, so later orders do not change", () => {
    const a = setup({ status: "PAUSED" });
    a.agent.arrive();
    expect(a.agent.stats.takerOrders).toBe(0);
    a.setStatus("OPEN");
    a.agent.arrive();
    const b = setup();
    b.agent.arrive();
    b.agent.arrive();
    const strip = (o: OrderInfo) => [o.outcome, o.side, o.price, o.quantity];
    expect(takerOrders(a.events).map(strip)).toEqual([takerOrders(b.events).map(strip)[1]]);
  });
});

describe("MarketAgent.start / stop", () => {
  it("posts at once, follows the clock while started, and stops every timer", async () => {
    const { agent, engine, clock } = setup({ flow: { takerArrivalPerMin: 6 } });
    agent.start();
    expect(engine.openOrders(LP, "M")).toHaveLength(4);
    await clock.advance(10 * 60_000);
    const afterTen = agent.stats;
    expect(afterTen.takerOrders).toBeGreaterThan(0);
    agent.stop();
    await clock.advance(10 * 60_000);
    expect(agent.stats).toEqual(afterTen);
    expect(clock.pending()).toBe(0);
  });

  it("keeps one refresh interval and one arrival timer, however often it is started", () => {
    const { agent, clock } = setup({ flow: { takerArrivalPerMin: 6 } });
    agent.start();
    agent.start();
    expect(clock.pending()).toBe(2);
    agent.stop();
    expect(clock.pending()).toBe(0);
  });
});

