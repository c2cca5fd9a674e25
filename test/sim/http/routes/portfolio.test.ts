/**
 * The portfolio routes (src/sim/http/routes/portfolio.ts): `walletRoute`, the builder every
 * wallet route uses (GET and portfolio:read by default, a wallet required, the desk's answer
 * passed through with its headers, 401 without a wallet), the /api/me table, and a few of its
 * reads answered for the caller's wallet behind the real pipeline.
 */
import { describe, expect, it } from "vitest";
import { portfolioRoutes, walletRoute } from "../../../../src/sim/http/routes/portfolio.js";
import type { RouteContext, SimRequest } from "../../../../src/sim/http/types.js";
import type { AuthorizeSuccess } from "../../../../src/sim/platform/platform.js";
import type { Simulator } from "../../../../src/sim/simulator.js";
import { authHeaders, json, KEYS, makePipeline, req, T0, W1 } from "../helpers.js";

const REQ: SimRequest = { method: "GET", path: "/x", query: new URLSearchParams("a=1"), headers: {}, body: undefined, ip: "127.0.0.1", params: {} };
const ctxWith = (wallet: string | null): RouteContext => ({
  sim: {} as Simulator,
  nowMs: T0,
  requestId: "req-1",
  traceId: "trace-1",
  auth: { ok: true, partner: { id: "mm" }, wallet } as unknown as AuthorizeSuccess,
});

describe("walletRoute", () => {
  it("defaults to GET with portfolio:read, and always requires a wallet", () => {
    const r = walletRoute("/api/me/x", () => ({ status: 200, body: null }));
    expect(r).toMatchObject({ method: "GET", pattern: "/api/me/x", auth: { scopes: ["portfolio:read"], walletRequired: true } });
    expect(walletRoute("/api/me/y", () => ({ status: 200, body: null }), "POST", "vault:write")).toMatchObject({ method: "POST", auth: { scopes: ["vault:write"], walletRequired: true } });
  });

  it("calls the handler with the lower-cased caller and the request, and answers what it says", async () => {
    const seen: unknown[] = [];
    const r = walletRoute("/api/me/x", (caller, request) => {
      seen.push(caller.wallet, request.query.get("a"));
      return { status: 202, body: { done: true } };
    });
    expect(await r.handler(REQ, ctxWith("0xABCDEF0000000000000000000000000000000001"))).toEqual({ status: 202, body: { done: true } });
    expect(seen).toEqual(["0xabcdef0000000000000000000000000000000001", "1"]);
  });

  it("passes the desk's headers through only when it has some", async () => {
    const r = walletRoute("/api/me/x", () => ({ status: 503, body: {}, headers: { "Retry-After": "2" } }));
    expect(await r.handler(REQ, ctxWith(W1))).toEqual({ status: 503, body: {}, headers: { "Retry-After": "2" } });
  });

  it("answers 401 api_key_user_wallet_required without calling the handler when there is no wallet", async () => {
    let called = false;
    const r = walletRoute("/api/me/x", () => ((called = true), { status: 200, body: null }));
    const res = await r.handler(REQ, ctxWith(null));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: "api_key_user_wallet_required" } });
    expect(called).toBe(false);
  });
});

describe("portfolioRoutes", () => {
  it("are the wallet's GET reads under /api/me, all portfolio:read", () => {
    expect(portfolioRoutes.map((r) => r.pattern)).toEqual([
      "/api/me/vault",
      "/api/me/balances",
      "/api/me/positions",
      "/api/me/trades",
      "/api/me/fees",
      "/api/me/portfolio",
      "/api/me/fee-tier",
      "/api/me/auto-redeem",
      "/api/me/deposit-limits",
      "/api/me/balance-events",
    ]);
    for (const r of portfolioRoutes) expect(r).toMatchObject({ method: "GET", auth: { scopes: ["portfolio:read"], walletRequired: true } });
  });

  it("answer for the wallet named in X-User-Wallet, behind the pipeline", async () => {
    const { pipeline } = makePipeline(portfolioRoutes, { rateLimits: false });
    const get = async (path: string, headers = authHeaders(KEYS.mm, W1.toUpperCase().replace("0X", "0x"))) => pipeline.handle(req("GET", path, { headers }));
    const balances = await get("/api/me/balances");
    expect(balances.status).toBe(200);
    expect(json(balances)).toMatchObject({ walletAddress: W1, collateral: { total: "1000", locked: "0", available: "1000" } });
    expect(json(await get("/api/me/fee-tier"))).toEqual({ walletAddress: W1, tier: "standard", takerFeeMultiplier: "1" });
    expect(json(await get("/api/me/deposit-limits"))).toEqual({ walletAddress: W1, daily: null, weekly: null, monthly: null });
  });

  it("are refused to a key without portfolio:read", async () => {
    const { pipeline } = makePipeline(portfolioRoutes, { rateLimits: false });
    const res = await pipeline.handle(req("GET", "/api/me/balances", { headers: authHeaders(KEYS.readOnly, W1) }));
    expect(res.status).toBe(403);
  });
});
