/**
 * `mm run` as an operator meets it, in a real child process on the real clock: the demo setup
 * (embedded simulator, default scenario, three wallets) quotes and fills, the fills show on
 * /metrics, the status line reports them; SIGUSR2 (the kill switch) pulls every quote and turns
 * /ready to 503 while the process stays up; SIGTERM then cancels everything and exits 0.
 * Only the metrics port differs from configs/demo.yaml (0: any free port, printed at start).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { total } from "./harness.js";

let child: ChildProcess | undefined;
afterEach(() => {
  if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
});

async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("mm run (child process)", () => {
  it("demo quotes and fills, fills on /metrics; SIGUSR2 kills quoting but not the process; SIGTERM exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-ops-"));
    const file = join(dir, "demo.yaml");
    const demo = readFileSync("configs/demo.yaml", "utf8");
    expect(demo).toMatch(/^ {2}port: 9464$/m);
    writeFileSync(file, demo.replace(/^ {2}port: 9464$/m, "  port: 0").replace(/^ {2}level: info$/m, "  level: warn"));

    const out: string[] = [];
    const err: string[] = [];
    const proc = (child = spawn(process.execPath, ["bin/mm.js", "run", "--config", file, "--status-every", "1"], { stdio: ["ignore", "pipe", "pipe"] }));
    proc.stdout.on("data", (b: Buffer) => out.push(b.toString("utf8")));
    proc.stderr.on("data", (b: Buffer) => err.push(b.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));

    const url = await waitFor("metrics address", () => /metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(out.join(""))?.[1], 20_000);
    const scrape = async (): Promise<string> => (await fetch(`${url}/metrics`)).text();
    const fills = await waitFor("fills on /metrics", async () => {
      const n = total(await scrape(), "mm_fills_total");
      return n > 0 ? n : undefined;
    }, 30_000);
    expect(fills).toBeGreaterThan(0);
    await waitFor("a status line with fills", () => (/\| fills [1-9]\d* \|/.test(out.join("")) ? true : undefined), 5_000);
    expect(out.join("")).toMatch(/\d\d:\d\d:\d\d \| wallets 3\/3 ready \| markets \d+\/\d+ quoted \| orders \d+ \| fills \d+ \| positions \d+ \(\d+ sh\) \| pnl [+-]\d+\.\d\d \(fees \d+\.\d\d\) \| halts none/);
    expect((await fetch(`${url}/ready`)).status).toBe(200);

    proc.kill("SIGUSR2");
    const ready = await waitFor("/ready 503 after SIGUSR2", async () => {
      const r = await fetch(`${url}/ready`);
      return r.status === 503 ? ((await r.json()) as { reason: string; halts: { reason: string }[] }) : undefined;
    }, 10_000);
    expect(ready).toMatchObject({ reason: "halted", halts: [{ reason: "kill_switch" }] });
    await waitFor("quotes pulled", async () => (total(await scrape(), "mm_live_quotes") === 0 ? true : undefined), 10_000);
    expect(err.join("")).toContain("SIGUSR2: kill switch");
    await waitFor("halt on the status line", () => (/halts all kill_switch/.test(out.join("")) ? true : undefined), 5_000);
    expect(proc.exitCode).toBeNull();

    proc.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(out.join("")).toContain("shutdown (SIGTERM): clean");
  }, 90_000);
});
