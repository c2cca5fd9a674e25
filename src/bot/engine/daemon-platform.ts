/**
 * The daemon's link to the platform, shared by every wallet: the rate gate, the REST client over
 * its transport (instrumented for the metrics), the user-stream connector, the market registry,
 * the book poller and the public trade feed (each its share of its IP bucket). Built once, in this
 * order, by the Daemon's constructor; nothing here talks to the platform yet.
 */
import type { PartnerClient, SecretLike, SocketConnector } from "../../api/index.js";
import { FetchTransport, createClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../log/index.js";
import { RateGate, platformGateOptions } from "../../ratelimit/index.js";
import type { DaemonDeps } from "./daemon-types.js";
import { RestBookPoller, type EventSeq } from "../market/market-data.js";
import { MarketRegistry } from "../market/market-registry.js";
import type { EngineObserver } from "../observer.js";
import type { DaemonOps } from "./ops.js";
import type { AuthWatch } from "../guards/auth-watch.js";
import type { RestHealth } from "../guards/rest-health.js";
import { RestTradeFeed } from "../market/trade-feed.js";
import type { EngineTuning } from "./tuning.js";
import { connectorFor } from "./wallet-stream.js";

export interface PlatformLinkParts {
  config: Config;
  deps: Pick<DaemonDeps, "gate" | "apiKey" | "transport" | "connector" | "wrapTransport">;
  clock: Clock;
  /** The daemon's Rng (the client gets a fork). */
  rng: Rng;
  log: Logger;
  tuning: EngineTuning;
  observer: EngineObserver;
  ops: DaemonOps;
  /** Watches every keyed answer and upgrade for key refusals. */
  auth?: Pick<AuthWatch, "wrapTransport" | "wrapConnector">;
  /** Notes every REST outcome per wallet (the dead-man switch, rest-health.ts). */
  rest?: Pick<RestHealth, "wrap">;
  seq: EventSeq;
  /** The platform's default taker fee, once its info is loaded. */
  defaultFeeTakerBps: () => number | null;
}

export interface PlatformLink {
  gate: RateGate;
  client: PartnerClient;
  apiKey: string | SecretLike;
  connector: SocketConnector;
  streamPath: string | undefined;
  registry: MarketRegistry;
  data: RestBookPoller;
  trades: RestTradeFeed;
}

/** A path of the public trades bucket (spec 8.2: `GET /api/markets/:symbol/trades`, 240/60 s). */
const TRADES_PATH = "/api/markets/x/trades";
/** A path of the market-reads bucket the order books draw on (spec 8.2: 600/60 s). */
const BOOK_PATH = "/api/markets/x/orderbook";


export function buildPlatformLink(p: PlatformLinkParts): PlatformLink {
  const { config, deps, clock, ops } = p;
  const platform = config.platform;
  const gate =
    deps.gate ??
    new RateGate({
      clock,
      ...platformGateOptions(platform),
      onWait: (bucket, ms) => ops.events.rateGateWait(bucket, ms),
    });
  const apiKey = deps.apiKey ?? (config.mode === "live" ? config.platform.apiKey : undefined);
  if (apiKey === undefined) throw new TypeError("createDaemon: no API key (give deps.apiKey in simulator mode)");
  const liveUrl = config.mode === "live" ? config.platform.baseUrl : undefined;
  if (deps.transport === undefined && liveUrl === undefined) throw new TypeError("createDaemon: give deps.transport in simulator mode");
  const wire = deps.transport ?? new FetchTransport({ baseUrl: liveUrl!, clock, timeoutMs: platform.requestTimeoutMs, localAddress: platform.localAddress });
  const raw = deps.wrapTransport?.(wire) ?? wire;
  const transport = p.rest?.wrap(raw) ?? raw;
  const client = createClient({
    transport: ops.instrument(p.auth?.wrapTransport(transport) ?? transport),
    apiKey,
    clock,
    rng: p.rng.fork("client"),
    gate,
    timeoutMs: platform.requestTimeoutMs,
  });
  const direct = connectorFor(config, deps.connector);
  const connector = p.auth?.wrapConnector(direct.connector) ?? direct.connector;
  const streamPath = direct.streamPath;

  const registry = new MarketRegistry({
    api: client,
    clock,
    log: p.log.child({ component: "markets" }),
    observer: p.observer,
    markets: config.markets,
    wallets: config.wallets.map((w, index) => ({ index, markets: w.markets })),
    pullBeforeCloseMs: config.quoting.pullBeforeCloseSec * 1000,
    defaultFeeTakerBps: p.defaultFeeTakerBps,
  });
  const bookBudget = Math.max(1, Math.floor(gate.table.ipPerMinute("GET", BOOK_PATH) * (1 - platform.rateSafetyMargin) * p.tuning.bookBudgetShare));
  const books = new RestBookPoller({
    markets: client.markets,
    clock,
    log: p.log.child({ component: "books" }),
    budgetPerMin: bookBudget,
    minBookIntervalMs: p.tuning.minBookIntervalMs,
    staleAfterMs: config.risk.staleDataSec * 1000,
    room: () => gate.remainingFor("GET", BOOK_PATH),
    seq: p.seq,
  });
  const tradeShare = p.tuning.tradeBudgetShare;
  const tradeBudget = tradeShare > 0 ? Math.max(1, Math.floor(gate.table.ipPerMinute("GET", TRADES_PATH) * (1 - platform.rateSafetyMargin) * tradeShare)) : 0;
  const trades = new RestTradeFeed({
    markets: client.markets,
    clock,
    log: p.log.child({ component: "trades" }),
    budgetPerMin: tradeBudget,
    minMarketIntervalMs: p.tuning.minTradeIntervalMs,
    maxTrades: p.tuning.maxRecentTrades,
    windowMs: p.tuning.recentTradesWindowMs,
    room: () => gate.remainingFor("GET", TRADES_PATH),
  });
  return { gate, client, apiKey, connector, streamPath, registry, data: books, trades };
}
