/**
 * Everything a backtest needs before any virtual time passes: the daemon config (the same file
 * `mm run` takes, simulator mode), the scenario (override, the config's simulator.scenario, or the
 * default), the seed and the virtual start. Setup problems throw here, before the run:
 * ConfigError (the config), ValidationError (the scenario), BacktestSetupError (the rest), so a
 * caller can tell a bad input from a failed run.
 */
import { existsSync, statSync } from "node:fs";
import { ConfigError, loadConfig, type Config, type Env, type SimulatorModeConfig } from "../config/index.js";
import { defaultDemoConfigPath, scenarioWithWallets } from "../bot/engine/demo.js";
import { defaultScenarioPath, loadScenario, type Scenario } from "../sim/platform/scenario.js";

export class BacktestSetupError extends Error {
  override readonly name = "BacktestSetupError";
}

/** Virtual start of a scenario with `start: now`: a fixed instant, so runs repeat exactly. */
export const DEFAULT_VIRTUAL_START_MS = Date.UTC(2026, 0, 1, 12, 0, 0);

/** Default virtual step of the clock driver (and quote-uptime sampling period). */
export const DEFAULT_STEP_MS = 1_000;

/** run.config of a backtest given a config object and no path. */
export const IN_MEMORY_CONFIG = "(in-memory config)";

export interface BacktestInputs {
  /** Daemon config file; default configs/demo.yaml. */
  configPath?: string;
  /** An already loaded config (then configPath only names it in the report; "(in-memory config)" without one). */
  config?: Config;
  /** Scenario file overriding the config's simulator.scenario. */
  scenarioPath?: string;
  /** Seed overriding the config's simulator.seed (the simulator's random flow, the daemon's Rng). */
  seed?: number;
  /** Virtual time to trade for, in ms (> 0); with `data` optional (default the recording's span). */
  durationMs?: number;
  /**
   * A data set directory (src/data, `mm record`) to replay with the full engine: the simulator's
   * markets are the recorded rows, its book follows the recorded books and the recorded trades are
   * sent as other participants' orders, the synthetic flow is off (src/sim/flow/replay.ts). The
   * run starts at the recording's first event. The scenario still gives the platform, partners and
   * wallets.
   */
  data?: string;
  /** Virtual step of the driver; default 1 s. */
  stepMs?: number;
  /** Virtual start; default the scenario's absolute start, else DEFAULT_VIRTUAL_START_MS. */
  startMs?: number;
  /** Environment for ${VAR} references in the config; default process.env. */
  env?: Env;
  /**
   * "off": the simulator skips signature verification and the daemon signs with a no-op signer,
   * pre-signing off (docs/backtest.md "Signatures off"). Default "on". Backtests only.
   */
  signatures?: SignatureMode;
}

/** Whether orders are signed and verified ("on", as live) or neither ("off", backtests only). */
export type SignatureMode = "on" | "off";
export const SIGNATURE_MODES: readonly SignatureMode[] = ["on", "off"];

export interface PreparedBacktest {
  configPath: string;
  config: SimulatorModeConfig;
  scenarioPath: string;
  scenarioSource: "override" | "config" | "default";
  scenario: Scenario;
  seed: number;
  seedSource: "override" | "config";
  startMs: number;
  durationMs: number;
  stepMs: number;
  signatures: SignatureMode;
  /**
   * Replaying a recording (`BacktestInputs.data`): `startMs`, `durationMs` (when not given) and the
   * scenario's markets are set from the recording when the run starts (runPrepared).
   */
  data?: { dir: string; durationGiven: boolean };
}

function checkPositiveInt(name: string, v: number, max: number): void {
  if (!Number.isSafeInteger(v) || v <= 0 || v > max) throw new BacktestSetupError(`${name} must be a whole number of ms in 1..${max} (got ${v})`);
}

export function prepareBacktest(opts: BacktestInputs): PreparedBacktest {
  const configPath = opts.configPath ?? (opts.config !== undefined ? IN_MEMORY_CONFIG : defaultDemoConfigPath());
  const config = opts.config ?? loadConfig(configPath, opts.env ?? process.env);
  if (config.mode !== "simulator") {
    throw new BacktestSetupError(`${configPath}: mode ${config.mode}: a backtest runs a simulator-mode config (mode: simulator) against the simulator`);
  }
  if (opts.data !== undefined) {
    if (typeof opts.data !== "string" || !existsSync(opts.data) || !statSync(opts.data).isDirectory()) {
      throw new BacktestSetupError(`data: no such directory: ${String(opts.data)}`);
    }
  } else if (opts.durationMs === undefined) throw new BacktestSetupError("durationMs is required (only a replay of a recording defaults to its span)");
  if (opts.durationMs !== undefined) checkPositiveInt("durationMs", opts.durationMs, Number.MAX_SAFE_INTEGER);
  const stepMs = opts.stepMs ?? DEFAULT_STEP_MS;
  checkPositiveInt("stepMs", stepMs, 3_600_000);
  if (opts.seed !== undefined && (!Number.isSafeInteger(opts.seed) || opts.seed < 0 || opts.seed > 0xffff_ffff)) {
    throw new BacktestSetupError(`seed must be a whole number in 0..4294967295 (got ${opts.seed})`);
  }
  const signatures = opts.signatures ?? "on";
  if (!(SIGNATURE_MODES as readonly unknown[]).includes(signatures)) {
    throw new BacktestSetupError(`signatures must be "on" or "off" (got ${JSON.stringify(signatures)})`);
  }
  const scenarioSource = opts.scenarioPath !== undefined ? "override" : config.simulator.scenario !== undefined ? "config" : "default";
  const scenarioPath = opts.scenarioPath ?? config.simulator.scenario ?? defaultScenarioPath();
  if (!existsSync(scenarioPath) || !statSync(scenarioPath).isFile()) {
    throw new BacktestSetupError(`scenario ${scenarioPath}: no such file`);
  }
  const scenario = loadScenario(scenarioPath);
  // What startEmbeddedSimulator does with it, checked here so a scenario the daemon cannot trade
  // on is a setup error (nothing run), not a failed run.
  try {
    scenarioWithWallets(scenario, config.wallets);
  } catch (e) {
    throw new BacktestSetupError(`scenario ${scenarioPath}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const startMs = opts.startMs ?? (scenario.start.kind === "absolute" ? scenario.start.atMs : DEFAULT_VIRTUAL_START_MS);
  return {
    configPath,
    config,
    scenarioPath,
    scenarioSource,
    scenario,
    seed: opts.seed ?? config.simulator.seed,
    seedSource: opts.seed !== undefined ? "override" : "config",
    startMs,
    durationMs: opts.durationMs ?? 0,
    stepMs,
    signatures,
    ...(opts.data !== undefined ? { data: { dir: opts.data, durationGiven: opts.durationMs !== undefined } } : {}),
  };
}

export { ConfigError };
