import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log/index.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { controlRoutes } from "../../../src/sim/http/routes/control.js";
import type { RouteDef } from "../../../src/sim/http/types.js";
import { errorEnvelope } from "../../../src/wire/errors.js";
import { errorEnvelopeSchema } from "../../../src/wire/errors.js";
import { authHeaders, json, KEYS, makePipeline, makeSim, req, T0, W1, W4 } from "./helpers.js";

function setup() {
  const log = { handled: [] as string[], faults: [] as (string | null)[] };
  const routes: RouteDef[] = [
    ...controlRoutes,
    { method: "GET", pattern: "/t/ok", auth: "public", handler: (_r, ctx) => ({ status: 200, body: { ok: true, nowMs: ctx.nowMs } }) },
    { method: "POST", pattern: "/t/echo", auth: "public", handler: (r) => ({ status: 200, body: { got: r.body ?? null } }) },
    {
      method: "GET",
      pattern: "/t/throw",
      auth: "public",
      handler: () => {
        throw new Error("boom");
      },
    },
    { method: "GET", pattern: "/t/reject", auth: "public", handler: () => Promise.reject(new Error("async boom")) },
    { method: "GET", pattern: "/t/bigint", auth: "public", handler: () => ({ status: 200, body: { n: 1n } }) },
    { method: "GET", pattern: "/t/nothing", auth: "public", handler: () => undefined as never },
    {
      method: "GET",
      pattern: "/t/busy",
      auth: "public",
      handler: () => ({
        status: 409,
        headers: { "content-type": "text/plain", "X-Extra": "1" },
        body: errorEnvelope(409, "invalid_state", "busy", { retryAfterSec: 7 }),
      }),
    },
    {
      method: "GET",
      pattern: "/api/me/balances",
      auth: { scopes: ["portfolio:read"] },
      handler: (_r, ctx) => ({ status: 200, body: { walletAddress: ctx.auth?.wallet } }),
    },
    {
      method: "POST",
      pattern: "/api/orders/place",
      auth: { scopes: ["orders:write"] },
      handler: (_r, ctx) => {
        log.handled.push("place");
        log.faults.push(ctx.fault?.kind ?? null);
        return { status: 201, body: { orderId: `o${log.handled.length}`, status: "OPEN" } };
      },
    },
    {
      method: "POST",
      pattern: "/api/orders/cancel",
      auth: { scopes: ["orders:write"] },
      handler: (_r, ctx) => {
        log.faults.push(ctx.fault?.kind ?? null);
        return ctx.fault?.kind === "cancel_pending"
          ? { status: 202, headers: { "Retry-After": "5" }, body: { status: "cancel_pending", code: "cancel_pending", orderId: "o1", message: "pending", retryAfterSec: 5 } }
          : { status: 200, body: { orderId: "o1", status: "CANCELLED" } };
      },
    },
    { method: "GET", pattern: "/api/markets", auth: "public", handler: () => ({ status: 200, body: { markets: [], hasMore: false } }) },
  ];
  return { ...makePipeline(routes), log, routes };
}

const place = (key: string = KEYS.mm, wallet: string = W1) =>
  req("POST", "/api/orders/place", { headers: authHeaders(key, wallet), bodyText: "{}" });

