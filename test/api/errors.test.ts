/**
 * The client's one error class and its makers: the handling class taken from the spec's code
 * catalogue (or from the HTTP status for a code it does not list), what an error keeps from the
 * answer and what it never holds (headers, so never the key), transport failures split by whether
 * the request may have reached the platform, and the 401 codes that refuse the key or the wallet.
 */
import { describe, expect, it } from "vitest";
import { ApiError, KEY_REFUSAL_CODES, LOCAL_CODES, WALLET_REFUSAL_CODES, errorFromAnswer, errorFromTransport, isApiError, isKeyRefusalCode, withHandling } from "../../src/api/errors.js";
import type { ResponseMeta } from "../../src/api/meta.js";
import { classifyCode, type NormalizedError } from "../../src/wire/index.js";
import { TransportError } from "../../src/wire/transport.js";

const WHERE = { method: "POST" as const, path: "/api/orders/place", attempts: 2 };

function meta(over: Partial<ResponseMeta> = {}): ResponseMeta {
  return { status: 503, apiVersion: "2026-01-01", serverTime: 1, requestId: "req-1", traceId: "trace-meta", rateLimit: undefined, retryAfterSec: undefined, attempts: 2, ...over };
}

describe("ApiError", () => {
  it("says method, path, code and status in its message and keeps the platform's own text apart", () => {
    const e = new ApiError({ source: "http", status: 404, code: "order_not_found", message: "no such order", method: "GET", path: "/api/orders/o-1" });
    expect(e.message).toBe("GET /api/orders/o-1: order_not_found (HTTP 404): no such order");
    expect(e.detail).toBe("no such order");
    expect([e.handling, e.known, e.attempts]).toEqual(["fix_request", true, 1]);
    expect(isApiError(e)).toBe(true);
    expect(isApiError(new Error("x"))).toBe(false);
  });

  it("classifies a code the catalogue does not list by its HTTP status, and says it is unknown", () => {
    const e = new ApiError({ source: "http", status: 503, code: "something_new", message: "?", method: "GET", path: "/x" });
    expect(e.known).toBe(false);
    expect(e.handling).toBe(classifyCode("something_new", 503).handling);
    const local = new ApiError({ source: "local", status: 0, code: LOCAL_CODES.circuitOpen, message: "open", method: "GET", path: "/x", handling: "retry_backoff" });
    expect(local.message).toBe("GET /x: circuit_open: open");
    expect(local.handling).toBe("retry_backoff");
  });

  it("serialises to plain data without stack or cause", () => {
    const e = new ApiError({ source: "http", status: 429, code: "rate_limited", message: "slow down", method: "GET", path: "/api/markets", retryAfterSec: 3, cause: new Error("inner") });
    const json = e.toJSON();
    expect(json).toMatchObject({ name: "ApiError", code: "rate_limited", status: 429, retryAfterSec: 3, handling: "wait_retry_after" });
    expect(Object.keys(json)).not.toContain("stack");
    expect(Object.keys(json)).not.toContain("cause");
    expect(JSON.stringify(json)).not.toMatch(/headers/i);
  });
});

describe("errorFromAnswer", () => {
  const answer: NormalizedError = { httpStatus: 503, code: "trading_temporarily_unavailable", message: "busy", shape: "standard", retryAfterSec: 2, retryable: true, details: { node: 3 } };

  it("keeps the code, status, retry hints and details of the answer, and its attempts", () => {
    const e = errorFromAnswer(answer, WHERE, meta());
    expect(e).toMatchObject({ source: "http", status: 503, code: "trading_temporarily_unavailable", handling: "resend_same", retryAfterSec: 2, retryable: true, details: { node: 3 }, attempts: 2 });
    expect(e.meta?.requestId).toBe("req-1");
  });

  it("takes the body's trace id first, else the X-Trace-Id header's", () => {
    expect(errorFromAnswer({ ...answer, traceId: "trace-body" }, WHERE, meta()).traceId).toBe("trace-body");
    expect(errorFromAnswer(answer, WHERE, meta()).traceId).toBe("trace-meta");
    expect(errorFromAnswer(answer, WHERE, undefined).traceId).toBeUndefined();
  });
});

describe("errorFromTransport", () => {
  it.each([
    ["timeout", true, "transport_timeout", "unknown_outcome"],
    ["reset", true, "transport_reset", "unknown_outcome"],
    ["connect", false, "transport_connect", "retry_backoff"],
    ["aborted", false, "transport_aborted", "retry_backoff"],
    ["other", true, "transport_other", "unknown_outcome"],
  ] as const)("%s (maybe delivered: %s) is %s, handled %s", (kind, maybeDelivered, code, handling) => {
    const te = new TransportError("boom", maybeDelivered, kind);
    const e = errorFromTransport(te, "socket hang up", WHERE);
    expect(e).toMatchObject({ source: "transport", status: 0, code, handling, maybeDelivered, attempts: 2 });
    expect(e.cause).toBe(te);
  });
});

describe("withHandling", () => {
  it("returns the same error when the class is already right, else a copy differing only in handling", () => {
    const e = errorFromAnswer({ httpStatus: 500, code: "something_new", message: "oops", shape: "flat", traceId: "t" }, WHERE, meta({ status: 500 }));
    expect(withHandling(e, e.handling)).toBe(e);
    const w = withHandling(e, "unknown_outcome");
    expect(w.handling).toBe("unknown_outcome");
    const { handling: _a, ...before } = e.toJSON();
    const { handling: _b, ...after } = w.toJSON();
    expect(after).toEqual(before);
    expect(w.detail).toBe(e.detail);
  });
});

describe("key and wallet refusals", () => {
  it("are 401 codes of the spec's catalogue", () => {
    for (const code of [...KEY_REFUSAL_CODES, ...WALLET_REFUSAL_CODES]) {
      const c = classifyCode(code, 401);
      expect(c.known, code).toBe(true);
      expect(c.info?.http, code).toBe(401);
      expect(isKeyRefusalCode(code)).toBe(true);
    }
  });

  it("do not include a refusal for lack of scope, or anything else", () => {
    for (const code of ["scope_missing", "rate_limited", "order_not_found", "wallet_banned"]) expect(isKeyRefusalCode(code)).toBe(false);
  });
});
