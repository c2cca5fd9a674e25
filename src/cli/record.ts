/**
 * `mm record --config FILE --out DIR`: record what the platform publishes for the config's
 * markets (rows and their changes, order books, public trades) into a data set directory
 * (docs/backtest.md, "Recording"). A live config reads the platform at `platform.baseUrl`; a
 * simulator config records from the embedded simulator (on its clock: `simulator.clock: virtual`
 * with a `speed` runs faster than real time). Resumes a data set already in DIR.
 *
 * Ctrl-C / SIGTERM: stop polling, seal the hot segment, exit 0. Exit 1 on a runtime failure,
 * 2 on bad flags or config.
 */
import { createClient, type Transport } from "../api/index.js";
import { parseDuration } from "../backtest/duration.js";
import { startEmbeddedSimulator, type EmbeddedSimulator } from "../bot/engine/demo.js";
import { LOG_LEVELS } from "../config/index.js";
import { LOG_LEVEL_FLAG, logFormatProblem, logLevelFlag, parseFlags, stringFlag, usageError, type FlagSpecs } from "./args.js";
import type { Clock } from "../core/clock.js";
import { Rng } from "../core/rng.js";
import { DataSetWriter } from "../data/index.js";
import { createLogger, redactSecrets } from "../log/index.js";
import { commandClock, loadCommandConfig } from "./command-setup.js";
import { processStopSignals, stopOnSignals, type SignalRegistrar, type StopRequest } from "./signals.js";
import { RateGate, platformGateOptions } from "../ratelimit/index.js";
import { Recorder } from "../record/index.js";

export const USAGE = `Usage: mm record --config FILE --out DIR [--duration D] [--rotate-mb N] [--log-level L]

Record market rows (and every status change), order books and public trades of the config's
markets into the data set DIR (created, or resumed when it exists).

Options:
  --config FILE    daemon config (its markets selection and platform; mode simulator records
                   from the embedded simulator)
  --out DIR        data set directory
  --duration D     stop after this long (90m, 6h, 2d, 1h30m, 45s); default: until Ctrl-C
  --rotate-mb N    seal the segment into Parquet after N MiB of line log (default 64)
  --log-level L    ${LOG_LEVELS.join(" | ")} (default: MM_LOG_LEVEL, else the config's log.level)
  -h, --help       this text

Ctrl-C or SIGTERM seals the segment being written and exits 0.
`;

export interface RecordIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Register the stop handler for SIGINT / SIGTERM; returns the unregister function. */
  onStopSignal: SignalRegistrar;
}

const processIo: RecordIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  onStopSignal: processStopSignals,
};

interface Args {
  config: string;
  out: string;
  durationMs: number | undefined;
  rotateBytes: number;
  logLevel: (typeof LOG_LEVELS)[number] | undefined;
}

const FLAGS: FlagSpecs = {
  config: { type: "string" },
  out: { type: "string" },
  duration: { type: "string" },
  "rotate-mb": { type: "string" },
  ...LOG_LEVEL_FLAG,
};

export function parseRecordArgs(argv: readonly string[]): Args | string {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") return parsed;
  let durationMs: number | undefined;
  let rotateBytes = 64 * 1024 * 1024;
  const duration = stringFlag(parsed, "duration");
  if (duration !== undefined) {
    const d = parseDuration(duration);
    if (typeof d === "string") return `--duration: ${d}`;
    durationMs = d;
  }
  const rotate = stringFlag(parsed, "rotate-mb");
  if (rotate !== undefined) {
    const n = Number(rotate);
    if (!/^\d+(\.\d+)?$/.test(rotate) || !(n > 0) || n > 65_536) return `--rotate-mb: must be a number of MiB above 0 and at most 65536 (got ${JSON.stringify(rotate)})`;
    rotateBytes = Math.round(n * 1024 * 1024);
  }
  const config = stringFlag(parsed, "config");
  const out = stringFlag(parsed, "out");
  if (config === undefined) return "--config FILE is required";
  if (out === undefined) return "--out DIR is required";
  return { config, out, durationMs, rotateBytes, logLevel: logLevelFlag(parsed) };
}

