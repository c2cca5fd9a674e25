/**
 * The daemon against the real simulator, in-process, on a VirtualClock: a small scenario built
 * from parameters, the simulator's pipeline and WebSocket hub behind the in-process transport
 * and connector, a daemon config, and helpers that drive virtual time and read the platform's
 * side of the story (orders, trades) straight from the simulator.
 */
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import { parseConfig, simulatorWalletKey, type Config } from "../../src/config/index.js";
import { createLogger, type Logger } from "../../src/log/index.js";
import { InProcessSocketConnector, InProcessTransport } from "../../src/sim/http/in-process.js";
import { Pipeline } from "../../src/sim/http/pipeline.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { parseScenario, type FaultRuleInput } from "../../src/sim/platform/index.js";
import { Simulator } from "../../src/sim/simulator.js";
import { WsHub } from "../../src/sim/ws/hub.js";
import { createDaemon, type Daemon, type DaemonDeps } from "../../src/bot/engine/daemon.js";
import { RecordingObserver } from "../../src/bot/observer.js";
import type { Fill } from "../../src/bot/fills/fill-ledger.js";
import { privateKeyToAddress } from "viem/accounts";

export const START = Date.UTC(2026, 5, 1, 12, 0, 0);
export const API_KEY = "pmk_sim_5e1d0000000000aa_IntegrationTestSecret0000000001";

export interface MarketSpec {
  symbol: string;
  /** Relative times (+2m, -1h). */
  preMarketStartsAt?: string | null;
  opensAt: string;
  closesAt: string | null;
  fairValue?: string;
  takerArrivalPerMin?: number;
  takerMean?: string;
  vol?: number;
}

export interface SimSpec {
  wallets: number;
  markets: MarketSpec[];
  seed?: number;
  rateLimitPerMin?: number;
  /** The platform's own numbers for 8.2 buckets (scenario `platform.rateLimits`). */
  rateLimits?: Record<string, { limit?: number; windowSec?: number }>;
}

export function walletKey(i: number): string {
  return simulatorWalletKey(9, `it-${i}`).reveal();
}

export function walletAddress(i: number): string {
  return privateKeyToAddress(walletKey(i) as `0x${string}`).toLowerCase();
}

/** A scenario from parameters; `start` is an ISO time or `now` (real-clock runs). */
export function scenarioYaml(spec: SimSpec, start: string = new Date(START).toISOString()): string {
  const wallets = Array.from({ length: spec.wallets }, (_, i) => `  - { name: w${i}, privateKey: "${walletKey(i)}", partner: mm, balances: { collateral: "100000" } }`).join("\n");
  const markets = spec.markets
    .map(
      (m) => `      - title: ${m.symbol}
        symbol: ${m.symbol}
        feeTakerBps: 100
        tradingWindow: { preMarketStartsAt: ${m.preMarketStartsAt ?? "null"}, opensAt: "${m.opensAt}", closesAt: ${m.closesAt === null ? "null" : `"${m.closesAt}"`} }
        fairValue: "${m.fairValue ?? "0.5"}"
        flow:
          volPerSqrtMin: ${m.vol ?? 0.004}
          jumpProbPerMin: 0.01
          jumpSize: 0.02
          takerArrivalPerMin: ${m.takerArrivalPerMin ?? 20}
          takerSize: { dist: lognormal, min: "1", max: "100", mean: "${m.takerMean ?? "8"}" }
          liquidity: { levels: 3, depthPerLevel: "100", halfSpread: "0.02", levelStep: "0.01" }`,
    )
    .join("\n");
  return `seed: ${spec.seed ?? 11}
start: "${start}"
platform: { defaultFeeTakerBps: 100${spec.rateLimits === undefined ? "" : `, rateLimits: ${JSON.stringify(spec.rateLimits)}`} }
partners:
  - id: mm
    name: Integration MM
    kind: multi_wallet
    requirePerWalletKyc: false
    rateLimitPerMin: ${spec.rateLimitPerMin ?? 600}
    keys:
      - { key: ${API_KEY}, scopes: [orders:read, orders:write, portfolio:read] }
wallets:
${wallets}
events:
  - slug: it-event
    title: Integration event
    vertical: football
    tags: []
    markets:
${markets}
`;
}

