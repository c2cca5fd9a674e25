/**
 * One WalletRunner against the in-process simulator, on a VirtualClock, with the real parts the
 * daemon shares between wallets (client and rate gate, MarketRegistry, the REST book poller,
 * FillLedger, Inventory, core risk, the "ladder" strategy), wired as daemon.ts and
 * daemon-wallets.ts wire them, but without the daemon's timers: a test drives the runner's
 * sync itself and moves time with the clock.
 *
 * Two wallets and two markets (the selection gives each wallet one); only the wallet under test
 * is started, so the other market stays unquoted. The simulator's synthetic flow keeps a book on
 * each market but sends no takers: every trade is one a test makes (`takerHit`). The user stream
 * goes through a connector that can drop `user_fill` frames, so a fill can be made to arrive by
 * the trade pull alone.
 */
import { createClient, type PartnerClient } from "../../../src/api/index.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { ONE, type Micros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import { RateGate } from "../../../src/ratelimit/index.js";
import { WalletSigner, rngSaltSource } from "../../../src/signing/index.js";
import { InProcessSocketConnector, InProcessTransport } from "../../../src/sim/http/in-process.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { parseScenario } from "../../../src/sim/platform/index.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { WsHub } from "../../../src/sim/ws/hub.js";
import type { SocketConnector, SocketLike } from "../../../src/wire/transport.js";
import { createStrategyRunner } from "../../../strategies/registry.js";
import { FillLedger } from "../../../src/bot/fills/fill-ledger.js";
import { Inventory } from "../../../src/bot/fills/inventory.js";
import { EventSeq, RestBookPoller } from "../../../src/bot/market/market-data.js";
import { MarketRegistry } from "../../../src/bot/market/market-registry.js";
import { combineObservers, RecordingObserver } from "../../../src/bot/observer.js";
import { ClientOrderIds } from "../../../src/bot/orders/ids.js";
import { notRecordedWindowMs } from "../../../src/bot/orders/order-tracker.js";
import { buildCoreRisk } from "../../../src/bot/risk/core-risk.js";
import type { EngineView } from "../../../src/bot/risk/risk-hook.js";
import { MarketTimeline } from "../../../src/bot/engine/daemon-markets.js";
import { fetchPlatformInfo } from "../../../src/bot/engine/startup.js";
import { marksFrom } from "../../../src/bot/engine/status.js";
import { DEFAULT_TUNING } from "../../../src/bot/engine/tuning.js";
import { WalletRunner } from "../../../src/bot/engine/wallet-runner.js";
import { API_KEY, START, daemonConfig, scenarioYaml, settle, silent, walletAddress } from "../../integration/harness.js";

export const MARKETS = ["RUN-A", "RUN-B"] as const;
const TAKER = "0x7777777777777777777777777777777777777777";

/** A connector whose sockets drop `user_fill` frames while `dropFills` is on (a frame lost on the way). */
export class FillDroppingConnector implements SocketConnector {
  dropFills = false;
  dropped = 0;
  constructor(private readonly inner: SocketConnector) {}

  connect(path: string, headers: Record<string, string>): SocketLike {
    const s = this.inner.connect(path, headers);
    const on = (event: string, listener: (...args: never[]) => void): unknown => {
      if (event !== "message") return (s.on as (e: string, l: (...args: never[]) => void) => unknown)(event, listener);
      return s.on("message", (data: string) => {
        if (this.dropFills && (JSON.parse(data) as { type?: string }).type === "user_fill") {
          this.dropped += 1;
          return;
        }
        (listener as (d: string) => void)(data);
      });
    };
    const socket: SocketLike = { send: (d) => s.send(d), close: (c, r) => s.close(c, r), on };
    return socket;
  }
}

