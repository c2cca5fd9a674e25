/**
 * Capacity: what one process holds. W wallets x M markets (the markets spread over the wallets, one
 * wallet per market, as the daemon assigns them) of the daemon `mm run` runs, against the simulator
 * in the same process, on the REAL clock: ladder quotes, taker flow on every market, the default
 * refresh (1 s). After a warm-up, over a measuring window:
 *
 *   BENCH capacity_<W>x<M>_event_loop_lag_p99      ms, perf_hooks.monitorEventLoopDelay (10 ms resolution)
 *   BENCH capacity_<W>x<M>_event_loop_lag_max      ms, the longest stall
 *   BENCH capacity_<W>x<M>_cpu_share               process CPU time (user + system) / wall time; 1 = one
 *                                                  core busy (2 is both cores of this machine)
 *   BENCH capacity_<W>x<M>_cpu_share_per_wm        the same per (wallet x market), the figure
 *                                                  `mm check-config` compares a config against
 *   BENCH capacity_<W>x<M>_quote_cycle_p99         ms, one quote cycle of one (wallet, market)
 *   BENCH capacity_<W>x<M>_cycles_per_sec          quote cycles per second
 *   BENCH capacity_<W>x<M>_stale_halts             stale_market_data halts raised in the window
 *   BENCH capacity_<W>x<M>_unknown_orders          orders in an unknown state at the end of the window
 *   BENCH capacity_<W>x<M>_all_quoted_after        s from start-up until every market held a live order of ours
 *                                                  (the warm-up lasts at least that long, at most 60 s)
 *   BENCH capacity_<W>x<M>_markets_quoted          the fewest markets holding a live order of ours, looked at
 *                                                  every second of the window (ratio= of the markets)
 *
 * Then the same sizes on a VirtualClock (the same timers, polls, flow and requests, answered at once),
 * which a busy machine cannot distort: the CPU the process needs to keep up in real time.
 *
 *   BENCH capacity_<W>x<M>_cpu_needed              process CPU seconds per virtual second: above 1 the
 *                                                  single event loop cannot keep up at all
 *   BENCH capacity_<W>x<M>_cpu_needed_per_wm       the same per (wallet x market)
 *   BENCH capacity_<W>x<M>_cpu_needed_daemon       the daemon's part of it, from a CPU profile of the window:
 *   BENCH capacity_<W>x<M>_cpu_needed_daemon_per_wm  a sample is the simulator's when the innermost project
 *                                                  frame on its stack is in src/sim, the daemon's when it is
 *                                                  in src/bot, api, stream, metrics, config or strategies
 *                                                  (shared layers: core, wire, signing, ratelimit, log, and
 *                                                  libraries are skipped up the stack); GC and unattributed
 *                                                  samples are shared in proportion
 *   BENCH capacity_<W>x<M>_slowest_step            ms of wall time the slowest 100 virtual ms took
 *                                                  (everything due in them, neighbours' noise included)
 *   BENCH capacity_<W>x<M>_presign_signed          orders pre-signed in the window (presign.ts), and of
 *   BENCH capacity_<W>x<M>_presign_used            them placed (ratio= used / signed)
 *   BENCH capacity_<W>x<M>_presign_hits            % of placements that found their order pre-signed
 *
 * The real-clock part puts an event-loop turn between the daemon and the simulator each way, as a
 * network would (`networkLike`: every request reaches the simulator in a task of its own and its
 * answer comes back in another; every stream event too). Called directly, the in-process seams
 * answer in microtasks, so a refresh of every wallet's cycles, the simulator's matching and
 * signature checks included, would run as one task and the lag would measure the simulator glued
 * to the daemon, which no live daemon sees. BENCH_CAPACITY_DIRECT=1 measures it that way.
 *
 * Load shedding is off (capacity.enabled: false): the figures are what the process does unguarded.
 * The simulator (matching, synthetic flow, its HTTP pipeline) runs in the same process and its CPU is
 * counted too, so the figures overstate the daemon's own cost: a safe side for a capacity limit
 * (`cpu_needed_daemon` takes the simulator out).
 * Wall-clock figures on a shared machine carry the neighbours' noise: compare runs on an idle machine.
 *
 * BENCH_CAPACITY_SIZES (default "20x50,50x100"), BENCH_CAPACITY_WARMUP_SEC (default 8) and
 * BENCH_CAPACITY_SEC (default 20) change the run (both parts); BENCH_CAPACITY_PARTS ("real,virtual")
 * picks the parts. About 30 s of wall time per size and part on an idle machine.
 * Not run in CI.
 */
