import { describe, expect, it } from "vitest";
import type { ApiError, BreakerChange } from "../../src/api/index.js";
import { CircuitBreaker } from "../../src/api/index.js";
import { VirtualClock } from "../../src/core/clock.js";
import { ORDER_ID, exampleContracts, examplePlaceBody } from "../wire/fixtures.js";
import { envelope, json, rejectionOf, settle, timeout } from "./fake-transport.js";
import { harness } from "./helpers.js";

const OK = () => json(200, exampleContracts());
const FAIL = () => envelope(500, "internal");

/** One attempt per call so each call is one sample. */
function oneShot() {
  return harness({ retry: { maxAttempts: 1 } });
}

async function call(h: ReturnType<typeof oneShot>): Promise<"ok" | ApiError> {
  try {
    await settle(h.clock, h.client.platform.contracts());
    return "ok";
  } catch (e) {
    return e as ApiError;
  }
}

describe("circuit breaker (spec 7.4 rule 4)", () => {
  it("opens above 50% errors over 30 s, refuses locally for 60 s, then recovers through a half-open probe", async () => {
    const h = oneShot();
    const changes: BreakerChange[] = [];
    h.client.breaker.onChange((c) => changes.push(c));
    const replies = [OK(), OK(), OK(), OK(), FAIL(), FAIL(), FAIL(), FAIL(), FAIL(), FAIL()];
    for (const r of replies) {
      h.transport.enqueue(r);
      await call(h);
      await h.clock.advance(2000);
    }
    expect(h.client.breaker.state()).toBe("open");
    expect(changes.map((c) => `${c.from}->${c.to}`)).toEqual(["closed->open"]);
    expect(changes[0]).toMatchObject({ windowTotal: 10, windowFailures: 6 });
    const openedAt = changes[0]!.at;

    const sent = h.transport.requests.length;
    const refused = (await call(h)) as ApiError;
    expect(refused.code).toBe("circuit_open");
    expect(refused.source).toBe("circuit");
    expect(refused.handling).toBe("wait_retry_after");
    expect(refused.retryAfterSec).toBeGreaterThan(0);
    expect(refused.retryAfterSec).toBeLessThanOrEqual(60);
    expect(h.transport.requests.length).toBe(sent);

    // Still refused just before the 60 s are up.
    await h.clock.advanceTo(openedAt + 59_999);
    expect(((await call(h)) as ApiError).code).toBe("circuit_open");
    expect(h.client.breaker.stats().refused).toBe(2);

    await h.clock.advanceTo(openedAt + 60_000);
    expect(h.client.breaker.state()).toBe("half_open");
    h.transport.enqueue(OK());
    expect(await call(h)).toBe("ok");
    expect(h.client.breaker.state()).toBe("closed");
    expect(changes.map((c) => c.to)).toEqual(["open", "half_open", "closed"]);
  });

  it("a failed probe opens it again for another 60 s", async () => {
    const h = oneShot();
    for (let i = 0; i < 10; i++) {
      h.transport.enqueue(FAIL());
      await call(h);
    }
    expect(h.client.breaker.state()).toBe("open");
    await h.clock.advance(60_000);
    h.transport.enqueue(timeout());
    const e = (await call(h)) as ApiError;
    expect(e.source).toBe("transport");
    expect(h.client.breaker.state()).toBe("open");
    expect(h.client.breaker.stats().opened).toBe(2);
    await h.clock.advance(59_000);
    expect(h.client.breaker.state()).toBe("open");
    await h.clock.advance(1000);
    expect(h.client.breaker.state()).toBe("half_open");
  });

  it("exactly 50% does not open; fewer than the minimum requests never do", async () => {
    const h = oneShot();
    for (let i = 0; i < 10; i++) {
      h.transport.enqueue(i % 2 === 0 ? FAIL() : OK());
      await call(h);
    }
    expect(h.client.breaker.state()).toBe("closed");

    const h2 = oneShot();
    for (let i = 0; i < 9; i++) {
      h2.transport.enqueue(FAIL());
      await call(h2);
    }
    expect(h2.client.breaker.state()).toBe("closed");
    expect(h2.client.breaker.stats()).toMatchObject({ windowTotal: 9, windowFailures: 9 });
  });

  it("failures older than 30 s leave the window", async () => {
    const h = oneShot();
    for (let i = 0; i < 6; i++) {
      h.transport.enqueue(FAIL());
      await call(h);
    }
    await h.clock.advance(30_001);
    for (let i = 0; i < 4; i++) {
      h.transport.enqueue(FAIL());
      await call(h);
    }
    expect(h.client.breaker.stats()).toMatchObject({ state: "closed", windowTotal: 4, windowFailures: 4 });
  });

  it("4xx, 429 and 501 are not failures; transport failures are", async () => {
    const h = oneShot();
    for (let i = 0; i < 20; i++) {
      h.transport.enqueue(i % 3 === 0 ? envelope(404, "market_not_found") : i % 3 === 1 ? envelope(501, "not_implemented") : envelope(400, "invalid_request"));
      await call(h);
    }
    expect(h.client.breaker.state()).toBe("closed");
    expect(h.client.breaker.stats().windowFailures).toBe(0);

    const h2 = harness({ retry: { maxAttempts: 1, maxRateLimitRetries: 0 } });
    for (let i = 0; i < 12; i++) {
      h2.transport.enqueue(envelope(429, "rate_limited", "x", {}, { "retry-after": "1" }));
      await call(h2);
    }
    expect(h2.client.breaker.state()).toBe("closed");

    const h3 = oneShot();
    for (let i = 0; i < 10; i++) {
      h3.transport.enqueue(timeout());
      await call(h3);
    }
    expect(h3.client.breaker.state()).toBe("open");
  });

  it("counts every attempt of a retried call", async () => {
    const h = harness();
    for (let i = 0; i < 12; i++) h.transport.enqueue(FAIL());
    await rejectionOf(h.clock, h.client.platform.contracts());
    await rejectionOf(h.clock, h.client.platform.contracts());
    await rejectionOf(h.clock, h.client.platform.contracts());
    expect(h.client.breaker.stats().windowFailures).toBe(9);
    const e = (await rejectionOf(h.clock, h.client.platform.contracts())) as ApiError;
    // The 10th attempt trips it; the call's next attempt is refused locally.
    expect(e.code).toBe("circuit_open");
    expect(h.transport.requests).toHaveLength(10);
  });

  it("half-open admits one probe at a time", () => {
    const clock = new VirtualClock();
    const b = new CircuitBreaker(clock, { minRequests: 1 });
    const p = b.tryAcquire();
    expect(p.ok).toBe(true);
    b.record(true, false);
    expect(b.state()).toBe("open");
    return clock.advance(60_000).then(() => {
      const probe = b.tryAcquire();
      expect(probe).toEqual({ ok: true, probe: true });
      expect(b.tryAcquire().ok).toBe(false);
      b.release(true);
      expect(b.tryAcquire()).toEqual({ ok: true, probe: true });
    });
  });

  it("risk-reducing requests: cancels are never refused while open or half-open, and never take the probe", () => {
    const clock = new VirtualClock();
    const b = new CircuitBreaker(clock, { minRequests: 1 });
    b.tryAcquire();
    b.record(true, false);
    expect(b.state()).toBe("open");
    expect(b.tryAcquire({ riskReducing: true })).toEqual({ ok: true, probe: false });
    expect(b.tryAcquire().ok).toBe(false);
    expect(b.stats()).toMatchObject({ bypassed: 1, refused: 1 });
    return clock.advance(60_000).then(() => {
      expect(b.tryAcquire({ riskReducing: true })).toEqual({ ok: true, probe: false });
      // The cancel's answer does not decide the half-open state; the probe slot is still free.
      b.record(false, false);
      expect(b.state()).toBe("half_open");
      expect(b.tryAcquire()).toEqual({ ok: true, probe: true });
      expect(b.tryAcquire({ riskReducing: true })).toEqual({ ok: true, probe: false });
      expect(b.stats().bypassed).toBe(3);
    });
  });
});

