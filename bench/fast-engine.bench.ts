/**
 * The fast engine (src/backtest/fast/engine.ts): market events per second replayed with the
 * `ladder` strategy attached (one wallet, 6 binary markets, both outcomes' books every 250 ms of
 * virtual time, a public trade about every second per market), against a bare decode-and-dispatch
 * loop over the same in-memory events (a switch on the kind touching each event's fields) measured
 * in the same run: ratio = engine events/s / bare loop events/s.
 *
 * The events are generated before timing (a seeded random walk of each market's mid, 3 levels a
 * side), so both figures exclude decoding from storage (bench/data.bench.ts measures that).
 * The main figure is with the default feed (poll: the strategy sees books as the daemon's poller
 * reads them, see FeedModel); `fast_engine_feed_every_events_per_sec` lets every recorded book reach
 * the strategy (a cycle per book instant, the most work per event).
 * fast_engine_cpu_per_cycle_us is the poll run's CPU time over its quote cycles (everything, the
 * exchange model included). fast_engine_dense_events_per_sec and fast_engine_extra_event_ns play one
 * market walk over the same span with books every 250 ms and every 25 ms (denseEvents): the strategy
 * sees books at the poller's cadence either way, so the extra events cost the exchange model only.
 * Time is process CPU time. BENCH_FAST_EVENTS (default 600,000) sets the number of events.
 */
import { parseConfig } from "../src/config/index.js";
import { Rng } from "../src/core/rng.js";
import type { DataEvent } from "../src/data/events.js";
import { Levels } from "../src/data/levels.js";
import { runFastBacktest } from "../src/backtest/fast/engine.js";
import { constantLatency } from "../src/backtest/models/latency.js";
import { cpuMs, medianCpuMs } from "./fixtures.js";

const N = Number(process.env["BENCH_FAST_EVENTS"] ?? 600_000);
const T0 = Date.UTC(2026, 5, 1, 12);
const SYMBOLS = ["M1", "M2", "M3", "M4", "M5", "M6"];

function row(symbol: string): string {
  const iso = new Date(T0).toISOString();
  return JSON.stringify({
    id: "00000000-0000-4000-8000-00000000000" + SYMBOLS.indexOf(symbol),
    eventId: "00000000-0000-4000-8000-000000000001",
    symbol,
    slug: symbol.toLowerCase(),
    title: symbol,
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
    tradingWindow: { preMarketStartsAt: null, opensAt: new Date(T0 - 3_600_000).toISOString(), closesAt: new Date(T0 + 90 * 86_400_000).toISOString() },
    kickoff: null,
    resolutionWindowHours: null,
    lifecycle: { closedAt: null, pausedAt: null, resolvedAt: null, voidedAt: null },
    payoutNumerators: null,
    officialDataSource: null,
    sourceMatchId: null,
    negRiskEligible: false,
    isNewMarketType: false,
    createdAt: iso,
    updatedAt: iso,
    outcomePrices: [null, null],
    chances: ["0.5", "0.5"],
    vertical: null,
    marketType: null,
    crypto: null,
  });
}

export function events(n: number): DataEvent[] {
  const rng = new Rng(11);
  const out: DataEvent[] = [];
  let seq = 0;
  for (const s of SYMBOLS) out.push({ kind: "market", seq: ++seq, ts: T0, symbol: s, status: "OPEN", row: row(s) });
  const mids = SYMBOLS.map(() => 500);
  let ts = T0;
  let tid = 0;
  const lv = (ticks: number[]) => Levels.of(ticks.map((t) => [BigInt(t) * 1000n, BigInt(rng.range(20, 200)) * 1_000_000n] as const));
  while (out.length < n) {
    ts += 250;
    SYMBOLS.forEach((s, i) => {
      mids[i] = Math.min(900, Math.max(100, mids[i]! + (rng.bool() ? 1 : -1) * rng.range(0, 2)));
      const m = mids[i];
      out.push({ kind: "book", seq: ++seq, ts, symbol: s, outcome: 0, serverTs: ts, bids: lv([m - 5, m - 6, m - 7]), asks: lv([m + 5, m + 6, m + 7]) });
      out.push({ kind: "book", seq: ++seq, ts, symbol: s, outcome: 1, serverTs: ts, bids: lv([1000 - m - 5, 1000 - m - 6, 1000 - m - 7]), asks: lv([1000 - m + 5, 1000 - m + 6, 1000 - m + 7]) });
      if (rng.range(0, 3) === 0) {
        const buy = rng.bool();
        out.push({ kind: "trade", seq: ++seq, ts: ts + 10, id: `t${++tid}`, symbol: s, outcome: 0, side: buy ? "BUY" : "SELL", price: BigInt(buy ? m + 5 : m - 5) * 1000n, quantity: BigInt(rng.range(1, 30)) * 1_000_000n, tradeTs: ts + 10 });
      }
    });
  }
  return out;
}

