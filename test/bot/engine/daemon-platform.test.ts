/**
 * The daemon's link to the platform (src/bot/engine/daemon-platform.ts), built without talking to
 * it: what a simulator-mode daemon must be handed (an API key, a transport, a connector: refused
 * by name otherwise), the live config's own key and stream address, the transport layers in their
 * order (the recorder's wrap under the REST health watch, under the key-refusal watch, under the
 * metrics' timing), a gate handed in shared as is, and the book poller's and trade feed's shares
 * of their IP buckets (docs/operations.md: 80 % of 600/60 s less the 10 % margin is 432 reads/min).
 */
import { describe, expect, it } from "vitest";
import { buildPlatformLink, type PlatformLinkParts } from "../../../src/bot/engine/daemon-platform.js";
import { DaemonOps } from "../../../src/bot/engine/ops.js";
import { DEFAULT_TUNING } from "../../../src/bot/engine/tuning.js";
import { EventSeq } from "../../../src/bot/market/market-data.js";
import { NOOP_OBSERVER } from "../../../src/bot/observer.js";
import { parseConfig, type Config } from "../../../src/config/index.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { RateGate } from "../../../src/ratelimit/index.js";
import type { SocketConnector } from "../../../src/api/index.js";
import type { Transport } from "../../../src/wire/transport.js";
import { API_KEY as LIVE_KEY, KEY_1, liveYaml } from "../../config/fixtures.js";
import { daemonConfig } from "../../integration/harness.js";
import { sample } from "../../metrics/samples.js";
import { API_KEY, ScriptedTransport, T0, json, silentLogger } from "./fakes.js";

const connector: SocketConnector = { connect: () => Promise.reject(new Error("not in this test")) } as unknown as SocketConnector;

function parts(config: Config, over: Partial<PlatformLinkParts> = {}) {
  const clock = new VirtualClock(T0);
  const log = silentLogger();
  const ops = new DaemonOps({ config, clock, log, risk: () => ({ globallyHalted: () => false, halts: () => [] }), monotonic: () => clock.now() });
  const p: PlatformLinkParts = { config, deps: {}, clock, rng: new Rng(7), log, tuning: DEFAULT_TUNING, observer: NOOP_OBSERVER, ops, seq: new EventSeq(), defaultFeeTakerBps: () => 100, ...over };
  return { p, clock, ops };
}

const simConfig = (): Config => daemonConfig({ wallets: 1 });

function liveConfig(extra = ""): Config {
  return parseConfig(liveYaml(extra), "live.yaml", { MM_API_KEY: LIVE_KEY, MM_WALLET_1_KEY: KEY_1 });
}

/** The book poller's and trade feed's budgets (their options, read where the daemon put them). */
const budgets = (link: ReturnType<typeof buildPlatformLink>) => ({
  books: (link.data as unknown as { o: { budgetPerMin: number } }).o.budgetPerMin,
  trades: (link.trades as unknown as { o: { budgetPerMin: number } }).o.budgetPerMin,
});

describe("buildPlatformLink: what simulator mode needs handed in", () => {
  it("refuses to build without an API key", () => {
    const { p } = parts(simConfig(), { deps: { transport: new ScriptedTransport(new VirtualClock(T0)), connector } });
    expect(() => buildPlatformLink(p)).toThrow(new TypeError("createDaemon: no API key (give deps.apiKey in simulator mode)"));
  });

  it("refuses to build without a transport", () => {
    const { p } = parts(simConfig(), { deps: { apiKey: API_KEY, connector } });
    expect(() => buildPlatformLink(p)).toThrow(new TypeError("createDaemon: give deps.transport in simulator mode"));
  });

  it("refuses to build without a connector", () => {
    const { p } = parts(simConfig(), { deps: { apiKey: API_KEY, transport: new ScriptedTransport(new VirtualClock(T0)) } });
    expect(() => buildPlatformLink(p)).toThrow(new TypeError("createDaemon: give deps.connector in simulator mode"));
  });
});

