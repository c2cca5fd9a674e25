import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import type { GateAnswer, GateRequest, RequestGate } from "../../src/api/index.js";
import { ApiError, TransportError } from "../../src/api/index.js";
import { Secret } from "../../src/core/secret.js";
import { exampleBalances, exampleContracts, exampleMarket, examplePlaceBody, OTHER_WALLET, WALLET } from "../wire/fixtures.js";
import { envelope, json, rejectionOf, settle } from "./fake-transport.js";
import { API_KEY, harness } from "./helpers.js";

describe("meta headers", () => {
  it("keeps X-API-Version, X-Server-Time, X-Request-Id, X-Trace-Id and the rate-limit headers", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(
      json(200, exampleContracts(), {
        "x-api-version": "2026-10-09",
        "x-server-time": "1767225600123",
        "x-request-id": "req-77",
        "x-trace-id": "tr-9",
        "x-ratelimit-limit": "600",
        "x-ratelimit-remaining": "599",
        "x-ratelimit-reset": "42",
      }),
    );
    const res = await settle(clock, client.platform.contracts());
    expect(res.meta).toEqual({
      status: 200,
      apiVersion: "2026-10-09",
      serverTime: 1767225600123,
      requestId: "req-77",
      traceId: "tr-9",
      rateLimit: { limit: 600, remaining: 599, resetSec: 42 },
      retryAfterSec: undefined,
      attempts: 1,
    });
  });

  it("an ApiError keeps the meta and the trace id of its answer", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(404, "market_not_found", "no such market", { details: { slug: "x" } }, { "x-trace-id": "tr-1", "x-request-id": "req-2" }));
    const e = (await rejectionOf(clock, client.markets.get("x"))) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 404, code: "market_not_found", traceId: "tr-1", details: { slug: "x" }, known: true, source: "http" });
    expect(e.meta?.requestId).toBe("req-2");
  });

  it("flattens details.upstream", async () => {
    const { clock, transport, client } = harness({ retry: { maxAttempts: 1 } });
    transport.enqueue(envelope(502, "exchange_upstream_error", "upstream said no", { details: { upstream: { status: 504, body: "gateway" } } }));
    const e = (await rejectionOf(clock, client.platform.contracts())) as ApiError;
    expect(e.upstream).toEqual({ status: 504, body: "gateway" });
    expect(e.handling).toBe("unknown_outcome");
  });
});

describe("schema mismatch", () => {
  it("becomes a typed error naming the bad path, not a crash", async () => {
    const { clock, transport, client } = harness();
    const bad = exampleMarket({ id: "not-a-uuid" });
    transport.enqueue(json(200, { markets: [exampleMarket(), bad], hasMore: false }));
    const e = (await rejectionOf(clock, client.markets.list())) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.source).toBe("schema");
    expect(e.code).toBe("invalid_response");
    expect(e.issues?.map((i) => i.path)).toContain("markets[1].id");
    expect(e.message).toContain("markets[1].id");
  });

  it("a body that is not JSON is a schema error too", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue({ status: 200, headers: {}, body: "<html>oops</html>" });
    const e = (await rejectionOf(clock, client.platform.contracts())) as ApiError;
    expect(e.source).toBe("schema");
    expect(e.issues?.[0]?.path).toBe("(root)");
  });

  it("a 200 that carries a code on a read is a business refusal", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "wallet_banned", message: "banned" }));
    const e = (await rejectionOf(clock, client.portfolio.balances())) as ApiError;
    expect(e.code).toBe("wallet_banned");
    expect(e.handling).toBe("business_reject");
  });

  it("extra keys from the platform pass through", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { ...exampleContracts(), futureKey: 1 }));
    const res = await settle(clock, client.platform.contracts());
    expect((res.data as Record<string, unknown>).futureKey).toBe(1);
  });
});

