import { describe, expect, it } from "vitest";
import {
  errorEnvelope,
  errorEnvelopeSchema,
  flatError,
  flatErrorSchema,
  rateLimitedEnvelope,
  readErrorBody,
  upstreamErrorEnvelope,
  UPSTREAM_FALLBACK_CODE,
} from "../../src/wire/index.js";
import { examplePlacement, exampleRejectedPlacement } from "./fixtures.js";
import { expectValid } from "./helpers.js";

describe("builders produce schema-valid envelopes", () => {
  it("standard envelope, with and without extras", () => {
    expect(errorEnvelope(404, "market_not_found", "no such market")).toEqual({
      status: 404,
      error: { code: "market_not_found", message: "no such market" },
    });
    const env = errorEnvelope(503, "trading_temporarily_unavailable", "busy", {
      traceId: "tr-1",
      retryAfterSec: 1,
      retryable: true,
      details: { shard: 3 },
    });
    expectValid(errorEnvelopeSchema, env);
    expect(env.error).toMatchObject({ trace_id: "tr-1", retryAfterSec: 1, retryable: true, details: { shard: 3 } });
  });

  it("upstream envelope defaults to exchange_upstream_error and keeps extra details", () => {
    const env = upstreamErrorEnvelope(502, { status: 500, body: "<html>oops</html>" }, undefined, undefined, { details: { auditId: "a1" } });
    expect(env.error.code).toBe(UPSTREAM_FALLBACK_CODE);
    expect(env.error.details).toEqual({ auditId: "a1", upstream: { status: 500, body: "<html>oops</html>" } });
    expectValid(errorEnvelopeSchema, env);
  });

  it("429 envelope has no wait in the body and a flat body round-trips", () => {
    const env = rateLimitedEnvelope();
    expect(env).toEqual({ status: 429, error: { code: "rate_limited", message: "rate limit exceeded" } });
    expectValid(flatErrorSchema, flatError("insufficient_funds", "overdraft", { needed: "5" }));
    expect(flatError("x", "y")).toEqual({ code: "x", message: "y" });
  });
});

describe("readErrorBody on the five shapes of spec 7.1", () => {
  it("(1) standard envelope: code, trace id, retryable, details", () => {
    const body = errorEnvelope(400, "bad_signature", "recovery failed", {
      traceId: "trace-77",
      details: { recovered: null, expected_signer: "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B" },
    });
    const n = readErrorBody(400, body);
    expect(n).toMatchObject({ httpStatus: 400, code: "bad_signature", shape: "standard", traceId: "trace-77", message: "recovery failed" });
    expect(n?.details?.recovered).toBeNull();
  });

  it("(1) reads the trace id from X-Trace-Id when the body has none, and parses a text body", () => {
    const n = readErrorBody(409, JSON.stringify(errorEnvelope(409, "not_cancellable", "terminal")), { "X-Trace-Id": "hdr-1" });
    expect(n).toMatchObject({ code: "not_cancellable", traceId: "hdr-1", shape: "standard" });
  });

  it("(2) downstream-flattened: upstream status and body surfaced", () => {
    const body = upstreamErrorEnvelope(503, { status: 503, body: { error: "node restarting" } }, "shard_owner_unavailable", "restarting");
    const n = readErrorBody(503, body, new Headers({ "Retry-After": "2" }));
    expect(n).toMatchObject({ code: "shard_owner_unavailable", shape: "upstream", retryAfterSec: 2, upstream: { status: 503 } });
    expect(n?.upstream?.body).toEqual({ error: "node restarting" });
  });

  it("(3) placement reject at HTTP 201 reads code and details; a success placement is no error", () => {
    const n = readErrorBody(201, exampleRejectedPlacement());
    expect(n).toMatchObject({ httpStatus: 201, code: "order_signed_with_floor_notional", shape: "placement_reject" });
    expect(n?.details?.expectedCeilMakerAmountWei).toBe("5500000");
    expect(readErrorBody(201, examplePlacement())).toBeUndefined();
  });

  it("(4) HTTP 200 with a business code, in envelope and flat form", () => {
    expect(readErrorBody(200, errorEnvelope(200, "insufficient_funds", "overdraft"))).toMatchObject({
      code: "insufficient_funds",
      shape: "business",
    });
    expect(readErrorBody(200, { code: "aml_blocked", message: "screening failed" })).toMatchObject({ code: "aml_blocked", shape: "business" });
    expect(readErrorBody(401, { code: "wallet_mismatch", message: "mismatch", details: { x: 1 } })).toMatchObject({
      code: "wallet_mismatch",
      shape: "flat",
      details: { x: 1 },
    });
  });

  it("(4) a place-batch entry's details.retryable is surfaced as retryable", () => {
    const entry = { success: false, code: "journal_intent_not_durable", message: "busy", details: { retryable: true } };
    expect(readErrorBody(201, entry)).toMatchObject({ code: "journal_intent_not_durable", retryable: true });
  });

  it("(5) 429: rate_limited with the wait from the Retry-After header", () => {
    const n = readErrorBody(429, rateLimitedEnvelope(), { "retry-after": "3" });
    expect(n).toMatchObject({ code: "rate_limited", shape: "rate_limited", retryAfterSec: 3 });
  });

  it("cancel 202 pending body reads as cancel_pending with its wait", () => {
    const body = { status: "cancel_pending", code: "cancel_pending", orderId: "o1", message: "pending", retryAfterSec: 5 };
    expect(readErrorBody(202, body)).toMatchObject({ code: "cancel_pending", shape: "business", retryAfterSec: 5 });
  });

  it("unstructured error bodies fall back by status; success bodies are no error", () => {
    expect(readErrorBody(502, "<html>Bad Gateway</html>")).toMatchObject({ code: "http_502", shape: "unstructured", message: "<html>Bad Gateway</html>" });
    expect(readErrorBody(429, "", { "Retry-After": "7" })).toMatchObject({ code: "rate_limited", shape: "rate_limited", retryAfterSec: 7 });
    expect(readErrorBody(404, { error: "Not Found" })).toMatchObject({ code: "http_404", message: "Not Found" });
    expect(readErrorBody(200, { markets: [], hasMore: false })).toBeUndefined();
    expect(readErrorBody(200, "ok")).toBeUndefined();
  });

  it("the header wait wins over the body mirror; a non-numeric header is ignored", () => {
    const body = errorEnvelope(503, "cancel_unanswered", "old node", { retryAfterSec: 5, details: { orderId: "o9" } });
    expect(readErrorBody(503, body, { "Retry-After": "4" })?.retryAfterSec).toBe(4);
    expect(readErrorBody(503, body, { "Retry-After": "Wed, 21 Oct 2026 07:28:00 GMT" })?.retryAfterSec).toBe(5);
  });
});
