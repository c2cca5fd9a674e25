/**
 * platform.localAddress end to end over real sockets: the transport and the stream connector leave
 * from the configured loopback address, and the simulator counts the IP buckets of spec 8.1 by
 * each connection's source address when no forwarded-for header is present (the trusted-header
 * path still picks the caller when one is).
 */
import { afterEach, describe, expect, it } from "vitest";
import { FetchTransport } from "../../src/api/fetch-transport.js";
import { startSimServer, type SimServer } from "../../src/sim/http/server.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { WsConnector } from "../../src/stream/ws-connector.js";
import { KEYS, makeSim, W1 } from "../sim/http/helpers.js";

const servers: SimServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(): Promise<{ server: SimServer; seen: string[]; upgrades: string[] }> {
  const { sim } = makeSim();
  const server = await startSimServer({ sim, routes: allRoutes(), host: "127.0.0.1", port: 0 });
  servers.push(server);
  const seen: string[] = [];
  const upgrades: string[] = [];
  const handle = server.pipeline.handle.bind(server.pipeline);
  server.pipeline.handle = (raw) => {
    seen.push(raw.remoteAddress ?? "?");
    return handle(raw);
  };
  const upgrade = server.hub.upgrade.bind(server.hub);
  server.hub.upgrade = (req) => {
    upgrades.push(req.remoteAddress ?? "?");
    return upgrade(req);
  };
  return { server, seen, upgrades };
}

const remaining = (h: Record<string, string>): number => Number(h["x-ratelimit-remaining"]);

describe("platform.localAddress and the simulator's IP buckets", () => {
  it("each bound transport gets its own market-read bucket, counted by source address", async () => {
    const { server, seen } = await serve();
    const a = new FetchTransport({ baseUrl: server.url, localAddress: "127.0.0.2" });
    const b = new FetchTransport({ baseUrl: server.url, localAddress: "127.0.0.3" });
    const get = (t: FetchTransport) => t.request({ method: "GET", path: "/api/markets", headers: {} });
    const a1 = await get(a);
    const a2 = await get(a);
    const b1 = await get(b);
    expect([a1.status, a2.status, b1.status]).toEqual([200, 200, 200]);
    expect(seen).toEqual(["127.0.0.2", "127.0.0.2", "127.0.0.3"]);
    expect(remaining(a2.headers)).toBe(remaining(a1.headers) - 1);
    // 127.0.0.3 starts from a full bucket: its count is its own.
    expect(remaining(b1.headers)).toBe(remaining(a1.headers));
  });

  it("a forwarded-for header (the trusted ingress hop) still names the caller", async () => {
    const { server } = await serve();
    const a = new FetchTransport({ baseUrl: server.url, localAddress: "127.0.0.2" });
    const first = await a.request({ method: "GET", path: "/api/markets", headers: {} });
    const viaIngress = await a.request({ method: "GET", path: "/api/markets", headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(remaining(viaIngress.headers)).toBe(remaining(first.headers));
  });

  it("the user stream connects from the bound address", async () => {
    const { server, upgrades } = await serve();
    const socket = new WsConnector({ baseUrl: server.url, localAddress: "127.0.0.3" }).connect("/ws/user", { "X-Api-Key": KEYS.mm, "X-User-Wallet": W1 });
    await new Promise<void>((resolve, reject) => {
      socket.ws.once("open", () => resolve());
      socket.ws.once("error", reject);
    });
    socket.terminate();
    expect(upgrades).toEqual(["127.0.0.3"]);
  });
});
