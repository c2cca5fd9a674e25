/**
 * Tick to place: from a book update reaching the daemon to its place request being issued, through
 * the whole engine path (phase, own-order exclusion, strategy, risk, reconciler, rate budget, the
 * cancel sent and answered first, order building and signing or a pre-signed order, tracker
 * registration, the client pipeline). In-process on a VirtualClock; the rate gate is sized so it
 * never waits, so the figures exclude rate-gate waits by construction.
 *
 * Three runs behind the same transport seam:
 *  - engine:      a scripted platform that answers at once and a user stream that subscribes (the
 *                 daemon's own latency); the book moves 1-2 ticks per read, so pre-signing hits;
 *  - engine_cold: the same with pre-signing off: every order is signed on the hot path (the
 *                 worst case, when the book jumps further than the pre-signed neighbours);
 *  - simulator:   the real simulator in-process, with synthetic flow and fills (its handling of
 *                 the cancel that precedes the place is inside the window).
 *
 * A sample is taken when a book update's own cycle issues a place request (the engine runs give
 * one per update). The update's window closes at the end of its own turn of the event loop
 * (setImmediate); a place issued after that but before the next update (a timer or extra turn
 * pushed onto the hot path) is a late place: counted in `_late_places`, and in the engine runs,
 * where every update places, also taken as a sample with its real latency, so such a regression
 * raises the tail rather than thinning the samples. In the simulator run a place after the window
 * may come from another cause (a fill, a refresh), so it is only counted there.
 *
 * Each run lasts until it has BENCH_TICK_SAMPLES samples (default 10,000; virtual time is capped at
 * 8 h): p99 of fewer samples is a handful of outliers. The simulator's synthetic flow refreshes its
 * book every 250 ms, as often as the daemon reads it, so that run gets samples at the engine runs' pace.
 * Pre-signing prints how many orders it signed and how many of them were placed (`_presign_used`)
 * or thrown away unused (`_presign_wasted`: no longer wanted, or their market was pulled).
 *
 * Time is performance.now() wall time, so on a shared machine the tail carries the neighbours'
 * noise: compare runs on an idle machine. (Process CPU time is no better: it counts the GC's
 * helper threads, which run beside the window, and read several times the wall time at p99.)
 * Baseline in the same run: building and signing one order, so ratio = p99 tick-to-place / p50
 * one signed order.
 *
 * `_stage_<stage>_p50` lines split the window of the samples whose cycle cancelled before it
 * placed (the usual case: the book moved) into its stages (StageClock below); each is the median
 * of that stage alone, so they do not add up to the window's p50 exactly.
 */
import { performance } from "node:perf_hooks";
import type { HttpRequest, HttpResponse, SocketConnector, SocketLike, Transport } from "../src/wire/transport.js";
import { VirtualClock } from "../src/core/clock.js";
import { Rng } from "../src/core/rng.js";
import { parseConfig, simulatorWalletKey } from "../src/config/index.js";
import { createLogger } from "../src/log/index.js";
import { RateGate } from "../src/ratelimit/index.js";
import { InProcessSocketConnector, InProcessTransport } from "../src/sim/http/in-process.js";
import { Pipeline } from "../src/sim/http/pipeline.js";
import { allRoutes } from "../src/sim/http/routes/index.js";
import { parseScenario } from "../src/sim/platform/index.js";
import { Simulator } from "../src/sim/simulator.js";
import { WsHub } from "../src/sim/ws/hub.js";
import { WalletSigner, buildOrder, keccakReady, rngSaltSource } from "../src/signing/index.js";
import { createDaemon } from "../src/bot/engine/daemon.js";
import { WalletQuoting } from "../src/bot/engine/wallet-quoting.js";

const API_KEY = "pmk_sim_5e1d0000000000bb_TickToPlaceBenchSecret00000000001";
const SAMPLES = Number(process.env["BENCH_TICK_SAMPLES"] ?? 10_000);
/** Virtual time cap of one run. */
const VIRTUAL_MS = Number(process.env["BENCH_TICK_MS"] ?? 8 * 3_600_000);
const T0 = Date.UTC(2026, 5, 1, 12);
const KEY = simulatorWalletKey(1, "bench").reveal();
const ADDR = WalletSigner.fromPrivateKey(KEY).address;
const VAULT = "0x2222222222222222222222222222222222222222";

