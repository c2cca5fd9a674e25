/**
 * Spec 4 (common rules), 7.1 (envelopes), 8.1 (rate-limit headers) and 9 (X-API-Version),
 * probed over loopback HTTP with plain fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boot, expectEnvelope, T0, type Conformance } from "./harness.js";

let c: Conformance;
beforeAll(async () => {
  c = await boot();
});
afterAll(async () => {
  await c.close();
});

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function expectCommon(h: Headers): void {
  expect(h.get("x-api-version")).toMatch(DATE_RE);
  expect(h.get("x-server-time")).toMatch(/^\d+$/);
  expect(h.get("x-request-id")).toBeTruthy();
}

function expectRateHeaders(h: Headers): void {
  expect(h.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  expect(h.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  // delta-seconds, never an epoch
  const reset = Number(h.get("x-ratelimit-reset"));
  expect(reset).toBeGreaterThanOrEqual(0);
  expect(reset).toBeLessThanOrEqual(60);
}

describe("4 / 9: common response headers", () => {
  it("public, authenticated, error and unknown-route answers all carry X-API-Version, X-Server-Time, X-Request-Id", async () => {
    const probes = [
      await c.send("/health"),
      await c.send("/api/markets"),
      await c.send("/api/events"),
      await c.send("/api/tags"),
      await c.send("/api/platform/contracts"),
      await c.send("/api/orders/open", { headers: c.auth() }),
      await c.send("/api/orders/open"),
      await c.send("/api/markets/no-such-market"),
      await c.send("/api/no/such/route"),
    ];
    for (const r of probes) expectCommon(r.headers);
    // X-API-Version is a date tag (9), the same on every answer.
    expect(new Set(probes.map((r) => r.headers.get("x-api-version"))).size).toBe(1);
    expect(probes[0]!.headers.get("x-api-version")).toBe("2026-10-09");
    // X-Request-Id is per request.
    expect(new Set(probes.map((r) => r.headers.get("x-request-id"))).size).toBe(probes.length);
  });

  it("X-Server-Time is the millisecond epoch at receipt (comparable with WS serverTs)", async () => {
    const r = await c.send("/health");
    expect(Number(r.headers.get("x-server-time"))).toBe(c.clock.now());
    expect(c.clock.now()).toBeGreaterThanOrEqual(T0);
  });

  it("rate-limit headers on rate-limited endpoints, Reset as delta-seconds", async () => {
    for (const r of [
      await c.send("/api/markets"),
      await c.send("/api/events"),
      await c.send("/api/orders/open", { headers: c.auth() }),
      await c.send("/api/me/balances", { headers: c.auth() }),
    ]) {
      expect(r.status).toBe(200);
      expectRateHeaders(r.headers);
    }
  });

  // Spec 4 common rules: "Responses carry X-API-Version, X-Server-Time, X-Request-Id, and the
  // rate-limit headers." A request refused by auth is still checked against its ip buckets and
  // told about them; endpoints without any bucket (/health, /api/tags, ...) send none.
  // An unauthenticated caller has no wallet yet, so only the ip buckets can apply: place has one
  // (the shared `POST /api/orders/*` 6000/60 s), open orders has none (wallet bucket only).
  it("a 401 answer of an endpoint with an ip bucket carries the rate-limit headers", async () => {
    const r = await c.send("/api/orders/place", { method: "POST", headers: { "content-type": "application/json" }, body: {} });
    expect(r.status).toBe(401);
    expectRateHeaders(r.headers);
  });
});

describe("7.1: error envelopes", () => {
  it("standard envelope {status, error:{code, message, trace_id}} with X-Trace-Id echoed", async () => {
    const e = expectEnvelope(await c.send("/api/markets/no-such-market"), 404, "market_not_found");
    expect(e.trace_id).toMatch(/\S/);
    expectEnvelope(await c.send("/api/events/no-such-event"), 404, "event_not_found");
    expectEnvelope(await c.send("/api/orders/open"), 401, "auth_required");
  });

  it("a malformed JSON body is a 400 envelope", async () => {
    const r = await c.send("/api/orders/cancel", { method: "POST", headers: { ...c.auth(), "content-type": "application/json" }, raw: "{" });
    expectEnvelope(r, 400, "invalid_request");
  });

  it("a 429 is the standard envelope, code rate_limited, wait only in Retry-After", async () => {
    // cancel-all is 1 per second per wallet (8.2).
    const first = await c.send("/api/orders/cancel-all", { method: "POST", headers: c.auth(1), body: {} });
    expect(first.status).toBe(200);
    const last = await c.send("/api/orders/cancel-all", { method: "POST", headers: c.auth(1), body: {} });
    const e = expectEnvelope(last, 429, "rate_limited");
    expect(e.retryAfterSec).toBeUndefined();
    expect(last.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("5.2 step 1 comes before reading the body", () => {
  it("a request without a key is 401 auth_required even when its body is not JSON", async () => {
    const r = await c.send("/api/orders/place", { method: "POST", headers: { "content-type": "application/json" }, raw: "{" });
    expectEnvelope(r, 401, "auth_required");
  });
});
