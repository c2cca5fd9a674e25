/**
 * What one daemon process takes from its machine, measured from outside as Kubernetes sees it:
 * `mm sim` and `mm run` in two processes over loopback HTTP and WebSocket (the daemon as deployed,
 * a live config pointing at the simulator), the daemon's CPU time and resident memory read from
 * /proc/<pid> over a window after a warm-up. The figures behind deploy/k8s's resource requests.
 *
 *   BENCH daemon_process_<W>x<M>_cpu_cores       daemon CPU seconds (user + system) per wall second
 *   BENCH daemon_process_<W>x<M>_rss_mib_max     the daemon's largest resident set in the window
 *   BENCH daemon_process_<W>x<M>_rss_mib_end     its resident set at the end of the window
 *   BENCH daemon_process_<W>x<M>_heap_mib_end    V8 heap in use at the end (from /metrics:
 *                                                nodejs_heap_size_used_bytes)
 *   BENCH daemon_process_<W>x<M>_quoted_markets  markets holding a live order of ours at the end
 *                                                (mm_live_quotes > 0), a check that the daemon
 *                                                really quoted what it was given
 *
 * Both processes run the compiled build (`dist/`, as the image does; `npm run build` first) unless
 * BENCH_PROCESS_TSX=1 runs the sources through tsx (which adds the transpiler's own memory).
 * The simulator is a process of its own, so none of its CPU or memory is counted. CPU time is what
 * the daemon used whatever its neighbours did; on a busy machine it may fall behind and do less
 * work in the window, so compare cpu_cores with quoted_markets. Resident memory does not depend on
 * the neighbours.
 *
 * BENCH_PROCESS_SIZES (default "20x50,50x100"), BENCH_PROCESS_WARMUP_SEC (default 20) and
 * BENCH_PROCESS_SEC (default 40) change the run. Linux only (/proc). Not run in CI.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simulatorWalletKey } from "../src/config/index.js";
import { benchDaemonConfig, benchScenario, parseSize, type ScenarioSpec } from "./fixtures.js";
import { fmt, metricsText, metricValue, mm as mmProcess, procStat, ROOT, sleep, stop, waitFor } from "./mm-process.js";

const API_KEY = "pmk_sim_5e1d0000000000cc_DaemonProcessBenchSecret000000001";
const SIZES = (process.env["BENCH_PROCESS_SIZES"] ?? "20x50,50x100").split(",");
const WARMUP_MS = Number(process.env["BENCH_PROCESS_WARMUP_SEC"] ?? 20) * 1000;
const MEASURE_MS = Number(process.env["BENCH_PROCESS_SEC"] ?? 40) * 1000;
const TSX = process.env["BENCH_PROCESS_TSX"] === "1";

const key = (i: number): string => simulatorWalletKey(4, `proc-${i}`).reveal();
const symbol = (j: number): string => `PRC${String(j).padStart(4, "0")}`;

const SCENARIO: ScenarioSpec = { seed: 6, apiKey: API_KEY, title: "Process bench", eventSlug: "proc-event", key, symbol, jumps: false };
const scenario = (wallets: number, markets: number): string => benchScenario(SCENARIO, wallets, markets);

function liveConfig(baseUrl: string, wallets: number, markets: number): string {
  const head = `mode: live\nplatform: { baseUrl: "${baseUrl}", apiKey: "\${BENCH_API_KEY}" }\ninstance: { id: proc }`;
  return benchDaemonConfig({ head, keyVar: (i) => `BENCH_W${i}`, symbol, metrics: "{ host: 127.0.0.1, port: 0 }", log: "{ level: warn }" }, wallets, markets);
}

/** `mm <args>`: the compiled build, or the sources through tsx (BENCH_PROCESS_TSX=1). */
function mm(args: string[], env: Record<string, string> = {}): ChildProcess {
  return mmProcess(args, env, TSX);
}

async function measure(size: { wallets: number; markets: number }): Promise<void> {
  const name = `daemon_process_${size.wallets}x${size.markets}`;
  const dir = mkdtempSync(join(tmpdir(), "mm-proc-bench-"));
  const children: ChildProcess[] = [];
  try {
    writeFileSync(join(dir, "scenario.yaml"), scenario(size.wallets, size.markets));
    const sim = mm(["sim", "--scenario", join(dir, "scenario.yaml"), "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"]);
    children.push(sim);
    const baseUrl = (await waitFor(sim, /listening on (http:\/\/[0-9.:]+)/, "mm sim"))[1]!;
    writeFileSync(join(dir, "live.yaml"), liveConfig(baseUrl, size.wallets, size.markets));
    const env: Record<string, string> = { BENCH_API_KEY: API_KEY };
    for (let i = 0; i < size.wallets; i++) env[`BENCH_W${i}`] = key(i);
    const daemon = mm(["run", "--config", join(dir, "live.yaml"), "--log-level", "info"], env);
    children.push(daemon);
    const port = (await waitFor(daemon, /"port":(\d+)[^\n]*serving \/metrics/, "mm run's metrics server"))[1]!;
    const metricsUrl = `http://127.0.0.1:${port}`;
    await sleep(WARMUP_MS);
    const pid = daemon.pid!;
    const t0 = performance.now();
    const s0 = procStat(pid);
    let rssMax = s0.rssMib;
    while (performance.now() - t0 < MEASURE_MS) {
      await sleep(500);
      rssMax = Math.max(rssMax, procStat(pid).rssMib);
    }
    const s1 = procStat(pid);
    const wallSec = (performance.now() - t0) / 1000;
    const text = await metricsText(metricsUrl);
    const quoted = new Set(
      text
        .split("\n")
        .filter((l) => l.startsWith("mm_live_quotes{") && Number(l.slice(l.lastIndexOf(" ") + 1)) > 0)
        .map((l) => /market="([^"]+)"/.exec(l)?.[1] ?? ""),
    );
    console.log(`BENCH ${name}_cpu_cores ${fmt((s1.cpuSec - s0.cpuSec) / wallSec)} cores`);
    console.log(`BENCH ${name}_rss_mib_max ${fmt(Math.max(rssMax, s1.rssMib))} MiB`);
    console.log(`BENCH ${name}_rss_mib_end ${fmt(s1.rssMib)} MiB`);
    console.log(`BENCH ${name}_heap_mib_end ${fmt(metricValue(text, "nodejs_heap_size_used_bytes") / 1024 / 1024)} MiB`);
    console.log(`BENCH ${name}_quoted_markets ${quoted.size} count`);
  } finally {
    for (const c of children.reverse()) await stop(c);
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  if (!existsSync("/proc/self/stat")) {
    console.log("# daemon-process: skipped (needs Linux /proc)");
    return;
  }
  if (!TSX && !existsSync(join(ROOT, "dist/src/cli/main.js"))) {
    console.log("# daemon-process: skipped (no compiled build: run `npm run build`, or BENCH_PROCESS_TSX=1)");
    return;
  }
  for (const s of SIZES) await measure(parseSize(s, "BENCH_PROCESS_SIZES", 1_000));
}
