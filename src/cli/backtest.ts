/**
 * `mm backtest`: run the daemon (same config file, same strategy code) against the platform
 * simulator in virtual time and report fills, fees and PnL (src/backtest, docs/backtest.md).
 *
 * Exit status: 0 the run finished and its numbers check out; 1 a runtime failure, or a report
 * with problems (the daemon's fill ledger must equal the simulator's trade list, its inventory
 * the simulator's cash and positions exactly, ...); 2 a bad flag, config or scenario, including a
 * scenario the daemon cannot trade on (nothing was run). `--out -` puts the JSON alone on stdout
 * and the summary on stderr.
 */
import { existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { DestinationStream } from "pino";
import type { Clock } from "../core/clock.js";
import { ValidationError } from "../core/validation.js";
import { ConfigError, type Env } from "../config/index.js";
import { createLogger, redactSecrets } from "../log/index.js";
import { defaultDemoConfigPath } from "../bot/engine/demo.js";
import {
  BacktestSetupError,
  formatDuration,
  formatSummary,
  parseDuration,
  prepareBacktest,
  reportJson,
  runPrepared,
  SIGNATURE_MODES,
  type BacktestProgress,
  type PreparedBacktest,
  type SignatureMode,
} from "../backtest/index.js";
import { compareReports, formatComparison } from "../backtest/compare.js";
import { FEED_MODELS, runFastBacktest, type FastSource, type FeedModel } from "../backtest/fast/engine.js";
import { recordedSource, syntheticSource } from "../backtest/fast/sources.js";
import { fastReportJson, formatFastSummary } from "../backtest/fast/summary.js";
import { htmlFromBacktest, htmlFromFast } from "../backtest/report-html/html.js";
import { progressReporter } from "../backtest/summary.js";
import { constantLatency, empiricalLatency, type LatencyModel } from "../backtest/models/latency.js";
import { readOrderRoundTrips } from "../data/index.js";
import { parseQueueSpec, type QueueModelSpec } from "../backtest/models/queue.js";
import { LOG_LEVEL_FLAG, logLevelFlag, parseFlags, stringFlag, usageError, type FlagSpecs, type LogLevelName } from "./args.js";

export const USAGE = `Usage: mm backtest [--config FILE] [--scenario FILE] [--duration D] [--seed N] [--out FILE] [--signatures on|off]
                   [--html FILE]
                   [--engine full|fast] [--data DIR] [--queue MODEL] [--latency ENTRY_MS,RESPONSE_MS|recorded] [--feed poll|every] [--compare]

Run the market-maker daemon (the same config file and strategy code as \`mm run\`) against the
platform simulator in virtual time, as fast as the machine allows, and report fills, fees, PnL,
inventory and a consistency check of the daemon's fill ledger against the simulator's trades.

Options:
  --config FILE     daemon config, mode: simulator (default configs/demo.yaml)
  --scenario FILE   simulator scenario (default the config's simulator.scenario, else the
                    built-in scenario)
  --duration D      virtual time to trade, e.g. 90m, 6h, 2d, 1h30m (default 6h)
  --seed N          seed of the simulator's flow and the daemon, 0..4294967295 (default simulator.seed)
  --out FILE        write the JSON report there; \`--out -\` writes it to stdout (the summary then
                    goes to stderr)
  --html FILE       also write the report as one self-contained HTML file (equity, drawdown,
                    PnL decomposition, inventory, quotes and fills, markouts, uptime, per-day
                    table; opens without network)
  --signatures M    on (default): orders signed and verified as live; off: the simulator skips
                    signature verification and the daemon signs nothing (faster; same matching,
                    fills and PnL; the report says signatures off). Backtests only: \`mm run\`
                    always signs
  --engine E        full (default): the whole daemon against the simulator, through HTTP
                    semantics, JSON and signatures; fast: the daemon's decision core (strategy,
                    risk limits, reconciler, order states, fills, inventory, rate buckets) against
                    an exchange model of the recorded or synthetic books, with latency and a
                    queue-position model (docs/backtest.md, "The fast engine")
  --data DIR        replay a data set recorded by \`mm record\` (default: the scenario's
                    synthetic flow for --duration). Full engine: the simulator's markets, books
                    and others' trades come from the recording, for its span (or --duration from
                    its start); fast engine: the exchange model replays it
  --queue MODEL     fast engine: risk-averse (default), prob-power:N, prob-log, prob-power-fraction:N
  --feed poll|every fast engine: how books reach the strategy: poll (default) as the daemon's book
                    poller reads them, every: each recorded book the instant it is recorded
  --latency E,R     fast engine: order-entry and response latency in ms (default 20,20);
                    recorded: drawn from the --data set's place/cancel round trips (recorded
                    with record: in the daemon config), half of one each way
  --compare         calibration: run both engines on the same inputs (the scenario's synthetic
                    flow, or --data) and report per market where they differ: fills, maker/taker,
                    shares and average prices, fees, PnL, final positions (fast - full). --out
                    writes {comparison, full, fast}
  --log-level L     the daemon's and simulator's log lines on stderr from this level (default warn)
  -h, --help        this text

Prints a summary per market. Exit status: 0 success; 1 runtime failure, or a report with
problems (failed consistency or inventory check, orders left open, ...); 2 bad flags, config or
scenario (nothing was run).
`;

export const DEFAULT_DURATION = "6h";

/** `--out -`: the JSON report on stdout. */
const STDOUT = "-";

export interface BacktestIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Env;
  /** Print progress lines on stderr (default true). */
  progress?: boolean;
  /** stderr is a terminal: progress as a bar (cli-progress) instead of lines. */
  stderrTty?: boolean;
  /** The run itself (default runPrepared); tests wrap it. */
  run?: typeof runPrepared;
}

