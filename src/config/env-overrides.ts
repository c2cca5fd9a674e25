/**
 * Environment overrides for the settings operators change per deployment (12-factor): the same
 * config file in every environment, these three set by the environment.
 *
 *   MM_LOG_LEVEL     log.level       fatal | error | warn | info | debug | trace | silent
 *   MM_METRICS_HOST  metrics.host    the address the operator server binds (0.0.0.0 in a container)
 *   MM_METRICS_PORT  metrics.port    0..65535 (0: any free port)
 *
 * Precedence: a command-line flag > the environment > the config file > the default. An empty
 * variable counts as unset. A bad value is a config problem naming the variable, reported with
 * the file's other problems.
 */
import type { Env } from "./interpolate.js";
import { LOG_LEVELS } from "./schema.js";
import { didYouMean } from "./suggest.js";

export const ENV_OVERRIDES = [
  { variable: "MM_LOG_LEVEL", path: ["log", "level"] },
  { variable: "MM_METRICS_HOST", path: ["metrics", "host"] },
  { variable: "MM_METRICS_PORT", path: ["metrics", "port"] },
] as const;

type LogLevelName = (typeof LOG_LEVELS)[number];

/** A bad override: the setting's dotted path and what is wrong (load.ts adds the line). */
export interface EnvIssue {
  path: string;
  message: string;
}

function present(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

/** MM_LOG_LEVEL when set: the level, or what is wrong with it. */
export function envLogLevel(env: Env): LogLevelName | { problem: string } | undefined {
  const v = present(env, "MM_LOG_LEVEL");
  if (v === undefined) return undefined;
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevelName;
  return { problem: `MM_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got ${JSON.stringify(v)})${didYouMean(v, LOG_LEVELS)}` };
}

/**
 * The config's plain value with the environment's overrides written in (a new object; the input
 * is not changed), and a problem for each variable with a bad value (that setting left as it was).
 */
export function applyEnvOverrides(value: Record<string, unknown>, env: Env): { value: Record<string, unknown>; issues: EnvIssue[] } {
  const out: Record<string, unknown> = { ...value };
  const issues: EnvIssue[] = [];
  const set = (section: "log" | "metrics", key: string, v: unknown): void => {
    const current = out[section];
    // A section that is not a mapping is the schema's to report; leave it alone.
    if (current !== undefined && (typeof current !== "object" || current === null || Array.isArray(current))) return;
    out[section] = { ...(current as Record<string, unknown> | undefined), [key]: v };
  };
  const level = envLogLevel(env);
  if (typeof level === "object") issues.push({ path: "log.level", message: level.problem });
  else if (level !== undefined) set("log", "level", level);
  const host = present(env, "MM_METRICS_HOST");
  if (host !== undefined) {
    if (/\s/.test(host)) issues.push({ path: "metrics.host", message: `MM_METRICS_HOST must be a host name or address without spaces (got ${JSON.stringify(host)})` });
    else set("metrics", "host", host);
  }
  const port = present(env, "MM_METRICS_PORT");
  if (port !== undefined) {
    if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535) issues.push({ path: "metrics.port", message: `MM_METRICS_PORT must be a port number 0..65535 (got ${JSON.stringify(port)})` });
    else set("metrics", "port", Number(port));
  }
  return { value: out, issues };
}
