/**
 * Two sharded daemons, each bound to its own loopback address (127.0.0.2 and 127.0.0.3), against
 * one simulator over real HTTP and WebSocket: the simulator sees each replica's requests from its
 * own source address (so each has its own IP buckets, spec 8.1), there is no 429, and no wallet
 * ever has orders of both replicas. The rate both reach is printed; NOT asserted: at this size
 * (the daemon batches places and cancels) it stays far below one IP's 6000 POST /api/orders/* per
 * 60 s (spec 8.2), and a run that exceeds it needs a scaled-down IP bucket in the simulator or a
 * virtual-clock run, not built yet (see the report of issue 15, item 6).
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
import { createDaemon, type Daemon } from "../../src/bot/engine/daemon.js";
import { shardOf } from "../../src/config/shard-section.js";
import { API_KEY, daemonConfig, scenarioYaml, silent, walletAddress } from "../integration/harness.js";

const WALLETS = 6;
const MARKETS = ["IPA", "IPB", "IPC", "IPD", "IPE", "IPF"];
const ADDRESSES = ["127.0.0.2", "127.0.0.3"];
/** One IP's `POST /api/orders/*` bucket, spec 8.2. */
const IP_BUCKET_PER_MIN = 6000;
const MEASURE_MS = 8_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("two replicas on two source addresses", () => {
  const clock = new RealClock();
  let sim: Simulator;
  let server: SimServer;
  const daemons: Daemon[] = [];
  const posts = new Map<string, number>();
  const tooMany: string[] = [];
  let counting = false;

  beforeAll(async () => {
    const yaml = scenarioYaml({ wallets: WALLETS, rateLimitPerMin: 6000, markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 })) }, "now");
    sim = new Simulator(parseScenario(yaml, "two-ips.yaml"), { clock, flowRefreshMs: 500 });
    server = new SimServer({ sim, routes: allRoutes(), logger: silent() });
    const url = await server.listen("127.0.0.1", 0);
    const handle = server.pipeline.handle.bind(server.pipeline);
    server.pipeline.handle = async (raw) => {
      const out = await handle(raw);
      if (out.status === 429) tooMany.push(`${raw.remoteAddress} ${raw.method} ${raw.url}`);
      if (counting && raw.method === "POST" && raw.url.startsWith("/api/orders/")) posts.set(raw.remoteAddress ?? "?", (posts.get(raw.remoteAddress ?? "?") ?? 0) + 1);
      return out;
    };
    sim.start();
    for (const [index, localAddress] of ADDRESSES.entries()) {
      const base = daemonConfig({
        wallets: WALLETS,
        instance: "ip",
        slugs: MARKETS,
        strategy: { levels: 3, halfSpreadTicks: 2 },
        // Every order replaced each second: far more sends than one IP's bucket carries.
        quoting: { refreshMs: 250, maxOrderAgeSec: 1, priceToleranceTicks: 0 },
        platform: { rateLimitPerMin: 6000 },
      });
      daemons.push(
        createDaemon({ ...base, shard: { index, count: 2 } }, {
          clock,
          rng: new Rng(40 + index),
          transport: new FetchTransport({ baseUrl: url, clock, localAddress }),
          connector: new WsConnector({ baseUrl: url, localAddress }),
          apiKey: API_KEY,
          logger: silent(),
          tuning: { streamReadyWaitMs: 3_000 },
        }),
      );
    }
    await Promise.all(daemons.map((d) => d.start()));
    counting = true;
    await sleep(MEASURE_MS);
    counting = false;
    await Promise.all(daemons.map((d) => d.stop("test")));
  }, 90_000);

  afterAll(async () => {
    sim.stop();
    await server.close();
  });

  it("each replica owns its own wallets", () => {
    const owned = daemons.map((d) => d.config.wallets.map((w) => w.address.toLowerCase()));
    expect(owned[0]!.length + owned[1]!.length).toBe(WALLETS);
    for (const [i, list] of owned.entries()) for (const w of list) expect(shardOf(w, 2)).toBe(i);
  });

  it("each replica's order sends come from its own address, with no 429", () => {
    const perMin = (n: number): number => (n * 60_000) / MEASURE_MS;
    const a = posts.get(ADDRESSES[0]!) ?? 0;
    const b = posts.get(ADDRESSES[1]!) ?? 0;
    console.log(`POST /api/orders/* in ${MEASURE_MS / 1000} s: ${ADDRESSES[0]} ${a}, ${ADDRESSES[1]} ${b}; together ${Math.round(perMin(a + b))}/min (one IP's bucket: ${IP_BUCKET_PER_MIN}/min)`);
    expect([...posts.keys()].sort()).toEqual(ADDRESSES);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(tooMany).toEqual([]);
  });

  it("no wallet ever has orders of both replicas", () => {
    for (let i = 0; i < WALLETS; i++) {
      const w = walletAddress(i);
      const ids = new Set(sim.desk.records.historyPage(w, {}, undefined, 1_000_000).orders.map((o) => /^(ip-s\d+)-/.exec(o.clientOrderId ?? "")?.[1] ?? "other"));
      expect(ids.size, `${w}: ${[...ids].join(", ")}`).toBeLessThanOrEqual(1);
    }
  });
});