describe("the API key never leaks", () => {
  function assertClean(e: unknown): void {
    const texts = [String(e), JSON.stringify(e), inspect(e, { depth: 10 }), (e as Error).stack ?? "", (e as Error).message];
    for (const t of texts) expect(t).not.toContain(API_KEY);
  }

  it("is sent only as X-Api-Key on authenticated calls", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleContracts()), json(200, exampleBalances()));
    await settle(clock, client.platform.contracts());
    await settle(clock, client.forWallet(WALLET).portfolio.balances());
    expect(transport.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(transport.requests[1]!.headers["x-api-key"]).toBe(API_KEY);
    expect(JSON.stringify(client)).not.toContain(API_KEY);
    expect(inspect(client, { depth: 10 })).not.toContain(API_KEY);
  });

  it("is absent from errors even when the server or the transport echoes it", async () => {
    const { clock, transport, client } = harness({ retry: { maxAttempts: 1 } });
    transport.enqueue(
      envelope(401, "api_key_bad_secret", `bad secret in ${API_KEY}`, { details: { key: API_KEY, nested: [{ k: `x${API_KEY}y` }] } }),
      new TransportError(`socket hang up sending x-api-key: ${API_KEY}`, true, "reset"),
      new Error(`weird failure ${API_KEY}`),
      { status: 500, headers: {}, body: `upstream echoed ${API_KEY}` },
      json(200, { markets: [exampleMarket({ id: API_KEY })], hasMore: false }),
    );
    const errors = [
      await rejectionOf(clock, client.portfolio.balances()),
      await rejectionOf(clock, client.portfolio.balances()),
      await rejectionOf(clock, client.portfolio.balances()),
      await rejectionOf(clock, client.portfolio.balances()),
      await rejectionOf(clock, client.markets.list()),
    ];
    for (const e of errors) {
      expect(e).toBeInstanceOf(ApiError);
      assertClean(e);
    }
    expect((errors[0] as ApiError).message).toContain("[REDACTED]");
  });

  it("placement results (unknown outcome) carry no key either", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(new TransportError(`timeout ${API_KEY}`, true, "timeout"));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out.outcome).toBe("unknown");
    expect(JSON.stringify(out)).not.toContain(API_KEY);
    expect(inspect(out, { depth: 10 })).not.toContain(API_KEY);
  });

  it("accepts a Secret and reveals it only into the header", async () => {
    const { clock, transport, client } = harness({ apiKey: new Secret(API_KEY, "test") });
    transport.enqueue(json(200, exampleBalances()));
    await settle(clock, client.portfolio.balances());
    expect(transport.requests[0]!.headers["x-api-key"]).toBe(API_KEY);
  });
});

describe("X-User-Wallet per call", () => {
  it("each wallet view sends its own wallet; public calls and the default view send none", async () => {
    const { clock, transport, client } = harness();
    transport.route("GET", /^\/api\/me\/balances$/, json(200, exampleBalances()));
    transport.route("GET", /^\/api\/platform\/contracts$/, json(200, exampleContracts()));
    await settle(clock, client.forWallet(WALLET).portfolio.balances());
    await settle(clock, client.forWallet(OTHER_WALLET).portfolio.balances());
    await settle(clock, client.portfolio.balances());
    await settle(clock, client.platform.contracts());
    expect(transport.requests.map((r) => r.headers["x-user-wallet"])).toEqual([WALLET, OTHER_WALLET, undefined, undefined]);
    expect(client.forWallet(WALLET)).toBe(client.forWallet(WALLET.toUpperCase().replace("0X", "0x")));
  });

  it("defaultWallet binds the client's own groups; a malformed wallet is refused", async () => {
    const { clock, transport, client } = harness({ defaultWallet: WALLET });
    transport.enqueue(json(200, exampleBalances()));
    await settle(clock, client.portfolio.balances());
    expect(transport.requests[0]!.headers["x-user-wallet"]).toBe(WALLET);
    expect(() => client.forWallet("0x123")).toThrow(RangeError);
  });
});

describe("rate gate", () => {
  it("is asked before every attempt and told every answer", async () => {
    const asked: GateRequest[] = [];
    const told: GateAnswer[] = [];
    let t = 0;
    const gate: RequestGate = {
      acquire: (r) => {
        asked.push(r);
        return Promise.resolve({ admittedAtMs: ++t });
      },
      observe: (a) => told.push(a),
    };
    const { clock, transport, client } = harness({ gate });
    transport.enqueue(envelope(429, "rate_limited", "x", {}, { "retry-after": "1", "x-ratelimit-limit": "20" }), json(200, exampleBalances()));
    await settle(clock, client.forWallet(WALLET).portfolio.balances());
    expect(asked).toEqual([
      { method: "GET", path: "/api/me/balances", wallet: WALLET },
      { method: "GET", path: "/api/me/balances", wallet: WALLET },
    ]);
    expect(told.map((a) => [a.status, a.sentAtMs, a.wallet])).toEqual([
      [429, 1, WALLET],
      [200, 2, WALLET],
    ]);
    expect(told[0]!.headers?.["retry-after"]).toBe("1");
  });
});

describe("paths and queries", () => {
  it("encodes path parameters and builds queries safely", async () => {
    const { clock, transport, client } = harness();
    transport.route("GET", /.*/, (r) => (r.path.startsWith("/api/markets?") ? json(200, { markets: [], hasMore: false }) : envelope(404, "market_not_found")));
    await rejectionOf(clock, client.markets.get("a/b?c=d&e"));
    await rejectionOf(clock, client.markets.trades("SYM 1", { limit: 10, before: "2026-01-01T00:00:00Z" }));
    await settle(clock, client.markets.list({ limit: 5, status: ["OPEN", "PAUSED"], closed: false }));
    expect(transport.paths()).toEqual([
      "GET /api/markets/a%2Fb%3Fc%3Dd%26e",
      "GET /api/markets/SYM%201/trades?limit=10&before=2026-01-01T00%3A00%3A00Z",
      "GET /api/markets?limit=5&status=OPEN&status=PAUSED",
    ]);
  });
});
