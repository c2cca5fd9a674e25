/**
 * The two-IP figure at full size (issue 15's "Done when", the part test/shard/two-ips.test.ts
 * shows only scaled down): `mm sim` with the spec's own buckets (no `rateLimits` override: one
 * source address may send 6000 `POST /api/orders/*` per 60 s) and two compiled `mm run` daemons,
 * shards 0 and 1 of 2, bound to 127.0.0.2 and 127.0.0.3 (`platform.localAddress`), each quoting
 * its half of the wallets with every order replaced about every second, so together they try to
 * send well above 6000 per 60 s (each replica's own gate stops it at 90 % of one address's bucket).
 *
 *   BENCH two_ips_posts_per_60s_<addr>     `POST /api/orders/*` sent from that address in its
 *                                          busiest 60 s (sliding, 1 s steps; from the daemon's
 *                                          mm_rate_gate_admitted_total{bucket="orders-post-ip"})
 *   BENCH two_ips_posts_per_60s_together   the same for both addresses summed; ratio= against
 *                                          one address's 6000
 *   BENCH two_ips_places_per_60s_<addr>    orders placed from that address in its busiest 60 s,
 *                                          as the simulator recorded them (order history
 *                                          createdAt, read after the run)
 *   BENCH two_ips_places_per_60s_together  the same summed; ratio= against 6000
 *   BENCH two_ips_429                      429 answers either daemon received (any bucket)
 *   BENCH two_ips_wallets_with_both        wallets whose order history holds orders of both
 *                                          replicas (must be 0)
 *   BENCH two_ips_cpu_cores_<process>      CPU seconds per wall second of mm sim and each daemon
 *
 * Heavy (three processes at full rate on loopback): not run in CI. Needs Linux (/proc, 127.0.0.x
 * bound as source addresses) and the compiled build (`npm run build`). BENCH_TWO_IPS_WALLETS
 * (per replica, default 25: 50 in all, the config's limit), BENCH_TWO_IPS_MARKETS (default 50), BENCH_TWO_IPS_LEVELS (ladder
 * levels, default 1), BENCH_TWO_IPS_WARMUP_SEC (default
 * 15) and BENCH_TWO_IPS_SEC (default 90, at least 60) change the run.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { privateKeyToAddress } from "viem/accounts";
import { createClient, FetchTransport } from "../src/api/index.js";
import { simulatorWalletKey } from "../src/config/index.js";
import { shardOf } from "../src/config/shard-section.js";
import { RealClock } from "../src/core/clock.js";
import { RateGate, platformGateOptions } from "../src/ratelimit/index.js";
import { fmt, metricsText, metricSum, mm, procStat, ROOT, sleep, stop, waitFor } from "./mm-process.js";

const API_KEY = "pmk_sim_5e1d0000000000cd_TwoIpsBenchSecret00000000000000001";
const ADDRESSES = ["127.0.0.2", "127.0.0.3"] as const;
const IP_LIMIT = 6000;
const WINDOW_MS = 60_000;
const PER_REPLICA = Number(process.env["BENCH_TWO_IPS_WALLETS"] ?? 25);
const MARKETS = Number(process.env["BENCH_TWO_IPS_MARKETS"] ?? 50);
const LEVELS = Number(process.env["BENCH_TWO_IPS_LEVELS"] ?? 1);
const WARMUP_MS = Number(process.env["BENCH_TWO_IPS_WARMUP_SEC"] ?? 15) * 1000;
const MEASURE_MS = Math.max(60, Number(process.env["BENCH_TWO_IPS_SEC"] ?? 90)) * 1000;

const symbol = (j: number): string => `TIP${String(j).padStart(3, "0")}`;

interface BenchWallet {
  name: string;
  key: string;
  address: string;
  shard: number;
}

/** Wallets until each of the two shards has PER_REPLICA (rendezvous hashing decides, as in the daemon). */
function wallets(): BenchWallet[] {
  const out: BenchWallet[] = [];
  const per = [0, 0];
  for (let i = 0; per[0]! < PER_REPLICA || per[1]! < PER_REPLICA; i++) {
    const key = simulatorWalletKey(5, `tip-${i}`).reveal();
    const address = privateKeyToAddress(key as `0x${string}`).toLowerCase();
    const shard = shardOf(address, 2);
    if (per[shard]! >= PER_REPLICA) continue;
    per[shard]! += 1;
    out.push({ name: `w${i}`, key, address, shard });
  }
  return out;
}

