/**
 * Loading a daemon config: YAML text -> zod schema -> Config, with errors that name the file,
 * the line, the key path and what was expected:
 *
 *   configs/x.yaml:12: strategy.params.levels: expected number, received string
 *
 * Every problem is reported in one pass: the schema's, the strategy's params (checked against the
 * strategy's own schema even when other sections are wrong), the cross-field rules of the
 * sections that are valid, and bad environment overrides (env-overrides.ts). An unknown key or
 * value gets "did you mean" when a known one is close. Money written as a YAML number is read
 * from its source text (schema-walk.ts moneyFromSource), never from a float.
 *
 * Loading is synchronous (the file and any key files are small and read once at start-up).
 */
import { UnknownStrategyError, safeParseStrategyParams, strategyNames } from "../../strategies/registry.js";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { z } from "zod";
import { ValidationError, formatPath, type ValidationIssue } from "../core/validation.js";
import { redactSecrets } from "../log/redact.js";
import type { Env } from "./interpolate.js";
import { applyEnvOverrides } from "./env-overrides.js";
import { buildConfigSchema, crossFieldIssues, type ConfigSchema, type ParsedConfig } from "./schema.js";
import { knownKeysAt, moneyFromSource } from "./schema-walk.js";
import { didYouMean } from "./suggest.js";
import { finalizeSimulatorWallets, type WalletConfig } from "./wallets.js";
import { Secret } from "../core/secret.js";
import { readYaml, type YamlSource } from "./yaml-source.js";

type WithWallets<T> = Omit<T, "wallets"> & { wallets: WalletConfig[] };
export type LiveConfig = WithWallets<Extract<ParsedConfig, { mode: "live" }>>;
export type SimulatorModeConfig = WithWallets<Extract<ParsedConfig, { mode: "simulator" }>>;
/** A loaded, validated config: every default filled in, every secret resolved. */
/** `mode: paper` (paper-section.ts): public data from a real platform, orders matched locally (src/paper). */
export type PaperModeConfig = WithWallets<Extract<ParsedConfig, { mode: "paper" }>>;

export type Config = LiveConfig | SimulatorModeConfig | PaperModeConfig;

export type LivePlatformConfig = LiveConfig["platform"];
export type PlatformRateConfig = SimulatorModeConfig["platform"];
export type SimulatorSettings = SimulatorModeConfig["simulator"];
export type InstanceConfig = Config["instance"];
export type MarketsConfig = Config["markets"];
export type StrategyConfig = Config["strategy"];
export type QuotingConfig = Config["quoting"];
export type RiskConfig = Config["risk"];
export type MetricsConfig = Config["metrics"];
export type AdminConfig = Config["admin"];
export type LogConfig = Config["log"];
export type ShutdownConfig = Config["shutdown"];

export interface ConfigIssue extends ValidationIssue {
  /** 1-based line in the file, when known. */
  line?: number | undefined;
}

function formatIssue(file: string, issue: ConfigIssue): string {
  const where = issue.line === undefined ? file : `${file}:${issue.line}`;
  return issue.path === "" ? `${where}: ${issue.message}` : `${where}: ${issue.path}: ${issue.message}`;
}

/** A config that cannot be used: one issue per problem, each naming file, line and key. */
export class ConfigError extends ValidationError {
  constructor(
    readonly file: string,
    override readonly issues: ConfigIssue[],
  ) {
    super(file, issues);
    this.message = issues.map((i) => formatIssue(file, i)).join("\n");
  }
}

/** zod's wording made shorter, and unknown keys reported one by one at their own path. */
function toIssues(error: z.ZodError, source: YamlSource, schema: ConfigSchema, input: unknown): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      const known = knownKeysAt(schema, issue.path).filter((k) => !issue.keys.includes(k));
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        out.push({ path: formatPath(path), message: `unknown key${didYouMean(key, known)}`, line: source.lineOf(path) });
      }
      continue;
    }
    let message = issue.message.replace(/^Invalid input: /, "");
    if (issue.code === "invalid_type" && /received undefined$/.test(message)) {
      message = `required (${message.replace(/, received undefined$/, "")})`;
    } else if (issue.code === "invalid_union" || issue.code === "invalid_value") {
      // A discriminated union names its options (untyped in zod's issue type); so does an enum.
      const options: unknown = (issue as { options?: unknown; values?: unknown }).options ?? (issue as { values?: unknown }).values;
      if (Array.isArray(options)) {
        const given = valueAt(input, issue.path);
        const hint = typeof given === "string" ? didYouMean(given, options.map(String)) : "";
        message = `expected one of ${options.map((o) => JSON.stringify(o)).join(" | ")}${hint}`;
      }
    }
    out.push({ path: formatPath(issue.path), message, line: source.lineOf(issue.path) });
  }
  return out;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const k of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** In file order, so the report reads top to bottom (sort is stable for equal lines). */
function inFileOrder(issues: ConfigIssue[]): ConfigIssue[] {
  return [...issues].sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));
}

export interface ParseOptions {
  /** Where relative paths (key files, scenarios) resolve from; default: the file's directory. */
  baseDir?: string;
}

