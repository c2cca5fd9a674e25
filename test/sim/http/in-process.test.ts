import { afterEach, describe, expect, it } from "vitest";
import { TransportError, type HttpRequest } from "../../../src/wire/transport.js";
import { flushMicrotasks } from "../../../src/core/clock.js";
import { InProcessSocketConnector, InProcessTransport } from "../../../src/sim/http/in-process.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { startSimServer, type SimServer } from "../../../src/sim/http/server.js";
import { WsHub } from "../../../src/sim/ws/hub.js";
import { UpgradeRefusedError } from "../../../src/stream/ws-connector.js";
import { KEYS, makeSim, orderPlacedFrame, T0, W1 } from "./helpers.js";

const servers: SimServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

function inProcess() {
  const { sim, clock } = makeSim();
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const hub = new WsHub({ sim, pipeline });
  return { sim, clock, pipeline, hub, transport: new InProcessTransport(pipeline), connector: new InProcessSocketConnector(hub) };
}

const auth = { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 };
const REQUESTS: HttpRequest[] = [
  { method: "GET", path: "/health", headers: {} },
  { method: "GET", path: "/api/markets?limit=2", headers: {} },
  { method: "GET", path: "/api/markets/TST/orderbook", headers: {} },
  { method: "GET", path: "/api/events", headers: {} },
  { method: "GET", path: "/api/me/balances", headers: auth },
  { method: "GET", path: "/api/orders/open", headers: auth },
  { method: "GET", path: "/api/orders/open?bogus=1", headers: auth },
  { method: "GET", path: "/api/me/balances", headers: { "X-Api-Key": KEYS.revoked, "X-User-Wallet": W1 } },
  { method: "POST", path: "/api/orders/cancel", headers: { ...auth, "Content-Type": "application/json" }, body: '{"orderId":"nope"}' },
  { method: "POST", path: "/api/orders/place", headers: { ...auth, "Content-Type": "application/json" }, body: '{"order":' },
  { method: "PUT", path: "/api/markets", headers: {} },
  { method: "GET", path: "/api/unknown", headers: {} },
  { method: "POST", path: "/sim/wallets/0x86de5549fb86499c2e7e935b175e2bb5c1fde79e/fund", headers: {}, body: '{"amount":"5.5"}' },
  { method: "GET", path: "/sim/trades", headers: {} },
];

/** What a client can see, minus what only the network adds (Date, Connection, Keep-Alive, Content-Length). */
function visible(status: number, headers: Record<string, string>, body: string) {
  const h = { ...headers };
  for (const k of ["date", "connection", "keep-alive", "content-length"]) delete h[k];
  return { status, headers: h, body };
}

