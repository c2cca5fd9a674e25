/**
 * `mm run [--config FILE]`: the market-maker daemon.
 *
 * Without --config it runs the demo: configs/demo.yaml against the embedded simulator,
 * in-process, on the real clock, printing a status line every few seconds. A live config talks
 * to the platform over HTTPS/WSS. SIGINT / SIGTERM pull every quote and cancel every order; the
 * exit status is 0 when nothing was left open, 1 otherwise (a second signal exits at once, 130).
 */
import { RealClock, VirtualClock, type Clock } from "../core/clock.js";
import { Rng } from "../core/rng.js";
import { ConfigError, loadConfig, type Config } from "../config/index.js";
import { createLogger, redactSecrets } from "../log/index.js";
import { createDaemon, type Daemon, type ShutdownReport } from "../bot/engine/daemon.js";
import { defaultDemoConfigPath, driveVirtualClock, startEmbeddedSimulator, type EmbeddedSimulator } from "../bot/engine/demo.js";
import { OPTIONAL_PLUGINS, loadPlugins, type DaemonPlugin } from "../bot/engine/plugins.js";
import { formatStatusLine } from "../bot/engine/status.js";

export const USAGE = `Usage: mm run [--config FILE] [--status-every SECONDS]

Run the market-maker daemon. Without --config: the demo (configs/demo.yaml) against the
embedded platform simulator, in-process, on the real clock.

Options:
  --config FILE            daemon config (YAML); mode simulator runs the embedded simulator
  --status-every SECONDS   print a status line this often (default 5; 0: never)

Ctrl-C or SIGTERM: stop quoting, cancel every order, exit 0 when nothing is left open, 1 otherwise.
`;

export interface RunIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Register the stop handler for SIGINT / SIGTERM; returns the unregister function. */
  onStopSignal: (handler: (signal: string) => void) => () => void;
  /** Immediate exit (second signal). */
  exitNow: (code: number) => void;
}

const processIo: RunIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  onStopSignal: (handler) => {
    const onInt = (): void => handler("SIGINT");
    const onTerm = (): void => handler("SIGTERM");
    process.on("SIGINT", onInt);
    process.on("SIGTERM", onTerm);
    return () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    };
  },
  exitNow: (code) => process.exit(code),
};

interface Args {
  config: string | undefined;
  statusEverySec: number;
}

function parseArgs(argv: string[]): Args | string {
  const out: Args = { config: undefined, statusEverySec: 5 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string | undefined => argv[++i];
    if (a === "--config") {
      const v = value();
      if (v === undefined) return "--config needs a FILE";
      out.config = v;
    } else if (a === "--status-every") {
      const v = Number(value());
      if (!Number.isFinite(v) || v < 0) return "--status-every needs a number of seconds >= 0";
      out.statusEverySec = v;
    } else return `unknown option ${a}`;
  }
  return out;
}

function describeReport(r: ShutdownReport): string {
  const lines = r.wallets.map(
    (w) =>
      `  ${w.name} (${w.wallet}): cancelled ${w.cancelled}, left open ${w.leftover.length}${w.unresolved.length > 0 ? `, unresolved ${w.unresolved.length}` : ""}` +
      (w.errors.length > 0 ? ` [${w.errors.join("; ")}]` : ""),
  );
  return `shutdown (${r.reason}): ${r.exitCode === 0 ? "clean" : "ORDERS LEFT"}\n${lines.join("\n")}\n`;
}

export async function runCommand(argv: string[], io: RunIo = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === "string") {
    io.stderr(`mm run: ${args}\n\n${USAGE}`);
    return 2;
  }
  let config: Config;
  const file = args.config ?? defaultDemoConfigPath();
  try {
    config = loadConfig(file);
  } catch (e) {
    if (e instanceof ConfigError) {
      io.stderr(`${redactSecrets(e.message)}\n${file}: invalid\n`);
      return 2;
    }
    throw e;
  }

  const real = new RealClock();
  let clock: Clock = real;
  let stopDriver: (() => void) | undefined;
  if (config.mode === "simulator" && config.simulator.clock === "virtual") {
    const v = new VirtualClock(real.now());
    stopDriver = driveVirtualClock(v, config.simulator.speed ?? 1, real);
    clock = v;
  }
  const logger = createLogger({ level: config.log.level, name: "mm", clock });
  let embedded: EmbeddedSimulator | undefined;
  let plugins: DaemonPlugin[] = [];
  let daemon: Daemon | undefined;
  let statusTimer: ReturnType<typeof real.setInterval> | undefined;
  let unregister: (() => void) | undefined;
  try {
    if (config.mode === "simulator") {
      embedded = startEmbeddedSimulator(config, clock, logger.child({ component: "sim" }, { level: "warn" }));
      io.stdout(`mm run: demo against the embedded simulator (${file}); Ctrl-C to stop\n`);
    }
    plugins = await loadPlugins(OPTIONAL_PLUGINS, (spec) => import(spec), config, { clock, logger });
    const risk = plugins.find((p) => p.risk !== undefined)?.risk;
    daemon = createDaemon(config, {
      clock,
      logger,
      observer: plugins.flatMap((p) => (p.observer ? [p.observer] : [])),
      ...(risk ? { risk } : {}),
      ...(embedded ? { transport: embedded.transport, connector: embedded.connector, apiKey: embedded.apiKey } : {}),
      ...(config.mode === "simulator" && config.simulator.clock === "virtual" ? { rng: new Rng(config.simulator.seed) } : {}),
    });
    for (const p of plugins) await p.attach?.(daemon);

    let requested: ((signal: string) => void) | undefined;
    const stopRequested = new Promise<string>((resolve) => (requested = resolve));
    let signals = 0;
    unregister = io.onStopSignal((signal) => {
      signals += 1;
      if (signals > 1) {
        io.stderr(`mm run: ${signal} again: exiting without waiting for the cancels\n`);
        io.exitNow(130);
        return;
      }
      io.stderr(`mm run: ${signal}: pulling quotes and cancelling every order...\n`);
      requested!(signal);
    });

    const started = daemon.start();
    const first = await Promise.race([started.then(() => "started" as const), stopRequested]);
    if (first === "started") {
      const d = daemon;
      if (args.statusEverySec > 0) statusTimer = real.setInterval(() => io.stdout(`${formatStatusLine(d.status())}\n`), args.statusEverySec * 1000);
    } else started.catch(() => undefined);
    const reason = first === "started" ? await stopRequested : first;
    real.clearInterval(statusTimer);
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
    unregister?.();
    for (const p of plugins) await p.close?.();
    embedded?.stop();
    stopDriver?.();
  }
}

export default runCommand;