const processIo: BacktestIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  stderrTty: process.stderr.isTTY === true,
};

interface Args {
  config?: string;
  scenario?: string;
  durationMs: number;
  /** --data without --duration: a full-engine replay lasts the recording's span (durationMs unused). */
  dataSpan?: true;
  seed?: number;
  out?: string;
  html?: string;
  signatures?: SignatureMode;
  engine?: "full" | "fast";
  data?: string;
  compare?: true;
  queue?: QueueModelSpec;
  feed?: FeedModel;
  /** "recorded": the --data set's own place/cancel round trips (recorded by the daemon). */
  latency?: { entryMs: number; responseMs: number } | "recorded";
  /** The daemon's and simulator's log lines on stderr from this level (default warn). */
  logLevel?: LogLevelName;
}

const DEFAULT_QUEUE: QueueModelSpec = { kind: "risk-averse" };
const DEFAULT_LATENCY = { entryMs: 20, responseMs: 20 };

const FLAGS = ["--config", "--scenario", "--duration", "--seed", "--out", "--html", "--signatures", "--engine", "--data", "--queue", "--latency", "--feed"] as const;
type Flag = (typeof FLAGS)[number];

/** Each flag's check: the value, or what is wrong with it. */
const CHECKS: Record<Flag, (v: string) => string | undefined> = {
  "--config": (v) => fileProblem(v),
  "--scenario": (v) => fileProblem(v),
  "--duration": (v) => {
    const d = parseDuration(v);
    return typeof d === "string" ? d : undefined;
  },
  "--seed": (v) => (/^\d{1,10}$/.test(v) && Number(v) <= 0xffff_ffff ? undefined : `expected a whole number in 0..4294967295 (got ${JSON.stringify(v)})`),
  "--out": (v) => {
    if (v === STDOUT) return undefined;
    const dir = dirname(resolve(v));
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return `directory ${dir} does not exist`;
    if (existsSync(v) && statSync(v).isDirectory()) return `${v} is a directory`;
    return undefined;
  },
  "--html": (v) => {
    const dir = dirname(resolve(v));
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return `directory ${dir} does not exist`;
    if (existsSync(v) && statSync(v).isDirectory()) return `${v} is a directory`;
    return undefined;
  },
  "--signatures": (v) => ((SIGNATURE_MODES as readonly string[]).includes(v) ? undefined : `expected on or off (got ${JSON.stringify(v)})`),
  "--engine": (v) => (v === "full" || v === "fast" ? undefined : `expected full or fast (got ${JSON.stringify(v)})`),
  "--data": (v) => (existsSync(v) && statSync(v).isDirectory() ? undefined : `no such directory: ${v}`),
  "--queue": (v) => {
    const q = parseQueueSpec(v);
    return typeof q === "string" ? q : undefined;
  },
  "--feed": (v) => ((FEED_MODELS as readonly string[]).includes(v) ? undefined : `expected poll or every (got ${JSON.stringify(v)})`),
  "--latency": (v) => {
    if (v === "recorded") return undefined;
    const l = parseLatency(v);
    return typeof l === "string" ? l : undefined;
  },
};


