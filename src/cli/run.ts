/**
 * `mm run [--config FILE]`: the market-maker daemon.
 *
 * Without --config it runs the demo: configs/demo.yaml against the embedded simulator,
 * in-process, on the real clock, printing a status line every few seconds. A live config talks
 * to the platform over HTTPS/WSS. Risk (limits, halts) and metrics are always on; the operator
 * HTTP server (/metrics /health /ready /admin/kill /admin/resume) listens on metrics.host:port
 * from before start-up to the end of shutdown.
 *
 * Signals: SIGINT / SIGTERM pull every quote and cancel every order; the exit status is 0 only
 * when the platform confirmed every order ended, 1 otherwise (a second signal exits at once, 130). SIGUSR2 is the kill
 * switch: cancel everything, stop quoting, stay up for inspection (POST /admin/resume or a
 * restart quotes again; SIGTERM then exits). SIGUSR1 is taken by node's inspector, SIGHUP by
 * terminals closing: neither would be a safe kill switch. SIGHUP reloads the config file instead
 * (as POST /admin/reload: applied at the next cycle, or refused whole with nothing changed), the
 * daemons' convention; a terminal closing then reloads an unchanged file rather than killing the
 * process without cancelling its orders.
 */
import { Rng } from "../core/rng.js";
import type { Config } from "../config/index.js";
import { createLogger, redactSecrets } from "../log/index.js";
import { commandClock, loadCommandConfig } from "./command-setup.js";
import { LOG_LEVEL_FLAG, logFormatProblem, logLevelFlag, parseFlags, stringFlag, usageError, type FlagSpecs, type LogLevelName } from "./args.js";
import { createDaemon, type Daemon, type ShutdownReport } from "../bot/engine/daemon.js";
import { defaultDemoConfigPath, startEmbeddedSimulator, type EmbeddedSimulator } from "../bot/engine/demo.js";
import { describeUnconfirmed } from "../bot/engine/shutdown.js";
import type { ReloadOutcome } from "../bot/engine/reload.js";
import { formatStatusLine } from "../bot/engine/status.js";
import { processSignals, processStopSignals, stopOnSignals, type SignalRegistrar, type StopRequest } from "./signals.js";
import { DaemonRecording } from "../record/index.js";

export const USAGE = `Usage: mm run [--config FILE] [--status-every SECONDS] [--log-level L]

Run the market-maker daemon. Without --config: the demo (configs/demo.yaml) against the
embedded platform simulator, in-process, on the real clock.

Options:
  --config FILE            daemon config (YAML); mode simulator runs the embedded simulator
  --status-every SECONDS   print a status line this often (default 5; 0: never)
  --log-level L            fatal, error, warn, info, debug, trace or silent (default: MM_LOG_LEVEL,
                           else the config's log.level, else info)
  -h, --help               this text

Environment: MM_LOG_LEVEL, MM_METRICS_HOST, MM_METRICS_PORT override the config's log.level,
metrics.host and metrics.port (a flag wins over the environment). Logs are JSON lines, or
human-readable when stdout is a terminal (MM_LOG_FORMAT=json|pretty to choose).

Metrics on http://<metrics.host>:<metrics.port>/metrics (default 127.0.0.1:9464), with /health,
/ready, and POST /admin/kill, /admin/resume (Authorization: Bearer <admin.token>).

Ctrl-C or SIGTERM: stop quoting, cancel every order, exit 0 only when the platform confirmed every order ended
(and the last open-orders walk succeeded), 1 otherwise, naming each order left and why.
SIGUSR2: kill switch: cancel every order and stop quoting, but stay up (POST /admin/resume quotes
again).
SIGHUP: reload the config file (as POST /admin/reload): strategy, quoting tolerances and risk limits
apply at the next cycle; a bad file, or one changing what needs a restart, is refused and nothing
changes (docs/operations.md).
`;

export interface RunIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Register the stop handler for SIGINT / SIGTERM; returns the unregister function. */
  onStopSignal: SignalRegistrar;
  /** Register the kill-switch handler (SIGUSR2); returns the unregister function. */
  onKillSignal?: (handler: (signal: string) => void) => () => void;
  /** Register the config-reload handler (SIGHUP); returns the unregister function. */
  onReloadSignal?: (handler: (signal: string) => void) => () => void;
  /** Immediate exit (second signal). */
  exitNow: (code: number) => void;
}

const processIo: RunIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  onStopSignal: processStopSignals,
  onKillSignal: (handler) => processSignals([KILL_SIGNAL], handler),
  onReloadSignal: (handler) => processSignals([RELOAD_SIGNAL], handler),
  exitNow: (code) => process.exit(code),
};

export const KILL_SIGNAL: NodeJS.Signals = "SIGUSR2";
export const RELOAD_SIGNAL: NodeJS.Signals = "SIGHUP";