describe("the breaker never stops cancels (quotes must be pullable when the platform struggles)", () => {
  const cancelDone = () => json(200, { orderId: ORDER_ID, status: "CANCELLED", filledQty: "0", remainingQty: "0" });
  const many = () => json(200, { cancelled: [ORDER_ID], notCancelled: [] });

  async function opened() {
    const h = oneShot();
    for (let i = 0; i < 10; i++) {
      h.transport.enqueue(FAIL());
      await call(h);
    }
    expect(h.client.breaker.state()).toBe("open");
    return h;
  }

  it("open circuit: cancel, cancel-batch and cancel-all are sent and answered; other calls are refused", async () => {
    const h = await opened();
    const sent = h.transport.requests.length;
    h.transport.enqueue(cancelDone(), many(), many());
    expect(await settle(h.clock, h.client.orders.cancel(ORDER_ID))).toMatchObject({ status: "done", final: "CANCELLED" });
    expect(await settle(h.clock, h.client.orders.cancelBatch([ORDER_ID, "o-2"]))).toMatchObject({ status: "answered", cancelled: [ORDER_ID] });
    expect(await settle(h.clock, h.client.orders.cancelAll())).toMatchObject({ status: "answered", cancelled: [ORDER_ID] });
    expect(h.transport.paths().slice(sent)).toEqual(["POST /api/orders/cancel", "POST /api/orders/cancel-batch", "POST /api/orders/cancel-all"]);

    expect(((await call(h)) as ApiError).code).toBe("circuit_open");
    const place = (await rejectionOf(h.clock, h.client.orders.place(examplePlaceBody()))) as ApiError;
    expect(place.code).toBe("circuit_open");
    expect(h.transport.requests.length).toBe(sent + 3);
    expect(h.client.breaker.stats()).toMatchObject({ state: "open", bypassed: 3, refused: 2 });
  });

  it("cancelUntilFinal completes through an open circuit", async () => {
    const h = await opened();
    h.transport.enqueue(
      json(202, { status: "cancel_pending", code: "cancel_pending", orderId: ORDER_ID, message: "recorded", retryAfterSec: 5 }, { "retry-after": "5" }),
      cancelDone(),
    );
    const report = await settle(h.clock, h.client.orders.cancelUntilFinal([ORDER_ID], { deadlineMs: 20_000 }));
    expect(report).toMatchObject({ pending: [], deadlineReached: false, final: [{ orderId: ORDER_ID, status: "CANCELLED" }] });
    expect(h.client.breaker.state()).toBe("open");
  });

  it("while closed, a cancel's 5xx and transport failures still count in the window", async () => {
    const h = oneShot();
    h.transport.enqueue(envelope(500, "internal"), timeout());
    await settle(h.clock, h.client.orders.cancel(ORDER_ID));
    await settle(h.clock, h.client.orders.cancel(ORDER_ID));
    expect(h.client.breaker.stats()).toMatchObject({ state: "closed", windowTotal: 2, windowFailures: 2, bypassed: 0 });
  });
});