/** Validate config text. `fileName` names the file in errors and locates relative paths. */
export function parseConfig(
  text: string,
  fileName: string,
  env: Env = process.env,
  options: ParseOptions = {},
): Config {
  const source = readYaml(text);
  if (source.errors.length > 0) {
    throw new ConfigError(
      fileName,
      source.errors.map((e) => ({
        path: "",
        message: `YAML syntax error (column ${e.col}): ${redactSecrets(e.message)}`,
        line: e.line,
      })),
    );
  }
  const value = source.value;
  if (value === null || value === undefined) {
    throw new ConfigError(fileName, [{ path: "", message: "the file is empty (expected at least mode and strategy)" }]);
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ConfigError(fileName, [
      { path: "", message: `expected a mapping of sections, received ${Array.isArray(value) ? "a list" : typeof value}`, line: 1 },
    ]);
  }
  const baseDir = options.baseDir ?? dirname(resolve(fileName));
  const overridden = applyEnvOverrides(value as Record<string, unknown>, env);
  // A bad override points at the setting it overrides when the file has one.
  const issues: ConfigIssue[] = overridden.issues.map((i) => {
    const path = i.path.split(".");
    return { ...i, line: source.scalarText(path) === undefined ? undefined : source.lineOf(path) };
  });
  const schema = schemaFor(env, baseDir);
  try {
    return checked(fileName, source, schema, overridden.value, issues, { env, baseDir });
  } finally {
    // Nothing of this load stays reachable from the shared schema.
    LOAD_CONTEXT.env = {};
    LOAD_CONTEXT.baseDir = "";
  }
}

/**
 * The config schema, built once per process: building it is most of a parseConfig's time (zod; about
 * 10 to 35 ms here, paid per backtest of a sweep and per test). Its fields read the environment and
 * the base directory only while a value is parsed, through LOAD_CONTEXT, which each load points at
 * its own before parsing (parsing is synchronous, so two loads never overlap; parseConfig resets it).
 */
const LOAD_CONTEXT: { env: Env; baseDir: string } = { env: {}, baseDir: "" };
let sharedSchema: ConfigSchema | undefined;

function schemaFor(env: Env, baseDir: string): ConfigSchema {
  LOAD_CONTEXT.env = env;
  LOAD_CONTEXT.baseDir = baseDir;
  return (sharedSchema ??= buildConfigSchema(LOAD_CONTEXT));
}

function checked(fileName: string, source: YamlSource, schema: ConfigSchema, value: unknown, issues: ConfigIssue[], ctx: { env: Env; baseDir: string }): Config {
  const { env, baseDir } = ctx;
  const input = moneyFromSource(schema, value, (path) => source.scalarText(path));
  const result = schema.safeParse(input);
  if (!result.success) {
    issues.push(...toIssues(result.error, source, schema, input));
    issues.push(...crossFieldIssues(input, { env, baseDir }).map((i) => ({ path: formatPath(i.path), message: i.message, line: source.lineOf(i.path) })));
  }
  // The strategy is checked whatever else is wrong (its params are a free mapping to the schema).
  const strategy = result.success ? result.data.strategy : rawStrategy(input);
  if (strategy !== undefined) {
    const taken = new Set(issues.map((i) => i.path));
    const covered = (path: string): boolean => [...taken].some((t) => t === path || path.startsWith(`${t}.`));
    issues.push(...checkStrategy(strategy.name, strategy.params, source).filter((i) => !covered(i.path)));
  }
  if (issues.length > 0 || !result.success) throw new ConfigError(fileName, inFileOrder(dedupe(issues)));
  const parsed = result.data;
  if (parsed.mode === "live") return parsed;
  if (parsed.mode === "paper") {
    // Keys derived as in simulator mode, named for the seed that made them.
    const seed = parsed.paper.seed;
    const wallets = finalizeSimulatorWallets(parsed.wallets, seed).map((w) =>
      w.privateKey.origin === `simulator.seed ${seed}` ? { ...w, privateKey: new Secret(w.privateKey.reveal(), `paper.seed ${seed}`) } : w,
    );
    return { ...parsed, wallets };
  }
  return { ...parsed, wallets: finalizeSimulatorWallets(parsed.wallets, parsed.simulator.seed) };
}

function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `strategy: { name, params }` from the raw value, when its shape lets the strategy be checked. */
function rawStrategy(input: unknown): { name: string; params: unknown } | undefined {
  const strategy = valueAt(input, ["strategy"]);
  if (typeof strategy !== "object" || strategy === null || Array.isArray(strategy)) return undefined;
  const { name, params } = strategy as { name?: unknown; params?: unknown };
  if (typeof name !== "string" || !/^[a-z][a-z0-9_-]*$/.test(name)) return undefined;
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) return undefined;
  return { name, params: params ?? {} };
}

/** The strategy must exist and its params must pass that strategy's own schema. */
function checkStrategy(name: string, params: unknown, source: YamlSource): ConfigIssue[] {
  const result = safeParseStrategyParams(name, params);
  if (result.ok) return [];
  if (result.error instanceof UnknownStrategyError) {
    return [{ path: "strategy.name", message: `${result.error.message}${didYouMean(name, strategyNames())}`, line: source.lineOf(["strategy", "name"]) }];
  }
  return result.issues.map((issue) => {
    const sub = issue.path === "(root)" ? [] : issue.path.split(".");
    const path = ["strategy", "params", ...sub];
    return { path: path.join("."), message: issue.message, line: source.lineOf(path) };
  });
}

/** Read and validate a config file; every failure is a ConfigError naming the file. */
export function loadConfig(path: string, env: Env = process.env): Config {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : (code ?? "unreadable");
    throw new ConfigError(path, [{ path: "", message: `cannot read config file: ${reason}` }]);
  }
  return parseConfig(text, path, env);
}