/**
 * What the reload signal does: the daemon's config reload (reload.ts), its outcome on stderr (the
 * daemon logs it too). Exported so tests can call exactly what the signal calls.
 */
export async function onReloadSignal(daemon: { reload(source: string): Promise<ReloadOutcome> }, signal: string, stderr: (text: string) => void): Promise<ReloadOutcome | undefined> {
  try {
    const r = await daemon.reload(`signal ${signal}`);
    if (r.ok && r.changed.length === 0) stderr(`mm run: ${signal}: config reloaded: no change (config hash ${r.hash})\n`);
    else if (r.ok) stderr(`mm run: ${signal}: config reloaded (config hash ${r.previousHash} -> ${r.hash}), applied at the next cycle: ${r.changed.join(", ")}\n`);
    else stderr(`mm run: ${signal}: config reload refused, nothing changed (config hash ${r.hash}):\n${r.errors.map((e) => `  ${redactSecrets(e)}\n`).join("")}`);
    return r;
  } catch (e) {
    stderr(`mm run: ${signal}: config reload failed, nothing changed: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    return undefined;
  }
}

/**
 * What the kill signal does: the daemon's kill switch, reported on stderr. Exported so tests
 * can call exactly what the signal calls.
 */
export async function onKillSignal(daemon: Daemon, signal: string, stderr: (text: string) => void): Promise<void> {
  stderr(`mm run: ${signal}: kill switch: cancelling every order, quoting stopped (POST /admin/resume to quote again)\n`);
  try {
    const r = await daemon.kill(`signal ${signal}`);
    stderr(`mm run: kill switch: ${r.openOrdersBefore} open orders before, ${r.openOrders} still open\n`);
  } catch (e) {
    stderr(`mm run: kill switch failed: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
  }
}

interface Args {
  config: string | undefined;
  statusEverySec: number;
  logLevel: LogLevelName | undefined;
}

const FLAGS: FlagSpecs = { config: { type: "string" }, "status-every": { type: "string" }, ...LOG_LEVEL_FLAG };

export function parseRunArgs(argv: readonly string[]): Args | string {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") return parsed;
  const every = stringFlag(parsed, "status-every");
  let statusEverySec = 5;
  if (every !== undefined) {
    statusEverySec = Number(every);
    if (!/^\d+(\.\d+)?$/.test(every) || !Number.isFinite(statusEverySec)) return `--status-every needs a number of seconds >= 0 (got ${JSON.stringify(every)})`;
  }
  return { config: stringFlag(parsed, "config"), statusEverySec, logLevel: logLevelFlag(parsed) };
}

/**
 * The shutdown report as the operator reads it: "clean" only when the platform confirmed every
 * order ended and the last open-orders walk succeeded; otherwise every order left is named with why.
 */
export function describeReport(r: ShutdownReport): string {
  const lines: string[] = [];
  for (const w of r.wallets) {
    const walk = w.finalWalk.ok ? `last open-orders walk: ${w.finalWalk.open} open` : `last open-orders walk FAILED (${w.finalWalk.error})`;
    const left = `left open ${w.unconfirmed.length}${w.unconfirmed.length > 0 ? " (NOT confirmed ended)" : ""}`;
    lines.push(`  ${w.name} (${w.wallet}): cancelled ${w.cancelled}, ${left}; ${walk}`);
    for (const u of w.unconfirmed) lines.push(`    - ${describeUnconfirmed(u)}`);
    if (w.notRecorded.length > 0) lines.push(`    ended "never recorded" by a lookup after the window, still unseen: ${w.notRecorded.join(", ")}`);
  }
  const verdict = r.exitCode === 0 ? "clean (every order confirmed ended by the platform)" : "NOT CLEAN: orders may still rest on the platform (see docs/operations.md)";
  return `shutdown (${r.reason}): ${verdict}\n${lines.join("\n")}\n`;
}

export async function runCommand(argv: string[], io: RunIo = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const args = parseRunArgs(argv);
  const envProblem = logFormatProblem();
  if (typeof args !== "string" && envProblem !== undefined) {
    io.stderr(`mm run: ${envProblem}\n`);
    return 2;
  }
  if (typeof args === "string") {
    io.stderr(usageError("run", args, USAGE));
    return 2;
  }
  const file = args.config ?? defaultDemoConfigPath();
  const config = loadCommandConfig(file, io.stderr);
  if (config === 2) return 2;
  // mode: paper is paper trading (src/cli/paper.ts): the same daemon, orders matched locally.
  if (config.mode === "paper") return (await import("./paper.js")).paperCommand(argv, io);
  const { clock, real, stopDriver } = commandClock(config);
  const logger = createLogger({ level: args.logLevel ?? config.log.level, name: "mm", clock });
  let embedded: EmbeddedSimulator | undefined;
  let daemon: Daemon | undefined;
  let recording: DaemonRecording | undefined;
  let statusTimer: ReturnType<typeof real.setInterval> | undefined;
  let stop: StopRequest | undefined;
  let unregisterKill: (() => void) | undefined;
  let unregisterReload: (() => void) | undefined;
  try {
    if (config.mode === "simulator") {
      embedded = startEmbeddedSimulator(config, clock, logger.child({ component: "sim" }, { level: "warn" }));
      io.stdout(`mm run: demo against the embedded simulator (${file}); Ctrl-C to stop\n`);
    }
    // record: in the config: the daemon's own orders, acks, fills, latencies and its markets' data (docs/backtest.md).
    if (config.record !== undefined) recording = await DaemonRecording.open({ settings: config.record, config, clock, log: logger.child({ component: "record" }) });
    daemon = createDaemon(config, {
      clock,
      logger,
      ...(recording?.deps() ?? {}),
      ...(embedded ? { transport: embedded.transport, connector: embedded.connector, apiKey: embedded.apiKey } : {}),
      ...(config.mode === "simulator" && config.simulator.clock === "virtual" ? { rng: new Rng(config.simulator.seed) } : {}),
    });
    // SIGHUP and POST /admin/reload read the same file again (reload.ts).
    daemon.reloadFrom(file);
    const served = await daemon.serve().catch((e: unknown) => {
      throw new Error(describeServeError(e, config, args.config) ?? (e instanceof Error ? e.message : String(e)), { cause: e });
    });
    io.stdout(`mm run: metrics on http://${hostForUrl(served.host)}:${served.port}/metrics (also /health, /ready)\n`);
    const d0 = daemon;
    unregisterKill = io.onKillSignal?.((signal) => void onKillSignal(d0, signal, io.stderr));
    unregisterReload = io.onReloadSignal?.((signal) => void onReloadSignal(d0, signal, io.stderr));

    stop = stopOnSignals((h) => io.onStopSignal(h), {
      onStop: (signal) => io.stderr(`mm run: ${signal}: pulling quotes and cancelling every order...\n`),
      again: { exitNow: (code) => io.exitNow(code), say: (signal) => io.stderr(`mm run: ${signal} again: exiting without waiting for the cancels\n`) },
    });
    const stopRequested = stop.requested;

    const started = daemon.start();
    const first = await Promise.race([started.then(() => "started" as const), stopRequested]);
    if (first === "started") {
      const d = daemon;
      await recording?.attach(d);
      if (args.statusEverySec > 0) statusTimer = real.setInterval(() => io.stdout(`${formatStatusLine(d.status())}\n`), args.statusEverySec * 1000);
    } else started.catch(() => undefined);
    const reason = first === "started" ? await stopRequested : first;
    real.clearInterval(statusTimer);
    recording?.stopMarketData();
    const report = await daemon.stop(reason);
    io.stdout(describeReport(report));
    return report.exitCode;
  } catch (e) {
    io.stderr(`mm run: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    if (daemon?.isRunning) {
      const report = await daemon.stop("error");
      io.stdout(describeReport(report));
    }
    return 1;
  } finally {
    real.clearInterval(statusTimer);
    stop?.unregister();
    unregisterKill?.();
    unregisterReload?.();
    await daemon?.ops.close();
    try {
      recording?.close();
    } catch (e) {
      io.stderr(`mm run: sealing the recording failed: ${e instanceof Error ? e.message : String(e)}\n`);
    }
    embedded?.stop();
    stopDriver?.();
  }
}

/**
 * A bind failure of the operator server in config terms: which key, which value, and how to change
 * it (the demo has no config of its own to edit). Undefined for any other error.
 */
export function describeServeError(e: unknown, config: Pick<Config, "metrics">, configFile: string | undefined): string | undefined {
  const code = (e as { code?: unknown } | null | undefined)?.code;
  const { host, port } = config.metrics;
  const where = `${hostForUrl(host)}:${port}`;
  const how =
    configFile === undefined
      ? "copy configs/demo.yaml, change metrics.port in the copy (0 picks a free port) and run `mm run --config <copy>`"
      : `change metrics.port in ${configFile} (0 picks a free port)`;
  switch (code) {
    case "EADDRINUSE":
      return `cannot serve metrics: metrics.port ${port} is already in use on ${where} (another mm run?); ${how}`;
    case "EACCES":
      return `cannot serve metrics: not allowed to listen on metrics.port ${port} (${where}; ports below 1024 need privileges); ${how}`;
    case "EADDRNOTAVAIL":
      return `cannot serve metrics: metrics.host ${host} is not an address of this machine; change metrics.host${configFile === undefined ? "" : ` in ${configFile}`}`;
    default:
      return undefined;
  }
}

function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

export default runCommand;
