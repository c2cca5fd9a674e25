/**
 * The live connector against real `ws` servers on loopback. These use the RealClock (with small
 * backoff values) and await events, never fixed sleeps.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import type { WebSocket as ServerSocket } from "ws";
import { RealClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import type { UserStreamEvents } from "../../src/stream/index.js";
import { UpgradeRefusedError, UserStream, WsConnector, toWebSocketUrl, wsDataToString } from "../../src/stream/index.js";
import { API_KEY, WALLET, orderPlaced } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function nextEvent<K extends keyof UserStreamEvents>(
  stream: UserStream,
  name: K,
  pred: (p: UserStreamEvents[K]) => boolean = () => true,
): Promise<UserStreamEvents[K]> {
  return new Promise((resolve) => {
    const off = stream.on(name, (p) => {
      if (!pred(p)) return;
      off();
      resolve(p);
    });
  });
}

async function wsServer(): Promise<{ wss: WebSocketServer; port: number }> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((r) => wss.once("listening", () => r()));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => r());
      }),
  );
  return { wss, port: (wss.address() as AddressInfo).port };
}

async function httpServer(onUpgrade: Parameters<Server["on"]>[1]): Promise<number> {
  const server = createServer();
  server.on("upgrade", onUpgrade);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return (server.address() as AddressInfo).port;
}

function liveStream(port: number): UserStream {
  const stream = new UserStream({
    connector: new WsConnector({ baseUrl: `http://127.0.0.1:${port}` }),
    apiKey: API_KEY,
    wallet: WALLET,
    clock: new RealClock(),
    rng: new Rng(1),
    backoff: { initialMs: 5, maxMs: 20 },
  });
  cleanups.push(() => stream.stop());
  return stream;
}

describe("toWebSocketUrl and wsDataToString", () => {
  it("maps http(s) to ws(s), keeps a path prefix and drops a trailing slash", () => {
    expect(toWebSocketUrl("http://127.0.0.1:8080", "/ws/user")).toBe("ws://127.0.0.1:8080/ws/user");
    expect(toWebSocketUrl("https://api.example.com/partner/", "/ws/user")).toBe("wss://api.example.com/partner/ws/user");
    expect(toWebSocketUrl("wss://api.example.com", "ws/user?x=1")).toBe("wss://api.example.com/ws/user?x=1");
    expect(() => toWebSocketUrl("ftp://x", "/ws/user")).toThrow(/unsupported scheme/);
    expect(() => toWebSocketUrl("not a url", "/ws/user")).toThrow(/absolute/);
    expect(() => new WsConnector({ baseUrl: "mailto:x@y" })).toThrow(/unsupported scheme/);
  });

  it("turns every ws data shape into text", () => {
    const text = '{"type":"ping","serverTs":1}';
    const buf = Buffer.from(text);
    expect(wsDataToString(buf)).toBe(text);
    expect(wsDataToString([buf.subarray(0, 5), buf.subarray(5)])).toBe(text);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    expect(wsDataToString(ab)).toBe(text);
  });
});

describe("UserStream over a real ws server", () => {
  it("sends the headers on the upgrade, parses frames, and reconnects after the server drops the socket", async () => {
    const { wss, port } = await wsServer();
    const upgrades: { key: unknown; wallet: unknown; url: unknown }[] = [];
    const serverSockets: ServerSocket[] = [];
    wss.on("connection", (sock, req) => {
      serverSockets.push(sock);
      const n = serverSockets.length;
      upgrades.push({ key: req.headers["x-api-key"], wallet: req.headers["x-user-wallet"], url: req.url });
      sock.on("message", (data: Buffer) => {
        const msg = JSON.parse(data.toString("utf8")) as { type: string; channel?: string };
        if (msg.type !== "subscribe") return;
        sock.send(JSON.stringify({ type: "subscribed", channel: msg.channel, serverTs: n * 1000 }));
        sock.send(JSON.stringify(orderPlaced(n * 1000 + 1)));
        sock.send(Buffer.from(JSON.stringify({ type: "ping", serverTs: n * 1000 + 2 })), { binary: true });
        sock.send(JSON.stringify({ type: "market_resolved", serverTs: n * 1000 + 3 }));
      });
    });

    const stream = liveStream(port);
    const frames: string[] = [];
    stream.on("frame", (f) => frames.push(f.type));
    const firstUnknown = nextEvent(stream, "unknown_frame");
    const firstSub = nextEvent(stream, "subscribed");
    stream.start();
    expect(await firstSub).toMatchObject({ channel: "user_orders", serverTs: 1000, resumed: false });
    // Frames arrive in order: once the last one is in, so are the others.
    expect(await firstUnknown).toMatchObject({ type: "market_resolved" });
    expect(frames).toEqual(["order_placed"]);
    expect(stream.stats()).toMatchObject({ connected: true, subscribed: true, lastServerTs: 1003, framesReceived: 4, unknownFrames: 1 });
    expect(upgrades).toEqual([{ key: API_KEY, wallet: WALLET, url: "/ws/user" }]);

    const dropped = nextEvent(stream, "disconnected");
    const resubscribed = nextEvent(stream, "subscribed", (s) => s.resumed);
    serverSockets[0]!.terminate();
    const d = await dropped;
    expect(d.code).toBe(1006);
    expect(d.lastServerTs).toBe(1003);
    const r = await resubscribed;
    expect(r).toMatchObject({ serverTs: 2000, resumed: true, lastServerTs: 1003 });
    expect(r.gapStartedAt).toBe(d.gapStartedAt);
    expect(upgrades).toHaveLength(2);
    expect(upgrades[1]).toEqual({ key: API_KEY, wallet: WALLET, url: "/ws/user" });
    expect(stream.stats().reconnects).toBe(1);

    const closedOnServer = new Promise<number>((resolve) => serverSockets[1]!.once("close", (code) => resolve(code)));
    stream.stop();
    expect(await closedOnServer).toBe(1000);
  });

  it("reports a refused upgrade with its status and platform code, without the key, then retries", async () => {
    let refusals = 0;
    const port = await httpServer((_req, socket) => {
      refusals++;
      const body = JSON.stringify({ status: 401, error: { code: "api_key_revoked", message: "API key revoked" } });
      (socket as Socket).end(
        `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    });
    const stream = liveStream(port);
    const errors: UserStreamEvents["error"][] = [];
    stream.on("error", (e) => errors.push(e));
    const retried = nextEvent(stream, "reconnecting", (r) => r.attempt === 3);
    stream.start();
    await retried;
    stream.stop();
    expect(refusals).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors[0]).toMatchObject({
      kind: "connect",
      httpStatus: 401,
      code: "api_key_revoked",
      message: "upgrade refused: HTTP 401 api_key_revoked: API key revoked",
    });
    expect(JSON.stringify(errors)).not.toContain(API_KEY);
  });

  it("the socket reports a refusal once, then closes", async () => {
    const port = await httpServer((_req, socket) => {
      (socket as Socket).end("HTTP/1.1 403 Forbidden\r\nContent-Length: 4\r\nConnection: close\r\n\r\nnope");
    });
    const sock = new WsConnector({ baseUrl: `http://127.0.0.1:${port}` }).connect("/ws/user", { "X-Api-Key": API_KEY });
    const errors: Error[] = [];
    sock.on("error", (e) => errors.push(e));
    const code = await new Promise<number>((resolve) => sock.on("close", (c) => resolve(c)));
    expect(code).toBe(1006);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(UpgradeRefusedError);
    expect(errors[0]).toMatchObject({ httpStatus: 403, code: "http_403" });
  });
});
