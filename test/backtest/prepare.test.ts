/**
 * A backtest's inputs resolved before any virtual time passes (prepare.ts): the config (a file,
 * the demo by default, or an object), the scenario (override, the config's, or the default) and
 * where it came from, the seed and its source, the virtual start (the scenario's absolute start,
 * else the fixed default), the step and signature mode; every bad input refused as a
 * BacktestSetupError naming it, before anything runs.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { defaultDemoConfigPath } from "../../src/bot/engine/demo.js";
import { defaultScenarioPath } from "../../src/sim/platform/scenario.js";
import { BacktestSetupError, DEFAULT_STEP_MS, DEFAULT_VIRTUAL_START_MS, IN_MEMORY_CONFIG, prepareBacktest, type BacktestInputs } from "../../src/backtest/prepare.js";
import { LIVE_MIN_ENV, liveYaml } from "../config/fixtures.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(HERE, "fixtures", "config.yaml");
const SCENARIO = join(HERE, "fixtures", "scenario.yaml");
const OTHER_SCENARIO = join(HERE, "fixtures", "settle-scenario.yaml");
/** scenario.yaml's `start`. */
const FIXTURE_START = Date.UTC(2026, 2, 2, 9, 0, 0);

/** Temporary directories made by a test, removed after it. */
const tempDirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "mm-prepare-"));
  tempDirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of tempDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const refused = (o: BacktestInputs, message: string | RegExp): void => {
  expect(() => prepareBacktest(o)).toThrow(BacktestSetupError);
  expect(() => prepareBacktest(o)).toThrow(message);
};

describe("a prepared backtest", () => {
  it("takes the scenario and seed from the config file, and the scenario's start", () => {
    const p = prepareBacktest({ configPath: CONFIG, durationMs: 180_000 });
    expect(p).toMatchObject({
      configPath: CONFIG,
      scenarioPath: SCENARIO,
      scenarioSource: "config",
      seed: 3,
      seedSource: "config",
      startMs: FIXTURE_START,
      durationMs: 180_000,
      stepMs: DEFAULT_STEP_MS,
      signatures: "on",
    });
    expect(DEFAULT_STEP_MS).toBe(1_000);
    expect(p.config.mode).toBe("simulator");
    expect(p.scenario.seed).toBe(7);
    expect(p.data).toBeUndefined();
  });

  it("lets the scenario, seed, start, step and signature mode be overridden", () => {
    const p = prepareBacktest({ configPath: CONFIG, durationMs: 1, scenarioPath: OTHER_SCENARIO, seed: 0, startMs: 5_000, stepMs: 250, signatures: "off" });
    expect(p).toMatchObject({ scenarioPath: OTHER_SCENARIO, scenarioSource: "override", seed: 0, seedSource: "override", startMs: 5_000, stepMs: 250, signatures: "off" });
  });

  it("runs the demo config on the default scenario by default, from the fixed virtual start", () => {
    const p = prepareBacktest({ durationMs: 60_000 });
    expect(p).toMatchObject({ configPath: defaultDemoConfigPath(), scenarioPath: defaultScenarioPath(), scenarioSource: "default", seed: 42, seedSource: "config" });
    // The default scenario starts "now": a fixed instant, so runs repeat.
    expect(p.startMs).toBe(DEFAULT_VIRTUAL_START_MS);
    expect(DEFAULT_VIRTUAL_START_MS).toBe(Date.parse("2026-01-01T12:00:00Z"));
  });

  it("names a config passed as an object, in memory unless a path is given", () => {
    const config = parseConfig(readFileSync(CONFIG, "utf8"), CONFIG, {});
    expect(prepareBacktest({ config, durationMs: 1 }).configPath).toBe(IN_MEMORY_CONFIG);
    expect(IN_MEMORY_CONFIG).toBe("(in-memory config)");
    expect(prepareBacktest({ config, configPath: "named.yaml", durationMs: 1 }).configPath).toBe("named.yaml");
  });

  it("replaying a recording needs no duration (the recording's span) but an existing directory", () => {
    const dir = tempDir();
    expect(prepareBacktest({ configPath: CONFIG, data: dir })).toMatchObject({ durationMs: 0, data: { dir, durationGiven: false } });
    expect(prepareBacktest({ configPath: CONFIG, data: dir, durationMs: 10 })).toMatchObject({ durationMs: 10, data: { dir, durationGiven: true } });
    refused({ configPath: CONFIG, data: join(dir, "nope") }, `data: no such directory: ${join(dir, "nope")}`);
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    refused({ configPath: CONFIG, data: file }, `data: no such directory: ${file}`);
  });
});

describe("bad inputs", () => {
  it("a missing or bad duration", () => {
    refused({ configPath: CONFIG }, "durationMs is required (only a replay of a recording defaults to its span)");
    for (const d of [0, -5, 1.5, Number.NaN]) refused({ configPath: CONFIG, durationMs: d }, `durationMs must be a whole number of ms in 1..${Number.MAX_SAFE_INTEGER} (got ${d})`);
  });

  it("a bad step", () => {
    refused({ configPath: CONFIG, durationMs: 1, stepMs: 0 }, "stepMs must be a whole number of ms in 1..3600000 (got 0)");
    refused({ configPath: CONFIG, durationMs: 1, stepMs: 3_600_001 }, "stepMs must be a whole number of ms in 1..3600000 (got 3600001)");
    expect(prepareBacktest({ configPath: CONFIG, durationMs: 1, stepMs: 3_600_000 }).stepMs).toBe(3_600_000);
  });

  it("a seed outside 0..2^32 - 1", () => {
    for (const s of [-1, 2 ** 32, 0.5]) refused({ configPath: CONFIG, durationMs: 1, seed: s }, `seed must be a whole number in 0..4294967295 (got ${s})`);
    expect(prepareBacktest({ configPath: CONFIG, durationMs: 1, seed: 2 ** 32 - 1 }).seed).toBe(2 ** 32 - 1);
  });

  it("a signature mode other than on or off", () => {
    refused({ configPath: CONFIG, durationMs: 1, signatures: "maybe" as "on" }, 'signatures must be "on" or "off" (got "maybe")');
  });

  it("a scenario that is not a file", () => {
    const missing = join(HERE, "fixtures", "no-such-scenario.yaml");
    refused({ configPath: CONFIG, durationMs: 1, scenarioPath: missing }, `scenario ${missing}: no such file`);
    refused({ configPath: CONFIG, durationMs: 1, scenarioPath: HERE }, `scenario ${HERE}: no such file`);
  });

  it("a scenario the daemon cannot trade on", () => {
    const dir = tempDir();
    const readOnly = join(dir, "read-only.yaml");
    writeFileSync(readOnly, readFileSync(SCENARIO, "utf8").replace("scopes: [orders:read, orders:write, portfolio:read]", "scopes: [orders:read, portfolio:read]"));
    refused({ configPath: CONFIG, durationMs: 1, scenarioPath: readOnly }, `scenario ${readOnly}: the scenario has no multi_wallet partner with an orders:write key: the daemon cannot trade`);
  });

  it("a config that is not simulator mode", () => {
    const config = parseConfig(liveYaml(), "live.yaml", LIVE_MIN_ENV);
    refused({ config, configPath: "live.yaml", durationMs: 1 }, "live.yaml: mode live: a backtest runs a simulator-mode config (mode: simulator) against the simulator");
  });
});
