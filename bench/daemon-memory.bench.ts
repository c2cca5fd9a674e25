/**
 * Daemon memory over virtual hours: the daemon `mm run` runs (createDaemon, configs/demo.yaml:
 * three wallets, six markets, ladder) against the embedded simulator on one VirtualClock, built
 * from the same parts as src/backtest/run.ts (prepareBacktest, startEmbeddedSimulator) but without
 * the backtest's collector, whose uptime samples would grow the heap themselves.
 *
 * At the end of each virtual hour a full GC is forced and `process.memoryUsage().heapUsed` read.
 * GC: `global.gc` when node runs with --expose-gc, otherwise `v8.setFlagsFromString("--expose-gc")`
 * then `vm.runInNewContext("gc")` (what tsx gives us); the line `# gc:` says which was used.
 *
 *   BENCH daemon_heap_growth_per_virtual_hour   least-squares slope of the heap over hours 1..N
 *                                               (hour 0-1 is the warm-up: the tracker, the pruned-id
 *                                               memory (1 h) and the trade windows fill up there)
 *   BENCH daemon_heap_after_<N>h                heap after hour N, ratio = that / heap after hour 1
 *   BENCH daemon_retained_after_<N>h            heap released when the stopped daemon is dropped
 *                                               (the daemon's own share at the end; approximate)
 *   BENCH daemon_bytes_per_fill                 heap a fill record costs the ledger and inventory while
 *                                               held (the run's fills replayed into fresh ones)
 *   BENCH daemon_fill_records_held_after_<N>h   fill records the ledger holds in memory at the end,
 *                                               ratio = that / every fill of the run (what the ledger
 *                                               held before compaction, fill-compaction.ts)
 *
 * The heap is the whole process: the simulator's records of every order and trade (it must answer
 * GET /orders/{id} for any of them) grow with the run too, so the slope is an upper bound for the
 * daemon. The per-hour lines show what the daemon holds (tracker records, remembered pruned ids,
 * buffered frames, claim marks, own-order log, ledger fills) to tell bounded from growing parts.
 * BENCH_MEMORY_HOURS changes the length (default 4, about 2 minutes of wall time on 2 shared cores).
 * BENCH_MEMORY_RETENTION_MS sets tuning.fillRetentionMs (default: the daemon's, 1 h; 0 = never
 * compact, the behaviour before compaction, to measure both in the same code).
 */
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { VirtualClock } from "../src/core/clock.js";
import { Rng } from "../src/core/rng.js";
import { createLogger } from "../src/log/index.js";
import { createDaemon, type Daemon } from "../src/bot/engine/daemon.js";
import { defaultDemoConfigPath, startEmbeddedSimulator } from "../src/bot/engine/demo.js";
import type { EngineEvent } from "../src/bot/observer.js";
import { FillLedger, type Fill } from "../src/bot/fills/fill-ledger.js";
import { Inventory } from "../src/bot/fills/inventory.js";
import { prepareBacktest } from "../src/backtest/index.js";

const HOUR_MS = 3_600_000;
const STEP_MS = 1_000;
const HOURS = Math.max(2, Math.floor(Number(process.env.BENCH_MEMORY_HOURS ?? 4)));
const MB = 1024 * 1024;
const RETENTION = process.env.BENCH_MEMORY_RETENTION_MS === undefined ? undefined : Number(process.env.BENCH_MEMORY_RETENTION_MS);

function gcFunction(): { gc: () => void; how: string } {
  const g = (globalThis as { gc?: () => void }).gc;
  if (typeof g === "function") return { gc: g, how: "global.gc (node --expose-gc)" };
  v8.setFlagsFromString("--expose-gc");
  return { gc: vm.runInNewContext("gc") as () => void, how: 'v8.setFlagsFromString("--expose-gc") + vm.runInNewContext("gc")' };
}

function heapMB(gc: () => void): number {
  // Twice: the first pass may only queue finalizers / weak callbacks.
  gc();
  gc();
  return process.memoryUsage().heapUsed / MB;
}

/** Least-squares slope of y over x. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The daemon's per-order / per-id holdings, summed over wallets. */
function holdings(d: Daemon): Record<string, number> {
  const sum: Record<string, number> = {};
  for (const r of d.runners) for (const [k, v] of Object.entries(r.memoryFigures())) sum[k] = (sum[k] ?? 0) + v;
  const held = d.inventory.held;
  return {
    ...sum,
    ledgerFills: d.ledger.size,
    ledgerTotal: d.ledger.total,
    inventoryFills: held.fills,
    inventoryOrders: held.orders,
    inventoryApplied: d.inventory.counters.fills,
    followedMarkets: d.registry.all().length,
  };
}

/**
 * What one fill costs the daemon for good (the ledger keeps every trade, the inventory every fill
 * it folded): the run's fills replayed into a fresh ledger and inventory. Ids and bigints are
 * rebuilt (each fill brings its own from the wire); the wallet and the enum-like fields stay
 * shared, as they are in the daemon.
 */
function bytesPerFill(fills: readonly Fill[], gc: () => void): number {
  const wire = fills.map((f) => JSON.stringify(f, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v)));
  const shared = new Map<string, string>();
  const intern = (v: string): string => shared.get(v) ?? (shared.set(v, v), v);
  const revive = (s: string): Fill => {
    const f = JSON.parse(s, (_k, v: unknown) => (typeof v === "string" && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v)) as Fill;
    return { ...f, wallet: intern(f.wallet), side: intern(f.side) as Fill["side"], role: intern(f.role) as Fill["role"], source: intern(f.source) as Fill["source"] };
  };
  const before = heapMB(gc);
  const ledger = new FillLedger();
  const inventory = new Inventory();
  for (const s of wire) inventory.applyLedgerResult(ledger.add(revive(s)));
  const after = heapMB(gc);
  if (ledger.size !== fills.length) throw new Error("replayed ledger differs");
  return ((after - before) * MB) / Math.max(1, fills.length);
}

