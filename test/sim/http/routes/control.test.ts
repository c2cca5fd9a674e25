import { describe, expect, it } from "vitest";
import { RealClock } from "../../../../src/core/clock.js";
import { parseMicros } from "../../../../src/core/money.js";
import { Pipeline, type RawRequest } from "../../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../../src/sim/http/routes/index.js";
import { authHeaders, json, KEYS, makeSim, req, simWith, T0, W1, W4 } from "../helpers.js";

function setup(clock?: RealClock) {
  const sim = clock ? simWith(clock) : makeSim().sim;
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const call = async (method: string, url: string, body?: unknown, extra: Partial<RawRequest> = {}) => {
    const res = await pipeline.handle(req(method, url, { ...(body !== undefined ? { bodyText: JSON.stringify(body) } : {}), ...extra }));
    return { status: res.status, body: json(res), headers: res.headers };
  };
  return { sim, pipeline, call };
}

describe("/sim control routes", () => {
  it("reads and advances the virtual clock, refusing bad input", async () => {
    const { call, sim } = setup();
    expect((await call("GET", "/sim/clock")).body).toEqual({ nowMs: T0, now: new Date(T0).toISOString(), mode: "virtual" });
    const adv = await call("POST", "/sim/clock/advance", { ms: 5000 });
    expect(adv.body).toMatchObject({ fromMs: T0, nowMs: T0 + 5000 });
    expect(sim.clock.now()).toBe(T0 + 5000);
    for (const bad of [{ ms: -1 }, { ms: 1.5 }, {}, { ms: 1, x: 2 }]) {
      const r = await call("POST", "/sim/clock/advance", bad);
      expect([r.status, r.body.error.code], JSON.stringify(bad)).toEqual([400, "invalid_request"]);
    }
  });

  it("refuses to advance a real clock with 409 invalid_state", async () => {
    const { call } = setup(new RealClock());
    const r = await call("POST", "/sim/clock/advance", { ms: 10 });
    expect([r.status, r.body.error.code]).toEqual([409, "invalid_state"]);
    expect((await call("GET", "/sim/clock")).body.mode).toBe("realtime");
  });

  it("moves a market through the lifecycle and reports refusals and unknown markets", async () => {
    const { call, sim } = setup();
    const paused = await call("POST", "/sim/markets/TST/status", { trigger: "pause" });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ symbol: "TST", status: "PAUSED", transition: { trigger: "pause", from: "OPEN", to: "PAUSED" } });
    expect(sim.engine.market("TST").phase).toBe("halted");
    const set = await call("POST", "/sim/markets/TST/status", { status: "OPEN" });
    expect(set.body.status).toBe("OPEN");
    const refused = await call("POST", "/sim/markets/TST/status", { trigger: "resume" });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.error.code).toBeTruthy();
    expect((await call("POST", "/sim/markets/NOPE/status", { trigger: "pause" })).body.error.code).toBe("market_not_found");
    expect((await call("POST", "/sim/markets/TST/status", {})).status).toBe(400);
    expect((await call("POST", "/sim/markets/TST/status", { trigger: "explode" })).status).toBe(400);
    expect((await call("POST", "/sim/markets/TST/status", { trigger: "resolve" })).status).toBe(400);
  });

  it("resolves a market (the engine pays out) and refuses a second settlement", async () => {
    const { call, sim } = setup();
    const bad = await call("POST", "/sim/markets/TST/resolve", { payoutNumerators: "1,0" });
    expect(bad.status).toBe(400);
    const r = await call("POST", "/sim/markets/TST/resolve", { payoutNumerators: [1, 0] });
    expect(r.body).toMatchObject({ symbol: "TST", status: "RESOLVED", payoutNumerators: [1, 0] });
    expect(sim.engine.market("TST").phase).toBe("resolved");
    const again = await call("POST", "/sim/markets/TST/void");
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it("voids a market", async () => {
    const { call, sim } = setup();
    const r = await call("POST", "/sim/markets/TST/void");
    expect(r.body).toMatchObject({ status: "VOIDED" });
    expect(sim.engine.market("TST").phase).toBe("voided");
  });

  it("funds a wallet and shows it on /api/me/balances", async () => {
    const { call } = setup();
    const r = await call("POST", `/sim/wallets/${W1.toUpperCase().replace("0X", "0x")}/fund`, { amount: "12.5" });
    expect(r.body).toMatchObject({ walletAddress: W1, funded: "12.5", collateral: { total: "1012.5" } });
    const bal = await call("GET", "/api/me/balances", undefined, { headers: authHeaders() });
    expect(bal.body.collateral.total).toBe("1012.5");
    expect((await call("POST", `/sim/wallets/${W1}/fund`, { amount: "-1" })).status).toBe(400);
    expect((await call("POST", `/sim/wallets/${W1}/fund`, { amount: 5 })).status).toBe(400);
    expect((await call("POST", "/sim/wallets/0x12/fund", { amount: "1" })).status).toBe(400);
  });

  it("issues a key (plaintext once) that works, and revokes it", async () => {
    const { call } = setup();
    const issued = await call("POST", "/sim/keys", { partnerId: "mm", scopes: ["orders:read"], label: "test" });
    expect(issued.status).toBe(201);
    expect(issued.body.key).toMatch(/^pmk_sim_[0-9a-f]{16}_[A-Za-z0-9]{32}$/);
    expect(issued.body).toMatchObject({ partnerId: "mm", scopes: ["orders:read"], label: "test", revokedAt: null });
    const use = () => call("GET", "/api/orders/open", undefined, { headers: authHeaders(issued.body.key) });
    expect((await use()).status).toBe(200);
    const revoked = await call("POST", `/sim/keys/${issued.body.keyId}/revoke`);
    expect(revoked.body.revokedAt).toBe(new Date(T0).toISOString());
    expect(JSON.stringify(revoked.body)).not.toContain(issued.body.key);
    expect((await use()).body.error.code).toBe("api_key_revoked");
    expect((await call("POST", "/sim/keys/ffffffffffffffff/revoke")).status).toBe(404);
    expect((await call("POST", "/sim/keys", { partnerId: "ghost", scopes: ["orders:read"] })).status).toBe(404);
    expect((await call("POST", "/sim/keys", { partnerId: "mm", scopes: ["admin"] })).status).toBe(400);
  });

  it("adds, lists, fires and removes fault rules", async () => {
    const { call } = setup();
    const added = await call("POST", "/sim/faults", { id: "shard", route: "GET /api/orders/open", kind: "shard_owner_unavailable", nextCalls: 1 });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: "shard", kind: "shard_owner_unavailable", remaining: 1, fired: 0 });
    const hit = await call("GET", "/api/orders/open", undefined, { headers: authHeaders() });
    expect([hit.status, hit.headers["Retry-After"]]).toEqual([503, "2"]);
    expect((await call("GET", "/sim/faults")).body.faults).toMatchObject([{ id: "shard", remaining: 0, fired: 1 }]);
    const windowed = await call("POST", "/sim/faults", { route: "*", kind: "latency", latencyMs: 5, window: { from: "+1m", to: "+2m" } });
    expect(windowed.body).toMatchObject({ from: new Date(T0 + 60_000).toISOString(), to: new Date(T0 + 120_000).toISOString() });
    expect((await call("POST", "/sim/faults", { route: "*", kind: "meteor" })).status).toBe(400);
    expect((await call("POST", "/sim/faults", { id: "shard", route: "*", kind: "latency" })).status).toBe(400);
    expect((await call("DELETE", "/sim/faults/shard")).body).toEqual({ removed: 1 });
    expect((await call("DELETE", "/sim/faults/shard")).status).toBe(404);
    expect((await call("DELETE", "/sim/faults")).body).toEqual({ removed: 1 });
    expect((await call("GET", "/sim/faults")).body).toEqual({ faults: [] });
  });

  it("lists the whole trade log with decimal strings", async () => {
    const { call, sim } = setup();
    sim.fund(W4, parseMicros("100"));
    sim.engine.place({ wallet: W1, marketId: "TST", outcome: 0, side: "BUY", price: parseMicros("0.6"), quantity: parseMicros("5") });
    sim.engine.place({ wallet: W4, marketId: "TST", outcome: 1, side: "BUY", price: parseMicros("0.4"), quantity: parseMicros("5") });
    const r = await call("GET", "/sim/trades");
    expect(r.body.count).toBe(1);
    expect(r.body.trades[0]).toMatchObject({ marketId: "TST", quantity: "5", price: expect.any(String), createdAt: new Date(T0).toISOString() });
    expect(r.body.trades[0].makerWallet.toLowerCase()).toBe(W1);
  });

  it("needs no API key (a key is ignored)", async () => {
    const { call } = setup();
    expect((await call("GET", "/sim/faults", undefined, { headers: { "X-Api-Key": KEYS.revoked } })).status).toBe(200);
  });
});
