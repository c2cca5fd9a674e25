/**
 * Settlement in the simulator: a resolution or void pays each held position with a `payout`
 * balance event (GET /api/me/balance-events), auto-redeem lists what is still unpaid, and a payout
 * can be made late (payoutDelayMs) or withheld (null) until released.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros } from "../../src/core/money.js";
import { grantShares } from "../../src/sim/desk/genesis.js";
import { Pipeline } from "../../src/sim/http/pipeline.js";
import { portfolioRoutes } from "../../src/sim/http/routes/portfolio.js";
import { parseScenario } from "../../src/sim/platform/scenario.js";
import { Simulator } from "../../src/sim/simulator.js";
import { authHeaders, json, req, SCENARIO, T0, W1 } from "./http/helpers.js";

function world(payoutDelayMs?: number | null) {
  const clock = new VirtualClock(T0);
  const sim = new Simulator(parseScenario(SCENARIO, "test.yaml"), {
    clock,
    pepper: new Uint8Array(32),
    flow: false,
    ...(payoutDelayMs !== undefined ? { payoutDelayMs } : {}),
  });
  const pipeline = new Pipeline({ sim, routes: portfolioRoutes });
  // W1 holds 10 YES (outcome 0) and 4 NO of TST on top of its 1000 collateral.
  grantShares(sim.engine, W1, "TST", 0, parseMicros("10"), parseMicros("0.5"));
  grantShares(sim.engine, W1, "TST", 1, parseMicros("4"), parseMicros("0.5"));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON bodies
  const get = async (path: string): Promise<any> => json(await pipeline.handle(req("GET", path, { headers: authHeaders() })));
  const total = () => sim.engine.balance(W1).total;
  return { clock, sim, get, total };
}

describe("settlement payouts in the simulator", () => {
  it("a resolution pays at once with one payout event per paying position; auto-redeem has nothing pending", async () => {
    const w = world();
    expect(w.sim.resolveMarket("TST", [1, 0]).ok).toBe(true);
    expect(w.total()).toBe(parseMicros("1010"));
    const body = await w.get("/api/me/balance-events?limit=500");
    const payouts = body.events.filter((e: { kind: string }) => e.kind === "payout");
    expect(payouts).toEqual([expect.objectContaining({ kind: "payout", amount: "10", balance: "1010", marketId: "TST", tradeId: null })]);
    expect(body.events[0].id).toBe(payouts[0].id); // newest first
    expect(await w.get("/api/me/auto-redeem")).toEqual({ walletAddress: W1, enabled: true, pending: [] });
    expect(w.sim.pendingPayouts()).toEqual([]);
  });

  it("a void pays 1/outcomeCount per share of every outcome", async () => {
    const w = world();
    expect(w.sim.voidMarket("TST").ok).toBe(true);
    expect(w.total()).toBe(parseMicros("1007"));
    const body = await w.get("/api/me/balance-events");
    expect(body.events.filter((e: { kind: string }) => e.kind === "payout").map((e: { amount: string }) => e.amount).sort()).toEqual(["2", "5"]);
  });

  it("a late payout: nothing until the delay has passed, auto-redeem lists it meanwhile", async () => {
    const w = world(60_000);
    w.sim.resolveMarket("TST", [0, 1]);
    expect(w.total()).toBe(parseMicros("1000"));
    expect(w.sim.engine.positions(W1, "TST").map((p) => p.quantity)).toEqual([parseMicros("10"), parseMicros("4")]);
    const ar = await w.get("/api/me/auto-redeem");
    expect(ar.pending).toEqual([{ marketId: "TST", status: "RESOLVED", settledAt: new Date(T0).toISOString() }]);
    await w.clock.advance(59_999);
    expect(w.total()).toBe(parseMicros("1000"));
    await w.clock.advance(1);
    expect(w.total()).toBe(parseMicros("1004"));
    expect(w.sim.settlements.get("TST")?.payouts.filter((p) => p.wallet === W1).map((p) => p.amount)).toEqual([0n, parseMicros("4")]);
    expect((await w.get("/api/me/auto-redeem")).pending).toEqual([]);
    expect(w.sim.engine.positions(W1, "TST").filter((p) => p.quantity > 0n)).toEqual([]);
  });

  it("a withheld payout never arrives until released; setPayoutDelay switches at run time", async () => {
    const w = world();
    w.sim.setPayoutDelay(null);
    w.sim.resolveMarket("TST", [1, 0]);
    await w.clock.advance(24 * 3600_000);
    expect(w.total()).toBe(parseMicros("1000"));
    expect(w.sim.pendingPayouts()).toEqual(["TST"]);
    expect((await w.get("/api/me/balance-events")).events.some((e: { kind: string }) => e.kind === "payout")).toBe(false);
    expect(w.sim.releasePayouts()).toEqual(["TST"]);
    expect(w.total()).toBe(parseMicros("1010"));
    expect(w.sim.releasePayouts()).toEqual([]);
    expect(() => w.sim.setPayoutDelay(-1)).toThrow(/payoutDelayMs/);
  });

  it("payoutDelayMs: null given at construction withholds payouts as setPayoutDelay(null) does", async () => {
    const w = world(null);
    w.sim.resolveMarket("TST", [1, 0]);
    await w.clock.advance(24 * 3600_000);
    expect(w.total()).toBe(parseMicros("1000"));
    expect(w.sim.pendingPayouts()).toEqual(["TST"]);
    expect(w.sim.releasePayouts()).toEqual(["TST"]);
    expect(w.total()).toBe(parseMicros("1010"));
  });

  it("balance events page newest first with a cursor; a bad cursor or before is a 400", async () => {
    const w = world();
    w.sim.resolveMarket("TST", [1, 0]);
    const all = (await w.get("/api/me/balance-events?limit=500")).events;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const first = await w.get("/api/me/balance-events?limit=1");
    expect(first.events).toEqual([all[0]]);
    const second = await w.get(`/api/me/balance-events?limit=1&cursor=${first.nextCursor}`);
    expect(second.events).toEqual([all[1]]);
    expect((await w.get("/api/me/balance-events?cursor=nope")).error.code).toBe("invalid_request");
    expect((await w.get("/api/me/balance-events?before=yesterday")).error.code).toBe("invalid_request");
  });
});
