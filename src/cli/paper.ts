/**
 * `mm paper --config FILE`: paper trading (docs/backtest.md, "Paper trading"). The daemon reads a
 * real platform's public market data and never sends an order; orders are matched locally by the
 * fast engine's exchange model (src/paper). At the end (Ctrl-C, SIGTERM or --duration) it prints
 * the same report as `mm backtest --engine fast` and writes --out / --html. `mm run` with a
 * `mode: paper` config runs this.
 */
import { writeFileSync } from "node:fs";
import { RealClock } from "../core/clock.js";
import { createLogger, redactSecrets } from "../log/index.js";
import type { PaperModeConfig } from "../config/load.js";
import { parseDuration } from "../backtest/duration.js";
import { constantLatency } from "../backtest/models/latency.js";
import { parseQueueSpec, type QueueModelSpec } from "../backtest/models/queue.js";
import { formatStatusLine } from "../bot/engine/status.js";
import { createPaperRun } from "../paper/run.js";
import { formatPaperSummary, htmlFromPaper, paperReportJson } from "../paper/report.js";
import { loadCommandConfig } from "./command-setup.js";
import { processStopSignals, stopOnSignals, type SignalRegistrar, type StopRequest } from "./signals.js";
import { LOG_LEVEL_FLAG, logFormatProblem, logLevelFlag, parseFlags, stringFlag, usageError, type FlagSpecs, type LogLevelName } from "./args.js";
import { describeUnconfirmed } from "../bot/engine/shutdown.js";
import type { ShutdownReport } from "../bot/engine/daemon.js";

/** What the command writes to and listens on (`mm run`'s RunIo has the same shape). */
export interface PaperIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Register the stop handler for SIGINT / SIGTERM; returns the unregister function. */
  onStopSignal: SignalRegistrar;
  /** Immediate exit (second signal). */
  exitNow: (code: number) => void;
}

/** The paper account's shutdown: every paper order ended (the account answers every cancel). */
function describeShutdown(r: ShutdownReport): string {
  const lines = r.wallets.map((w) => `  ${w.name} (${w.wallet}): cancelled ${w.cancelled}, left open ${w.unconfirmed.length}${w.unconfirmed.map((u) => `\n    - ${describeUnconfirmed(u)}`).join("")}`);
  return `shutdown (${r.reason}): ${r.exitCode === 0 ? "clean" : "NOT CLEAN"} (paper orders)\n${lines.join("\n")}\n`;
}

export const USAGE = `Usage: mm paper --config FILE [--out FILE] [--html FILE] [--queue MODEL] [--latency E,R]
                [--duration D] [--status-every SECONDS] [--log-level L]

Paper trading: the daemon quotes on a real platform's public market data (mode: paper); its orders
are signed but never sent, and are matched locally by the fast engine's exchange model (queue
position and latency) against the books and trades it reads. Ctrl-C (or --duration) ends the run
and prints the same report as mm backtest --engine fast.

Options:
  --config FILE            daemon config with mode: paper
  --out FILE               write the JSON report there (- : JSON to stdout, the summary to stderr)
  --html FILE              write the HTML report there
  --queue MODEL            risk-averse, prob-power:N, prob-log or prob-power-fraction:N (default: paper.queue)
  --latency E,R            order entry and response latency in whole ms (default: paper.latency)
  --duration D             stop after this long (90m, 6h, 45s); default: until Ctrl-C or SIGTERM
  --status-every SECONDS   print a status line this often (default 5; 0: never)
  --log-level L            fatal, error, warn, info, debug, trace or silent
  -h, --help               this text
`;

const FLAGS: FlagSpecs = {
  config: { type: "string" },
  out: { type: "string" },
  html: { type: "string" },
  queue: { type: "string" },
  latency: { type: "string" },
  duration: { type: "string" },
  "status-every": { type: "string" },
  ...LOG_LEVEL_FLAG,
};

interface Args {
  config: string;
  out?: string;
  html?: string;
  queue?: QueueModelSpec;
  latency?: { entryMs: number; responseMs: number };
  durationMs?: number;
  statusEverySec: number;
  logLevel: LogLevelName | undefined;
}