export interface RunnerWorld {
  clock: VirtualClock;
  sim: Simulator;
  client: PartnerClient;
  connector: FillDroppingConnector;
  observer: RecordingObserver;
  registry: MarketRegistry;
  data: RestBookPoller;
  ledger: FillLedger;
  inventory: Inventory;
  /** Both wallets' runners (config order); only `runner` is started. */
  runners: WalletRunner[];
  runner: WalletRunner;
  /** Lower-cased address of the runner under test. */
  wallet: string;
  /** The market the selection gave the runner under test. */
  market: string;
  /** runner.start(), under way from `runnerWorld` on. */
  started: Promise<void>;
  abort: AbortController;
  /** Advance virtual time in steps (timers fire, promise chains run). */
  run(ms: number): Promise<void>;
  close(): void;
}

/**
 * Selection read, books followed, the runner under test (`index`) starting. `onboarding`: that
 * wallet's vault is not deployed when the run starts (the simulator's sub-account onboarding:
 * vault after 10 s, limits confirmed, so orders taken, after 25 s).
 */
export async function runnerWorld(opts: { index?: 0 | 1; onboarding?: boolean } = {}): Promise<RunnerWorld> {
  const index = opts.index ?? 0;
  const clock = new VirtualClock(START);
  const parsed = parseScenario(scenarioYaml({ wallets: 2, seed: 17, markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 0, vol: 0 })) }), "runner.yaml");
  const scenario = opts.onboarding === true ? { ...parsed, wallets: parsed.wallets.map((w, i) => (i === index ? { ...w, onboarded: false } : w)) } : parsed;
  const sim = new Simulator(scenario, { clock, pepper: new Uint8Array(32), recoveryCache: null });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const connector = new FillDroppingConnector(new InProcessSocketConnector(new WsHub({ sim, pipeline })));
  sim.start();

  const config = daemonConfig({ wallets: 2, instance: "rt" });
  const log = silent();
  const rng = new Rng(31);
  const tuning = { ...DEFAULT_TUNING };
  const gate = new RateGate({ clock, rateLimitPerMin: config.platform.rateLimitPerMin, safetyMargin: config.platform.rateSafetyMargin });
  const client = createClient({ transport: new InProcessTransport(pipeline), apiKey: API_KEY, clock, rng: rng.fork("client"), gate, timeoutMs: config.platform.requestTimeoutMs });
  const recording = new RecordingObserver();
  const seq = new EventSeq();
  const ledger = new FillLedger();
  const inventory = new Inventory();
  const retry = { clock, rng: rng.fork("startup"), log, policy: tuning.startupRetry };
  const platform = await settle(clock, fetchPlatformInfo(client, retry));
  const registry = new MarketRegistry({
    api: client,
    clock,
    log,
    observer: recording,
    markets: config.markets,
    wallets: config.wallets.map((w, i) => ({ index: i, markets: w.markets })),
    pullBeforeCloseMs: config.quoting.pullBeforeCloseSec * 1000,
    defaultFeeTakerBps: () => platform.feeConfig.defaultFeeTakerBps,
  });
  const data = new RestBookPoller({ markets: client.markets, clock, log, budgetPerMin: 400, minBookIntervalMs: tuning.minBookIntervalMs, staleAfterMs: config.risk.staleDataSec * 1000, room: () => gate.remainingFor("GET", "/api/markets/x/orderbook"), seq });
  const runners: WalletRunner[] = [];
  const view: EngineView = {
    wallets: () => runners.map((r) => r.wallet),
    markets: () => registry.all().map((e) => e.row.symbol),
    liveOrders: (w, m) => runners.find((r) => r.wallet === w.toLowerCase())?.tracker.liveOrders(m) ?? [],
    positions: (w, m) => inventory.positions(w, m),
    pnl: (w) => inventory.pnl(w, marksFrom(registry, data)),
    mark: (m, o) => marksFrom(registry, data)(m, o),
    outcomeCount: (m) => registry.get(m)?.row.outcomeCount,
  };
  const timeline = new MarketTimeline({
    clock,
    log,
    registry,
    data,
    trades: { track: () => undefined, untrack: () => undefined },
    inventory,
    runners,
    active: () => true,
    later: (fn, ms) => void clock.setTimeout(fn, ms),
  });
  const { core, watch } = buildCoreRisk({
    config,
    clock,
    log,
    view,
    sources: {
      breaker: () => client.breaker.state(),
      quotedMarkets: (now) => timeline.quotedMarkets(now),
      data: { book: (m, o) => data.book(m, o), isStale: (m, o) => data.isStale(m, o) },
      netPnl: (w) => view.pnl(w).net,
    },
    onHaltChange: () => undefined,
    onChange: () => undefined,
    onFiltered: undefined,
  });
  // As the daemon: the risk watch hears every event (streams, rejects), and so does the test.
  const observer = combineObservers([watch, recording]);
  const strategy = createStrategyRunner(config.strategy.name, config.strategy.params);
  const session = "s1";
  config.wallets.forEach((w, i) => {
    runners.push(
      new WalletRunner({
        index: i,
        name: w.name,
        address: w.address,
        api: client.forWallet(w.address),
        signer: WalletSigner.fromPrivateKey(w.privateKey.reveal(), { expectedAddress: w.address }),
        apiKey: API_KEY,
        connector,
        clock,
        rng: rng.fork(`wallet:${i}`),
        log,
        observer,
        risk: { core },
        registry,
        bookHistoryMs: config.risk.staleDataSec * 1000 + config.platform.requestTimeoutMs,
        notRecordedAfterMs: notRecordedWindowMs(config.platform.requestTimeoutMs),
        data,
        ledger,
        inventory,
        strategy,
        quoting: { priceToleranceTicks: config.quoting.priceToleranceTicks, sizeTolerance: config.quoting.sizeTolerance, maxOrderAgeMs: config.quoting.maxOrderAgeSec * 1000, orderExpirySec: config.quoting.orderExpirySec },
        ids: new ClientOrderIds(config.instance.id, i, session),
        gate,
        saltSource: rngSaltSource(rng.fork(`salt:${i}`)),
        platform: () => platform,
        instanceId: config.instance.id,
        sessionStartMs: START,
        tuning,
        monotonic: () => clock.now(),
        seq,
        engine: view,
      }),
    );
  });
  timeline.wire();
  await settle(clock, timeline.refreshSelection());
  data.start();
  const runner = runners[index]!;
  const market = registry.marketsOf(index)[0];
  if (market === undefined) throw new Error(`no market assigned to wallet ${index}`);
  const abort = new AbortController();
  const started = runner.start(abort.signal);
  // Reported by the test's own awaits; this only keeps an early rejection from going unhandled.
  started.catch(() => undefined);
  const run = async (ms: number): Promise<void> => {
    for (let t = 0; t < ms; t += 100) await clock.advance(100);
  };
  const close = (): void => {
    abort.abort();
    for (const r of runners) r.abandon();
    data.stop();
    sim.stop();
  };
  return { clock, sim, client, connector, observer: recording, registry, data, ledger, inventory, runners, runner, wallet: walletAddress(index), market, started, abort, run, close };
}

/** Our resting BUY of outcome 0 on the simulator (the ladder's top bid). */
export function ourBid(w: RunnerWorld): { id: string; price: Micros; remaining: Micros } {
  const bids = w.sim.engine.openOrders(w.wallet, w.market).filter((o) => o.outcome === 0 && o.side === "BUY");
  const best = bids.sort((a, b) => (a.price > b.price ? -1 : a.price < b.price ? 1 : 0))[0];
  if (best === undefined) throw new Error("no resting bid of ours");
  return { id: best.id, price: best.price, remaining: best.remainingQty };
}

/**
 * A taker outside the partner sells `qty` shares of outcome 0 at `price` (IOC), straight into the
 * matching engine: at our bid's price it trades with our bid alone (the synthetic bids sit lower).
 */
export function takerHit(w: RunnerWorld, price: Micros, qty: Micros): { filledQty: Micros } {
  const e = w.sim.engine;
  e.deposit(TAKER, qty + 10n * ONE);
  e.split(TAKER, w.market, qty);
  return e.place({ wallet: TAKER, marketId: w.market, outcome: 0, side: "SELL", price, quantity: qty, timeInForce: "IOC" });
}
