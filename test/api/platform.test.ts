/**
 * Public platform state through the client (src/api/platform.ts, spec 4.9): each read goes to its
 * path without the key or a wallet, parses its documented shape, is retried like any read on a
 * 5xx, and names the bad field when the answer is not that shape; `/ready` answering 503 with
 * `{ready: false}` is an answer, neither retried nor counted against the platform's health.
 */
import { describe, expect, it } from "vitest";
import type { PartnerClient } from "../../src/api/index.js";
import { T0, exampleContracts } from "../wire/fixtures.js";
import { envelope, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const READS: [string, (c: PartnerClient) => Promise<{ data: unknown }>, string, unknown][] = [
  ["contracts", (c) => c.platform.contracts(), "/api/platform/contracts", exampleContracts()],
  ["feeConfig", (c) => c.platform.feeConfig(), "/api/platform/fee-config", { defaultFeeTakerBps: 100, maxFeeRateBps: 1000 }],
  ["status", (c) => c.platform.status(), "/api/platform/status", { frozen: true, reason: "maintenance", updatedAt: T0 }],
  ["notices", (c) => c.platform.notices(), "/api/platform/notices", { notices: [{ id: "n1", severity: "info", title: "t", message: "m", startsAt: T0, endsAt: null }] }],
  ["health", (c) => c.platform.health(), "/health", { status: "ok" }],
  ["ready", (c) => c.platform.ready(), "/ready", { ready: true, checks: { engine: true } }],
];

describe("PlatformApi", () => {
  it.each(READS)("%s: GET %s... without key or wallet, the answer parsed", async (_, call, path, answer) => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, answer));
    const r = await settle(clock, call(client));
    expect(r.data).toEqual(answer);
    expect(transport.paths()).toEqual([`GET ${path}`]);
    expect(transport.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(transport.requests[0]!.headers["x-user-wallet"]).toBeUndefined();
  });

  it("carries the answer's meta (server time, request id, attempts)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(502, "bad_gateway"), json(200, { status: "ok" }, { "x-request-id": "req-7" }));
    const r = await settle(clock, client.platform.health());
    expect(r.meta).toMatchObject({ status: 200, requestId: "req-7", serverTime: 1_767_225_600_123, attempts: 2 });
  });

  it("a 5xx is retried like a read, up to three tries, then thrown", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(envelope(500, "internal_error"), envelope(500, "internal_error"), envelope(500, "internal_error"));
    const error = await rejectionOf(clock, client.platform.contracts());
    expect(error).toMatchObject({ status: 500, code: "internal_error" });
    expect(transport.requests).toHaveLength(3);
  });

  it("an answer that is not the documented shape is a schema error naming the field", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { ...exampleContracts(), chainId: "8453" }));
    const error = await rejectionOf(clock, client.platform.contracts());
    expect(error).toMatchObject({ source: "schema", code: "invalid_response" });
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(["chainId"]);
  });

  it("ready: a 503 {ready: false} is an answer, sent once, not counted by the breaker", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(503, { ready: false, checks: { matcher: false } }));
    const r = await settle(clock, client.platform.ready());
    expect(r.data).toEqual({ ready: false, checks: { matcher: false } });
    expect(r.meta.status).toBe(503);
    expect(transport.requests).toHaveLength(1);
    expect(client.breaker.stats().windowFailures).toBe(0);
  });

  it("health: a 503 is a failure (only /ready answers with 503)", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(503, { status: "down" }), json(503, { status: "down" }), json(503, { status: "down" }));
    await expect(settle(clock, client.platform.health())).rejects.toMatchObject({ status: 503 });
    expect(transport.requests).toHaveLength(3);
  });

  it("an abort signal given to a read reaches the transport", async () => {
    const { clock, transport, client } = harness();
    const ac = new AbortController();
    let seen: AbortSignal | undefined;
    transport.enqueue(() => json(200, { status: "ok" }));
    const spy = transport.request.bind(transport);
    transport.request = (req) => ((seen = req.signal), spy(req));
    await settle(clock, client.platform.health({ signal: ac.signal }));
    expect(seen).toBe(ac.signal);
  });
});