import { Session } from "node:inspector/promises";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { RealClock, VirtualClock } from "../src/core/clock.js";
import { Rng } from "../src/core/rng.js";
import { parseConfig, simulatorWalletKey } from "../src/config/index.js";
import type { HttpRequest, HttpResponse, SocketConnector, SocketLike, Transport } from "../src/wire/transport.js";
import { createLogger } from "../src/log/index.js";
import { InProcessSocketConnector, InProcessTransport } from "../src/sim/http/in-process.js";
import { Pipeline } from "../src/sim/http/pipeline.js";
import { allRoutes } from "../src/sim/http/routes/index.js";
import { parseScenario } from "../src/sim/platform/index.js";
import { Simulator } from "../src/sim/simulator.js";
import { WsHub } from "../src/sim/ws/hub.js";
import { createDaemon } from "../src/bot/engine/daemon.js";
import type { EngineEvent } from "../src/bot/observer.js";
import { benchDaemonConfig, benchScenario, fmt, parseSize, sleep, type ScenarioSpec } from "./fixtures.js";

const API_KEY = "pmk_sim_5e1d0000000000cc_CapacityBenchSecret000000000001";
const SIZES = (process.env["BENCH_CAPACITY_SIZES"] ?? "20x50,50x100").split(",").map((s) => parseSize(s, "BENCH_CAPACITY_SIZES", 10_000));
const WARMUP_MS = Number(process.env["BENCH_CAPACITY_WARMUP_SEC"] ?? 8) * 1000;
const MEASURE_MS = Number(process.env["BENCH_CAPACITY_SEC"] ?? 20) * 1000;
const PARTS = (process.env["BENCH_CAPACITY_PARTS"] ?? "real,virtual").split(",");
const DIRECT = process.env["BENCH_CAPACITY_DIRECT"] === "1";

const nextTask = (): Promise<void> => new Promise((r) => setImmediate(r));

/** The seams with a task boundary each way (see the header). */
function networkLike(transport: Transport, connector: SocketConnector): { transport: Transport; connector: SocketConnector } {
  return {
    transport: {
      request: async (req: HttpRequest): Promise<HttpResponse> => {
        await nextTask();
        const res = await transport.request(req);
        await nextTask();
        return res;
      },
    },
    connector: {
      connect: (path, headers): SocketLike => {
        const socket = connector.connect(path, headers);
        const later =
          <A extends unknown[]>(listener: (...args: A) => void) =>
          (...args: A): void =>
            void setImmediate(() => listener(...args));
        const wrapped: SocketLike = {
          send: (data) => socket.send(data),
          close: (code, reason) => socket.close(code, reason),
          on: ((event: "open" | "message" | "close" | "error", listener: (...args: never[]) => void) => {
            (socket.on as (e: string, l: (...args: never[]) => void) => unknown)(event, later(listener));
            return wrapped;
          }),
        };
        return wrapped;
      },
    },
  };
}

const key = (i: number): string => simulatorWalletKey(3, `cap-${i}`).reveal();
const symbol = (j: number): string => `CAP${String(j).padStart(4, "0")}`;

const SCENARIO: ScenarioSpec = { seed: 5, apiKey: API_KEY, title: "Capacity bench", eventSlug: "cap-event", key, symbol, jumps: true };
const scenario = (wallets: number, markets: number): string => benchScenario(SCENARIO, wallets, markets);

function config(wallets: number, markets: number) {
  const env: Record<string, string> = {};
  for (let i = 0; i < wallets; i++) env[`W${i}`] = key(i);
  const yaml = benchDaemonConfig(
    { head: "mode: simulator\ninstance: { id: cap }", keyVar: (i) => `W${i}`, symbol, metrics: "{ port: 0, processMetrics: false }", log: "{ level: silent }" },
    wallets,
    markets,
  );
  return parseConfig(yaml, "capacity-bench.yaml", env);
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}


