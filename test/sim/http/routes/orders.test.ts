/**
 * The order routes (src/sim/http/routes/orders.ts) as a route table and as handlers: the scopes
 * and wallet rule of each route, the caller taken from the context (wallet lower-cased), writes
 * handed to the right desk call with the body, caller and fault, reads answered by the desk or
 * by the fault the pipeline passed (cancel_pending and latency left alone), partner feeds that
 * need a key but no wallet, and the 401s when the pipeline let a caller through without one.
 * The desk's own behaviour is tested in test/sim/desk.
 */
import { describe, expect, it, vi } from "vitest";
import type { DeskAnswer } from "../../../../src/sim/desk/answers.js";
import { callerOf, noWallet, orderRoutes } from "../../../../src/sim/http/routes/orders.js";
import type { HttpMethod, RouteContext, SimRequest } from "../../../../src/sim/http/types.js";
import { failure } from "../../../../src/sim/platform/errors.js";
import type { Fault } from "../../../../src/sim/platform/faults.js";
import type { AuthorizeSuccess } from "../../../../src/sim/platform/platform.js";
import type { Simulator } from "../../../../src/sim/simulator.js";
import { makeSim, T0, W1 } from "../helpers.js";

const MIXED = "0x86dE5549fb86499C2E7E935b175e2BB5c1Fde79e"; // W1, EIP-55
const PARTNER = { id: "mm", name: "MM" } as AuthorizeSuccess["partner"];
const auth = (wallet: string | null): AuthorizeSuccess => ({ ok: true, partner: PARTNER, wallet, walletRecord: null, onboardingEnqueued: false }) as unknown as AuthorizeSuccess;

function ctx(sim: Simulator, over: Partial<RouteContext> = {}): RouteContext {
  return { sim, nowMs: T0, requestId: "req-1", traceId: "trace-1", ...over };
}

function request(method: HttpMethod, path: string, params: Record<string, string> = {}, body?: unknown): SimRequest {
  return { method, path, query: new URLSearchParams(), headers: {}, body, ip: "127.0.0.1", params };
}

function route(method: HttpMethod, pattern: string) {
  const r = orderRoutes.find((x) => x.method === method && x.pattern === pattern);
  if (r === undefined) throw new Error(`no route ${method} ${pattern}`);
  return r;
}

const fault = (kind: string, http = failure(502, "exchange_upstream_error", "upstream failed")): Fault => ({ ruleId: "r1", latencyMs: 0, kind, http, execute: true, completeAfterMs: 0 }) as unknown as Fault;

describe("the order route table", () => {
  it("writes need orders:write and a wallet, reads orders:read and a wallet, partner feeds no wallet", () => {
    const table = orderRoutes.map((r) => [r.method, r.pattern, r.auth === "public" ? "public" : `${r.auth.scopes.join("+")}${r.auth.walletRequired ? " +wallet" : ""}`]);
    expect(table).toEqual([
      ["POST", "/api/orders/place", "orders:write +wallet"],
      ["POST", "/api/orders/place-batch", "orders:write +wallet"],
      ["POST", "/api/orders/cancel", "orders:write +wallet"],
      ["POST", "/api/orders/cancel-batch", "orders:write +wallet"],
      ["POST", "/api/orders/cancel-all", "orders:write +wallet"],
      ["GET", "/api/orders/open", "orders:read +wallet"],
      ["GET", "/api/orders/history", "orders:read +wallet"],
      ["GET", "/api/orders/lookup", "orders:read +wallet"],
      ["GET", "/api/orders/:id", "orders:read +wallet"],
      ["GET", "/api/orders/:id/fills", "orders:read +wallet"],
      ["GET", "/api/orders/:id/fees-summary", "orders:read +wallet"],
      ["GET", "/api/v1/partner/trades", "orders:read"],
      ["GET", "/api/v1/partner/mm-kpis", "orders:read"],
      ["GET", "/api/v1/partner/reconciliation/snapshot", "portfolio:read"],
    ]);
  });
});

describe("callerOf and noWallet", () => {
  it("the effective wallet lower-cased, with its partner; nothing without an authenticated wallet", () => {
    const { sim } = makeSim();
    expect(callerOf(ctx(sim, { auth: auth(MIXED) }))).toEqual({ wallet: W1, partner: PARTNER });
    expect(callerOf(ctx(sim, { auth: auth(null) }))).toBeUndefined();
    expect(callerOf(ctx(sim))).toBeUndefined();
  });

  it("noWallet is 401 api_key_user_wallet_required", () => {
    expect(noWallet()).toEqual({
      status: 401,
      body: { status: 401, error: { code: "api_key_user_wallet_required", message: "this endpoint acts for a wallet: send X-User-Wallet" } },
    });
  });
});

