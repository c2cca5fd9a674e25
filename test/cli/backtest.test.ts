/**
 * `mm backtest` flag validation: every bad value exits 2 before anything runs, with a message
 * naming the flag and what is wrong; bad configs are reported as `mm check-config` reports them.
 * A report with problems (a failed consistency check) or a run that throws exits 1. (The
 * successful run with --out is in backtest.test.ts, next to the API run it must equal.)
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { backtestCommand, parseBacktestArgs, type BacktestIo } from "../../src/cli/backtest.js";
import { checkConfig } from "../../src/cli/check-config.js";
import { loadConfig } from "../../src/config/index.js";
import { IN_MEMORY_CONFIG, prepareBacktest, runPrepared, type BacktestReport } from "../../src/backtest/index.js";

// The backtest's fixtures stay with the backtest tests.
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "backtest", "fixtures");
const CONFIG = join(FIXTURES, "config.yaml");

function io(): { io: BacktestIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, progress: false }, out, err };
}

async function refused(argv: string[]): Promise<string> {
  const h = io();
  const code = await backtestCommand(argv, h.io);
  expect(code, argv.join(" ")).toBe(2);
  expect(h.out.join("")).toBe("");
  return h.err.join("");
}

describe("mm backtest flags", () => {
  it("prints usage with --help", async () => {
    const h = io();
    expect(await backtestCommand(["--help"], h.io)).toBe(0);
    expect(h.out.join("")).toContain("Usage: mm backtest [--config FILE] [--scenario FILE] [--duration D] [--seed N] [--out FILE]");
  });

  it("refuses bad values, naming the flag and the problem", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-cli-"));
    const cases: [string[], RegExp][] = [
      [["--duration", "0m"], /--duration: must be longer than zero/],
      [["--duration", "6 hours"], /--duration: expected a duration such as 90m, 6h/],
      [["--duration", "400d"], /--duration: at most 366d/],
      [["--duration", "5m5m"], /--duration: unit m given twice/],
      [["--seed", "-1"], /--seed: expected a whole number in 0\.\.4294967295 \(got "-1"\)/],
      [["--seed", "abc"], /--seed: expected a whole number/],
      [["--seed", "4294967296"], /--seed: expected a whole number/],
      [["--seed", "1.5"], /--seed: expected a whole number/],
      [["--config", join(dir, "nope.yaml")], /--config: no such file: .*nope\.yaml/],
      [["--config", dir], /--config: not a file/],
      [["--scenario", join(dir, "nope.yaml")], /--scenario: no such file/],
      [["--out", join(dir, "missing", "r.json")], /--out: directory .*missing does not exist/],
      [["--out", dir], /--out: .* is a directory/],
      [["--seed"], /--seed needs a value/],
      [["--seed", "--duration", "1h"], /--seed needs a value/],
      [["--seed="], /--seed needs a value/],
      [["--seed", "1", "--seed", "2"], /--seed given twice/],
      [["--nope"], /unknown option --nope/],
      [["configs/demo.yaml"], /unexpected argument "configs\/demo\.yaml"/],
      [["--signatures", "no"], /--signatures: expected on or off \(got "no"\)/],
      [["--signatures", ""], /--signatures needs a value/],
      [["--signatures"], /--signatures needs a value/],
      [["--signatures", "off", "--signatures", "on"], /--signatures given twice/],
    ];
    for (const [argv, message] of cases) {
      const err = await refused(argv);
      expect(err, argv.join(" ")).toMatch(message);
      expect(err).toMatch(/^mm backtest: /);
    }
  });

  it("accepts --flag=value and fills in the defaults", () => {
    expect(parseBacktestArgs(["--seed=7", "--duration=90m", `--config=${CONFIG}`])).toEqual({ seed: 7, durationMs: 90 * 60_000, config: CONFIG });
    expect(parseBacktestArgs([])).toEqual({ durationMs: 6 * 3_600_000 });
    expect(parseBacktestArgs(["--signatures=off"])).toEqual({ durationMs: 6 * 3_600_000, signatures: "off" });
    expect(parseBacktestArgs(["--signatures", "on"])).toEqual({ durationMs: 6 * 3_600_000, signatures: "on" });
  });

  it("documents --signatures in the usage, as a backtest-only mode", async () => {
    const h = io();
    expect(await backtestCommand(["--help"], h.io)).toBe(0);
    expect(h.out.join("")).toMatch(/\[--signatures on\|off\]/);
    expect(h.out.join("")).toMatch(/--signatures M {4}on \(default\)/);
    expect(h.out.join("")).toMatch(/Backtests only: `mm run`\s+always signs/);
  });

  it("reports a bad config exactly as mm check-config does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-cli-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "mode: simulator\nstrategy: { name: nosuch }\n");
    const err = await refused(["--config", file]);
    expect(err).toContain("strategy.name");
    const c = io();
    expect(await checkConfig([file], { stdout: c.io.stdout, stderr: c.io.stderr, env: {} })).toBe(2);
    expect(err).toBe(c.err.join(""));
  });

  it("refuses a live config and an invalid scenario with exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-cli-"));
    const live = join(dir, "live.yaml");
    writeFileSync(
      live,
      `mode: live
platform: { baseUrl: "https://example.invalid", apiKey: "\${K}" }
wallets: [{ name: a, privateKey: "\${P}" }]
strategy: { name: ladder }
`,
    );
    const env = { K: "pmk_live_0123456789abcdef_Secret0000000000000000000001", P: `0x${"11".repeat(32)}` };
    const valid = io();
    expect(await checkConfig([live], { stdout: valid.io.stdout, stderr: valid.io.stderr, env }), valid.err.join("")).toBe(0);
    const h = io();
    h.io.env = env;
    expect(await backtestCommand(["--config", live], h.io)).toBe(2);
    expect(h.err.join("")).toContain("mode live: a backtest runs a simulator-mode config");
    const scenario = join(dir, "scenario.yaml");
    writeFileSync(scenario, "seed: 1\nstart: now\npartners: 5\n");
    const bad = await refused(["--config", CONFIG, "--scenario", scenario]);
    expect(bad).toMatch(/--scenario: invalid scenario\n {2}.*scenario\.yaml: partners/);
  });
});

describe("mm backtest setup checks", () => {
  it("refuses, with exit 2 and nothing run, a scenario the daemon cannot trade on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-cli-"));
    const scenario = join(dir, "readonly.yaml");
    const fixture = readFileSync(join(FIXTURES, "scenario.yaml"), "utf8");
    // The only partner's key cannot write orders.
    writeFileSync(scenario, fixture.replace("scopes: [orders:read, orders:write, portfolio:read]", "scopes: [orders:read, portfolio:read]"));
    const h = io();
    let ran = false;
    h.io.run = () => {
      ran = true;
      return Promise.reject(new Error("must not run"));
    };
    expect(await backtestCommand(["--config", CONFIG, "--scenario", scenario, "--duration", "1m"], h.io)).toBe(2);
    expect(ran).toBe(false);
    expect(h.out.join("")).toBe("");
    expect(h.err.join("")).toMatch(/^mm backtest: scenario .*readonly\.yaml: the scenario has no multi_wallet partner with an orders:write key/);
  });

  it("names an in-memory config as such", () => {
    const config = loadConfig(CONFIG, {});
    expect(prepareBacktest({ config, durationMs: 60_000 }).configPath).toBe(IN_MEMORY_CONFIG);
    expect(prepareBacktest({ config, configPath: CONFIG, durationMs: 60_000 }).configPath).toBe(CONFIG);
  });

  it("--out - writes the JSON report alone on stdout and the summary on stderr", async () => {
    const h = io();
    expect(await backtestCommand(["--config", CONFIG, "--duration", "1m", "--out", "-"], h.io)).toBe(0);
    const report = JSON.parse(h.out.join("")) as BacktestReport;
    expect(report.ok).toBe(true);
    expect(report.run.duration).toBe("1m");
    expect(h.err.join("")).toMatch(/^TOTAL\s+\d+/m);
    expect(h.err.join("")).toContain("report: written to stdout");
    expect(existsSync("-")).toBe(false);
  }, 20_000);
});

describe("mm backtest exit status", () => {
  it("exits 1 and says so loudly when the report's consistency check failed", async () => {
    const h = io();
    h.io.run = async (prepared, opts) => {
      const real = await runPrepared(prepared, opts);
      // A ledger that lost one fill: what the comparison would report.
      const consistency = { ...real.consistency, ok: false, ledgerFills: real.consistency.ledgerFills - 1, missingCount: 1, missing: [{ wallet: "0xabc", tradeId: "t9", orderId: "o9", marketId: "BT-A" }] };
      return { ...real, ok: false, problems: ["consistency check failed: test"], consistency };
    };
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-cli-"));
    const out = join(dir, "r.json");
    expect(await backtestCommand(["--config", CONFIG, "--duration", "1m", "--out", out], h.io)).toBe(1);
    expect(h.out.join("")).toContain("CONSISTENCY FAILED");
    expect(h.out.join("")).toContain("1 platform fill(s) missing from the ledger, e.g. 0xabc trade t9 order o9 (BT-A)");
    expect(h.err.join("")).toContain("mm backtest: FAILED: consistency check failed");
    expect((JSON.parse(readFileSync(out, "utf8")) as { ok: boolean }).ok).toBe(false);
  }, 20_000);

  it("exits 1 when the run itself throws", async () => {
    const h = io();
    h.io.run = () => Promise.reject(new Error("boom"));
    expect(await backtestCommand(["--config", CONFIG, "--duration", "1m"], h.io)).toBe(1);
    expect(h.err.join("")).toContain("mm backtest: run failed: boom");
  });
});