export function parsePaperArgs(argv: readonly string[]): Args | string {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") return parsed;
  const config = stringFlag(parsed, "config");
  if (config === undefined) return "--config FILE is required (a config with mode: paper)";
  const out: Args = { config, statusEverySec: 5, logLevel: logLevelFlag(parsed) };
  const o = stringFlag(parsed, "out");
  if (o !== undefined) out.out = o;
  const html = stringFlag(parsed, "html");
  if (html !== undefined) out.html = html;
  const q = stringFlag(parsed, "queue");
  if (q !== undefined) {
    const spec = parseQueueSpec(q);
    if (typeof spec === "string") return `--queue: ${spec}`;
    out.queue = spec;
  }
  const l = stringFlag(parsed, "latency");
  if (l !== undefined) {
    const m = /^(\d{1,6}),(\d{1,6})$/.exec(l);
    if (m === null) return `--latency: expected ENTRY_MS,RESPONSE_MS in whole ms (got ${JSON.stringify(l)})`;
    out.latency = { entryMs: Number(m[1]), responseMs: Number(m[2]) };
  }
  const d = stringFlag(parsed, "duration");
  if (d !== undefined) {
    const ms = parseDuration(d);
    if (typeof ms === "string") return `--duration: ${ms}`;
    out.durationMs = ms;
  }
  const every = stringFlag(parsed, "status-every");
  if (every !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(every)) return `--status-every needs a number of seconds >= 0 (got ${JSON.stringify(every)})`;
    out.statusEverySec = Number(every);
  }
  return out;
}

const processIo: PaperIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  onStopSignal: processStopSignals,
  exitNow: (code) => process.exit(code),
};

export async function paperCommand(argv: string[], io: PaperIo = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const args = parsePaperArgs(argv);
  if (typeof args === "string") {
    io.stderr(usageError("paper", args, USAGE));
    return 2;
  }
  const envProblem = logFormatProblem();
  if (envProblem !== undefined) {
    io.stderr(`mm paper: ${envProblem}\n`);
    return 2;
  }
  const loaded = loadCommandConfig(args.config, io.stderr);
  if (loaded === 2) return 2;
  if (loaded.mode !== "paper") {
    io.stderr(`mm paper: ${args.config}: mode ${loaded.mode}: paper trading needs a config with mode: paper (docs/backtest.md, "Paper trading")\n`);
    return 2;
  }
  return runPaper(loaded, args, io);
}

async function runPaper(config: PaperModeConfig, args: Args, io: PaperIo): Promise<number> {
  const clock = new RealClock();
  const logger = createLogger({ level: args.logLevel ?? config.log.level, name: "mm", clock });
  const run = createPaperRun({
    config,
    clock,
    logger,
    ...(args.queue !== undefined ? { queue: args.queue } : {}),
    ...(args.latency !== undefined ? { latency: { model: constantLatency(args.latency.entryMs, args.latency.responseMs), describe: `${args.latency.entryMs},${args.latency.responseMs} ms` } } : {}),
  });
  const daemon = run.daemon;
  let statusTimer: ReturnType<typeof clock.setInterval> | undefined;
  let durationTimer: ReturnType<typeof clock.setTimeout> | undefined;
  let stop: StopRequest | undefined;
  try {
    const served = await daemon.serve();
    io.stdout(`mm paper: public data from ${config.platform.baseUrl}; orders are matched locally and never sent; Ctrl-C to stop\n`);
    io.stdout(`mm paper: metrics on http://${served.host.includes(":") ? `[${served.host}]` : served.host}:${served.port}/metrics\n`);
    // A second signal exits at once, without a word (mm run says why).
    const request = stopOnSignals((h) => io.onStopSignal(h), {
      onStop: (signal) => io.stderr(`mm paper: ${signal}: pulling the paper quotes and writing the report...\n`),
      again: { exitNow: (code) => io.exitNow(code) },
    });
    stop = request;
    const stopRequested = request.requested;
    if (args.durationMs !== undefined) durationTimer = clock.setTimeout(() => request.request("duration reached"), args.durationMs);
    const started = daemon.start();
    const first = await Promise.race([started.then(() => "started" as const), stopRequested]);
    if (first === "started" && args.statusEverySec > 0) statusTimer = clock.setInterval(() => io.stdout(`${formatStatusLine(daemon.status())}\n`), args.statusEverySec * 1000);
    if (first !== "started") started.catch(() => undefined);
    const reason = first === "started" ? await stopRequested : first;
    clock.clearInterval(statusTimer);
    const shutdown = await daemon.stop(reason);
    io.stdout(describeShutdown(shutdown));
    const report = run.report();
    const summary = formatPaperSummary(report);
    if (args.out === "-") {
      io.stderr(summary);
      io.stdout(paperReportJson(report));
    } else {
      io.stdout(summary);
      if (args.out !== undefined) {
        writeFileSync(args.out, paperReportJson(report));
        io.stdout(`report: ${args.out}\n`);
      }
    }
    if (args.html !== undefined) {
      writeFileSync(args.html, htmlFromPaper(report));
      io.stderr(`html report: ${args.html}\n`);
    }
    return shutdown.exitCode;
  } catch (e) {
    io.stderr(`mm paper: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    if (daemon.isRunning) await daemon.stop("error");
    return 1;
  } finally {
    clock.clearInterval(statusTimer);
    clock.clearTimeout(durationTimer);
    stop?.unregister();
    run.close();
    await daemon.ops.close();
  }
}

export default paperCommand;
