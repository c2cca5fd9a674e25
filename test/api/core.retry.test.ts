import { describe, expect, it } from "vitest";
import { ApiError, DEFAULT_RETRY, backoffDelay } from "../../src/api/index.js";
import { Rng } from "../../src/core/rng.js";
import { exampleContracts, examplePlaceBody, examplePlacement } from "../wire/fixtures.js";
import { envelope, json, rateLimited, refused, rejectionOf, reset, settle, timeout } from "./fake-transport.js";
import { harness } from "./helpers.js";

const CONTRACTS_OK = json(200, exampleContracts());

function gaps(ats: number[]): number[] {
  return ats.slice(1).map((t, i) => t - ats[i]!);
}

describe("GET retries on 5xx (spec 7.4 rule 3)", () => {
  it("tries 3 times with growing jittered waits from 200 ms, then throws the last error", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(500, "internal"), envelope(502, "bad_gateway"), envelope(503, "exchange_transport_error"));
    const err = await rejectionOf(clock, client.platform.contracts());
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(503);
    expect(e.code).toBe("exchange_transport_error");
    expect(e.attempts).toBe(3);
    expect(transport.requests).toHaveLength(3);
    const [w1, w2] = gaps(transport.requests.map((r) => r.at));
    expect(w1).toBeGreaterThanOrEqual(200);
    expect(w1).toBeLessThan(300);
    expect(w2).toBeGreaterThanOrEqual(400);
    expect(w2).toBeLessThan(600);
    expect(w2).toBeGreaterThan(w1!);
  });

  it("returns the answer once a retry succeeds, with the attempt count in meta", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(500, "internal"), CONTRACTS_OK);
    const res = await settle(clock, client.platform.contracts());
    expect(res.data.chainId).toBe(8453);
    expect(res.meta.attempts).toBe(2);
  });

  it("retries transport failures (timeout, refused, reset) the same way", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(timeout(), refused(), CONTRACTS_OK);
    const res = await settle(clock, client.platform.contracts());
    expect(res.ok).toBe(true);
    expect(transport.requests).toHaveLength(3);

    transport.enqueue(reset(), reset(), reset());
    const e = (await rejectionOf(clock, client.platform.contracts())) as ApiError;
    expect(e.source).toBe("transport");
    expect(e.code).toBe("transport_reset");
    expect(e.maybeDelivered).toBe(true);
    expect(transport.requests).toHaveLength(6);
  });

  it("caps waits at 10 s", async () => {
    const { clock, transport, client } = harness({ retry: { maxAttempts: 10 } });
    for (let i = 0; i < 10; i++) transport.enqueue(envelope(500, "internal"));
    await rejectionOf(clock, client.platform.contracts());
    const waits = gaps(transport.requests.map((r) => r.at));
    expect(waits).toHaveLength(9);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(Math.max(...waits)).toBe(10_000);
    expect(waits.slice(0, 5).every((w) => w < 10_000)).toBe(true);
  });

  it("does not retry 4xx or 501", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(404, "market_not_found"));
    const e = (await rejectionOf(clock, client.markets.get("nope"))) as ApiError;
    expect(e.code).toBe("market_not_found");
    expect(e.handling).toBe("fix_request");
    transport.enqueue(envelope(501, "not_implemented"));
    const e2 = (await rejectionOf(clock, client.platform.contracts())) as ApiError;
    expect(e2.handling).toBe("unsupported");
    expect(transport.requests).toHaveLength(2);
  });

  it("same seed, same waits", async () => {
    const run = async (): Promise<number[]> => {
      const { clock, transport, client } = harness();
      transport.enqueue(envelope(500, "x"), envelope(500, "x"), envelope(500, "x"));
      await rejectionOf(clock, client.platform.contracts());
      return gaps(transport.requests.map((r) => r.at));
    };
    expect(await run()).toEqual(await run());
  });

  it("backoffDelay: starts at 200 ms, doubles, never above the cap", () => {
    const rng = new Rng(7);
    for (let i = 0; i < 200; i++) {
      const d1 = backoffDelay(1, DEFAULT_RETRY, rng);
      expect(d1).toBeGreaterThanOrEqual(200);
      expect(d1).toBeLessThanOrEqual(300);
      const d3 = backoffDelay(3, DEFAULT_RETRY, rng);
      expect(d3).toBeGreaterThanOrEqual(800);
      expect(d3).toBeLessThanOrEqual(1200);
      expect(backoffDelay(20, DEFAULT_RETRY, rng)).toBe(10_000);
    }
  });
});