/** `E,R` (ms, whole numbers): order entry and response latency. */
function parseLatency(v: string): { entryMs: number; responseMs: number } | string {
  const m = /^(\d{1,6}),(\d{1,6})$/.exec(v);
  if (m === null) return `expected ENTRY_MS,RESPONSE_MS (whole ms) or recorded (got ${JSON.stringify(v)})`;
  return { entryMs: Number(m[1]), responseMs: Number(m[2]) };
}

function fileProblem(v: string): string | undefined {
  if (!existsSync(v)) return `no such file: ${v}`;
  if (!statSync(v).isFile()) return `not a file: ${v}`;
  return undefined;
}

const FLAG_SPECS: FlagSpecs = {
  ...Object.fromEntries(FLAGS.map((f) => [f.slice(2), { type: "string" } as const])),
  compare: { type: "boolean" },
  ...LOG_LEVEL_FLAG,
};

export function parseBacktestArgs(argv: readonly string[]): Args | string {
  const parsed = parseFlags(argv, FLAG_SPECS);
  if (typeof parsed === "string") return parsed;
  const seen = new Map<Flag, string>();
  for (const name of FLAGS) {
    const value = stringFlag(parsed, name.slice(2));
    if (value === undefined) continue;
    const problem = CHECKS[name](value);
    if (problem !== undefined) return `${name}: ${problem}`;
    seen.set(name, value);
  }
  const compare = parsed.values.get("compare") === true;
  const out: Args = { durationMs: parseDuration(seen.get("--duration") ?? DEFAULT_DURATION) as number };
  if (seen.has("--data") && !seen.has("--duration")) out.dataSpan = true;
  if (seen.has("--engine")) out.engine = seen.get("--engine") as "full" | "fast";
  if (seen.has("--queue")) out.queue = parseQueueSpec(seen.get("--queue")!) as QueueModelSpec;
  if (seen.has("--feed")) out.feed = seen.get("--feed") as FeedModel;
  if (seen.has("--latency")) out.latency = seen.get("--latency") === "recorded" ? "recorded" : (parseLatency(seen.get("--latency")!) as { entryMs: number; responseMs: number });
  if (out.latency === "recorded" && !seen.has("--data")) return "--latency recorded: needs --data DIR (a data set recorded with record: in the daemon config)";
  if (seen.has("--data")) out.data = seen.get("--data")!;
  if (compare) {
    if (seen.has("--html")) return "--html is for one engine's run (leave out --compare)";
    if (seen.has("--engine")) return "--compare runs both engines: leave out --engine";
    if (seen.has("--signatures")) return "--compare runs the full engine signed (leave out --signatures)";
    out.compare = true;
  } else if (out.engine !== "fast") {
    for (const f of ["--queue", "--latency", "--feed"] as const) if (seen.has(f)) return `${f} is for --engine fast (the full engine has no queue, latency or feed model)`;
  } else if (seen.has("--signatures")) return "--signatures is for --engine full (the fast engine signs nothing)";
  if (seen.has("--config")) out.config = seen.get("--config")!;
  if (seen.has("--scenario")) out.scenario = seen.get("--scenario")!;
  if (seen.has("--seed")) out.seed = Number(seen.get("--seed"));
  if (seen.has("--out")) out.out = seen.get("--out")!;
  if (seen.has("--html")) out.html = seen.get("--html")!;
  if (seen.has("--signatures")) out.signatures = seen.get("--signatures") as SignatureMode;
  const logLevel = logLevelFlag(parsed);
  if (logLevel !== undefined) out.logLevel = logLevel;
  return out;
}

/** Warnings and errors of the daemon and simulator, on stderr, stamped in virtual time. */
function stderrLogger(io: BacktestIo, level: LogLevelName = "warn"): (clock: Clock) => ReturnType<typeof createLogger> {
  const dest: DestinationStream = { write: (line: string) => io.stderr(line) };
  return (clock) => createLogger({ level, name: "mm-backtest", clock }, dest);
}