function scenario(ws: BenchWallet[]): string {
  const wl = ws.map((w) => `  - { name: ${w.name}, privateKey: "${w.key}", partner: mm, balances: { collateral: "1000000" } }`).join("\n");
  const ms = Array.from(
    { length: MARKETS },
    (_, j) => `      - title: ${symbol(j)}
        symbol: ${symbol(j)}
        feeTakerBps: 100
        tradingWindow: { preMarketStartsAt: null, opensAt: "-10m", closesAt: "+1d" }
        fairValue: "0.5"
        flow:
          volPerSqrtMin: 0.004
          takerArrivalPerMin: 30
          takerSize: { dist: lognormal, min: "1", max: "50", mean: "5" }
          liquidity: { levels: 3, depthPerLevel: "100", halfSpread: "0.02", levelStep: "0.01" }`,
  ).join("\n");
  // No platform.rateLimits: the spec's default buckets.
  return `seed: 7
start: now
platform: { defaultFeeTakerBps: 100 }
partners:
  - id: mm
    name: Two IPs bench
    kind: multi_wallet
    requirePerWalletKyc: false
    rateLimitPerMin: 600
    keys:
      - { key: ${API_KEY}, scopes: [orders:read, orders:write, portfolio:read] }
wallets:
${wl}
events:
  - slug: tip-event
    title: Two IPs bench
    vertical: football
    tags: []
    markets:
${ms}
`;
}

/** One replica's live config: every wallet listed, the shard picks its half; its own source address. */
function liveConfig(baseUrl: string, ws: BenchWallet[], index: number): string {
  const wl = ws.map((w) => `  - { name: ${w.name}, privateKey: "\${BENCH_${w.name.toUpperCase()}}" }`).join("\n");
  const slugs = JSON.stringify(Array.from({ length: MARKETS }, (_, j) => symbol(j)));
  return `mode: live
platform: { baseUrl: "${baseUrl}", apiKey: "\${BENCH_API_KEY}", localAddress: ${ADDRESSES[index]} }
instance: { id: tip }
shard: { index: ${index}, count: 2 }
wallets:
${wl}
markets: { slugs: ${slugs}, maxMarkets: ${MARKETS}, refreshSec: 60 }
strategy: { name: ladder, params: { size: "10", levels: ${LEVELS}, halfSpreadTicks: 2 } }
quoting: { refreshMs: 250, maxOrderAgeSec: 1, priceToleranceTicks: 0 }
capacity: { enabled: false }
metrics: { host: 127.0.0.1, port: 0 }
log: { level: warn }
shutdown: { cancelDeadlineSec: 30 }
`;
}

/** The largest rise of a cumulative series over any `windowMs` (samples: [ms, value], in time order). */
export function maxOverWindow(samples: readonly (readonly [number, number])[], windowMs: number): number {
  let best = 0;
  let j = 0;
  for (let i = 0; i < samples.length; i++) {
    while (samples[i]![0] - samples[j]![0] > windowMs) j += 1;
    best = Math.max(best, samples[i]![1] - samples[j]![1]);
  }
  return best;
}

/** The most timestamps inside any `windowMs` (sorted ascending). */
export function maxEventsInWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let j = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

interface Replica {
  child: ChildProcess;
  metricsUrl: string;
  /** [ms, POST /api/orders/* admitted so far]. */
  posts: [number, number][];
  tooMany: number;
  cpu0: number;
}