describe("pipeline: common headers and ids", () => {
  it("stamps X-API-Version, X-Server-Time, X-Request-Id, X-Trace-Id and Content-Type on a success", async () => {
    const { pipeline } = setup();
    const a = await pipeline.handle(req("GET", "/t/ok"));
    const b = await pipeline.handle(req("GET", "/t/ok"));
    expect(a.status).toBe(200);
    expect(a.headers["X-API-Version"]).toBe("2026-10-09");
    expect(a.headers["X-Server-Time"]).toBe(String(T0));
    expect(a.headers["Content-Type"]).toBe("application/json");
    expect(a.headers["X-Request-Id"]).toMatch(/^req-[0-9a-f]{8}-[0-9a-f]{8}$/);
    expect(a.headers["X-Trace-Id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(b.headers["X-Request-Id"]).not.toBe(a.headers["X-Request-Id"]);
    expect(b.headers["X-Trace-Id"]).not.toBe(a.headers["X-Trace-Id"]);
    expect(json(a)).toEqual({ ok: true, nowMs: T0 });
  });

  it("derives ids deterministically from the seed and a counter", async () => {
    const ids = async (seed?: number) => {
      const { sim } = makeSim();
      const p = new Pipeline({ sim, routes: setup().routes, ...(seed !== undefined ? { idSeed: seed } : {}) });
      const out = [];
      for (let i = 0; i < 3; i++) {
        const r = await p.handle(req("GET", "/t/ok"));
        out.push(`${r.headers["X-Request-Id"]}|${r.headers["X-Trace-Id"]}`);
      }
      return out;
    };
    expect(await ids()).toEqual(await ids());
    expect(await ids(1)).not.toEqual(await ids(2));
  });

  it("puts the same headers on errors, with trace_id in the body equal to X-Trace-Id", async () => {
    const { pipeline } = setup();
    const res = await pipeline.handle(req("GET", "/api/nowhere"));
    expect(res.status).toBe(404);
    const body = json(res);
    expect(errorEnvelopeSchema.parse(body).error.code).toBe("not_found");
    expect(body.error.trace_id).toBe(res.headers["X-Trace-Id"]);
    for (const h of ["X-API-Version", "X-Server-Time", "X-Request-Id", "Content-Type"]) expect(res.headers[h]).toBeTruthy();
  });

  it("answers 405 invalid_request with Allow on a method the resource lacks", async () => {
    const { pipeline } = setup();
    const res = await pipeline.handle(req("DELETE", "/t/ok"));
    expect(res.status).toBe(405);
    expect(res.headers.Allow).toBe("GET");
    expect(json(res).error).toMatchObject({ code: "invalid_request", details: { allowed: ["GET"] } });
  });

  it("mirrors an envelope's retryAfterSec in Retry-After and keeps its own headers except the common ones", async () => {
    const { pipeline } = setup();
    const res = await pipeline.handle(req("GET", "/t/busy"));
    expect(res.status).toBe(409);
    expect(res.headers["Retry-After"]).toBe("7");
    expect(res.headers["X-Extra"]).toBe("1");
    expect(res.headers["Content-Type"]).toBe("application/json");
    expect(Object.keys(res.headers).filter((k) => k.toLowerCase() === "content-type")).toHaveLength(1);
    expect(json(res).error.trace_id).toBe(res.headers["X-Trace-Id"]);
  });
});

describe("pipeline: bodies and failures", () => {
  it("parses JSON bodies and refuses invalid JSON with 400 invalid_request naming the problem", async () => {
    const { pipeline } = setup();
    const good = await pipeline.handle(req("POST", "/t/echo", { bodyText: '{"a":[1,"x"]}' }));
    expect(json(good)).toEqual({ got: { a: [1, "x"] } });
    const none = await pipeline.handle(req("POST", "/t/echo"));
    expect(json(none)).toEqual({ got: null });
    const bad = await pipeline.handle(req("POST", "/t/echo", { bodyText: '{"a":' }));
    expect(bad.status).toBe(400);
    expect(json(bad).error.code).toBe("invalid_request");
    expect(json(bad).error.message).toMatch(/not valid JSON/);
  });

  it("turns a throwing, rejecting, empty or unserialisable handler into a 500 internal and keeps serving", async () => {
    const { pipeline } = setup();
    for (const path of ["/t/throw", "/t/reject", "/t/nothing", "/t/bigint"]) {
      const res = await pipeline.handle(req("GET", path));
      expect(res.status, path).toBe(500);
      expect(json(res).error.code).toBe("internal");
      expect(json(res).error.trace_id).toBe(res.headers["X-Trace-Id"]);
      expect(res.headers["X-Request-Id"]).toBeTruthy();
    }
    expect((await pipeline.handle(req("GET", "/t/ok"))).status).toBe(200);
  });

  it("logs what a handler threw, with the route and request id", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: "info" }, { write: (l: string) => void lines.push(l) });
    const { sim } = makeSim();
    const p = new Pipeline({ sim, routes: setup().routes, logger });
    const res = await p.handle(req("GET", "/t/throw"));
    const entry = JSON.parse(lines[0]!) as { level: string; route: string; requestId: string; err: { message: string } };
    expect(entry).toMatchObject({ level: "error", route: "GET /t/throw", requestId: res.headers["X-Request-Id"], err: { message: "boom" } });
  });
});

