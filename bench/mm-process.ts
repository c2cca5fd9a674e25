/**
 * What the process benches share (bench/daemon-process.bench.ts, bench/two-ips.bench.ts): `mm`
 * as a child process (the compiled build, or the sources through tsx), waiting for a line of its
 * output, its CPU time and resident set from /proc, a metrics scrape, and a clean stop.
 * Not a bench itself (bench/run.ts runs only *.bench.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root: the nearest directory up with a package.json (bench/ under tsx, dist-bench/bench/ under bench:dist). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("bench/mm-process: no package.json above this file");
    dir = up;
  }
  return dir;
}

export const ROOT = projectRoot();
const CLK_TCK = 100;
const PAGE = 4096;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
export const fmt = (v: number): string => (Number.isInteger(v) ? String(v) : v.toPrecision(3));

/** `mm <args>` as a child process: the compiled build, or the sources through tsx. */
export function mm(args: string[], env: Record<string, string> = {}, tsx = false): ChildProcess {
  const entry = tsx ? ["bin/mm.js"] : ["--input-type=module", "-e", `const { main } = await import(${JSON.stringify(join(ROOT, "dist/src/cli/main.js"))}); process.exitCode = await main(process.argv.slice(1));`];
  return spawn(process.execPath, [...entry, ...args], { cwd: ROOT, env: { ...process.env, ...env, MM_LOG_FORMAT: "json" }, stdio: ["ignore", "pipe", "pipe"] });
}

/** Resolves with the first match of `re` in the child's stdout or stderr. */
export function waitFor(child: ChildProcess, re: RegExp, what: string, ms = 120_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`${what}: not seen within ${ms} ms; output:\n${seen.slice(-2000)}`)), ms);
    const look = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = re.exec(seen);
      if (m !== null) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    child.once("exit", (code) => reject(new Error(`${what}: process exited (${code}) first; output:\n${seen.slice(-2000)}`)));
  });
}

/** utime + stime (clock ticks) and resident pages of a process, from /proc. */
export function procStat(pid: number): { cpuSec: number; rssMib: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After "pid (comm) ": state is field 3 (index 0); utime 14, stime 15, rss 24 (1-based in proc(5)).
  const utime = Number(fields[14 - 3]);
  const stime = Number(fields[15 - 3]);
  const rssPages = Number(fields[24 - 3]);
  return { cpuSec: (utime + stime) / CLK_TCK, rssMib: (rssPages * PAGE) / 1024 / 1024 };
}

export async function metricsText(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`);
  return res.text();
}

/** The first sample of a metric (NaN when absent). */
export function metricValue(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(" ") + 1));
}

/** The sum of a metric's samples whose labels contain every `label="value"` given (0 when none). */
export function metricSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const l of text.split("\n")) {
    if (!(l.startsWith(`${name} `) || l.startsWith(`${name}{`))) continue;
    if (!Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`))) continue;
    sum += Number(l.slice(l.lastIndexOf(" ") + 1));
  }
  return sum;
}

/** SIGTERM, then SIGKILL after 45 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 45_000);
  await exited;
  clearTimeout(timer);
}