/** Records every request and answer that crosses the seam. */
export class RecordingTransport implements Transport {
  readonly log: { method: string; path: string; body: string | undefined; at: number; status: number }[] = [];
  constructor(
    private readonly inner: Transport,
    private readonly clock: { now(): number },
  ) {}
  async request(req: HttpRequest): Promise<HttpResponse> {
    const at = this.clock.now();
    const res = await this.inner.request(req);
    this.log.push({ method: req.method, path: req.path, body: req.body, at, status: res.status });
    return res;
  }
  places(): { body: { clientOrderId: string; marketId: string; postOnly: boolean }; at: number }[] {
    const out: { body: { clientOrderId: string; marketId: string; postOnly: boolean }; at: number }[] = [];
    for (const r of this.log) {
      if (r.method !== "POST" || r.body === undefined) continue;
      if (r.path === "/api/orders/place") out.push({ body: JSON.parse(r.body), at: r.at });
      if (r.path === "/api/orders/place-batch") for (const b of (JSON.parse(r.body) as { orders: never[] }).orders) out.push({ body: b, at: r.at });
    }
    return out;
  }
}

export interface SimHarness {
  clock: VirtualClock;
  sim: Simulator;
  pipeline: Pipeline;
  hub: WsHub;
  transport: RecordingTransport;
  connector: InProcessSocketConnector;
  addFault(rule: FaultRuleInput): string;
}

export function startSim(spec: SimSpec): SimHarness {
  const clock = new VirtualClock(START);
  const sim = new Simulator(parseScenario(scenarioYaml(spec), "integration.yaml"), { clock, pepper: new Uint8Array(32), recoveryCache: null });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const hub = new WsHub({ sim, pipeline });
  const transport = new RecordingTransport(new InProcessTransport(pipeline), clock);
  const connector = new InProcessSocketConnector(hub);
  sim.start();
  return { clock, sim, pipeline, hub, transport, connector, addFault: (rule) => sim.platform.faults.add(rule, clock.now()) };
}

export interface ConfigSpec {
  wallets: number;
  instance?: string;
  slugs?: string[];
  strategy?: Record<string, unknown>;
  quoting?: Record<string, unknown>;
  shutdownSec?: number;
  risk?: Record<string, unknown>;
  /** The platform section (requestTimeoutMs, rate tier...). */
  platform?: Record<string, unknown>;
}

const yamlOf = (o: unknown): string => JSON.stringify(o);

export function daemonConfig(spec: ConfigSpec): Config {
  const env: Record<string, string> = {};
  const wallets = Array.from({ length: spec.wallets }, (_, i) => {
    env[`W${i}`] = walletKey(i);
    return `  - { name: w${i}, privateKey: "\${W${i}}" }`;
  }).join("\n");
  const text = `mode: simulator
instance: { id: ${spec.instance ?? "it"} }
wallets:
${wallets}
markets: { slugs: ${yamlOf(spec.slugs ?? [])}, maxMarkets: 10, refreshSec: 30 }
strategy: { name: ladder, params: ${yamlOf({ size: "10", ...spec.strategy })} }
quoting: ${yamlOf({ refreshMs: 1000, priceToleranceTicks: 1, pullBeforeCloseSec: 30, ...spec.quoting })}
risk: ${yamlOf({ staleDataSec: 10, ...spec.risk })}
shutdown: { cancelDeadlineSec: ${spec.shutdownSec ?? 20} }${spec.platform === undefined ? "" : `\nplatform: ${yamlOf(spec.platform)}`}
log: { level: silent }
`;
  return parseConfig(text, "integration-daemon.yaml", env);
}

export function silent(): Logger {
  return createLogger({ level: "silent" });
}

export interface DaemonHarness {
  daemon: Daemon;
  observer: RecordingObserver;
}

