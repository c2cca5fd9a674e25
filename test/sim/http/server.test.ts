import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startSimServer, type SimServer } from "../../../src/sim/http/server.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { UpgradeRefusedError, WsConnector, wsDataToString } from "../../../src/stream/ws-connector.js";
import { errorEnvelopeSchema } from "../../../src/wire/errors.js";
import { KEYS, makeSim, orderPlacedFrame, T0, W1 } from "./helpers.js";

/** Collects a socket's messages; `next()` waits for the next one (no sleeps). */
class Inbox {
  private readonly queue: Record<string, unknown>[] = [];
  private waiters: ((m: Record<string, unknown>) => void)[] = [];
  constructor(ws: WebSocket) {
    ws.on("message", (data: WebSocket.RawData) => {
      const m = JSON.parse(wsDataToString(data)) as Record<string, unknown>;
      const w = this.waiters.shift();
      if (w) w(m);
      else this.queue.push(m);
    });
  }
  next(): Promise<Record<string, unknown>> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

const open: { servers: SimServer[]; sockets: WebSocket[] } = { servers: [], sockets: [] };

afterEach(async () => {
  for (const ws of open.sockets.splice(0)) ws.terminate();
  for (const s of open.servers.splice(0)) await s.close();
});

async function serve(opts: { maxBodyBytes?: number } = {}) {
  const { sim, clock } = makeSim();
  const server = await startSimServer({ sim, routes: allRoutes(), port: 0, ...opts });
  open.servers.push(server);
  return { sim, clock, server, url: server.url };
}

function wsConnect(url: string, path: string, headers: Record<string, string>): Promise<{ ws: WebSocket; inbox: Inbox }> {
  const ws = new WebSocket(url.replace(/^http/, "ws") + path, { headers });
  open.sockets.push(ws);
  const inbox = new Inbox(ws);
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, inbox }));
    ws.once("error", reject);
  });
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once("close", (code: number) => resolve(code)));
}

const authed = { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 };

describe("SimServer over loopback HTTP", () => {
  it("binds port 0 and answers with the common headers", async () => {
    const { url, server } = await serve();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-api-version")).toBe("2026-10-09");
    expect(res.headers.get("x-server-time")).toBe(String(T0));
    expect(res.headers.get("x-request-id")).toMatch(/^req-/);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("answers envelopes for unknown routes, bad JSON and auth failures", async () => {
    const { url } = await serve();
    const missing = await fetch(`${url}/api/nope`);
    expect(missing.status).toBe(404);
    const body = errorEnvelopeSchema.parse(await missing.json());
    expect(body.error.trace_id).toBe(missing.headers.get("x-trace-id"));
    const bad = await fetch(`${url}/sim/keys`, { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/not valid JSON/);
    const noKey = await fetch(`${url}/api/me/balances`);
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: { code: string } }).error.code).toBe("auth_required");
  });

  it("refuses a body over the limit with a 413 envelope", async () => {
    const { url } = await serve({ maxBodyBytes: 1024 });
    const res = await fetch(`${url}/sim/faults`, { method: "POST", body: JSON.stringify({ route: "x".repeat(5000), kind: "latency" }) });
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { code: string; details: { maxBytes: number } } };
    expect(body.error).toMatchObject({ code: "invalid_request", details: { maxBytes: 1024 } });
    expect(res.headers.get("x-request-id")).toMatch(/^req-/);
    // the server is still fine
    expect((await fetch(`${url}/health`)).status).toBe(200);
  });
});

describe("SimServer /ws/user over a real WebSocket", () => {
  it("upgrades with the key header, subscribes, forwards bus frames and pings on the sim clock", async () => {
    const { url, sim, clock } = await serve();
    const { inbox, ws } = await wsConnect(url, "/ws/user", authed);
    ws.send('{"type":"subscribe","channel":"user_orders"}');
    expect(await inbox.next()).toEqual({ type: "subscribed", channel: "user_orders", serverTs: T0 });
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    expect(await inbox.next()).toMatchObject({ type: "order_placed", orderId: "o1", walletAddress: W1 });
    ws.send('{"type":"ping"}');
    expect(await inbox.next()).toEqual({ type: "pong", serverTs: T0 });
    await clock.advance(15_000);
    expect(await inbox.next()).toEqual({ type: "ping", serverTs: T0 + 15_000 });
  });

  it("upgrades with ?key= too", async () => {
    const { url } = await serve();
    const { inbox, ws } = await wsConnect(url, `/ws/user?key=${KEYS.mm}`, { "X-User-Wallet": W1 });
    ws.send('{"type":"subscribe","channel":"nope"}');
    expect(await inbox.next()).toMatchObject({ type: "error", code: "invalid_request", channel: "nope" });
  });

  it("refuses an upgrade without a key with HTTP 401 and the envelope (seen by the client connector)", async () => {
    const { url, server } = await serve();
    const socket = new WsConnector({ baseUrl: url }).connect("/ws/user", { "X-User-Wallet": W1 });
    open.sockets.push(socket.ws);
    const err = await new Promise<Error>((resolve) => socket.on("error", resolve));
    expect(err).toBeInstanceOf(UpgradeRefusedError);
    expect((err as UpgradeRefusedError).httpStatus).toBe(401);
    expect((err as UpgradeRefusedError).code).toBe("auth_required");
    expect(server.hub.size).toBe(0);
  });

  it("drops the connection on a ws_disconnect fault (the client sees 1006)", async () => {
    const { url, sim, server } = await serve();
    const { inbox, ws } = await wsConnect(url, "/ws/user", authed);
    ws.send('{"type":"subscribe","channel":"user_orders"}');
    await inbox.next();
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_disconnect", nextCalls: 1 }, T0);
    const code = closed(ws);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    expect(await code).toBe(1006);
    expect(server.hub.size).toBe(0);
    expect(sim.bus.subscriberCount(W1)).toBe(0);
  });

  it("close() ends WebSockets with 1001 and stops listening", async () => {
    const { url, server } = await serve();
    const { ws } = await wsConnect(url, "/ws/user", authed);
    const code = closed(ws);
    await server.close();
    expect(await code).toBe(1001);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    await server.close(); // idempotent
  });
});