describe("InProcessTransport", () => {
  it("returns byte-identical answers to the HTTP server for the same requests", async () => {
    const net = makeSim();
    const server = await startSimServer({ sim: net.sim, routes: allRoutes(), port: 0 });
    servers.push(server);
    const local = inProcess();
    for (const r of REQUESTS) {
      const init: RequestInit = { method: r.method, headers: r.headers };
      if (r.body !== undefined) init.body = r.body;
      const res = await fetch(server.url + r.path, init);
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      const overNet = visible(res.status, headers, await res.text());
      const mine = await local.transport.request(r);
      const inProc = visible(mine.status, mine.headers, mine.body);
      expect(inProc, `${r.method} ${r.path}`).toEqual(overNet);
    }
  });

  it("lower-cases response headers and passes the body text through", async () => {
    const { transport } = inProcess();
    const res = await transport.request({ method: "GET", path: "/health", headers: {} });
    expect(res.headers["x-api-version"]).toBe("2026-10-09");
    expect(res.headers["x-server-time"]).toBe(String(T0));
    expect(res.body).toBe('{"status":"ok"}');
  });

  it("honours the abort signal: before sending (not delivered) and while waiting (maybe delivered)", async () => {
    const { transport, sim, clock } = inProcess();
    const pre = new AbortController();
    pre.abort();
    const e1 = await transport.request({ method: "GET", path: "/health", headers: {}, signal: pre.signal }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(TransportError);
    expect((e1 as TransportError).maybeDelivered).toBe(false);

    sim.platform.faults.add({ route: "GET /health", kind: "latency", latencyMs: 1000, nextCalls: 1 }, T0);
    const mid = new AbortController();
    const pending = transport.request({ method: "GET", path: "/health", headers: {}, signal: mid.signal }).catch((e: unknown) => e);
    await flushMicrotasks();
    mid.abort();
    const e2 = await pending;
    expect(e2).toBeInstanceOf(TransportError);
    expect((e2 as TransportError).kind).toBe("aborted");
    expect((e2 as TransportError).maybeDelivered).toBe(true);
    await clock.advance(1000); // the request itself completes on the sim clock; nothing dangles
  });
});

describe("InProcessSocketConnector", () => {
  it("opens after the caller attached its listeners, then speaks the /ws/user protocol", async () => {
    const { connector, sim } = inProcess();
    const socket = connector.connect("/ws/user", auth);
    const got: string[] = [];
    let opened = false;
    socket.on("open", () => (opened = true));
    socket.on("message", (m) => got.push(m));
    expect(() => socket.send("{}")).toThrow(/not open/);
    await flushMicrotasks();
    expect(opened).toBe(true);
    socket.send('{"type":"subscribe","channel":"user_orders"}');
    await flushMicrotasks();
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    // delivered on a microtask, never inside the publisher's call
    expect(got).toHaveLength(1);
    await flushMicrotasks();
    expect(got.map((m) => (JSON.parse(m) as { type: string }).type)).toEqual(["subscribed", "order_placed"]);
  });

  it("refuses like the network connector: an UpgradeRefusedError, then close 1006", async () => {
    const { connector } = inProcess();
    const socket = connector.connect("/ws/user", { "X-Api-Key": KEYS.revoked, "X-User-Wallet": W1 });
    const events: string[] = [];
    let error: unknown;
    socket.on("error", (e) => {
      error = e;
      events.push("error");
    });
    socket.on("close", (code) => events.push(`close ${code}`));
    socket.on("open", () => events.push("open"));
    await flushMicrotasks();
    expect(events).toEqual(["error", "close 1006"]);
    expect(error).toBeInstanceOf(UpgradeRefusedError);
    expect((error as UpgradeRefusedError).httpStatus).toBe(401);
    expect((error as UpgradeRefusedError).code).toBe("api_key_revoked");
  });

  it("reports client close, server close and a dropped connection with the right codes", async () => {
    const { connector, hub, sim } = inProcess();
    const codes: number[] = [];
    const a = connector.connect(`/ws/user?key=${KEYS.mm}`, { "X-User-Wallet": W1 });
    a.on("close", (c) => codes.push(c));
    await flushMicrotasks();
    a.close(1000, "bye");
    await flushMicrotasks();
    expect(codes).toEqual([1000]);
    expect(hub.size).toBe(0);

    const b = connector.connect("/ws/user", auth);
    b.on("close", (c) => codes.push(c));
    await flushMicrotasks();
    hub.closeAll();
    await flushMicrotasks();
    expect(codes).toEqual([1000, 1001]);

    const c = connector.connect("/ws/user", auth);
    c.on("close", (code) => codes.push(code));
    await flushMicrotasks();
    c.send('{"type":"subscribe","channel":"user_orders"}');
    await flushMicrotasks();
    sim.platform.faults.add({ route: "WS /ws/user", kind: "ws_disconnect", nextCalls: 1 }, T0);
    sim.bus.publish(W1, orderPlacedFrame(W1, "o1", T0));
    await flushMicrotasks();
    expect(codes).toEqual([1000, 1001, 1006]);
  });

  it("keeps a throwing listener from escaping the microtask", async () => {
    const { connector } = inProcess();
    const s = connector.connect("/ws/user", auth);
    s.on("open", () => {
      throw new Error("listener bug");
    });
    let closedAfter = false;
    await flushMicrotasks();
    s.on("close", () => (closedAfter = true));
    s.close();
    await flushMicrotasks();
    expect(closedAfter).toBe(true);
  });
});
