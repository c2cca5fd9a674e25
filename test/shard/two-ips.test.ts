/**
 * Two sharded daemons, each bound to its own loopback address (127.0.0.2 and 127.0.0.3), against
 * one simulator over real HTTP and WebSocket: the simulator sees each replica's requests from its
 * own source address (so each has its own IP buckets, spec 8.1), there is no 429, no wallet ever
 * has orders of both replicas, and together they place more than one IP's `POST /api/orders/*`
 * bucket allows.
 *
 * The bucket is scaled down (30 per 5 s instead of the spec's 6000 per 60 s) in the simulator's
 * scenario and in both daemons' configs alike (`platform.rateLimits`, src/ratelimit/overrides.ts),
 * so the limit is reached in seconds: a test at the spec's size would need each replica above 50
 * places a second for a minute. The claim is the same: in one window of the bucket, the two
 * addresses together sent more than the bucket lets one address send, and none was refused.
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
/** One IP's `POST /api/orders/*` bucket, scaled down from spec 8.2's 6000 per 60 s (see the header). */
const IP_BUCKET = { limit: 30, windowSec: 5 };
const RATE_LIMITS = { "orders-post-ip": IP_BUCKET };
const MEASURE_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("two replicas on two source addresses", () => {
  const clock = new RealClock();
  let sim: Simulator;
  let server: SimServer;
  const daemons: Daemon[] = [];
  const posts = new Map<string, number>();
  /** POST /api/orders/* per window of the ip bucket (its start, epoch-aligned as the simulator counts) and address. */
  const perWindow = new Map<number, Map<string, number>>();
  const tooMany: string[] = [];
  let counting = false;

  beforeAll(async () => {
    const yaml = scenarioYaml({ wallets: WALLETS, rateLimitPerMin: 6000, rateLimits: RATE_LIMITS, markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 30 })) }, "now");
    sim = new Simulator(parseScenario(yaml, "two-ips.yaml"), { clock, flowRefreshMs: 500 });
    server = new SimServer({ sim, routes: allRoutes(), logger: silent() });
    const url = await server.listen("127.0.0.1", 0);
    const handle = server.pipeline.handle.bind(server.pipeline);
    server.pipeline.handle = async (raw) => {
      // The window a request counts in is the one it arrives in (as the simulator's limiter counts it).
      const arrivedMs = Date.now();
      const out = await handle(raw);
      if (out.status === 429) tooMany.push(`${raw.remoteAddress} ${raw.method} ${raw.url}`);
      if (counting && raw.method === "POST" && raw.url.startsWith("/api/orders/")) {
        const from = raw.remoteAddress ?? "?";
        posts.set(from, (posts.get(from) ?? 0) + 1);
        const windowMs = IP_BUCKET.windowSec * 1000;
        const start = Math.floor(arrivedMs / windowMs) * windowMs;
        const w = perWindow.get(start) ?? new Map<string, number>();
        w.set(from, (w.get(from) ?? 0) + 1);
        perWindow.set(start, w);
      }
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
        platform: { rateLimitPerMin: 6000, rateLimits: RATE_LIMITS },
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
    const a = posts.get(ADDRESSES[0]!) ?? 0;
    const b = posts.get(ADDRESSES[1]!) ?? 0;
    console.log(`POST /api/orders/* in ${MEASURE_MS / 1000} s: ${ADDRESSES[0]} ${a}, ${ADDRESSES[1]} ${b} (one IP's bucket here: ${IP_BUCKET.limit} per ${IP_BUCKET.windowSec} s)`);
    expect([...posts.keys()].sort()).toEqual(ADDRESSES);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(tooMany).toEqual([]);
  });

  it("together they send more in one window than one IP's bucket allows, neither address above it", () => {
    const windows = [...perWindow.entries()].map(([start, byIp]) => ({ start, byIp, total: [...byIp.values()].reduce((x, y) => x + y, 0) }));
    for (const w of windows) for (const [ip, n] of w.byIp) expect(n, `${ip} in the window at ${w.start}`).toBeLessThanOrEqual(IP_BUCKET.limit);
    const best = Math.max(...windows.map((w) => w.total));
    console.log(`busiest ${IP_BUCKET.windowSec} s window: ${best} POST /api/orders/* from two addresses (one address may send ${IP_BUCKET.limit})`);
    expect(best).toBeGreaterThan(IP_BUCKET.limit);
  });

  it("no wallet ever has orders of both replicas", () => {
    for (let i = 0; i < WALLETS; i++) {
      const w = walletAddress(i);
      const ids = new Set(sim.desk.records.historyPage(w, {}, undefined, 1_000_000).orders.map((o) => /^(ip-s\d+)-/.exec(o.clientOrderId ?? "")?.[1] ?? "other"));
      expect(ids.size, `${w}: ${[...ids].join(", ")}`).toBeLessThanOrEqual(1);
    }
  });
});