describe("answers that are not failures of the platform", () => {
  it("a burst of busy 503s on places (resend_same codes) does not open the circuit", async () => {
    const h = harness({ retry: { maxAttempts: 1, maxResends: 0 } });
    for (let i = 0; i < 12; i++) {
      h.transport.enqueue(
        i % 2 === 0
          ? envelope(503, "trading_temporarily_unavailable", "busy", { retryable: true, retryAfterSec: 1 })
          : envelope(503, "shard_owner_unavailable", "restarting", {}, { "retry-after": "2" }),
      );
      const e = (await rejectionOf(h.clock, h.client.orders.place(examplePlaceBody()))) as ApiError;
      expect(e.handling).toBe("resend_same");
    }
    expect(h.client.breaker.stats()).toMatchObject({ state: "closed", windowTotal: 12, windowFailures: 0 });
  });

  it("cancel_unanswered (503) is not a failure", async () => {
    const h = oneShot();
    for (let i = 0; i < 12; i++) {
      h.transport.enqueue(envelope(503, "cancel_unanswered", "older node", {}, { "retry-after": "5" }));
      expect((await settle(h.clock, h.client.orders.cancel(ORDER_ID))).status).toBe("pending");
    }
    expect(h.client.breaker.stats()).toMatchObject({ state: "closed", windowTotal: 12, windowFailures: 0 });
  });

  it("unknown-outcome 5xx codes still are failures", async () => {
    const h = harness({ retry: { maxAttempts: 1, maxResends: 0 } });
    for (let i = 0; i < 10; i++) {
      h.transport.enqueue(envelope(503, i % 2 === 0 ? "exchange_unavailable" : "idempotency_race"));
      expect((await settle(h.clock, h.client.orders.place(examplePlaceBody()))).outcome).toBe("unknown");
    }
    expect(h.client.breaker.state()).toBe("open");
  });
});