/**
 * The same market over `steps` steps of 250 ms, with `sub` books per outcome per step: the mids and
 * the trades are drawn from one stream and move once a step (so `sub` does not change them); the
 * sizes of every book from another, redrawn at each of the `sub` instants (25 ms apart at sub 10).
 * In time order; a step's trades come after its first books, at the same instant.
 */
export function denseEvents(steps: number, sub: number): DataEvent[] {
  const walk = new Rng(21);
  const sizes = new Rng(22);
  const out: DataEvent[] = [];
  let seq = 0;
  for (const s of SYMBOLS) out.push({ kind: "market", seq: ++seq, ts: T0, symbol: s, status: "OPEN", row: row(s) });
  const mids = SYMBOLS.map(() => 500);
  let tid = 0;
  const lv = (ticks: number[]) => Levels.of(ticks.map((t) => [BigInt(t) * 1000n, BigInt(sizes.range(20, 200)) * 1_000_000n] as const));
  for (let k = 1; k <= steps; k++) {
    const ts = T0 + 250 * k;
    for (let j = 0; j < sub; j++) {
      const t = ts + Math.floor((250 * j) / sub);
      SYMBOLS.forEach((s, i) => {
        if (j === 0) mids[i] = Math.min(900, Math.max(100, mids[i]! + (walk.bool() ? 1 : -1) * walk.range(0, 2)));
        const m = mids[i]!;
        out.push({ kind: "book", seq: ++seq, ts: t, symbol: s, outcome: 0, serverTs: t, bids: lv([m - 5, m - 6, m - 7]), asks: lv([m + 5, m + 6, m + 7]) });
        out.push({ kind: "book", seq: ++seq, ts: t, symbol: s, outcome: 1, serverTs: t, bids: lv([1000 - m - 5, 1000 - m - 6, 1000 - m - 7]), asks: lv([1000 - m + 5, 1000 - m + 6, 1000 - m + 7]) });
        if (j === 0 && walk.range(0, 3) === 0) {
          const buy = walk.bool();
          out.push({ kind: "trade", seq: ++seq, ts: t, id: `t${++tid}`, symbol: s, outcome: 0, side: buy ? "BUY" : "SELL", price: BigInt(buy ? m + 5 : m - 5) * 1000n, quantity: BigInt(walk.range(1, 30)) * 1_000_000n, tradeTs: t });
        }
      });
    }
  }
  return out;
}


/** The bare loop: dispatch on the kind and read what a handler would read. */
function bare(evs: readonly DataEvent[]): number {
  let acc = 0;
  for (const e of evs) {
    switch (e.kind) {
      case "book":
        acc += e.bids.length + e.asks.length + (e.bids.length > 0 ? Number(e.bids.price(0) & 1n) : 0);
        break;
      case "trade":
        acc += Number(e.quantity & 1n);
        break;
      default:
        acc += 1;
    }
  }
  return acc;
}