describe("pipeline: auth", () => {
  it("passes the platform's auth failures through with their status and code", async () => {
    const { pipeline } = setup();
    const cases: [Record<string, string>, number, string][] = [
      [{}, 401, "auth_required"],
      [{ "X-Api-Key": "nonsense" }, 401, "api_key_bad_format"],
      [authHeaders(KEYS.revoked), 401, "api_key_revoked"],
      [{ "X-Api-Key": KEYS.mm }, 401, "api_key_user_wallet_required"],
      [authHeaders(KEYS.mm, "0x123"), 401, "api_key_user_wallet_invalid"],
      [authHeaders(KEYS.readOnly), 403, "api_key_scope_missing"],
    ];
    for (const [headers, status, code] of cases) {
      const res = await pipeline.handle(req("GET", "/api/me/balances", { headers }));
      expect([res.status, json(res).error.code]).toEqual([status, code]);
      expect(json(res).error.trace_id).toBe(res.headers["X-Trace-Id"]);
    }
    const scope = await pipeline.handle(req("GET", "/api/me/balances", { headers: authHeaders(KEYS.readOnly) }));
    expect(json(scope).error.details).toEqual({ requiredScope: "portfolio:read", have: ["orders:read"] });
    const ok = await pipeline.handle(req("GET", "/api/me/balances", { headers: authHeaders() }));
    expect(json(ok)).toEqual({ walletAddress: W1 });
  });
});

describe("pipeline: rate limits", () => {
  it("limits place to 20 per second per wallet, then 429 rate_limited with Retry-After and X-RateLimit-*", async () => {
    const { pipeline, clock } = setup();
    for (let i = 0; i < 20; i++) {
      const res = await pipeline.handle(place());
      expect(res.status).toBe(201);
      expect(res.headers["X-RateLimit-Limit"]).toBe("20");
      expect(res.headers["X-RateLimit-Remaining"]).toBe(String(19 - i));
      expect(res.headers["X-RateLimit-Reset"]).toBe("1");
    }
    const refused = await pipeline.handle(place());
    expect(refused.status).toBe(429);
    expect(refused.headers["Retry-After"]).toBe("1");
    expect(refused.headers["X-RateLimit-Remaining"]).toBe("0");
    expect(refused.headers["X-API-Version"]).toBe("2026-10-09");
    const body = json(refused);
    expect(body.error.code).toBe("rate_limited");
    expect(body.error.retryAfterSec).toBeUndefined();
    await clock.advance(1000);
    expect((await pipeline.handle(place())).status).toBe(201);
  });

  it("scales wallet buckets by the partner's rateLimitPerMin (60 -> 2 places per second)", async () => {
    const { pipeline } = setup();
    expect((await pipeline.handle(place(KEYS.slow, W4))).headers["X-RateLimit-Limit"]).toBe("2");
    expect((await pipeline.handle(place(KEYS.slow, W4))).status).toBe(201);
    expect((await pipeline.handle(place(KEYS.slow, W4))).status).toBe(429);
    // another partner's wallet has its own bucket
    expect((await pipeline.handle(place())).status).toBe(201);
  });

  it("limits public routes by caller IP only (X-Forwarded-For), a key there changes nothing", async () => {
    const { pipeline } = setup();
    const from = (ip: string, headers: Record<string, string> = {}) =>
      pipeline.handle(req("GET", "/api/markets", { headers: { "X-Forwarded-For": `10.9.9.9, ${ip}`, ...headers } }));
    for (let i = 0; i < 600; i++) {
      const res = await from("203.0.113.7", i % 2 === 0 ? authHeaders() : {});
      if (res.status !== 200) throw new Error(`request ${i}: ${res.status}`);
    }
    const refused = await from("203.0.113.7", authHeaders());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["Retry-After"])).toBeGreaterThan(0);
    expect((await from("203.0.113.8")).status).toBe(200);
  });

  it("does not count requests refused by auth", async () => {
    const { pipeline } = setup();
    for (let i = 0; i < 30; i++) expect((await pipeline.handle(place(KEYS.revoked))).status).toBe(401);
    for (let i = 0; i < 20; i++) expect((await pipeline.handle(place())).status).toBe(201);
  });

  it("can be switched off", async () => {
    const { sim } = makeSim();
    const p = new Pipeline({ sim, routes: setup().routes, rateLimits: false });
    for (let i = 0; i < 25; i++) expect((await p.handle(place())).status).toBe(201);
  });
});