export async function recordCommand(argv: string[], io: RecordIo = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const args = parseRecordArgs(argv);
  const envProblem = logFormatProblem();
  if (typeof args !== "string" && envProblem !== undefined) {
    io.stderr(`mm record: ${envProblem}\n`);
    return 2;
  }
  if (typeof args === "string") {
    io.stderr(usageError("record", args, USAGE));
    return 2;
  }
  const config = loadCommandConfig(args.config, io.stderr);
  if (config === 2) return 2;
  const { clock, stopDriver } = commandClock(config);
  const logger = createLogger({ level: args.logLevel ?? config.log.level, name: "mm-record", clock });
  let embedded: EmbeddedSimulator | undefined;
  let recorder: Recorder | undefined;
  let writer: DataSetWriter | undefined;
  let stopSignals: StopRequest | undefined;
  let timer: ReturnType<Clock["setTimeout"]> | undefined;
  try {
    let transport: Transport | undefined;
    if (config.mode === "simulator") {
      embedded = startEmbeddedSimulator(config, clock, logger.child({ component: "sim" }, { level: "warn" }));
      transport = embedded.transport;
    }
    const gate = new RateGate({ clock, ...platformGateOptions(config.platform) });
    const client = createClient({
      ...(transport !== undefined ? { transport } : { baseUrl: config.mode === "live" ? config.platform.baseUrl : "" }),
      ...(config.mode === "live" ? { apiKey: config.platform.apiKey } : embedded !== undefined ? { apiKey: embedded.apiKey } : {}),
      clock,
      rng: new Rng(config.mode === "simulator" ? config.simulator.seed : Date.now() >>> 0),
      gate,
      timeoutMs: config.platform.requestTimeoutMs,
    });
    writer = await DataSetWriter.open({ dir: args.out, clock, rotateBytes: args.rotateBytes });
    for (const s of writer.sealed) io.stderr(`mm record: sealed segment ${s.segment} left by an earlier run (${s.events} events, ${s.tornLines} torn line skipped)\n`);
    const w = writer;
    recorder = new Recorder({
      client,
      room: (m, p) => gate.remainingFor(m, p),
      clock,
      sink: { append: (e) => w.append(e) },
      log: logger.child({ component: "record" }),
      selection: { ...config.markets, walletMarkets: config.wallets.flatMap((x) => x.markets ?? []) },
    });

    // No `again`: a second signal does not cut the seal short (it is said and changes nothing).
    const request = stopOnSignals((h) => io.onStopSignal(h), { onStop: (signal) => io.stderr(`mm record: ${signal}: sealing and stopping\n`) });
    stopSignals = request;
    if (args.durationMs !== undefined) timer = clock.setTimeout(() => request.request("duration"), args.durationMs);
    await recorder.start();
    io.stdout(`mm record: recording ${recorder.symbols.length} markets (${recorder.symbols.join(", ")}) into ${args.out}; Ctrl-C to stop\n`);
    const why = await request.requested;
    recorder.stop();
    const sealed = writer.close();
    writer = undefined;
    const c = recorder.counters;
    io.stdout(
      `mm record: stopped (${why}): ${c.books} books, ${c.trades} trades (${c.duplicates} duplicates dropped), ${c.gaps} gaps, ${c.marketEvents} market rows, ${c.errors} read errors; ` +
        `${sealed === undefined ? "nothing to seal" : `segment ${sealed.segment} sealed (${sealed.events} events)`}\n`,
    );
    return 0;
  } catch (e) {
    io.stderr(`mm record: ${redactSecrets(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  } finally {
    clock.clearTimeout(timer);
    recorder?.stop();
    try {
      writer?.close();
    } catch (e) {
      io.stderr(`mm record: sealing failed: ${e instanceof Error ? e.message : String(e)}\n`);
    }
    stopSignals?.unregister();
    embedded?.stop();
    stopDriver?.();
  }
}

export default recordCommand;