async function measure(wallets: number, markets: number): Promise<void> {
  const clock = new RealClock();
  const sim = new Simulator(parseScenario(scenario(wallets, markets), "capacity-bench.yaml"), { clock, pepper: new Uint8Array(32), recoveryCache: null });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const hub = new WsHub({ sim, pipeline });
  sim.start();
  let measuring = false;
  const cycles: number[] = [];
  let staleHalts = 0;
  const observer = {
    onEvent: (e: EngineEvent) => {
      if (!measuring) return;
      if (e.type === "cycle") cycles.push(e.latencyMs);
      if (e.type === "halt" && e.action === "raised" && e.reason === "stale_market_data") staleHalts++;
    },
  };
  const seams = { transport: new InProcessTransport(pipeline), connector: new InProcessSocketConnector(hub) };
  const daemon = createDaemon(config(wallets, markets), {
    clock,
    rng: new Rng(9),
    ...(DIRECT ? seams : networkLike(seams.transport, seams.connector)),
    apiKey: API_KEY,
    logger: createLogger({ level: "silent" }),
    observer,
  });
  const t0 = performance.now();
  const started = await daemon.start();
  const ready = started.wallets.filter((w) => w.ready).length;
  console.log(`# ${wallets}x${markets}: start-up ${Math.round(performance.now() - t0)} ms, wallets ready ${ready}/${wallets}, markets ${started.markets.length}`);
  // The warm-up lasts until every market has been quoted (the book poller reaches each in turn), at least WARMUP_MS.
  const symbols = started.markets;
  const quotedNow = (): number => symbols.filter((s) => daemon.runners.some((r) => r.tracker.liveOrders(s).length > 0)).length;
  const w = performance.now();
  while (quotedNow() < symbols.length && performance.now() - w < 60_000) await sleep(250);
  const allQuotedAfter = (performance.now() - w) / 1000;
  await sleep(Math.max(0, WARMUP_MS - (performance.now() - w)));

  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  measuring = true;
  let quotedMin = symbols.length;
  for (let t = 0; t < MEASURE_MS; t += 1000) {
    await sleep(Math.min(1000, MEASURE_MS - t));
    quotedMin = Math.min(quotedMin, quotedNow());
  }
  measuring = false;
  const wall = performance.now() - w0;
  const cpu = process.cpuUsage(cpu0);
  lag.disable();
  const unknown = daemon.runners.reduce((n, r) => n + r.tracker.unknownOrders().length, 0);
  const report = await daemon.stop();
  sim.stop();

  const name = `capacity_${wallets}x${markets}`;
  const share = (cpu.user + cpu.system) / 1000 / wall;
  const lines: [string, number, string][] = [
    ["event_loop_lag_p99", lag.percentile(99) / 1e6, "ms"],
    ["event_loop_lag_max", lag.max / 1e6, "ms"],
    ["cpu_share", share, "cores"],
    ["cpu_share_per_wm", share / (wallets * markets), "cores"],
    ["quote_cycle_p99", quantile(cycles, 0.99), "ms"],
    ["cycles_per_sec", cycles.length / (wall / 1000), "1/s"],
    ["stale_halts", staleHalts, "count"],
    ["unknown_orders", unknown, "count"],
  ];
  for (const [what, value, unit] of lines) console.log(`BENCH ${name}_${what} ${fmt(value)} ${unit}`);
  console.log(`BENCH ${name}_all_quoted_after ${fmt(allQuotedAfter)} s`);
  console.log(`BENCH ${name}_markets_quoted ${quotedMin} count ratio=${(quotedMin / Math.max(1, symbols.length)).toFixed(3)}`);
  console.log(`# ${wallets}x${markets}: shutdown exit code ${report.exitCode}`);
}

