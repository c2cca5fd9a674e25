/**
 * The desk's HTTP answers: a platform failure as a spec 7.1 envelope (with Retry-After rounded up),
 * a plain error answer, and when each fault kind acts (before the write, after it, as a pending
 * cancel, or not at all) on place routes and elsewhere.
 */
import { describe, expect, it } from "vitest";
import { errorAnswer, failureAnswer, faultAnswer, faultTiming } from "../../../src/sim/desk/answers.js";
import { failure } from "../../../src/sim/platform/errors.js";
import type { Fault } from "../../../src/sim/platform/faults.js";

const http = failure(503, "shard_owner_unavailable", "the shard owner is away", { shard: 3 }, { retryable: true, retryAfterSec: 1.2 });
const base = { ruleId: "r1", latencyMs: 0 };

describe("failureAnswer", () => {
  it("answers the failure's status with the 7.1 envelope, details, retry hints and a Retry-After header rounded up", () => {
    expect(failureAnswer(http)).toEqual({
      status: 503,
      body: { status: 503, error: { code: "shard_owner_unavailable", message: "the shard owner is away", details: { shard: 3 }, retryable: true, retryAfterSec: 1.2 } },
      headers: { "Retry-After": "2" },
    });
  });

  it("has no headers and no optional fields when the failure has none", () => {
    const a = failureAnswer(failure(404, "market_not_found", "no such market"));
    expect(a).toEqual({ status: 404, body: { status: 404, error: { code: "market_not_found", message: "no such market" } } });
    expect("headers" in a).toBe(false);
  });

  it("a whole-second retryAfterSec stays as it is; zero gives Retry-After 0", () => {
    expect(failureAnswer(failure(429, "rate_limited", "slow down", undefined, { retryAfterSec: 3 })).headers).toEqual({ "Retry-After": "3" });
    expect(failureAnswer(failure(429, "rate_limited", "slow down", undefined, { retryAfterSec: 0 })).headers).toEqual({ "Retry-After": "0" });
  });
});

describe("errorAnswer", () => {
  it("builds the envelope with details when given", () => {
    expect(errorAnswer(400, "invalid_request", "limit must be a positive integer", { field: "limit" })).toEqual({
      status: 400,
      body: { status: 400, error: { code: "invalid_request", message: "limit must be a positive integer", details: { field: "limit" } } },
    });
  });

  it("leaves details out when none are given", () => {
    const a = errorAnswer(409, "invalid_state", "frozen");
    expect(a).toEqual({ status: 409, body: { status: 409, error: { code: "invalid_state", message: "frozen" } } });
    expect(a.headers).toBeUndefined();
  });
});

describe("faultTiming", () => {
  const withHttp = (kind: string, extra: Record<string, unknown> = {}): Fault => ({ ...base, kind, http, ...extra }) as unknown as Fault;

  it("no fault: none", () => {
    expect(faultTiming(undefined, true)).toBe("none");
    expect(faultTiming(undefined, false)).toBe("none");
  });

  it("refusals that record nothing act before the write on every route", () => {
    for (const kind of ["shard_owner_unavailable", "trading_temporarily_unavailable", "rate_limited_burst", "lock_invariant_violation", "exchange_transport_error"]) {
      expect([kind, faultTiming(withHttp(kind), true), faultTiming(withHttp(kind), false)]).toEqual([kind, "before", "before"]);
    }
  });

  it("exchange faults act after the write when they execute, before it otherwise", () => {
    for (const kind of ["exchange_unavailable", "exchange_malformed_response", "exchange_upstream_error"]) {
      expect([kind, faultTiming(withHttp(kind, { execute: true }), true), faultTiming(withHttp(kind, { execute: true }), false)]).toEqual([kind, "after", "after"]);
      expect([kind, faultTiming(withHttp(kind, { execute: false }), true), faultTiming(withHttp(kind, { execute: false }), false)]).toEqual([kind, "before", "before"]);
    }
  });

  it("idempotency_race records the order and loses the answer on place routes; elsewhere it records nothing", () => {
    expect(faultTiming(withHttp("idempotency_race"), true)).toBe("after");
    expect(faultTiming(withHttp("idempotency_race"), false)).toBe("before");
  });

  it("cancel_pending and cancel_unanswered leave a cancel pending on cancel routes and do nothing on place routes", () => {
    for (const kind of ["cancel_pending", "cancel_unanswered"]) {
      const f = withHttp(kind, { completeAfterMs: 500 });
      expect([kind, faultTiming(f, false), faultTiming(f, true)]).toEqual([kind, "cancel_pending", "none"]);
    }
  });

  it("kinds that do not shape an answer (latency, WS kinds, lock_invariant, journal) are none", () => {
    const kinds: Fault[] = [
      { ...base, kind: "latency" },
      { ...base, kind: "ws_disconnect" },
      { ...base, kind: "ws_duplicate_frames", copies: 2 },
      { ...base, kind: "ws_reorder_frames", window: 2 },
      { ...base, kind: "lock_invariant" },
      { ...base, kind: "journal_intent_not_durable", entry: http },
    ];
    for (const f of kinds) expect([f.kind, faultTiming(f, true), faultTiming(f, false)]).toEqual([f.kind, "none", "none"]);
  });
});

describe("faultAnswer", () => {
  it("answers the fault's carried failure", () => {
    const f: Fault = { ...base, kind: "exchange_unavailable", http, execute: true };
    expect(faultAnswer(f)).toEqual(failureAnswer(http));
    expect(faultAnswer(f)?.status).toBe(503);
  });

  it("is undefined for a fault without an answer", () => {
    expect(faultAnswer({ ...base, kind: "latency" })).toBeUndefined();
    expect(faultAnswer({ ...base, kind: "ws_disconnect" })).toBeUndefined();
  });
});