export async function run(): Promise<void> {
  const { gc, how } = gcFunction();
  const wall0 = performance.now();
  const prepared = prepareBacktest({ configPath: defaultDemoConfigPath(), durationMs: HOURS * HOUR_MS, stepMs: STEP_MS });
  const clock = new VirtualClock(prepared.startMs);
  const silent = createLogger({ level: "silent" });
  const simConfig = { ...prepared.config, simulator: { ...prepared.config.simulator, scenario: prepared.scenarioPath, seed: prepared.seed } };
  const embedded = startEmbeddedSimulator(simConfig, clock, silent);
  let placed = 0;
  const counter = {
    onEvent: (e: EngineEvent): void => {
      if (e.type === "order_placed") placed += 1;
    },
  };
  let daemon: Daemon | undefined = createDaemon(prepared.config, {
    clock,
    logger: silent,
    transport: embedded.transport,
    connector: embedded.connector,
    apiKey: embedded.apiKey,
    rng: new Rng(prepared.seed),
    observer: counter,
    monotonic: () => clock.now(),
    ...(RETENTION === undefined ? {} : { tuning: { fillRetentionMs: RETENTION } }),
  });
  let startError: unknown;
  daemon.start().catch((e: unknown) => (startError = e));

  console.log(`# gc: ${how}; demo config, ${HOURS} virtual h, step ${STEP_MS} ms, fillRetentionMs ${daemon.tuning.fillRetentionMs}; heap before the run ${heapMB(gc).toFixed(2)} MB`);
  const hours: number[] = [];
  const heaps: number[] = [];
  const fillsAt: number[] = [];
  for (let h = 1; h <= HOURS; h++) {
    const end = prepared.startMs + h * HOUR_MS;
    while (clock.now() < end) await clock.advanceTo(Math.min(end, clock.now() + STEP_MS));
    if (startError !== undefined) throw new Error(`daemon start failed: ${startError instanceof Error ? startError.message : JSON.stringify(startError)}`);
    const heap = heapMB(gc);
    hours.push(h);
    heaps.push(heap);
    fillsAt.push(daemon.ledger.total);
    const held = Object.entries(holdings(daemon))
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    const simTrades = embedded.sim.engine.ledger.trades().length;
    console.log(`# h=${h} heap=${heap.toFixed(2)} MB wall=${((performance.now() - wall0) / 1000).toFixed(1)} s placed=${placed} simTrades=${simTrades} ${held}`);
  }

  const stopping = daemon.stop("bench end");
  let stopped = false;
  void stopping.finally(() => (stopped = true));
  const deadline = clock.now() + prepared.config.shutdown.cancelDeadlineSec * 1000 + 120_000;
  while (!stopped && clock.now() < deadline) await clock.advance(STEP_MS);
  const withDaemon = heapMB(gc);
  const heldFills = daemon.ledger.size;
  const totalFills = daemon.ledger.total;
  const perFill = bytesPerFill(daemon.ledger.fills(), gc);
  daemon = undefined;
  // The in-process connector (src/sim) keeps every socket it ever made, and each socket the
  // stream's listeners: without this the dropped daemon would stay reachable.
  embedded.connector.sockets.length = 0;
  const withoutDaemon = heapMB(gc);
  embedded.stop();

  const perHour = slope(hours, heaps);
  const first = heaps[0]!;
  const last = heaps[heaps.length - 1]!;
  const retained = withDaemon - withoutDaemon;
  const fillsPerHour = (fillsAt[fillsAt.length - 1]! - fillsAt[0]!) / (HOURS - 1);
  console.log(`# placed ${placed} orders (${(placed / HOURS).toFixed(0)}/h), wall ${((performance.now() - wall0) / 1000).toFixed(1)} s, stopped cleanly: ${stopped}`);
  console.log(
    `# the daemon's own share of the slope: at most ${(retained / (HOURS - 1)).toFixed(2)} MB/h (all it holds after ${HOURS} h over hours 1..${HOURS}); ` +
      `${fillsPerHour.toFixed(0)} fills/h x ${perFill.toFixed(0)} B = ${((fillsPerHour * perFill) / MB).toFixed(2)} MB/h; the rest is the simulator's records`,
  );
  console.log(`BENCH daemon_heap_growth_per_virtual_hour ${perHour.toFixed(3)} MB`);
  console.log(`BENCH daemon_heap_after_${HOURS}h ${last.toFixed(2)} MB ratio=${(last / first).toFixed(4)}`);
  console.log(`BENCH daemon_retained_after_${HOURS}h ${retained.toFixed(2)} MB`);
  console.log(`BENCH daemon_bytes_per_fill ${perFill.toFixed(0)} B`);
  console.log(
    `BENCH daemon_fill_records_held_after_${HOURS}h ${heldFills} ratio=${(heldFills / Math.max(1, totalFills)).toFixed(4)} ` +
      `(of ${totalFills} fills; about ${((heldFills * perFill) / MB).toFixed(2)} MB held vs ${((totalFills * perFill) / MB).toFixed(2)} MB without compaction)`,
  );
}