describe("429 (spec 7.4 rule 2): wait exactly Retry-After, for any method", () => {
  it("GET resent exactly Retry-After seconds later", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(rateLimited(7), CONTRACTS_OK);
    const res = await settle(clock, client.platform.contracts());
    expect(res.meta.attempts).toBe(2);
    expect(gaps(transport.requests.map((r) => r.at))).toEqual([7000]);
  });

  it("placement resent with the identical body after Retry-After (a 429 was not processed)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(rateLimited(3), json(201, examplePlacement()));
    const out = await settle(clock, client.orders.place(examplePlaceBody()));
    expect(out.outcome).toBe("accepted");
    expect(transport.requests).toHaveLength(2);
    expect(transport.requests[1]!.body).toBe(transport.requests[0]!.body);
    expect(gaps(transport.requests.map((r) => r.at))).toEqual([3000]);
  });

  it("a resend the caller no longer wants is withdrawn: one request, a local withdrawn error", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(rateLimited(3), json(201, examplePlacement()));
    let asked = 0;
    const e = (await rejectionOf(clock, client.orders.place(examplePlaceBody(), { stillWanted: () => ++asked === 1 }))) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe("withdrawn");
    expect(e.source).toBe("local");
    expect(asked).toBe(2); // before the first send (yes), after the 429's wait (no)
    expect(transport.requests).toHaveLength(1);
  });

  it("a first send the caller no longer wants once admitted by the gate never leaves", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(201, examplePlacement()));
    const e = (await rejectionOf(clock, client.orders.place(examplePlaceBody(), { stillWanted: () => false }))) as ApiError;
    expect(e.code).toBe("withdrawn");
    expect(transport.requests).toHaveLength(0);
  });

  it("a resend the caller still wants goes ahead (stillWanted true)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(503, "trading_temporarily_unavailable"), json(201, examplePlacement()));
    const out = await settle(clock, client.orders.place(examplePlaceBody(), { stillWanted: () => true }));
    expect(out.outcome).toBe("accepted");
    expect(transport.requests).toHaveLength(2);
  });

  it("without Retry-After waits the default second; gives up after the bounded retries", async () => {
    const { clock, transport, client } = harness();
    for (let i = 0; i < 4; i++) transport.enqueue(rateLimited(undefined));
    const e = (await rejectionOf(clock, client.platform.contracts())) as ApiError;
    expect(e.code).toBe("rate_limited");
    expect(e.handling).toBe("wait_retry_after");
    expect(transport.requests).toHaveLength(DEFAULT_RETRY.maxRateLimitRetries + 1);
    expect(gaps(transport.requests.map((r) => r.at))).toEqual([1000, 1000, 1000]);
  });

  it("a Retry-After longer than the allowed maximum is returned, not waited out", async () => {
    const { clock, transport, client } = harness({ retry: { maxRetryAfterSec: 30 } });
    transport.enqueue(rateLimited(120));
    const e = (await rejectionOf(clock, client.platform.contracts())) as ApiError;
    expect(e.retryAfterSec).toBe(120);
    expect(transport.requests).toHaveLength(1);
  });

  it("a 5xx with Retry-After waits at least that long", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(503, "lock_invariant_violation", "x", {}, { "retry-after": "4" }), CONTRACTS_OK);
    await settle(clock, client.platform.contracts());
    expect(gaps(transport.requests.map((r) => r.at))).toEqual([4000]);
  });
});