/**
 * Where the window's time goes, per sample (engine runs): from the update to the cycle's snapshot
 * (dispatch), the snapshot, from there to the cancel request (the decision: strategy, risk,
 * reconciler, then the executor and the client up to the wire), the scripted platform's answer
 * (not the daemon's time: the network's, live), and from the answer to the place request (the
 * answer read, the tracker, the order built or taken pre-signed, the client). A sample without a
 * cancel (nothing to replace) is left out of the stages.
 */
const STAGES = ["dispatch", "snapshot", "decide_to_cancel", "platform_answer", "answer_to_place"] as const;
type Stage = (typeof STAGES)[number];

class StageClock {
  private marks: Partial<Record<Stage | "armed", number>> = {};
  readonly samples = new Map<Stage, number[]>(STAGES.map((s) => [s, []]));
  arm(t: number): void {
    this.marks = { armed: t };
  }
  /** The first time each point is reached after the arm (a later cycle's marks do not count). */
  mark(stage: Stage): void {
    if (this.marks.armed !== undefined && this.marks[stage] === undefined) this.marks[stage] = performance.now();
  }
  /** The place left: keep the sample's stages when every point was reached. */
  close(placedAt: number): void {
    const m = this.marks;
    this.marks = {};
    if (m.armed === undefined || m.dispatch === undefined || m.snapshot === undefined || m.decide_to_cancel === undefined || m.platform_answer === undefined) return;
    const points = [m.armed, m.dispatch, m.snapshot, m.decide_to_cancel, m.platform_answer, placedAt];
    STAGES.forEach((s, i) => this.samples.get(s)!.push(points[i + 1]! - points[i]!));
  }
}

class Probe implements Transport {
  readonly stages = new StageClock();
  /** Arm time of the latest book update whose cycle has not issued its place yet. */
  private armedAt: number | undefined;
  /** Which update armed the probe, so a stale disarm cannot close a later update's window. */
  private armSeq = 0;
  /** Open until the end of the update's own event-loop turn. */
  private inWindow = false;
  readonly samples: number[] = [];
  /** Updates whose place request left after their window closed (before the next update). */
  latePlaces = 0;
  constructor(
    private readonly inner: Transport,
    private readonly lateAsSamples: boolean,
  ) {}
  arm(): number {
    this.armedAt = performance.now();
    this.stages.arm(this.armedAt);
    this.inWindow = true;
    return ++this.armSeq;
  }
  /** Closes the window; the arm time stays until the place leaves or the next update arrives. */
  disarm(seq: number): void {
    if (seq === this.armSeq) this.inWindow = false;
  }
  request(req: HttpRequest): Promise<HttpResponse> {
    if (this.armedAt !== undefined && req.method === "POST" && (req.path === "/api/orders/place" || req.path === "/api/orders/place-batch")) {
      const now = performance.now();
      const late = !this.inWindow;
      if (late) this.latePlaces += 1;
      if (!late || this.lateAsSamples) {
        this.samples.push(now - this.armedAt);
        this.stages.close(now);
      }
      this.armedAt = undefined;
      this.inWindow = false;
    }
    if (this.armedAt !== undefined && req.method === "POST" && (req.path === "/api/orders/cancel" || req.path === "/api/orders/cancel-batch")) {
      this.stages.mark("decide_to_cancel");
      return this.inner.request(req).then((res) => {
        this.stages.mark("platform_answer");
        return res;
      });
    }
    return this.inner.request(req);
  }
}

// ---- the scripted platform -------------------------------------------------------------------

const ISO = new Date(T0).toISOString();
const ROW = {
  id: "00000000-0000-4000-8000-000000000001",
  eventId: "00000000-0000-4000-8000-000000000002",
  symbol: "TICK",
  slug: "tick",
  title: "Tick",
  groupItemTitle: null,
  conditionId: null,
  questionId: null,
  yesTokenId: "11",
  noTokenId: "12",
  outcomeTokenIds: ["11", "12"],
  status: "OPEN",
  currentReviewRound: 0,
  outcomeCount: 2,
  outcomeLabels: ["Yes", "No"],
  feeTakerBps: 100,
  tradingWindow: { preMarketStartsAt: null, opensAt: new Date(T0 - 3_600_000).toISOString(), closesAt: new Date(T0 + 30 * 86_400_000).toISOString() },
  kickoff: null,
  resolutionWindowHours: null,
  lifecycle: { closedAt: null, pausedAt: null, resolvedAt: null, voidedAt: null },
  payoutNumerators: null,
  officialDataSource: null,
  sourceMatchId: null,
  negRiskEligible: false,
  isNewMarketType: false,
  createdAt: ISO,
  updatedAt: ISO,
  outcomePrices: [null, null],
  chances: ["0.5", "0.5"],
  vertical: null,
  marketType: null,
  crypto: null,
};