export async function run(): Promise<void> {
  if (!existsSync("/proc/self/stat")) {
    console.log("# two-ips: skipped (needs Linux /proc and the 127.0.0.x loopback range)");
    return;
  }
  if (!existsSync(join(ROOT, "dist/src/cli/main.js"))) {
    console.log("# two-ips: skipped (no compiled build: run `npm run build`)");
    return;
  }
  const ws = wallets();
  const dir = mkdtempSync(join(tmpdir(), "mm-two-ips-bench-"));
  const children: ChildProcess[] = [];
  try {
    writeFileSync(join(dir, "scenario.yaml"), scenario(ws));
    const sim = mm(["sim", "--scenario", join(dir, "scenario.yaml"), "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"]);
    children.push(sim);
    const baseUrl = (await waitFor(sim, /listening on (http:\/\/[0-9.:]+)/, "mm sim"))[1]!;
    const env: Record<string, string> = { BENCH_API_KEY: API_KEY };
    for (const w of ws) env[`BENCH_${w.name.toUpperCase()}`] = w.key;
    const replicas: Replica[] = [];
    for (const index of [0, 1]) {
      const file = join(dir, `replica-${index}.yaml`);
      writeFileSync(file, liveConfig(baseUrl, ws, index));
      const child = mm(["run", "--config", file, "--log-level", "info"], env);
      children.push(child);
      const port = (await waitFor(child, /"port":(\d+)[^\n]*serving \/metrics/, `mm run (shard ${index})`))[1]!;
      replicas.push({ child, metricsUrl: `http://127.0.0.1:${port}`, posts: [], tooMany: 0, cpu0: 0 });
    }
    const started = Date.now();
    const loadBefore = loadavg()[0]!;
    await sleep(WARMUP_MS);
    const measureFrom = Date.now();
    const simCpu0 = procStat(sim.pid!).cpuSec;
    for (const r of replicas) r.cpu0 = procStat(r.child.pid!).cpuSec;
    for (;;) {
      const at = Date.now();
      for (const r of replicas) {
        const text = await metricsText(r.metricsUrl);
        r.posts.push([at, metricSum(text, "mm_rate_gate_admitted_total", { bucket: "orders-post-ip" })]);
        r.tooMany = metricSum(text, "mm_rate_limited_responses_total");
      }
      if (at - measureFrom >= MEASURE_MS) break;
      await sleep(Math.max(0, 1_000 - (Date.now() - at)));
    }
    const wallSec = (Date.now() - measureFrom) / 1000;
    const loadAfter = loadavg()[0]!;
    // What each replica was doing (why it sent what it sent).
    const diagnostics: string[] = [];
    for (const [i, r] of replicas.entries()) {
      const text = await metricsText(r.metricsUrl);
      const quoted = new Set(text.split("\n").filter((l) => l.startsWith("mm_live_quotes{") && Number(l.slice(l.lastIndexOf(" ") + 1)) > 0).map((l) => /market="([^"]+)"/.exec(l)?.[1] ?? ""));
      const byBucket = new Map<string, number>();
      for (const l of text.split("\n")) {
        const m = /^mm_rate_gate_admitted_total\{[^}]*bucket="([^"]+)"[^}]*\} (\S+)$/.exec(l);
        if (m !== null) byBucket.set(m[1]!, (byBucket.get(m[1]!) ?? 0) + Number(m[2]));
      }
      const cycles = metricSum(text, "mm_quote_cycle_duration_seconds_count");
      const lagP99 = metricSum(text, "mm_event_loop_lag_p99_seconds");
      diagnostics.push(`# two-ips: shard ${i}: ${quoted.size} of ${MARKETS} markets quoted at the end; ${cycles} quote cycles; event-loop lag p99 ${fmt(lagP99 * 1000)} ms; requests admitted since start by bucket: ${[...byBucket].map(([b, n]) => `${b} ${n}`).join(", ")}`);
    }
    const simCpu = (procStat(sim.pid!).cpuSec - simCpu0) / wallSec;
    const cpu = replicas.map((r) => (procStat(r.child.pid!).cpuSec - r.cpu0) / wallSec);
    const measureTo = Date.now();
    for (const r of replicas) await stop(r.child);

    // The simulator's record: every order of every wallet, read after the daemons stopped.
    const clock = new RealClock();
    const gate = new RateGate({ clock, ...platformGateOptions({ rateLimitPerMin: 600, rateSafetyMargin: 0.1 }) });
    const client = createClient({ transport: new FetchTransport({ baseUrl, clock }), apiKey: API_KEY, clock, gate });
    const placedAt: number[][] = [[], []];
    let withBoth = 0;
    let foreign = 0;
    try {
      for (const w of ws) {
        const seen = new Set<string>();
        for await (const page of client.forWallet(w.address).orders.historyPages({ limit: 200 })) {
          for (const o of page.data.orders) {
            const inst = /^(tip-s\d+)-/.exec(o.clientOrderId ?? "")?.[1] ?? "other";
            seen.add(inst);
            const idx = inst === "tip-s0" ? 0 : inst === "tip-s1" ? 1 : -1;
            if (idx !== w.shard) foreign += 1;
            const t = Date.parse(String(o.createdAt));
            if (idx >= 0 && t >= measureFrom && t <= measureTo) placedAt[idx]!.push(t);
          }
        }
        if (seen.size > 1) withBoth += 1;
      }
    } finally {
      gate.close();
    }
    for (const list of placedAt) list.sort((a, b) => a - b);
    const all = [...placedAt[0]!, ...placedAt[1]!].sort((a, b) => a - b);

    const together: [number, number][] = replicas[0]!.posts.map(([t, v], i) => [t, v + (replicas[1]!.posts[i]?.[1] ?? 0)]);
    console.log(`# two-ips: ${ws.length} wallets (${PER_REPLICA} per replica) x ${MARKETS} markets, ladder levels ${LEVELS}, warm-up ${WARMUP_MS / 1000} s (daemons up ${((measureFrom - started) / 1000).toFixed(0)} s), measured ${wallSec.toFixed(0)} s; 1-min load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);
    for (const [i, addr] of ADDRESSES.entries()) console.log(`BENCH two_ips_posts_per_60s_${addr.replaceAll(".", "_")} ${maxOverWindow(replicas[i]!.posts, WINDOW_MS)} requests`);
    const postsTogether = maxOverWindow(together, WINDOW_MS);
    console.log(`BENCH two_ips_posts_per_60s_together ${postsTogether} requests ratio=${fmt(postsTogether / IP_LIMIT)}`);
    for (const [i, addr] of ADDRESSES.entries()) console.log(`BENCH two_ips_places_per_60s_${addr.replaceAll(".", "_")} ${maxEventsInWindow(placedAt[i]!, WINDOW_MS)} orders`);
    const placesTogether = maxEventsInWindow(all, WINDOW_MS);
    console.log(`BENCH two_ips_places_per_60s_together ${placesTogether} orders ratio=${fmt(placesTogether / IP_LIMIT)}`);
    console.log(`BENCH two_ips_429 ${replicas.reduce((s, r) => s + r.tooMany, 0)} count`);
    console.log(`BENCH two_ips_wallets_with_both ${withBoth} count`);
    for (const d of diagnostics) console.log(d);
    if (foreign > 0) console.log(`# two-ips: ${foreign} orders on a wallet of the other shard, or of no replica`);
    console.log(`BENCH two_ips_cpu_cores_sim ${fmt(simCpu)} cores`);
    for (const [i, c] of cpu.entries()) console.log(`BENCH two_ips_cpu_cores_daemon_s${i} ${fmt(c)} cores`);
  } finally {
    for (const c of children.reverse()) await stop(c);
    rmSync(dir, { recursive: true, force: true });
  }
}
