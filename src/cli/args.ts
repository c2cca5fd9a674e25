/**
 * The flag layer every `mm` command parses with: Node's own `util.parseArgs` (tokens mode) for
 * the splitting (`--flag value`, `--flag=value`, `-h`, `--` ends the options), and on top of it
 * what parseArgs leaves to its caller: a message naming the flag for each mistake ("unknown option
 * --confg (did you mean --config?)", "--config needs a value", "--seed given twice"), the help flag
 * on every command, and `--log-level` checked once for all.
 *
 * Why parseArgs and not commander: the commands are functions `(argv, io) => exit code` that tests
 * call with captured output; commander writes to the process streams and exits by itself unless
 * each of those is overridden, and its help would duplicate the USAGE texts we keep by hand.
 * parseArgs ships with Node (no dependency), is strict about the grammar and returns tokens, so
 * this layer only words the errors.
 */
import { parseArgs } from "node:util";
import { didYouMean } from "../config/suggest.js";
import { LOG_LEVELS } from "../config/index.js";
import { logFormatOf } from "../log/index.js";

export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface FlagSpec {
  /** string: takes a value; boolean: a switch. */
  type: "string" | "boolean";
  /** One-letter alias (without the dash). */
  short?: string;
}

/** Flags by long name, without the leading `--`. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

export interface ParsedFlags {
  /** Each given flag's value (a switch: true), by long name. */
  values: Map<string, string | true>;
  positionals: string[];
  /** -h or --help was given (the other checks are then skipped). */
  help: boolean;
}

export interface ParseFlagsOptions {
  /** How many positional arguments the command takes (default 0). */
  maxPositionals?: number;
}

const HELP: FlagSpecs = { help: { type: "boolean", short: "h" } };

/** The `--log-level` flag, shared by every command that logs. */
export const LOG_LEVEL_FLAG: FlagSpecs = { "log-level": { type: "string" } };

function looksLikeOption(value: string): boolean {
  return value.length > 1 && value.startsWith("-") && !/^-\d/.test(value);
}

/**
 * Parse `argv` against `specs`; a string is the usage error to print (exit 2). Values are not
 * interpreted here, except `--log-level`, which must be a pino level.
 */
export function parseFlags(argv: readonly string[], specs: FlagSpecs, options: ParseFlagsOptions = {}): ParsedFlags | string {
  const all: FlagSpecs = { ...specs, ...HELP };
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(Object.entries(all).map(([name, s]) => [name, s.short === undefined ? { type: s.type } : { type: s.type, short: s.short }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((t) => t.kind === "option" && t.name === "help")) return { values: new Map(), positionals: [], help: true };
  const known = Object.keys(all).map((n) => `--${n}`);
  const values = new Map<string, string | true>();
  const positionals: string[] = [];
  // A string flag written as `--flag value` consumes the next argument, which parseArgs (not
  // strict) takes even when it is another flag: `--config --out x`. That is a missing value.
  for (const t of tokens) {
    if (t.kind === "positional") {
      positionals.push(t.value);
      continue;
    }
    if (t.kind === "option-terminator") continue;
    const spec = all[t.name];
    if (spec === undefined) return `unknown option ${t.rawName}${didYouMean(`--${t.name}`, known)}`;
    const shown = `--${t.name}`;
    if (values.has(t.name)) return `${shown} given twice`;
    if (spec.type === "boolean") {
      if (t.value !== undefined) return `${shown} takes no value`;
      values.set(t.name, true);
      continue;
    }
    if (t.value === undefined || t.value === "" || (!t.inlineValue && looksLikeOption(t.value))) return `${shown} needs a value`;
    values.set(t.name, t.value);
  }
  const max = options.maxPositionals ?? 0;
  if (positionals.length > max) return `unexpected argument ${JSON.stringify(positionals[max])}`;
  const level = values.get("log-level");
  if (typeof level === "string" && !(LOG_LEVELS as readonly string[]).includes(level)) {
    return `--log-level must be one of ${LOG_LEVELS.join(", ")} (got ${JSON.stringify(level)})${didYouMean(level, LOG_LEVELS)}`;
  }
  return { values, positionals, help: false };
}

/** The string value of a flag (undefined when absent). */
export function stringFlag(parsed: ParsedFlags, name: string): string | undefined {
  const v = parsed.values.get(name);
  return typeof v === "string" ? v : undefined;
}

/** `--log-level` as given (already checked by parseFlags). */
export function logLevelFlag(parsed: ParsedFlags): LogLevelName | undefined {
  return stringFlag(parsed, "log-level") as LogLevelName | undefined;
}

/**
 * What a command prints on a usage error (exit 2): the problem, the synopsis (the first paragraph
 * of its USAGE text) and where the full help is.
 */
export function usageError(command: string, problem: string, usage: string): string {
  const synopsis = usage.split("\n\n")[0]!.trimEnd();
  return `mm ${command}: ${problem}\n${synopsis}\nRun \`mm help ${command}\` for the options.\n`;
}

/** What is wrong with MM_LOG_FORMAT, if anything (checked by the commands that log to stdout). */
export function logFormatProblem(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const f = logFormatOf(env, false);
  return typeof f === "string" ? undefined : f.problem;
}