export function run(): Promise<void> {
  const evs = events(N);
  const config = parseConfig(
    `mode: simulator
instance: { id: bench }
wallets: [{ name: w0 }]
markets: { maxMarkets: 6 }
strategy: { name: ladder, params: {} }
quoting: { refreshMs: 1000, priceToleranceTicks: 1 }
risk: { maxOrderSize: "50", maxPositionPerMarket: "300", maxNotionalPerWallet: "1000", maxNotionalTotal: "3000", dailyLossLimit: "250" }
log: { level: silent }
`,
    "bench.yaml",
    {},
  );
  const source = () => {
    let i = 0;
    return { describe: "bench", next: () => evs[i++] };
  };
  // Warm-up of both on a slice.
  bare(evs);
  runFastBacktest({ config, source: (() => { let i = 0; const part = evs.slice(0, 50_000); return { describe: "warm", next: () => part[i++] }; })(), latency: constantLatency(20, 20), queue: { kind: "risk-averse" }, seed: 1 });
  const bareRate = evs.length / (medianCpuMs(5, () => bare(evs)) / 1000);
  // The strategy as live sees books (feed poll, the default), and the most it could see (every).
  const t1 = cpuMs();
  const everyReport = runFastBacktest({ config, source: source(), latency: constantLatency(20, 20), queue: { kind: "risk-averse" }, seed: 1, feed: "every" });
  const everyMs = cpuMs() - t1;
  const t0 = cpuMs();
  const report = runFastBacktest({ config, source: source(), latency: constantLatency(20, 20), queue: { kind: "risk-averse" }, seed: 1 });
  const ms = cpuMs() - t0;
  const rate = evs.length / (ms / 1000);
  const virtualMs = (report.lastTs ?? 0) - (report.firstTs ?? 0);
  console.log(`# fast engine: ${evs.length} events, ${report.cycles} cycles, ${report.orders.placed} orders placed (${report.orders.rejected} rejected, ${report.orders.rateDeferred} deferred by the rate buckets), ${report.orders.cancels} cancels, ${report.totals.fills} fills, net ${report.totals.net}, ${(virtualMs / 3_600_000).toFixed(1)} virtual h in ${(ms / 1000).toFixed(2)} s CPU`);
  console.log(`BENCH fast_engine_bare_dispatch_events_per_sec ${Math.round(bareRate)} events/s`);
  console.log(`BENCH fast_engine_events_per_sec ${Math.round(rate)} events/s ratio=${(rate / bareRate).toFixed(4)}`);
  console.log(`BENCH fast_engine_real_time_multiple ${Math.round(virtualMs / ms)} x`);
  const everyRate = evs.length / (everyMs / 1000);
  console.log(`# feed every: ${everyReport.cycles} cycles, ${everyReport.orders.placed} orders placed, ${everyReport.totals.fills} fills, net ${everyReport.totals.net}`);
  console.log(`BENCH fast_engine_feed_every_events_per_sec ${Math.round(everyRate)} events/s ratio=${(everyRate / bareRate).toFixed(4)}`);
  console.log(`BENCH fast_engine_cpu_per_cycle_us ${((ms * 1000) / report.cycles).toFixed(1)} us`);
  // Where the time goes as the data gets denser: the same market and span with a book per outcome
  // every 250 ms (sparse) and every 25 ms (dense). The strategy sees books at the poller's cadence
  // either way, so the cycles hardly change; the extra events cost only the exchange model.
  const steps = Math.ceil(N / (SYMBOLS.length * 2 * 10 + 2));
  const sparse = denseEvents(steps, 1);
  const dense = denseEvents(steps, 10);
  const play = (list: readonly DataEvent[]) => {
    let i = 0;
    const t = cpuMs();
    const r = runFastBacktest({ config, source: { describe: "bench", next: () => list[i++] }, latency: constantLatency(20, 20), queue: { kind: "risk-averse" }, seed: 1 });
    return { ms: cpuMs() - t, r };
  };
  play(sparse.slice(0, 20_000));
  // Alternated, three of each, medians: the difference is small against the machine's noise.
  const sps: ReturnType<typeof play>[] = [];
  const dns: ReturnType<typeof play>[] = [];
  for (let k = 0; k < 3; k++) {
    sps.push(play(sparse));
    dns.push(play(dense));
  }
  const mid = (xs: ReturnType<typeof play>[]) => [...xs].sort((a, b) => a.ms - b.ms)[1]!;
  const sp = mid(sps);
  const dn = mid(dns);
  const bareDenseMs = medianCpuMs(3, () => bare(dense));
  const denseRate = dense.length / (dn.ms / 1000);
  const marginalNs = ((dn.ms - sp.ms) * 1e6) / (dense.length - sparse.length);
  console.log(`# same span, books every 250 ms: ${sparse.length} events, ${sp.r.cycles} cycles, ${sp.r.totals.fills} fills, ${sps.map((x) => x.ms.toFixed(0)).join(" ")} ms CPU; every 25 ms: ${dense.length} events, ${dn.r.cycles} cycles, ${dn.r.totals.fills} fills, ${dns.map((x) => x.ms.toFixed(0)).join(" ")} ms CPU (medians used)`);
  console.log(`BENCH fast_engine_dense_events_per_sec ${Math.round(denseRate)} events/s ratio=${(denseRate / (dense.length / (bareDenseMs / 1000))).toFixed(4)}`);
  // Can come out near zero or below when the noise is larger than the difference: read the # line.
  console.log(`BENCH fast_engine_extra_event_ns ${Math.round(marginalNs)} ns`);
  return Promise.resolve();
}