describe("buildPlatformLink: the transport", () => {
  it("layers, outermost first: the metrics' timing, the key-refusal watch, the REST health watch, the recorder's wrap, the wire", async () => {
    const clock = new VirtualClock(T0);
    const wire = new ScriptedTransport(clock).on("GET", /^\/health$/, json(200, { status: "ok" }));
    const path: string[] = [];
    const layer = (name: string) => (inner: Transport): Transport => ({
      request: (req) => {
        path.push(name);
        return inner.request(req);
      },
    });
    // The key-refusal watch answers by itself (without calling what is inside it) once this is set.
    let authAnswers = false;
    const auth = (inner: Transport): Transport => ({
      request: (req) => {
        path.push("auth");
        return authAnswers ? Promise.resolve(json(200, { status: "ok" })) : inner.request(req);
      },
    });
    const { p, ops } = parts(simConfig(), {
      clock,
      deps: { apiKey: API_KEY, transport: wire, connector, wrapTransport: layer("recorder") },
      auth: { wrapTransport: auth, wrapConnector: (c) => c },
      rest: { wrap: layer("rest") },
    });
    const timed = async () => sample(await ops.metrics.scrape(), 'mm_http_request_duration_seconds_count{route="/health",method="GET",status="200"}');
    const link = buildPlatformLink(p);
    await link.client.platform.health();
    expect(path).toEqual(["auth", "rest", "recorder"]);
    expect(wire.requests.map((r) => r.path)).toEqual(["/health"]);
    expect(await timed()).toBe(1);
    // A request the outermost watch answers never reaches the layers inside it nor the wire, yet
    // it is timed: the timing wraps the watches (were it inside any of them it would miss this one).
    authAnswers = true;
    await link.client.platform.health();
    expect(path).toEqual(["auth", "rest", "recorder", "auth"]);
    expect(wire.requests.map((r) => r.path)).toEqual(["/health"]);
    expect(await timed()).toBe(2);
    link.gate.close();
  });

  it("the connector: the one handed in, wrapped by the key-refusal watch; no stream path of its own", () => {
    const wrapped: SocketConnector = { ...connector };
    const { p } = parts(simConfig(), { deps: { apiKey: API_KEY, transport: new ScriptedTransport(new VirtualClock(T0)), connector }, auth: { wrapTransport: (t) => t, wrapConnector: () => wrapped } });
    const link = buildPlatformLink(p);
    expect(link.connector).toBe(wrapped);
    expect(link.streamPath).toBeUndefined();
    expect(link.apiKey).toBe(API_KEY);
    link.gate.close();
  });
});

describe("buildPlatformLink: live mode", () => {
  it("takes the config's API key and derives the stream from platform.wsUrl (its path kept)", () => {
    const config = parseConfig(
      `mode: live\nplatform:\n  baseUrl: https://api.example.test\n  apiKey: \${MM_API_KEY}\n  wsUrl: wss://stream.example.test/ws/user?v=2\nwallets:\n  - name: w1\n    privateKey: \${MM_WALLET_1_KEY}\nstrategy:\n  name: ladder\n`,
      "live.yaml",
      { MM_API_KEY: LIVE_KEY, MM_WALLET_1_KEY: KEY_1 },
    );
    const link = buildPlatformLink(parts(config).p);
    expect(link.streamPath).toBe("/ws/user?v=2");
    const key = link.apiKey;
    expect(typeof key === "string" ? key : key.reveal()).toBe(LIVE_KEY);
    link.gate.close();
  });

  it("without wsUrl: the stream on the REST base address", () => {
    const link = buildPlatformLink(parts(liveConfig()).p);
    expect(link.streamPath).toBeUndefined();
    link.gate.close();
  });
});

describe("buildPlatformLink: the gate and the IP budgets", () => {
  it("a gate handed in is the one used", () => {
    const clock = new VirtualClock(T0);
    const gate = new RateGate({ clock });
    const { p } = parts(simConfig(), { clock, deps: { apiKey: API_KEY, transport: new ScriptedTransport(clock), connector, gate } });
    expect(buildPlatformLink(p).gate).toBe(gate);
    gate.close();
  });

  it("defaults: books 600 x 0.9 x 0.8 = 432 a minute, trades 240 x 0.9 x 0.5 = 108", () => {
    const { p } = parts(simConfig(), { deps: { apiKey: API_KEY, transport: new ScriptedTransport(new VirtualClock(T0)), connector } });
    const link = buildPlatformLink(p);
    expect(budgets(link)).toEqual({ books: 432, trades: 108 });
    link.gate.close();
  });

  it("a larger safety margin and other shares: rounded down; no trade share, no trades", () => {
    const config = daemonConfig({ wallets: 1, platform: { rateSafetyMargin: 0.5 } });
    const deps = { apiKey: API_KEY, transport: new ScriptedTransport(new VirtualClock(T0)), connector };
    const a = buildPlatformLink(parts(config, { deps, tuning: { ...DEFAULT_TUNING, bookBudgetShare: 0.33, tradeBudgetShare: 0 } }).p);
    // 600 x 0.5 x 0.33 = 99; trades off
    expect(budgets(a)).toEqual({ books: 99, trades: 0 });
    const b = buildPlatformLink(parts(config, { deps, tuning: { ...DEFAULT_TUNING, bookBudgetShare: 0.001, tradeBudgetShare: 0.001 } }).p);
    // never below one request a minute
    expect(budgets(b)).toEqual({ books: 1, trades: 1 });
    a.gate.close();
    b.gate.close();
  });
});
