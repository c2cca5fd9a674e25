/**
 * Idempotent reads of the real client against the real simulator with faults injected, over
 * loopback HTTP and in-process: 5xx retried with jittered exponential backoff (3 attempts in all),
 * 429 waited out for exactly Retry-After, and the circuit breaker opening on more than 50% errors
 * over 30 s, refusing locally for 60 s, then probing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/errors.js";
import type { BreakerChange } from "../../../src/api/breaker.js";
import { KINDS, makeWorld, type World, type WorldKind } from "./world.js";

const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

async function world(kind: WorldKind): Promise<World> {
  const w = await makeWorld(kind);
  worlds.push(w);
  return w;
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}

describe.each(KINDS)("reads over %s", (kind) => {
  it("a GET answered 5xx twice is retried with growing jittered waits and succeeds on the third attempt", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    w.fault({ route: "GET /api/orders/open", kind: "exchange_unavailable", nextCalls: 2 });

    const page = await w.drive(me.orders.openPage({ limit: 10 }));

    expect(page.data.orders).toEqual([]);
    expect(page.meta.attempts).toBe(3);
    const sent = w.transport.calls("GET", "/api/orders/open");
    expect(sent.map((e) => e.status)).toEqual([503, 503, 200]);
    const first = sent[1]!.at - sent[0]!.at;
    const second = sent[2]!.at - sent[1]!.at;
    // 200 ms * 2^(n-1) * (1 + 0.5u): [200, 300] then [400, 600]
    expect(first).toBeGreaterThanOrEqual(200);
    expect(first).toBeLessThanOrEqual(300);
    expect(second).toBeGreaterThanOrEqual(400);
    expect(second).toBeLessThanOrEqual(600);
  });

  it("a GET that keeps failing gives up after 3 attempts with the platform's error", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    w.fault({ route: "GET /api/me/balances", kind: "exchange_unavailable" });

    const err = await failure(w.drive(me.portfolio.balances()));

    expect(err).toMatchObject({ source: "http", status: 503, code: "exchange_unavailable", attempts: 3 });
    expect(w.transport.calls("GET", "/api/me/balances")).toHaveLength(3);
  });

  it("429: waits exactly Retry-After before resending, never sooner", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    w.fault({ route: "GET /api/me/balances", kind: "rate_limited_burst", retryAfterSec: 3, nextCalls: 2 });

    const bal = await w.drive(me.portfolio.balances());

    expect(bal.data.collateral.total).toBe("10000");
    const sent = w.transport.calls("GET", "/api/me/balances");
    expect(sent.map((e) => [e.status, e.at - sent[0]!.at])).toEqual([
      [429, 0],
      [429, 3000],
      [200, 6000],
    ]);
  });

  it("the real 1/s cancel-all bucket: a second cancel-all in the same second waits for the next window", async () => {
    const w = await world(kind);
    const me = w.client().forWallet(w.wallets[0]!.address);
    const t = w.clock.now();

    const [a, b] = await w.drive(Promise.all([me.orders.cancelAll(), me.orders.cancelAll()]));

    expect([a.status, b.status]).toEqual(["answered", "answered"]);
    const sent = w.transport.calls("POST", "/api/orders/cancel-all");
    // (the log is in completion order: the two first answers may come back either way round)
    expect(sent.map((e) => [e.status, e.at - t]).sort((x, y) => x[1]! - y[1]! || x[0]! - y[0]!)).toEqual([
      [200, 0],
      [429, 0],
      [200, 1000],
    ]);
  });

  it("the breaker opens above 50% errors over 30 s, refuses locally for 60 s, then one probe closes it", async () => {
    const w = await world(kind);
    const client = w.client();
    const changes: BreakerChange[] = [];
    client.breaker.onChange((c) => changes.push(c));

    // 10 healthy requests, then a failing endpoint: each failing call is 3 attempts.
    for (let i = 0; i < 10; i++) await w.drive(client.health());
    w.fault({ id: "down", route: "GET /api/platform/status", kind: "exchange_unavailable" });
    for (let i = 0; i < 3; i++) expect((await failure(w.drive(client.platform.status()))).code).toBe("exchange_unavailable");
    // 9 failures of 19 (47%): still closed
    expect(client.breaker.stats()).toMatchObject({ state: "closed", windowTotal: 19, windowFailures: 9 });

    // 10/20 is 50%, not above; the next failure (11/21) opens it, and the third attempt is refused locally
    const tripped = await failure(w.drive(client.platform.status()));
    expect(tripped).toMatchObject({ source: "circuit", code: "circuit_open" });
    expect(changes).toEqual([expect.objectContaining({ from: "closed", to: "open", windowTotal: 21, windowFailures: 11 })]);
    expect(w.transport.calls("GET", "/api/platform/status")).toHaveLength(11);

    // open: refused without a request, whatever the endpoint
    const before = w.transport.log.length;
    const refused = await failure(w.drive(client.health()));
    expect(refused).toMatchObject({ code: "circuit_open", retryAfterSec: 60 });
    expect(w.transport.log.length).toBe(before);

    // after 60 s: half-open; the platform is healthy again, the probe succeeds and closes it
    w.sim.platform.faults.remove("down");
    await w.clock.advance(60_000);
    expect(client.breaker.state()).toBe("half_open");
    await w.drive(client.platform.status());
    expect(client.breaker.state()).toBe("closed");
    expect(changes.map((c) => c.to)).toEqual(["open", "half_open", "closed"]);
  });

  it("errors older than 30 s leave the window: the same failures spread out do not open the breaker", async () => {
    const w = await world(kind);
    const client = w.client();
    for (let i = 0; i < 10; i++) await w.drive(client.health());
    w.fault({ route: "GET /api/platform/status", kind: "exchange_unavailable" });
    for (let i = 0; i < 3; i++) await failure(w.drive(client.platform.status()));
    await w.clock.advance(31_000);
    // the window now holds only what follows: 3 failures and 7 successes (30%)
    await failure(w.drive(client.platform.status()));
    for (let i = 0; i < 7; i++) await w.drive(client.health());
    expect(client.breaker.stats()).toMatchObject({ state: "closed", windowTotal: 10, windowFailures: 3, opened: 0 });
  });
});