describe("write routes", () => {
  /** A simulator whose desk only records what it was asked. */
  function stubSim(answer: DeskAnswer) {
    const calls: [string, unknown, unknown, unknown][] = [];
    const rec = (name: string) => vi.fn((body: unknown, caller: unknown, f: unknown) => (calls.push([name, body, caller, f]), answer));
    const sim = { desk: { place: rec("place"), placeBatch: rec("placeBatch"), cancels: { cancel: rec("cancel"), cancelBatch: rec("cancelBatch"), cancelAll: rec("cancelAll") } } } as unknown as Simulator;
    return { sim, calls };
  }

  it.each([
    ["/api/orders/place", "place"],
    ["/api/orders/place-batch", "placeBatch"],
    ["/api/orders/cancel", "cancel"],
    ["/api/orders/cancel-batch", "cancelBatch"],
    ["/api/orders/cancel-all", "cancelAll"],
  ])("POST %s hands the body, the caller and the fault to desk.%s and answers what it says", async (pattern, call) => {
    const { sim, calls } = stubSim({ status: 201, body: { ok: 1 } });
    const f = fault("exchange_unavailable");
    const res = await route("POST", pattern).handler(request("POST", pattern, {}, { orderId: "o1" }), ctx(sim, { auth: auth(MIXED), fault: f }));
    expect(res).toEqual({ status: 201, body: { ok: 1 } });
    expect(calls).toEqual([[call, { orderId: "o1" }, { wallet: W1, partner: PARTNER }, f]]);
  });

  it("passes the desk's headers through", async () => {
    const { sim } = stubSim({ status: 503, body: {}, headers: { "Retry-After": "5" } });
    expect(await route("POST", "/api/orders/cancel").handler(request("POST", "/api/orders/cancel"), ctx(sim, { auth: auth(W1) }))).toEqual({ status: 503, body: {}, headers: { "Retry-After": "5" } });
  });

  it("answers 401 without asking the desk when there is no wallet", async () => {
    const { sim, calls } = stubSim({ status: 200, body: {} });
    const res = await route("POST", "/api/orders/place").handler(request("POST", "/api/orders/place"), ctx(sim, { auth: auth(null) }));
    expect(res.status).toBe(401);
    expect(calls).toEqual([]);
  });
});

describe("read routes", () => {
  it("answer the desk's read for the caller's wallet", async () => {
    const { sim } = makeSim();
    const open = await route("GET", "/api/orders/open").handler(request("GET", "/api/orders/open"), ctx(sim, { auth: auth(MIXED) }));
    expect(open).toEqual({ status: 200, body: { walletAddress: W1, orders: [], nextCursor: null } });
    for (const pattern of ["/api/orders/:id", "/api/orders/:id/fills", "/api/orders/:id/fees-summary"]) {
      const res = await route("GET", pattern).handler(request("GET", pattern, { id: "o404" }), ctx(sim, { auth: auth(W1) }));
      expect(res.status, pattern).toBe(404);
      expect(res.body).toMatchObject({ error: { code: "order_not_found", details: { orderId: "o404" } } });
    }
  });

  it("answer the fault the pipeline passed instead of reading, with Retry-After when it has one", async () => {
    const { sim } = makeSim();
    const f = fault("exchange_upstream_error", failure(503, "exchange_unavailable", "try later", undefined, { retryable: true, retryAfterSec: 2.5 }));
    const res = await route("GET", "/api/orders/history").handler(request("GET", "/api/orders/history"), ctx(sim, { auth: auth(W1), fault: f }));
    expect(res.status).toBe(503);
    expect(res.headers).toEqual({ "Retry-After": "3" });
    expect(res.body).toMatchObject({ status: 503, error: { code: "exchange_unavailable", message: "try later", retryable: true } });
  });

  it("leave cancel_pending and latency faults alone", async () => {
    const { sim } = makeSim();
    const latency = { ruleId: "r", latencyMs: 5, kind: "latency" } as Fault;
    for (const f of [fault("cancel_pending"), latency]) {
      const res = await route("GET", "/api/orders/open").handler(request("GET", "/api/orders/open"), ctx(sim, { auth: auth(W1), fault: f }));
      expect(res.status).toBe(200);
    }
  });

  it("answer 401 when there is no wallet", async () => {
    const { sim } = makeSim();
    const res = await route("GET", "/api/orders/lookup").handler(request("GET", "/api/orders/lookup"), ctx(sim, { auth: auth(null) }));
    expect(res.status).toBe(401);
  });
});

describe("partner feeds", () => {
  it("answer for the key's partner without a wallet", async () => {
    const { sim } = makeSim();
    for (const pattern of ["/api/v1/partner/trades", "/api/v1/partner/mm-kpis", "/api/v1/partner/reconciliation/snapshot"]) {
      const res = await route("GET", pattern).handler(request("GET", pattern), ctx(sim, { auth: auth(null) }));
      expect(res.status, `${pattern} ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it("answer 401 auth_required without an authenticated key, and a passed fault instead of the feed", async () => {
    const { sim } = makeSim();
    const none = await route("GET", "/api/v1/partner/trades").handler(request("GET", "/api/v1/partner/trades"), ctx(sim));
    expect(none).toEqual({ status: 401, body: { status: 401, error: { code: "auth_required", message: "X-Api-Key header is required on this endpoint" } } });
    const faulted = await route("GET", "/api/v1/partner/mm-kpis").handler(request("GET", "/api/v1/partner/mm-kpis"), ctx(sim, { auth: auth(null), fault: fault("exchange_transport_error") }));
    expect(faulted.status).toBe(502);
    expect(faulted.body).toMatchObject({ error: { code: "exchange_upstream_error" } });
  });
});
