/**
 * What several benches build the same way (not a bench itself: bench/run.ts runs `*.bench.ts`).
 *
 * - CPU time and medians (quote-cycle, event-group).
 * - The quote cycle driven by hand: a seeded random walk of the mid, the book around it, the
 *   cycle's snapshot, the plan applied at once (quote-cycle, event-group).
 * - A W x M simulator scenario and the daemon config that quotes it (capacity in one process,
 *   daemon-process in two).
 */
import { Rng } from "../src/core/rng.js";
import type { CycleSnapshot } from "../src/bot/quote/cycle.js";
import type { BookView, LiveOrder } from "../src/bot/quote/quotes.js";
import type { RiskSnapshot } from "../src/bot/risk/exposure.js";
import type { CycleEvent } from "../src/bot/risk/event-group-view.js";

// ---- time --------------------------------------------------------------------------------------

/** Process CPU time (user + system), ms: what a bench on a shared machine compares. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The median process CPU time (ms) of `runs` calls of `f`. */
export function medianCpuMs(runs: number, f: () => void): number {
  const xs: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = cpuMs();
    f();
    xs.push(cpuMs() - t0);
  }
  return median(xs);
}

/** sleep, and fmt (a BENCH value: integers as they are, the rest to 3 significant digits): one copy, in mm-process.ts. */
export { fmt, sleep } from "./mm-process.js";

// ---- the quote cycle by hand -----------------------------------------------------------------

const TICK = 1000n;

/** Mid ticks (0.001) of a seeded random walk from `start`, kept inside [min, max]. */
export function midWalk(n: number, seed: number, range: { start: number; min: number; max: number }): Int32Array {
  const rng = new Rng(seed);
  const out = new Int32Array(n);
  let mid = range.start;
  for (let i = 0; i < n; i++) {
    const r = rng.float();
    mid = Math.min(range.max, Math.max(range.min, mid + (r < 0.3 ? -1 : r > 0.7 ? 1 : 0)));
    out[i] = mid;
  }
  return out;
}

/** Five levels a side, one tick apart, 200 shares each, around `mid` (micro-units). */
export function ladderBook(mid: bigint, nowMs: number): BookView {
  return {
    bids: [1, 2, 3, 4, 5].map((k) => ({ price: mid - BigInt(k) * TICK, size: 200_000_000n })),
    asks: [1, 2, 3, 4, 5].map((k) => ({ price: mid + BigInt(k) * TICK, size: 200_000_000n })),
    updatedAtMs: nowMs,
  };
}

export interface BenchSnapshotInput {
  symbol: string;
  /** The cycle's index (the book's sequence number). */
  i: number;
  nowMs: number;
  /** The YES mid, micro-units. */
  mid: bigint;
  view: BookView;
  closesAtMs: number;
  live: LiveOrder[];
  exposure: RiskSnapshot;
  /** The neg-risk event the market belongs to (event-group); the snapshot has the key only when the input has it. */
  event?: CycleEvent | undefined;
}

/** The quote cycle's snapshot of an open binary market of wallet "bench", fee-free, budget to spare. */
export function benchSnapshot(s: BenchSnapshotInput): CycleSnapshot {
  const { symbol, i, nowMs, mid, view, live } = s;
  return {
    symbol,
    nowMs,
    market: { outcomeCount: 2, feeTakerBps: 0 },
    phase: { phase: "open", reason: "open", closesAtMs: s.closesAtMs },
    books: new Map([[0, { snapshot: { symbol, outcome: 0, view, fetchedAtMs: nowMs, sentSeq: i }, own: [], trades: [] }]]),
    mids: { 0: mid, 1: 1_000_000n - mid },
    live,
    inventory: [],
    budget: { cancels: 100, places: 100 },
    gate: { quote: true },
    exposure: s.exposure,
    risk: {
      wallet: "0xbench",
      walletName: "bench",
      marketId: symbol,
      outcomeCount: 2,
      nowMs,
      phase: "open",
      phaseReason: "open",
      book: view,
      dataAgeMs: 0,
      inventory: [],
      live,
      stream: { subscribed: true, downSinceMs: undefined },
      engine: undefined as never,
    },
    ...("event" in s ? { event: s.event } : {}),
  };
}

/** The live orders as if each plan were executed at once: cancels end, places rest. */
export class InstantOrders {
  live: LiveOrder[] = [];
  private seq = 0;

