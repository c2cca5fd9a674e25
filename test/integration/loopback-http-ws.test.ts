/**
 * The daemon against the simulator over real HTTP and WebSocket on loopback, on the real clock:
 * the same code as live (FetchTransport, WsConnector). It quotes, receives its order frames over
 * the socket, survives a server-side close of its streams, and shuts down leaving nothing open.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RealClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import { FetchTransport } from "../../src/api/index.js";
import { WsConnector } from "../../src/stream/index.js";
import { SimServer } from "../../src/sim/http/server.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { parseScenario } from "../../src/sim/platform/index.js";
import { Simulator } from "../../src/sim/simulator.js";
import { createDaemon, type Daemon, type ShutdownReport } from "../../src/bot/engine/daemon.js";
import { RecordingObserver } from "../../src/bot/observer.js";
import { API_KEY, daemonConfig, scenarioYaml, silent, walletAddress } from "./harness.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => boolean, timeoutMs = 8_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe("daemon over loopback HTTP/WS", () => {
  const clock = new RealClock();
  let sim: Simulator;
  let server: SimServer;
  let daemon: Daemon;
  const observer = new RecordingObserver();
  let report: ShutdownReport;
  let openAfter = -1;

  beforeAll(async () => {
    sim = new Simulator(parseScenario(scenarioYaml({ wallets: 1, markets: [{ symbol: "LOOP", opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 120 }] }, "now"), "loop.yaml"), { clock, flowRefreshMs: 500 });
    server = new SimServer({ sim, routes: allRoutes(), logger: silent() });
    const url = await server.listen("127.0.0.1", 0);
    sim.start();
    daemon = createDaemon(daemonConfig({ wallets: 1, slugs: ["LOOP"], strategy: { levels: 2, halfSpreadTicks: 1 }, quoting: { refreshMs: 200 } }), {
      clock,
      rng: new Rng(5),
      transport: new FetchTransport({ baseUrl: url, clock }),
      connector: new WsConnector({ baseUrl: url }),
      apiKey: API_KEY,
      logger: silent(),
      observer,
      tuning: { streamReadyWaitMs: 3_000, minBookIntervalMs: 200 },
    });
    await daemon.start();
    await until("orders on the book", () => daemon.status().openOrders >= 4);
    await until("a frame-driven cycle", () => observer.of("cycle").some((e) => e.trigger === "order" || e.trigger === "fill"));
    // The server closes every user stream: the daemon reconnects and reconciles.
    server.hub.closeAll(1012, "restart");
    await until("stream resubscribed", () => observer.of("stream_state").filter((e) => e.state === "subscribed").length >= 2);
    report = await daemon.stop("test");
    const res = await fetch(`${url}/api/orders/open`, { headers: { "x-api-key": API_KEY, "x-user-wallet": walletAddress(0) } });
    openAfter = ((await res.json()) as { orders: unknown[] }).orders.length;
  }, 30_000);

  afterAll(async () => {
    sim.stop();
    await server.close();
  });

  it("placed orders over HTTP and got their frames over the WebSocket", () => {
    expect(observer.of("order_placed").length).toBeGreaterThanOrEqual(4);
    expect(observer.of("stream_state").some((e) => e.state === "subscribed")).toBe(true);
  });

  it("reconnected after the server closed the stream", () => {
    expect(observer.of("stream_state").filter((e) => e.state === "disconnected").length).toBeGreaterThanOrEqual(1);
  });

  it("shut down with zero open orders", () => {
    expect(report.exitCode).toBe(0);
    expect(openAfter).toBe(0);
  });
});
