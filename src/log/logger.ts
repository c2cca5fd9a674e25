/**
 * The process logger: pino, one JSON object per line, with secrets kept out of the bytes it
 * writes by three layers (each test-covered on its own):
 *
 *  1. pino `redact` paths: the X-Api-Key / Authorization headers of a request or response
 *     object, and apiKey / privateKey / secret / token / password at the top level or one
 *     level down;
 *  2. `formatters.log` / `formatters.bindings` / error serializers run `redactKeys`: secret-named
 *     keys at any depth (including *Secret, *PrivateKey), Secret instances;
 *  3. every finished line goes through `redactLogLine`: anything shaped like an API key or a
 *     private key, and every Secret value built in this process, wherever it sits (messages,
 *     error messages and stacks, interpolated arguments).
 *
 * Timestamps come from the injected Clock so a backtest's logs carry virtual time.
 *
 * Format: JSON lines, except on a terminal, where pino-pretty prints one readable line per entry
 * (time, level, message, then the fields; no pid/hostname). A container, CI or a pipe is not a
 * terminal, so those keep JSON. MM_LOG_FORMAT=json|pretty chooses explicitly. The scrubbing
 * (layer 3) runs on the JSON line before pino-pretty sees it.
 */
import pinoPretty from "pino-pretty";
import { destination as pinoDestination, pino, stdSerializers, type DestinationStream, type LevelWithSilent, type Logger } from "pino";
import { RealClock, type Clock } from "../core/clock.js";
import { REDACTED, redactKeys, redactLogLine } from "./redact.js";

export type { Logger };
export type LogLevel = LevelWithSilent;

export interface LoggerOptions {
  level?: LogLevel;
  /** Component or process name, written as `name` on every line. */
  name?: string;
  /** Time source for the `time` field (ISO 8601). Default: the real clock. */
  clock?: Clock;
  /** For the default destination (stdout): default logFormatOf(process.env, stdout is a TTY). */
  format?: LogFormat;
}

export type LogFormat = "json" | "pretty";

/**
 * The format for stdout: MM_LOG_FORMAT when set (json or pretty; anything else is a problem to
 * report), else pretty on a terminal and JSON otherwise (pipes, files, containers, CI).
 */
export function logFormatOf(env: Readonly<Record<string, string | undefined>>, isTty: boolean): LogFormat | { problem: string } {
  const v = env["MM_LOG_FORMAT"]?.trim();
  if (v === undefined || v === "") return isTty && (env["CI"] === undefined || env["CI"] === "" || env["CI"] === "false") ? "pretty" : "json";
  if (v === "json" || v === "pretty") return v;
  return { problem: `MM_LOG_FORMAT must be json or pretty (got ${JSON.stringify(v)})` };
}

function defaultFormat(): LogFormat {
  const f = logFormatOf(process.env, process.stdout.isTTY === true);
  return typeof f === "string" ? f : "json";
}

/** pino-pretty on stdout, synchronous like the JSON destination (nothing lost at exit). */
export function prettyDestination(options: { colorize?: boolean; destination?: number | NodeJS.WritableStream } = {}): DestinationStream {
  return pinoPretty({
    destination: options.destination ?? 1,
    sync: true,
    colorize: options.colorize ?? process.stdout.isTTY === true,
    translateTime: "UTC:HH:MM:ss.l",
    ignore: "pid,hostname,name",
    singleLine: true,
  });
}

const HEADER_NAMES = ['"x-api-key"', '"X-Api-Key"', '"X-API-KEY"', "authorization", "Authorization", "cookie", "Cookie"];
const HEADER_HOLDERS = ["headers", "req.headers", "request.headers", "res.headers", "response.headers", "*.headers"];
const SECRET_FIELDS = ["apiKey", "privateKey", "secret", "token", "password"];

/** The pino redact paths (layer 1 above). */
export const REDACT_PATHS: readonly string[] = [
  ...HEADER_HOLDERS.flatMap((holder) => HEADER_NAMES.map((h) => `${holder}[${h}]`)),
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
];

/** Wraps a destination so every line is scrubbed before it is written (layer 3). */
export function scrubbingDestination(destination: DestinationStream): DestinationStream {
  return { write: (line: string) => destination.write(redactLogLine(line)) };
}

function serializeError(error: unknown): unknown {
  return error instanceof Error ? redactKeys(stdSerializers.errWithCause(error)) : redactKeys(error);
}

/**
 * A JSON-lines logger. `destination` defaults to stdout (synchronous writes, so nothing is lost
 * when the process exits); tests pass a collector.
 */
export function createLogger(options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const clock = options.clock ?? new RealClock();
  const level = options.level ?? "info";
  const target =
    destination ??
    (level !== "silent" && (options.format ?? defaultFormat()) === "pretty" ? prettyDestination() : pinoDestination({ dest: 1, sync: true }));
  return pino(
    {
      level,
      ...(options.name === undefined ? {} : { name: options.name }),
      timestamp: () => `,"time":"${new Date(clock.now()).toISOString()}"`,
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      formatters: {
        level: (label) => ({ level: label }),
        bindings: (bindings) => redactKeys(bindings) as Record<string, unknown>,
        log: (object) => redactKeys(object) as Record<string, unknown>,
      },
      serializers: { err: serializeError, error: serializeError },
    },
    scrubbingDestination(target),
  );
}