function prepare(args: Args, io: BacktestIo): PreparedBacktest | number {
  const file = args.config ?? defaultDemoConfigPath();
  try {
    const replay = args.data !== undefined && args.engine !== "fast";
    return prepareBacktest({
      configPath: file,
      ...(replay ? { data: args.data } : {}),
      ...(!replay || args.dataSpan !== true ? { durationMs: args.durationMs } : {}),
      env: io.env,
      ...(args.scenario !== undefined ? { scenarioPath: args.scenario } : {}),
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(args.signatures !== undefined ? { signatures: args.signatures } : {}),
    });
  } catch (e) {
    if (e instanceof ConfigError) {
      // The same lines as `mm check-config`.
      const count = e.issues.length;
      io.stderr(`${redactSecrets(e.message)}\n${file}: invalid (${count} problem${count === 1 ? "" : "s"})\n`);
      return 2;
    }
    if (e instanceof ValidationError) {
      const flag = args.scenario !== undefined ? "--scenario" : "simulator.scenario";
      io.stderr(`mm backtest: ${flag}: invalid scenario\n${e.issues.map((i) => `  ${e.where}: ${i.path}: ${i.message}\n`).join("")}`);
      return 2;
    }
    if (e instanceof BacktestSetupError) {
      io.stderr(`mm backtest: ${redactSecrets(e.message)}\n`);
      return 2;
    }
    throw e;
  }
}

