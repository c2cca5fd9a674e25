import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { FetchTransport, TransportError, createClient, mapFetchError } from "../../src/api/index.js";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import { exampleContracts } from "../wire/fixtures.js";
import { API_KEY } from "./helpers.js";

function fetchError(code: string): TypeError {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) });
}

describe("FetchTransport with an injected fetch", () => {
  it("joins the base URL, passes method, headers and body, never follows redirects, lower-cases headers", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const t = new FetchTransport({
      baseUrl: "https://api.example.com/",
      clock: new VirtualClock(),
      fetch: (url, init) => {
        seen.push({ url, init });
        return Promise.resolve(new Response('{"a":1}', { status: 201, headers: { "X-Request-Id": "r1" } }));
      },
    });
    const res = await t.request({ method: "POST", path: "/api/orders/place", headers: { "x-api-key": "k" }, body: "{}" });
    expect(res).toEqual({ status: 201, headers: { "x-request-id": "r1", "content-type": "text/plain;charset=UTF-8" }, body: '{"a":1}' });
    expect(seen[0]!.url).toBe("https://api.example.com/api/orders/place");
    expect(seen[0]!.init).toMatchObject({ method: "POST", body: "{}", redirect: "manual", headers: { "x-api-key": "k" } });
  });

  it("times out on the injected clock: kind timeout, maybeDelivered true", async () => {
    const clock = new VirtualClock();
    const t = new FetchTransport({
      baseUrl: "http://x",
      clock,
      timeoutMs: 2500,
      fetch: (_url, init) =>
        new Promise((_res, rej) => init.signal?.addEventListener("abort", () => rej(new DOMException("aborted", "AbortError")))),
    });
    const p = t.request({ method: "GET", path: "/health", headers: {} });
    const caught = p.catch((e: unknown) => e);
    await clock.advance(2499);
    expect(clock.pending()).toBe(1);
    await clock.advance(1);
    const e = (await caught) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect(e.kind).toBe("timeout");
    expect(e.maybeDelivered).toBe(true);
    expect(clock.pending()).toBe(0);
  });

  it("the caller's abort is kind aborted", async () => {
    const ctrl = new AbortController();
    const t = new FetchTransport({
      baseUrl: "http://x",
      clock: new VirtualClock(),
      fetch: (_url, init) => new Promise((_res, rej) => init.signal?.addEventListener("abort", () => rej(new Error("aborted")))),
    });
    const p = t.request({ method: "GET", path: "/", headers: {}, signal: ctrl.signal }).catch((e: unknown) => e);
    ctrl.abort();
    expect(await p).toMatchObject({ kind: "aborted", maybeDelivered: true });
  });

  it("maps socket errors by phase", () => {
    const before = { timedOut: false, callerAborted: false, answered: false };
    expect(mapFetchError(fetchError("ECONNREFUSED"), before)).toMatchObject({ kind: "connect", maybeDelivered: false });
    expect(mapFetchError(fetchError("ENOTFOUND"), before)).toMatchObject({ kind: "connect", maybeDelivered: false });
    expect(mapFetchError(fetchError("ECONNRESET"), before)).toMatchObject({ kind: "reset", maybeDelivered: true });
    expect(mapFetchError(fetchError("UND_ERR_SOCKET"), before)).toMatchObject({ kind: "reset", maybeDelivered: true });
    expect(mapFetchError(fetchError("UND_ERR_HEADERS_TIMEOUT"), before)).toMatchObject({ kind: "timeout", maybeDelivered: true });
    expect(mapFetchError(new Error("mystery"), before)).toMatchObject({ kind: "other", maybeDelivered: true });
    // Once the status line arrived, a failure reading the body is a lost connection.
    expect(mapFetchError(fetchError("ECONNREFUSED"), { ...before, answered: true })).toMatchObject({ kind: "reset", maybeDelivered: true });
  });
});

describe("FetchTransport over loopback", () => {
  let server: Server | undefined;
  afterEach(async () => {
    if (server) await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
  });

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ base: string; sockets: Set<Socket> }> {
    const sockets = new Set<Socket>();
    server = createServer(handler);
    server.on("connection", (s) => sockets.add(s));
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
  }

  it("keeps the connection alive between requests (Node's fetch default)", async () => {
    const { base, sockets } = await listen((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(exampleContracts()));
    });
    const client = createClient({ baseUrl: base, apiKey: API_KEY, rng: new Rng(1) });
    for (let i = 0; i < 8; i++) await client.platform.contracts();
    // undici may open a second socket while the first response is being drained; after that
    // every request reuses the pool instead of connecting again.
    expect(sockets.size).toBeLessThanOrEqual(2);
    for (const s of sockets) s.destroy();
  });

  it("connection refused: maybeDelivered false", async () => {
    const { base, sockets } = await listen((_q, r) => r.end());
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const t = new FetchTransport({ baseUrl: base });
    const e = (await t.request({ method: "GET", path: "/health", headers: {} }).catch((x: unknown) => x)) as TransportError;
    expect(e).toBeInstanceOf(TransportError);
    expect(e.kind).toBe("connect");
    expect(e.maybeDelivered).toBe(false);
  });

  it("connection dropped after the request arrived: maybeDelivered true", async () => {
    let arrived = 0;
    const { base } = await listen((req) => {
      arrived += 1;
      req.socket.destroy();
    });
    const t = new FetchTransport({ baseUrl: base });
    const e = (await t.request({ method: "POST", path: "/api/orders/place", headers: {}, body: "{}" }).catch((x: unknown) => x)) as TransportError;
    expect(arrived).toBe(1);
    expect(e).toBeInstanceOf(TransportError);
    expect(e.maybeDelivered).toBe(true);
    expect(["reset", "other"]).toContain(e.kind);
  });
});