/** The same daemon and simulator on a VirtualClock: CPU per virtual second (see the header). */
async function measureVirtual(wallets: number, markets: number): Promise<void> {
  const clock = new VirtualClock(Date.UTC(2026, 5, 1, 12));
  const sim = new Simulator(parseScenario(scenario(wallets, markets).replace("start: now", `start: "${new Date(clock.now()).toISOString()}"`), "capacity-bench.yaml"), {
    clock,
    pepper: new Uint8Array(32),
    recoveryCache: null,
  });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const hub = new WsHub({ sim, pipeline });
  sim.start();
  const daemon = createDaemon(config(wallets, markets), {
    clock,
    rng: new Rng(9),
    transport: new InProcessTransport(pipeline),
    connector: new InProcessSocketConnector(hub),
    apiKey: API_KEY,
    logger: createLogger({ level: "silent" }),
  });
  let started = false;
  void daemon.start().then(() => (started = true));
  while (!started) await clock.advance(100);
  for (let t = 0; t < WARMUP_MS; t += 100) await clock.advance(100);
  const ps0 = presignTotals(daemon.runners);
  const profiler = new Session();
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.setSamplingInterval", { interval: 1000 });
  await profiler.post("Profiler.start");
  const cpu0 = process.cpuUsage();
  let longest = 0;
  for (let t = 0; t < MEASURE_MS; t += 100) {
    const a = performance.now();
    await clock.advance(100);
    longest = Math.max(longest, performance.now() - a);
  }
  const cpu = process.cpuUsage(cpu0);
  const { profile } = await profiler.post("Profiler.stop");
  profiler.disconnect();
  const ps1 = presignTotals(daemon.runners);
  const stopping = daemon.stop();
  let stopped = false;
  void stopping.then(() => (stopped = true));
  while (!stopped) await clock.advance(250);
  sim.stop();
  const name = `capacity_${wallets}x${markets}`;
  const needed = (cpu.user + cpu.system) / 1000 / MEASURE_MS;
  console.log(`BENCH ${name}_cpu_needed ${fmt(needed)} cores`);
  console.log(`BENCH ${name}_cpu_needed_per_wm ${fmt(needed / (wallets * markets))} cores`);
  const daemonShare = daemonShareOf(profile);
  console.log(`BENCH ${name}_cpu_needed_daemon ${fmt(needed * daemonShare)} cores ratio=${daemonShare.toFixed(3)}`);
  console.log(`BENCH ${name}_cpu_needed_daemon_per_wm ${fmt((needed * daemonShare) / (wallets * markets))} cores`);
  console.log(`BENCH ${name}_slowest_step ${fmt(longest)} ms`);
  const signed = ps1.signed - ps0.signed;
  const hits = ps1.hits - ps0.hits;
  const places = hits + ps1.misses - ps0.misses;
  console.log(`BENCH ${name}_presign_signed ${signed} count`);
  console.log(`BENCH ${name}_presign_used ${hits} count ratio=${(signed === 0 ? 0 : hits / signed).toFixed(3)}`);
  console.log(`BENCH ${name}_presign_hits ${fmt(places === 0 ? 0 : (100 * hits) / places)} %`);
}

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  children?: number[];
}

/** The daemon's share of a CPU profile's busy samples (see the header: the simulator's and the shared ones apart). */
function daemonShareOf(profile: { nodes: ProfileNode[]; samples?: number[] }): number {
  const parent = new Map<number, ProfileNode>();
  const byId = new Map<number, ProfileNode>();
  for (const n of profile.nodes) byId.set(n.id, n);
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const side = new Map<number, "daemon" | "sim" | "other" | "idle">();
  const sideOf = (id: number): "daemon" | "sim" | "other" | "idle" => {
    const known = side.get(id);
    if (known !== undefined) return known;
    let verdict: "daemon" | "sim" | "other" | "idle" = "other";
    if (byId.get(id)?.callFrame.functionName === "(idle)") verdict = "idle";
    for (let n = byId.get(id); n !== undefined && verdict === "other"; n = parent.get(n.id)) {
      const url = n.callFrame.url;
      if (/\/src\/sim\//.test(url)) verdict = "sim";
      else if (/\/src\/(bot|api|stream|metrics|config)\/|\/strategies\//.test(url)) verdict = "daemon";
    }
    side.set(id, verdict);
    return verdict;
  };
  const counts = { daemon: 0, sim: 0, other: 0, idle: 0 };
  for (const id of profile.samples ?? []) counts[sideOf(id)] += 1;
  const attributed = counts.daemon + counts.sim;
  return attributed === 0 ? 0 : counts.daemon / attributed;
}

/** Pre-sign counters summed over the wallets. */
function presignTotals(runners: readonly { presignStats(): { hits: number; misses: number; signed: number } | undefined }[]) {
  const t = { hits: 0, misses: 0, signed: 0 };
  for (const r of runners) {
    const s = r.presignStats();
    if (s === undefined) continue;
    t.hits += s.hits;
    t.misses += s.misses;
    t.signed += s.signed;
  }
  return t;
}

export async function run(): Promise<void> {
  if (PARTS.includes("real")) for (const s of SIZES) await measure(s.wallets, s.markets);
  if (PARTS.includes("virtual")) for (const s of SIZES) await measureVirtual(s.wallets, s.markets);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