export async function backtestCommand(argv: string[], io: BacktestIo = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const args = parseBacktestArgs(argv);
  if (typeof args === "string") {
    io.stderr(usageError("backtest", args, USAGE));
    return 2;
  }
  let prepared: PreparedBacktest | number;
  try {
    prepared = prepare(args, io);
  } catch (e) {
    io.stderr(`mm backtest: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
  if (typeof prepared === "number") return prepared;

  if (args.engine === "fast") return runFast(args, prepared, io);
  if (args.compare === true) return runCompare(args, prepared, io);
  const showProgress = io.progress ?? true;
  const span = prepared.data === undefined ? `${formatDuration(prepared.durationMs)} of virtual time` : `replay of ${prepared.data.dir} (${prepared.data.durationGiven ? formatDuration(prepared.durationMs) : "its whole span"})`;
  io.stderr(`mm backtest: ${span}, ${prepared.config.wallets.length} wallet(s), strategy ${prepared.config.strategy.name}, seed ${prepared.seed}${prepared.signatures === "off" ? ", signatures off" : ""}\n`);
  try {
    const progress = showProgress ? progressReporter({ tty: io.stderrTty === true, write: io.stderr }) : undefined;
    const report = await (io.run ?? runPrepared)(prepared, {
      logger: stderrLogger(io, args.logLevel),
      ...(progress !== undefined ? { onProgress: (p: BacktestProgress) => progress.update(p), progressEveryMs: progress.everyMs(prepared.durationMs, prepared.stepMs) } : {}),
    }).finally(() => progress?.stop());
    if (args.out === STDOUT) {
      // stdout carries only the JSON, so it can be piped; the human part goes to stderr.
      io.stderr(formatSummary(report));
      io.stdout(reportJson(report));
      io.stderr("report: written to stdout\n");
    } else {
      io.stdout(formatSummary(report));
      if (args.out !== undefined) {
        writeFileSync(args.out, reportJson(report));
        io.stdout(`report: ${args.out}\n`);
      } else io.stdout("report: not written (use --out FILE, or --out - for stdout)\n");
    }
    if (args.html !== undefined) writeHtml(args.html, htmlFromBacktest(report), io);
    if (!report.ok) {
      io.stderr(`mm backtest: FAILED: ${report.problems.join("; ")}\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    io.stderr(`mm backtest: run failed: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
}

/**
 * The fast engine's source for these inputs: the recording (within `window`, the span the full
 * engine replayed, when given) or the scenario's synthetic flow.
 */
async function fastSourceOf(args: Args, prepared: PreparedBacktest, window?: { fromMs: number; toMs: number }): Promise<FastSource> {
  if (args.data !== undefined) return recordedSource(args.data, window ?? {});
  return syntheticSource({ scenario: prepared.scenario, seed: prepared.seed, startMs: prepared.startMs, durationMs: prepared.durationMs, name: prepared.scenarioPath });
}

/**
 * The fast engine's latency model: constant (`E,R`, default 20,20), or `recorded`: each leg drawn
 * from the data set's answered place/cancel round trips (src/data/latencies.ts), half of one each
 * (entry floor(rt/2), response the rest): the recording has round trips only, the split is assumed.
 */
async function latencyOf(args: Args, seed: number): Promise<{ model: LatencyModel; describe: string }> {
  const l = args.latency ?? DEFAULT_LATENCY;
  if (l !== "recorded") return { model: constantLatency(l.entryMs, l.responseMs), describe: `${l.entryMs}+${l.responseMs} ms` };
  const { roundTripsMs } = await readOrderRoundTrips(args.data!);
  if (roundTripsMs.length === 0) throw new Error(`--latency recorded: ${args.data} holds no answered place or cancel latency (record it with record: in the daemon config, include latencies)`);
  const entry = roundTripsMs.map((rt) => Math.floor(rt / 2));
  const response = roundTripsMs.map((rt) => rt - Math.floor(rt / 2)).sort((a, b) => a - b);
  const median = roundTripsMs[Math.floor(roundTripsMs.length / 2)]!;
  return { model: empiricalLatency(entry, response, seed), describe: `recorded (${roundTripsMs.length} place/cancel round trips, median ${median} ms, half each way)` };
}

/** `--compare`: the full engine, then the fast engine on the same inputs, and where they differ. */
async function runCompare(args: Args, prepared: PreparedBacktest, io: BacktestIo): Promise<number> {
  try {
    io.stderr(`mm backtest: --compare: the full engine, then the fast engine (queue ${(args.queue ?? DEFAULT_QUEUE).kind}), on ${args.data ?? prepared.scenarioPath}\n`);
    const full = await (io.run ?? runPrepared)(prepared, { logger: stderrLogger(io, args.logLevel) });
    const queue = args.queue ?? DEFAULT_QUEUE;
    const latency = await latencyOf(args, prepared.seed);
    // The window the full engine traded: from its virtual start, for its duration.
    const fromMs = Date.parse(full.run.virtualStart);
    const window = { fromMs, toMs: fromMs + full.run.durationMs };
    const fast = runFastBacktest({ config: prepared.config, source: await fastSourceOf(args, prepared, window), latency: latency.model, queue, seed: prepared.seed, feed: args.feed ?? "poll" });
    const comparison = compareReports(full, fast);
    const text = formatComparison(comparison);
    const json = JSON.stringify({ comparison, full: JSON.parse(reportJson(full)) as unknown, fast }, null, 2) + "\n";
    if (args.out === STDOUT) {
      io.stderr(text);
      io.stdout(json);
    } else {
      io.stdout(text);
      if (args.out !== undefined) {
        writeFileSync(args.out, json);
        io.stdout(`report: ${args.out}\n`);
      } else io.stdout("report: not written (use --out FILE, or --out - for stdout)\n");
    }
    if (!full.ok) {
      io.stderr(`mm backtest: the full engine's run FAILED its checks: ${full.problems.join("; ")}\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    io.stderr(`mm backtest: run failed: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
}

/** `--engine fast`: the decision core against the exchange model, over recorded or synthetic data. */
async function runFast(args: Args, prepared: PreparedBacktest, io: BacktestIo): Promise<number> {
  try {
    const source = await fastSourceOf(args, prepared);
    const queue = args.queue ?? DEFAULT_QUEUE;
    const latency = await latencyOf(args, prepared.seed);
    io.stderr(`mm backtest: fast engine, ${source.describe}, strategy ${prepared.config.strategy.name}, queue ${queue.kind}, latency ${latency.describe}, feed ${args.feed ?? "poll"}\n`);
    const report = runFastBacktest({
      config: prepared.config,
      source,
      latency: latency.model,
      queue,
      seed: prepared.seed,
      series: true,
      feed: args.feed ?? "poll",
    });
    const summary = formatFastSummary(report);
    if (args.out === STDOUT) {
      io.stderr(summary);
      io.stdout(fastReportJson(report));
    } else {
      io.stdout(summary);
      if (args.out !== undefined) {
        writeFileSync(args.out, fastReportJson(report));
        io.stdout(`report: ${args.out}\n`);
      } else io.stdout("report: not written (use --out FILE, or --out - for stdout)\n");
    }
    if (args.html !== undefined) writeHtml(args.html, htmlFromFast(report), io);
    return 0;
  } catch (e) {
    io.stderr(`mm backtest: run failed: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
}

/** The HTML report to its file (stderr: stdout may carry the JSON). */
function writeHtml(file: string, html: string, io: BacktestIo): void {
  writeFileSync(file, html);
  io.stderr(`html report: ${file} (${Math.round(html.length / 1024)} KiB)\n`);
}

export default backtestCommand;