/** Answers everything at once; the book's mid takes a random walk of 1-2 ticks per read. */
class InstantPlatform implements Transport {
  private mid = 500;
  private next = 0;
  constructor(private readonly rng: Rng) {}
  private ok(body: unknown, status = 200): Promise<HttpResponse> {
    return Promise.resolve({ status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  }
  request(req: HttpRequest): Promise<HttpResponse> {
    const path = req.path.split("?")[0]!;
    const body = req.body === undefined ? undefined : (JSON.parse(req.body) as Record<string, unknown>);
    if (path === "/api/platform/contracts") return this.ok({ chainId: 1, domain: { name: "PartnerExchange", version: "1" }, exchange: { binary: VAULT, negRisk: VAULT }, vaultFactory: VAULT, collateral: VAULT });
    if (path === "/api/platform/fee-config") return this.ok({ defaultFeeTakerBps: 100, maxFeeRateBps: 1000 });
    if (path === "/api/markets") return this.ok({ markets: [ROW], hasMore: false });
    if (path.endsWith("/orderbook")) {
      this.mid = Math.min(900, Math.max(100, this.mid + (this.rng.bool() ? 1 : -1) * this.rng.range(1, 2)));
      const lvl = (t: number) => ({ price: (t / 1000).toFixed(3), quantity: "100" });
      return this.ok({ marketId: "TICK", outcome: 0, bids: [lvl(this.mid - 10), lvl(this.mid - 20)], asks: [lvl(this.mid + 10), lvl(this.mid + 20)] });
    }
    if (path.startsWith("/api/markets/")) return this.ok(ROW);
    if (path === "/api/me/vault") return this.ok({ walletAddress: ADDR, vaultAddress: VAULT, deployed: true });
    if (path === "/api/me/balances") return this.ok({ walletAddress: ADDR, vaultAddress: VAULT, collateral: { total: "1000000", locked: "0", available: "1000000" } });
    if (path === "/api/me/positions") return this.ok({ walletAddress: ADDR, positions: [], nextCursor: null });
    if (path === "/api/me/trades") return this.ok({ trades: [], nextCursor: null });
    if (path === "/api/orders/open") return this.ok({ walletAddress: ADDR, orders: [], nextCursor: null });
    const accept = (b: Record<string, unknown>) => ({ orderId: `o${++this.next}`, status: "OPEN", filledQty: "0", remainingQty: b["quantity"], trades: [] });
    if (path === "/api/orders/place") return this.ok(accept(body!), 201);
    if (path === "/api/orders/place-batch") return this.ok({ results: (body!["orders"] as Record<string, unknown>[]).map((b) => ({ ...accept(b), success: true })) }, 201);
    if (path === "/api/orders/cancel-batch") return this.ok({ cancelled: body!["orderIds"], notCancelled: [] });
    if (path === "/api/orders/cancel") return this.ok({ orderId: body!["orderId"], status: "CANCELLED", filledQty: "0", remainingQty: "10" });
    if (path === "/api/orders/cancel-all") return this.ok({ cancelled: [], notCancelled: [] });
    return this.ok({ status: 404, error: { code: "order_not_found", message: "none" } }, 404);
  }
}

/**
 * A user stream that opens, subscribes and answers pings (no order frames: the scripted platform
 * answers every request at once). Without it the daemon's stream_down halt would pull the quotes
 * after streamDownSec and the rest of the run would measure nothing.
 */
function scriptedConnector(clock: VirtualClock): SocketConnector {
  return {
    connect: (): SocketLike => {
      const listeners = new Map<string, ((...args: never[]) => void)[]>();
      const emit = (event: string, ...args: unknown[]): void => {
        for (const l of listeners.get(event) ?? []) (l as (...a: unknown[]) => void)(...args);
      };
      const reply = (frame: Record<string, unknown>): void => void Promise.resolve().then(() => emit("message", JSON.stringify({ ...frame, serverTs: clock.now() })));
      const s: SocketLike = {
        send: (data: string) => {
          const f = JSON.parse(data) as { type: string; channel?: string };
          if (f.type === "subscribe") reply({ type: "subscribed", channel: f.channel });
          else if (f.type === "ping") reply({ type: "pong" });
        },
        close: () => undefined,
        on: (event: string, listener: (...args: never[]) => void) => {
          listeners.set(event, [...(listeners.get(event) ?? []), listener]);
          return s;
        },
      };
      void Promise.resolve().then(() => emit("open"));
      return s;
    },
  };
}

// ---- the simulator platform ------------------------------------------------------------------

function scenario(): string {
  return `seed: 3
start: "${ISO}"
partners:
  - id: mm
    name: Bench
    kind: multi_wallet
    requirePerWalletKyc: false
    rateLimitPerMin: 60000
    keys: [{ key: ${API_KEY}, scopes: [orders:read, orders:write, portfolio:read] }]
wallets:
  - { name: w0, privateKey: "${KEY}", partner: mm, balances: { collateral: "1000000" } }
events:
  - title: Bench
    markets:
      - title: TICK
        symbol: TICK
        feeTakerBps: 100
        tradingWindow: { opensAt: "-1h", closesAt: "+30d" }
        fairValue: "0.5"
        flow:
          volPerSqrtMin: 0.02
          jumpProbPerMin: 0.05
          jumpSize: 0.03
          takerArrivalPerMin: 10
          liquidity: { levels: 3, depthPerLevel: "100", halfSpread: "0.01", levelStep: "0.01" }
`;
}

// ---- the run -----------------------------------------------------------------------------------

interface Measured {
  samples: number[];
  /** Undefined when pre-signing is off. */
  presign: { hits: number; misses: number; signed: number; dropped: number; cleared?: number } | undefined;
  latePlaces: number;
  /** Per stage, the samples' times (ms), sorted. */
  stages: Map<Stage, number[]>;
}

async function measure(
  clock: VirtualClock,
  transport: Transport,
  connector: SocketConnector,
  virtualMs: number,
  opts: { presign?: boolean; lateAsSamples: boolean },
): Promise<Measured> {
  const presign = opts.presign ?? true;
  const probe = new Probe(transport, opts.lateAsSamples);
  const config = parseConfig(
    `mode: simulator
instance: { id: bench }
wallets: [{ name: w0, privateKey: "\${K}" }]
markets: { slugs: [TICK] }
strategy: { name: ladder, params: { size: "10", levels: 1, halfSpreadTicks: 1 } }
quoting: { refreshMs: 60000, priceToleranceTicks: 0 }
log: { level: silent }
`,
    "bench.yaml",
    { K: KEY },
  );
  const daemon = createDaemon(config, {
    clock,
    rng: new Rng(9),
    transport: probe,
    connector,
    apiKey: API_KEY,
    logger: createLogger({ level: "silent" }),
    gate: new RateGate({ clock, rateLimitPerMin: 600_000, safetyMargin: 0 }),
    tuning: { minBookIntervalMs: 250, fillSyncMs: 600_000, driftCheckMs: 600_000, streamReadyWaitMs: 100, presign },
  });
  // Registered before the daemon's own listener, so it runs first on every update.
  daemon.data.onUpdate(() => {
    const seq = probe.arm();
    setImmediate(() => probe.disarm(seq));
  });
  // The cycle's snapshot, timed from outside (the only change: two clock reads around it).
  const snapshot = WalletQuoting.prototype.snapshot;
  WalletQuoting.prototype.snapshot = function (this: WalletQuoting, symbol: string) {
    probe.stages.mark("dispatch");
    const r = snapshot.call(this, symbol);
    probe.stages.mark("snapshot");
    return r;
  };
  try {
    return await runDaemon(clock, daemon, probe, virtualMs);
  } finally {
    WalletQuoting.prototype.snapshot = snapshot;
  }
}

async function runDaemon(clock: VirtualClock, daemon: ReturnType<typeof createDaemon>, probe: Probe, virtualMs: number): Promise<Measured> {
  let started = false;
  void daemon.start().then(() => (started = true));
  while (!started) await clock.advance(100);
  for (let t = 0; t < virtualMs && probe.samples.length < SAMPLES; t += 1_000) await clock.advance(1_000);
  let stopped = false;
  void daemon.stop().then(() => (stopped = true));
  while (!stopped) await clock.advance(500);
  for (const xs of probe.stages.samples.values()) xs.sort((a, b) => a - b);
  return { samples: probe.samples.sort((a, b) => a - b), presign: daemon.runners[0]!.presignStats(), latePlaces: probe.latePlaces, stages: probe.stages.samples };
}

/** BENCH_TICK_RUNS (comma-separated: engine, engine_cold, simulator; default all) picks the runs, e.g. to profile one. */
function wanted(run: string): boolean {
  const only = process.env["BENCH_TICK_RUNS"];
  return only === undefined || only.split(",").includes(run);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function signBaseline(): number[] {
  const signer = WalletSigner.fromPrivateKey(KEY);
  const salt = rngSaltSource(new Rng(1));
  const contracts = { chainId: 1, domain: { name: "PartnerExchange", version: "1" }, exchange: { binary: VAULT, negRisk: VAULT } };
  const market = { symbol: "TICK", yesTokenId: "11", noTokenId: "12", feeTakerBps: 100, negRiskEligible: false };
  const out: number[] = [];
  for (let i = 0; i < 400; i++) {
    const t0 = performance.now();
    const built = buildOrder({ contracts, market, intent: { outcome: 0, side: "BUY", price: 500_000n + BigInt(i % 50) * 1000n, quantity: 10_000_000n }, wallet: signer.address, vault: VAULT, saltSource: salt });
    void signer.signBuiltOrder(built);
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

function report(name: string, m: Measured, sign: number): void {
  const s = m.samples;
  console.log(`BENCH ${name}_samples ${s.length} count`);
  console.log(`BENCH ${name}_late_places ${m.latePlaces} count`);
  const ps = m.presign;
  if (ps !== undefined) {
    console.log(`BENCH ${name}_presign_hits ${(ps.hits + ps.misses === 0 ? 0 : (100 * ps.hits) / (ps.hits + ps.misses)).toFixed(1)} %`);
    console.log(`BENCH ${name}_presign_signed ${ps.signed} count`);
    console.log(`BENCH ${name}_presign_used ${ps.hits} count ratio=${(ps.signed === 0 ? 0 : ps.hits / ps.signed).toFixed(3)}`);
    console.log(`BENCH ${name}_presign_wasted ${ps.dropped + (ps.cleared ?? 0)} count`);
  }
  console.log(`BENCH ${name}_p50 ${pct(s, 50).toFixed(3)} ms`);
  console.log(`BENCH ${name}_p90 ${pct(s, 90).toFixed(3)} ms`);
  console.log(`BENCH ${name}_p99 ${pct(s, 99).toFixed(3)} ms ratio=${(pct(s, 99) / sign).toFixed(2)}`);
  for (const [stage, xs] of m.stages) {
    if (xs.length === 0) continue;
    console.log(`BENCH ${name}_stage_${stage}_p50 ${(pct(xs, 50) * 1000).toFixed(1)} us`);
  }
  if (process.env["BENCH_TICK_DIST"]) console.log(`# ${name} p95 ${pct(s, 95).toFixed(3)} p98 ${pct(s, 98).toFixed(3)} p99.5 ${pct(s, 99.5).toFixed(3)} max ${s.at(-1)!.toFixed(3)}`);
}

export async function run(): Promise<void> {
  // The baseline signs as the daemon does once started: with the WebAssembly keccak (built at import).
  await keccakReady;
  const sign = pct(signBaseline(), 50);

  const clockA = new VirtualClock(T0);
  if (wanted("engine")) report("tick_to_place_engine", await measure(clockA, new InstantPlatform(new Rng(4)), scriptedConnector(clockA), VIRTUAL_MS, { lateAsSamples: true }), sign);

  const clockC = new VirtualClock(T0);
  if (wanted("engine_cold")) report("tick_to_place_engine_cold", await measure(clockC, new InstantPlatform(new Rng(4)), scriptedConnector(clockC), VIRTUAL_MS, { presign: false, lateAsSamples: true }), sign);

  if (process.env["BENCH_TICK_ENGINE_ONLY"] || !wanted("simulator")) return;
  const clockB = new VirtualClock(T0);
  const sim = new Simulator(parseScenario(scenario(), "bench.yaml"), { clock: clockB, flowRefreshMs: 250 });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  sim.start();
  const measured = await measure(clockB, new InProcessTransport(pipeline), new InProcessSocketConnector(new WsHub({ sim, pipeline })), VIRTUAL_MS, { lateAsSamples: false });
  sim.stop();
  report("tick_to_place_simulator", measured, sign);
  console.log(`BENCH build_and_sign_one_order_p50 ${sign.toFixed(3)} ms`);
}
