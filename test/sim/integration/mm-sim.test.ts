import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../../src/cli/main.js";
import { parseSimArgs, simCommand, type SimCliIo } from "../../../src/cli/sim.js";
import { createLogger } from "../../../src/log/index.js";

function io(extra: Partial<SimCliIo> = {}) {
  const out = { stdout: "", stderr: "" };
  const value: SimCliIo = {
    stdout: (t) => (out.stdout += t),
    stderr: (t) => (out.stderr += t),
    logger: createLogger({ level: "silent" }),
    ...extra,
  };
  return { out, io: value };
}

describe("mm sim flags", () => {
  it("parses the defaults and every flag, in both --flag value and --flag=value forms", () => {
    expect(parseSimArgs([])).toEqual({ scenario: undefined, host: "127.0.0.1", port: 8080, seed: undefined, clock: "realtime", logLevel: "info" });
    expect(parseSimArgs(["--port=0", "--seed", "9", "--clock", "virtual", "--host", "::1", "--scenario", "x.yaml", "--log-level=warn"])).toEqual({
      scenario: "x.yaml",
      host: "::1",
      port: 0,
      seed: 9,
      clock: "virtual",
      logLevel: "warn",
    });
  });

  it("refuses bad flags with exit 2 and a clear message", async () => {
    const cases: [string[], RegExp][] = [
      [["--port", "http"], /--port must be an integer in 0\.\.65535/],
      [["--port", "70000"], /--port must be an integer/],
      [["--seed", "-1"], /--seed must be an integer/],
      [["--clock", "fast"], /--clock must be realtime or virtual/],
      [["--bogus"], /unknown option --bogus/],
      [["--port"], /--port needs a value/],
      [["--port", "1", "--port", "2"], /given twice/],
      [["extra"], /unexpected argument/],
      [["--log-level", "loud"], /--log-level must be one of/],
    ];
    for (const [argv, re] of cases) {
      const { out, io: cli } = io();
      expect(await simCommand(argv, cli), argv.join(" ")).toBe(2);
      expect(out.stderr).toMatch(re);
      expect(out.stderr).toContain("Usage: mm sim");
    }
  });

  it("exits 2 naming the problem when the scenario is invalid", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-sim-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "seed: -5\nnope: 1\n");
    const { out, io: cli } = io();
    expect(await simCommand(["--scenario", file, "--port", "0"], cli)).toBe(2);
    expect(out.stderr).toMatch(/seed/);
    expect(out.stderr).toMatch(/nope: unknown key/);
    const missing = io();
    expect(await simCommand(["--scenario", join(dir, "none.yaml")], missing.io)).toBe(2);
  });

  it("prints its usage for --help, and `mm sim` is wired in the command table", async () => {
    const { out, io: cli } = io();
    expect(await simCommand(["--help"], cli)).toBe(0);
    expect(out.stdout).toContain("--clock MODE");
    // Through the command table: the usage error goes to the process's stderr, captured here.
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await main(["sim", "--port", "nope"])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toContain("mm sim: --port must be an integer");
    } finally {
      stderr.mockRestore();
    }
  });
});

/** Run `mm sim` in-process until `stop()`; resolves once it listens. */
async function startCli(argv: string[]) {
  const ctrl = new AbortController();
  let url = "";
  let ready: () => void = () => undefined;
  const listening = new Promise<void>((r) => (ready = r));
  const { io: cli, out } = io({
    signal: ctrl.signal,
    onListening: (u) => {
      url = u;
      ready();
    },
  });
  const running = simCommand(argv, cli);
  await Promise.race([listening, running.then((code) => Promise.reject(new Error(`mm sim exited ${code}: ${out.stderr}`)))]);
  return { url, out, running, stop: () => ctrl.abort() };
}

describe("mm sim serving", () => {
  it("starts on port 0, answers /health and the scenario's key, then stops on abort", async () => {
    const { url, out, running, stop } = await startCli(["--port", "0", "--clock", "virtual", "--seed", "5"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });

    // the banner carries the test key and a curl line that works as written
    expect(out.stderr).toContain("SIMULATOR TEST CREDENTIALS");
    const key = /key: (\S+)/.exec(out.stderr)![1]!;
    const wallet = /wallet mm-1: (\S+)/.exec(out.stderr)![1]!;
    const bal = await fetch(`${url}/api/me/balances`, { headers: { "X-Api-Key": key, "X-User-Wallet": wallet } });
    expect(bal.status).toBe(200);
    expect(await bal.json()).toMatchObject({ walletAddress: wallet, collateral: { total: "10000" } });

    const clock0 = (await (await fetch(`${url}/sim/clock`)).json()) as { nowMs: number; mode: string };
    expect(clock0.mode).toBe("virtual");
    const adv = await fetch(`${url}/sim/clock/advance`, { method: "POST", body: '{"ms":1000}' });
    expect(((await adv.json()) as { nowMs: number }).nowMs).toBe(clock0.nowMs + 1000);

    stop();
    expect(await running).toBe(0);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it("refuses /sim/clock/advance on the real clock, and exits 1 when the port is taken", async () => {
    const first = await startCli(["--port", "0"]);
    const adv = await fetch(`${first.url}/sim/clock/advance`, { method: "POST", body: '{"ms":1}' });
    expect(adv.status).toBe(409);
    const second = io();
    expect(await simCommand(["--port", new URL(first.url).port], second.io)).toBe(1);
    expect(second.out.stderr).toMatch(/cannot listen/);
    first.stop();
    expect(await first.running).toBe(0);
  });
});