describe("pipeline: faults", () => {
  it("answers shard_owner_unavailable 503 with Retry-After 2 without running the handler", async () => {
    const { pipeline, sim, log } = setup();
    sim.platform.faults.add({ route: "POST /api/orders/place", kind: "shard_owner_unavailable", nextCalls: 1 }, T0);
    const res = await pipeline.handle(place());
    expect(res.status).toBe(503);
    expect(res.headers["Retry-After"]).toBe("2");
    expect(json(res).error).toMatchObject({ code: "shard_owner_unavailable", retryable: true, retryAfterSec: 2 });
    expect(log.handled).toEqual([]);
    expect((await pipeline.handle(place())).status).toBe(201);
  });

  it("answers trading_temporarily_unavailable 503 retryable, and rate_limited_burst 429 with the wait in the header only", async () => {
    const { pipeline, sim } = setup();
    sim.platform.faults.add({ route: "POST /api/orders/*", kind: "trading_temporarily_unavailable", nextCalls: 1 }, T0);
    sim.platform.faults.add({ route: "/api/markets", kind: "rate_limited_burst", retryAfterSec: 3, nextCalls: 1 }, T0);
    const busy = await pipeline.handle(place());
    expect([busy.status, json(busy).error.code, json(busy).error.retryable]).toEqual([503, "trading_temporarily_unavailable", true]);
    const burst = await pipeline.handle(req("GET", "/api/markets"));
    expect(burst.status).toBe(429);
    expect(burst.headers["Retry-After"]).toBe("3");
    expect(json(burst).error.code).toBe("rate_limited");
    expect(json(burst).error.retryAfterSec).toBeUndefined();
  });

  it("delays the answer by a latency fault on the sim clock", async () => {
    const { pipeline, sim, clock } = setup();
    sim.platform.faults.add({ route: "GET /t/ok", kind: "latency", latencyMs: 500, nextCalls: 1 }, T0);
    let done = false;
    const pending = pipeline.handle(req("GET", "/t/ok")).then((r) => {
      done = true;
      return r;
    });
    await clock.advance(499);
    expect(done).toBe(false);
    await clock.advance(1);
    const res = await pending;
    expect(done).toBe(true);
    expect(res.headers["X-Server-Time"]).toBe(String(T0 + 500));
    expect(json(res).nowMs).toBe(T0 + 500);
  });

  it("hands cancel_pending to the cancel handler", async () => {
    const { pipeline, sim, log } = setup();
    sim.platform.faults.add({ route: "POST /api/orders/cancel", kind: "cancel_pending", nextCalls: 1 }, T0);
    const res = await pipeline.handle(req("POST", "/api/orders/cancel", { headers: authHeaders(), bodyText: '{"orderId":"o1"}' }));
    expect(res.status).toBe(202);
    expect(res.headers["Retry-After"]).toBe("5");
    expect(log.faults).toEqual(["cancel_pending"]);
  });

  it("exchange_unavailable: without execute nothing runs; with execute the handler runs and the answer is 503", async () => {
    const { pipeline, sim, log } = setup();
    sim.platform.faults.add({ route: "POST /api/orders/place", kind: "exchange_unavailable", nextCalls: 1 }, T0);
    expect((await pipeline.handle(place())).status).toBe(503);
    expect(log.handled).toEqual([]);
    sim.platform.faults.add({ route: "POST /api/orders/place", kind: "exchange_unavailable", execute: true, nextCalls: 1 }, T0);
    const res = await pipeline.handle(place());
    expect([res.status, json(res).error.code]).toEqual([503, "exchange_unavailable"]);
    expect(log.faults).toEqual(["exchange_unavailable"]);
  });

  it("idempotency_race: answered directly off the place routes, after the handler on place", async () => {
    const { pipeline, sim, log } = setup();
    sim.platform.faults.add({ route: "*", kind: "idempotency_race", nextCalls: 2 }, T0);
    const read = await pipeline.handle(req("GET", "/api/me/balances", { headers: authHeaders() }));
    expect([read.status, json(read).error.code]).toEqual([500, "idempotency_race"]);
    const placed = await pipeline.handle(place());
    expect([placed.status, json(placed).error.code]).toEqual([500, "idempotency_race"]);
    expect(log.faults).toEqual(["idempotency_race"]);
  });

  it("never faults the /sim control routes", async () => {
    const { pipeline, sim } = setup();
    sim.platform.faults.add({ route: "*", kind: "shard_owner_unavailable" }, T0);
    expect((await pipeline.handle(req("GET", "/t/ok"))).status).toBe(503);
    expect((await pipeline.handle(req("GET", "/sim/clock"))).status).toBe(200);
    expect((await pipeline.handle(req("DELETE", "/sim/faults"))).status).toBe(200);
    expect((await pipeline.handle(req("GET", "/t/ok"))).status).toBe(200);
  });
});