  apply(plan: { cancels: readonly { clientOrderId: string }[]; places: readonly Pick<LiveOrder, "outcome" | "side" | "price" | "size" | "postOnly">[] }, nowMs: number): void {
    const gone = new Set(plan.cancels.map((o) => o.clientOrderId));
    this.live = this.live.filter((o) => !gone.has(o.clientOrderId));
    for (const q of plan.places) {
      this.seq += 1;
      this.live.push({ clientOrderId: `c${this.seq}`, orderId: `o${this.seq}`, outcome: q.outcome, side: q.side, price: q.price, size: q.size, remaining: q.size, postOnly: q.postOnly, createdAtMs: nowMs, state: "open" });
    }
  }
}

// ---- W x M scenarios -------------------------------------------------------------------------

/** `WxM` from a sizes variable (`env` names it in the error), within 1..50 wallets and 1..maxMarkets markets. */
export function parseSize(s: string, env: string, maxMarkets: number): { wallets: number; markets: number } {
  const m = /^(\d+)x(\d+)$/.exec(s.trim());
  if (m === null) throw new Error(`${env}: expected WxM (e.g. 20x50), got ${JSON.stringify(s)}`);
  const wallets = Number(m[1]);
  const markets = Number(m[2]);
  if (wallets < 1 || wallets > 50 || markets < 1 || markets > maxMarkets) throw new Error(`${env}: ${s} is out of range (1..50 wallets, 1..${maxMarkets} markets)`);
  return { wallets, markets };
}

export interface ScenarioSpec {
  seed: number;
  apiKey: string;
  /** The partner's name; the event's title too. */
  title: string;
  eventSlug: string;
  /** Wallet i's private key. */
  key: (i: number) => string;
  /** Market j's symbol. */
  symbol: (j: number) => string;
  /** Jumps in the fair value (1% a minute, 0.02) on top of the diffusion. */
  jumps: boolean;
}

/**
 * The simulator scenario: W funded wallets of one multi-wallet partner, M binary markets of one
 * event open for a day, each with synthetic liquidity (3 levels) and taker flow (20 a minute).
 */
export function benchScenario(spec: ScenarioSpec, wallets: number, markets: number): string {
  const ws = Array.from({ length: wallets }, (_, i) => `  - { name: w${i}, privateKey: "${spec.key(i)}", partner: mm, balances: { collateral: "100000" } }`).join("\n");
  const jumps = spec.jumps
    ? `
          jumpProbPerMin: 0.01
          jumpSize: 0.02`
    : "";
  const ms = Array.from(
    { length: markets },
    (_, j) => `      - title: ${spec.symbol(j)}
        symbol: ${spec.symbol(j)}
        feeTakerBps: 100
        tradingWindow: { preMarketStartsAt: null, opensAt: "-10m", closesAt: "+1d" }
        fairValue: "0.5"
        flow:
          volPerSqrtMin: 0.004${jumps}
          takerArrivalPerMin: 20
          takerSize: { dist: lognormal, min: "1", max: "100", mean: "8" }
          liquidity: { levels: 3, depthPerLevel: "100", halfSpread: "0.02", levelStep: "0.01" }`,
  ).join("\n");
  return `seed: ${spec.seed}
start: now
platform: { defaultFeeTakerBps: 100 }
partners:
  - id: mm
    name: ${spec.title}
    kind: multi_wallet
    requirePerWalletKyc: false
    rateLimitPerMin: 600
    keys:
      - { key: ${spec.apiKey}, scopes: [orders:read, orders:write, portfolio:read] }
wallets:
${ws}
events:
  - slug: ${spec.eventSlug}
    title: ${spec.title}
    vertical: football
    tags: []
    markets:
${ms}
`;
}

export interface DaemonConfigSpec {
  /** The lines before `wallets:` (mode, platform, instance). */
  head: string;
  /** The environment variable holding wallet i's key. */
  keyVar: (i: number) => string;
  symbol: (j: number) => string;
  /** The `metrics:` and `log:` values. */
  metrics: string;
  log: string;
}

/** The daemon config quoting every market of `benchScenario`: ladder (size 10, 2 levels), 1 s refresh, load shedding off. */
export function benchDaemonConfig(spec: DaemonConfigSpec, wallets: number, markets: number): string {
  const ws = Array.from({ length: wallets }, (_, i) => `  - { name: w${i}, privateKey: "\${${spec.keyVar(i)}}" }`).join("\n");
  const slugs = JSON.stringify(Array.from({ length: markets }, (_, j) => spec.symbol(j)));
  return `${spec.head}
wallets:
${ws}
markets: { slugs: ${slugs}, maxMarkets: ${markets}, refreshSec: 60 }
strategy: { name: ladder, params: { size: "10", levels: 2 } }
quoting: { refreshMs: 1000, priceToleranceTicks: 1 }
capacity: { enabled: false }
metrics: ${spec.metrics}
log: ${spec.log}
shutdown: { cancelDeadlineSec: 30 }
`;
}
