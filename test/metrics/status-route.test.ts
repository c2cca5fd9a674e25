/**
 * GET /status's answer and halts (src/metrics/status-route.ts): the route is /status, version 1;
 * the answer is the document as one JSON line with no-store caching (no body for HEAD); a halt
 * shows its scope, target, reason, detail (scrubbed of secrets) and since as an ISO time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { STATUS_PATH, STATUS_VERSION, sendStatus, statusHalt, type StatusDocument } from "../../src/metrics/status-route.js";

const T0 = Date.UTC(2026, 2, 1, 12);

function document(): StatusDocument {
  const pnl = { realised: "1.5", unrealised: "-0.25", fees: "0.01", net: "1.24" };
  return {
    version: STATUS_VERSION,
    at: new Date(T0).toISOString(),
    instance: "mm-prod",
    running: true,
    ready: true,
    wallets: [],
    markets: [{ symbol: "BTC-UP", status: "OPEN", phase: "quote", wallets: [], openOrders: 0 }],
    totals: { openOrders: 0, unknownOrders: 0, fills: 3, positions: 1, sharesHeld: "10", pnl },
    halts: [],
  };
}

/** Just enough of a ServerResponse to see what was written. */
function response() {
  const out: { status?: number; headers?: Record<string, string>; body?: string | undefined; ended: boolean } = { ended: false };
  const res = {
    writeHead(status: number, headers: Record<string, string>) {
      out.status = status;
      out.headers = headers;
      return res;
    },
    end(body?: string) {
      out.body = body;
      out.ended = true;
      return res;
    },
  };
  return { res: res as unknown as ServerResponse, out };
}

const req = (method: string) => ({ method }) as IncomingMessage;

describe("sendStatus", () => {
  it("answers 200 with the document as one JSON line, never cached", () => {
    const { res, out } = response();
    const doc = document();
    sendStatus(res, { token: { reveal: () => "t" }, document: () => doc }, req("GET"));
    expect(out.status).toBe(200);
    expect(out.headers).toEqual({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
    expect(out.body!.endsWith("\n")).toBe(true);
    expect(out.body!.trimEnd().includes("\n")).toBe(false);
    expect(JSON.parse(out.body!)).toEqual(doc);
  });

  it("HEAD: the same headers and no body", () => {
    const { res, out } = response();
    let built = 0;
    sendStatus(res, { token: undefined, document: () => (built++, document()) }, req("HEAD"));
    expect(out.status).toBe(200);
    expect(out.headers!["content-type"]).toBe("application/json; charset=utf-8");
    expect(out.ended).toBe(true);
    expect(out.body).toBeUndefined();
    expect(built).toBe(1);
  });

  it("builds the document afresh for each answer", () => {
    let n = 0;
    const opts = { token: undefined, document: () => ({ ...document(), instance: `i${++n}` }) };
    const a = response();
    const b = response();
    sendStatus(a.res, opts, req("GET"));
    sendStatus(b.res, opts, req("GET"));
    expect([JSON.parse(a.out.body!).instance, JSON.parse(b.out.body!).instance]).toEqual(["i1", "i2"]);
  });

  it("the route and version", () => {
    expect(STATUS_PATH).toBe("/status");
    expect(STATUS_VERSION).toBe(1);
  });
});

describe("statusHalt", () => {
  it("shows the scope kind, target (all for global), reason, detail and since as ISO", () => {
    expect(statusHalt({ scope: { kind: "global" }, reason: "kill_switch", sinceMs: T0, detail: "operator" })).toEqual({
      scope: "global",
      target: "all",
      reason: "kill_switch",
      detail: "operator",
      since: "2026-03-01T12:00:00.000Z",
    });
    expect(statusHalt({ scope: { kind: "market", market: "BTC-UP" }, reason: "stale_market_data", sinceMs: T0 + 1_500, detail: "book 31 s old" })).toMatchObject({
      scope: "market",
      target: "BTC-UP",
      since: "2026-03-01T12:00:01.500Z",
    });
  });

  it("scrubs a key out of the target and the detail", () => {
    const key = "pmk_live_abcd1234_ThisIsTheSecretPart0001";
    const h = statusHalt({ scope: { kind: "wallet", wallet: key }, reason: "auth_refused", sinceMs: T0, detail: `key ${key} refused` });
    expect(h.target).toBe("[REDACTED]");
    expect(h.detail).toBe("key [REDACTED] refused");
  });
});
