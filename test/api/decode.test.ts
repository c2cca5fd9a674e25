/**
 * Turning an exchange into a typed result (src/api/decode.ts), through client calls on a scripted
 * transport (reads: a market; writes: vault deployment; a read where a 404 is an answer: the order
 * lookup), plus its small pure helpers. Rules pinned here (spec 7.1, 7.4): a 2xx that does not
 * parse is a schema error naming every bad path, unless it carries a code (a business refusal,
 * spec 7.1.4); an error without an envelope is http_<status>; a write's definite refusal is a
 * result, its 5xx an unknown outcome, its refused key or 501 thrown as they are.
 */
import { describe, expect, it } from "vitest";
import { handlingOf, isSuccess } from "../../src/api/decode.js";
import type { ApiError } from "../../src/api/index.js";
import { exampleMarket, WALLET } from "../wire/fixtures.js";
import { BASE_HEADERS, envelope, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const text = (status: number, body: string) => ({ status, headers: { ...BASE_HEADERS, "content-type": "text/html" }, body });

describe("reads", () => {
  it("a 2xx whose body does not match is a schema error naming every bad path, handling fix_request", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { ...exampleMarket(), status: "ALIVE", outcomeCount: "two" }));
    const e = (await rejectionOf(clock, client.markets.get("slug"))) as ApiError;
    expect(e).toMatchObject({ name: "ApiError", source: "schema", code: "invalid_response", status: 200, handling: "fix_request" });
    expect(e.issues?.map((i) => i.path).sort()).toEqual(["outcomeCount", "status"]);
    expect(e.message).toContain("response does not match the expected shape");
  });

  it("a 2xx that is not JSON says so at the root", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(text(200, "<html>maintenance</html>"));
    const e = (await rejectionOf(clock, client.markets.get("slug"))) as ApiError;
    expect(e).toMatchObject({ source: "schema", code: "invalid_response" });
    expect(e.issues).toEqual([{ path: "(root)", message: "body is not JSON" }]);
  });

  it("a 2xx carrying a code instead of the resource is that refusal, thrown with its handling", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "market_not_found", message: "no such market" }));
    const e = (await rejectionOf(clock, client.markets.get("slug"))) as ApiError;
    expect(e).toMatchObject({ source: "http", code: "market_not_found", status: 200 });
    expect(e.handling).toBe(handlingOf("market_not_found", 200));
  });

  it("an error answer without a code is http_<status>: its text as the message, or 'HTTP <status>' when empty", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(text(418, "teapot"), text(418, ""));
    const e = (await rejectionOf(clock, client.markets.get("slug"))) as ApiError;
    expect(e).toMatchObject({ code: "http_418", status: 418, detail: "teapot" });
    const empty = (await rejectionOf(clock, client.markets.get("slug"))) as ApiError;
    expect(empty).toMatchObject({ code: "http_418", status: 418, detail: "HTTP 418" });
  });

  it("an error envelope keeps the platform's code, message and trace id", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(404, "market_not_found", "no market 'slug'", { trace_id: "tr-9" }));
    const e = (await rejectionOf(clock, client.markets.get("slug"))) as ApiError;
    expect(e).toMatchObject({ code: "market_not_found", detail: "no market 'slug'", status: 404, traceId: "tr-9" });
  });
});

describe("reads where a 404 is an answer", () => {
  it("404 without an envelope, or a 2xx that does not parse, is still an error", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(text(404, "not found"), json(200, { id: 1 }));
    const orders = client.forWallet(WALLET).orders;
    expect(await rejectionOf(clock, orders.lookup({ clientOrderId: "c" }))).toMatchObject({ code: "http_404" });
    expect(await rejectionOf(clock, orders.lookup({ clientOrderId: "c" }))).toMatchObject({ source: "schema" });
  });
});

describe("writes", () => {
  it("a 2xx with a code is a Rejected result carrying the same refusal as an error", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "kyc_blocked", message: "KYC pending", details: { step: 2 } }));
    const r = await settle(clock, client.forWallet(WALLET).vault.deploySign());
    expect(r).toMatchObject({ ok: false, code: "kyc_blocked", message: "KYC pending", details: { step: 2 }, status: 200 });
    if (!r.ok) expect(r.error).toMatchObject({ name: "ApiError", code: "kyc_blocked" });
  });

  it("a 2xx that is not JSON: the write may have happened, thrown as unknown_outcome", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(text(200, "ok"));
    expect(await rejectionOf(clock, client.forWallet(WALLET).vault.deploySign())).toMatchObject({ source: "schema", handling: "unknown_outcome" });
  });

  it("a 501 is thrown as it is (not implemented: nothing happened), sent once", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(501, "not_implemented"));
    const e = (await rejectionOf(clock, client.forWallet(WALLET).vault.deploySign())) as ApiError;
    expect(e.status).toBe(501);
    expect(e.handling).not.toBe("unknown_outcome");
    expect(transport.requests).toHaveLength(1);
  });
});

describe("helpers", () => {
  it("isSuccess is exactly 2xx", () => {
    expect([199, 200, 201, 204, 299, 300, 404].map(isSuccess)).toEqual([false, true, true, true, true, false, false]);
  });

  it("handlingOf follows the catalogue: a key refusal is auth, a busy shard is resend_same, a 429 is wait_retry_after", () => {
    expect(handlingOf("api_key_revoked", 401)).toBe("auth");
    expect(handlingOf("shard_owner_unavailable", 503)).toBe("resend_same");
    expect(handlingOf("rate_limited", 429)).toBe("wait_retry_after");
  });
});