/**
 * A daemon on the harness's simulator. It keeps compacted fill records (tests compare the ledger
 * with the platform's trades) unless `keepCompacted` is false, as in a real daemon.
 */
export function makeDaemon(h: SimHarness, config: Config, deps: Partial<DaemonDeps> = {}, opts: { keepCompacted?: boolean } = {}): DaemonHarness {
  const observer = deps.observer instanceof RecordingObserver ? deps.observer : new RecordingObserver();
  const daemon = createDaemon(config, {
    clock: h.clock,
    rng: new Rng(123),
    transport: h.transport,
    connector: h.connector,
    apiKey: API_KEY,
    logger: silent(),
    observer,
    tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
    ...deps,
  });
  if (opts.keepCompacted !== false) daemon.ledger.keepCompacted();
  return { daemon, observer };
}

/** Advance virtual time until `p` settles (in steps, so async chains make progress). */
export async function settle<T>(clock: VirtualClock, p: Promise<T>, maxMs = 120_000, stepMs = 250): Promise<T> {
  let done = false;
  let value: T | undefined;
  let error: unknown;
  void p.then(
    (v) => {
      done = true;
      value = v;
    },
    (e: unknown) => {
      done = true;
      error = e;
    },
  );
  for (let t = 0; t < maxMs && !done; t += stepMs) await clock.advance(stepMs);
  if (!done) throw new Error(`did not settle within ${maxMs} ms of virtual time`);
  if (error !== undefined) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  return value as T;
}

export async function run(clock: VirtualClock, ms: number, stepMs = 250): Promise<void> {
  for (let t = 0; t < ms; t += stepMs) await clock.advance(stepMs);
}

/** The simulator's trades of one wallet, as fills in that wallet's terms. */
export function simFills(sim: Simulator, wallet: string): Fill[] {
  const w = wallet.toLowerCase();
  const out: Fill[] = [];
  for (const t of sim.engine.ledger.trades()) {
    if (t.makerWallet.toLowerCase() === w) {
      out.push({ tradeId: t.id, wallet: w, orderId: t.makerOrderId, marketId: t.marketId, outcome: t.makerOutcome, side: t.makerSide, price: t.makerPrice, qty: t.quantity, fee: 0n, role: "maker", ts: t.createdAtMs, source: "trades_pull" });
    }
    if (t.takerWallet.toLowerCase() === w) {
      out.push({ tradeId: t.id, wallet: w, orderId: t.takerOrderId, marketId: t.marketId, outcome: t.outcome, side: t.side, price: t.price, qty: t.quantity, fee: t.fee, role: "taker", ts: t.createdAtMs, source: "trades_pull" });
    }
  }
  return out;
}

/** Open orders of one wallet on the platform (through the API, as the daemon would see them). */
export async function platformOpenOrders(h: SimHarness, wallet: string): Promise<{ id: string; clientOrderId: string | null; marketId: string; postOnly: boolean; side: string; outcome: number }[]> {
  const res = await h.pipeline.handle({
    method: "GET",
    url: "/api/orders/open?limit=500",
    headers: { "x-api-key": API_KEY, "x-user-wallet": wallet },
    bodyText: "",
    remoteAddress: "10.9.9.9",
  });
  const page = JSON.parse(res.bodyText) as { orders: { id: string; clientOrderId: string | null; marketId: string; postOnly: boolean; side: string; outcome: number }[]; nextCursor: string | null };
  if (page.nextCursor !== null) throw new Error("more than one page of open orders");
  return page.orders;
}

/** `GET /api/me/*` of one wallet straight through the simulator's pipeline. */
export async function platformGet<T>(h: SimHarness, wallet: string, url: string): Promise<T> {
  const res = await h.pipeline.handle({ method: "GET", url, headers: { "x-api-key": API_KEY, "x-user-wallet": wallet }, bodyText: "", remoteAddress: "10.9.9.9" });
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${res.bodyText}`);
  return JSON.parse(res.bodyText) as T;
}
