/**
 * `mm check-config FILE`: validate a daemon config without starting anything.
 * Exit 0 and a short summary when valid; exit 2 with one line per problem (file:line: key:
 * what was expected) when the file is missing, is not YAML, or fails the schema.
 */
import { ConfigError, describeConfig, loadConfig, type Env } from "../config/index.js";
import { capacityWarning } from "../config/capacity-limit.js";
import { redactSecrets } from "../log/redact.js";
import { LOG_LEVEL_FLAG, parseFlags, usageError } from "./args.js";

export const USAGE = `Usage: mm check-config FILE [--log-level L]

Validate a daemon config file: YAML syntax, every key and value, secrets (which must come from
\${ENV_VAR} references or { file: path }), and that every referenced environment variable is set.

Exit status: 0 valid, 2 invalid (each problem printed as FILE:LINE: key.path: message).
A valid config with more wallets x markets than one process holds (docs/operations.md) draws a
warning on stderr; the exit status stays 0.

MM_LOG_LEVEL, MM_METRICS_HOST and MM_METRICS_PORT are applied as \`mm run\` applies them (and
checked). --log-level is accepted like every command's (this one writes no log lines).
`;

export interface CheckConfigIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Env;
}

const processIo: CheckConfigIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
};

export function checkConfig(argv: string[], io: CheckConfigIo = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return Promise.resolve(0);
  }
  const parsed = parseFlags(argv, LOG_LEVEL_FLAG, { maxPositionals: 1 });
  const why = typeof parsed === "string" ? parsed : parsed.positionals.length === 0 ? "missing FILE" : undefined;
  if (why !== undefined || typeof parsed === "string") {
    io.stderr(usageError("check-config", why ?? "", USAGE));
    return Promise.resolve(2);
  }
  const file = parsed.positionals[0]!;
  try {
    const config = loadConfig(file, io.env);
    io.stdout(`${file}: OK\n${describeConfig(config).map((l) => `  ${l}\n`).join("")}`);
    // Valid but more than one process holds: said, not refused (exit 0).
    const warning = capacityWarning(config);
    if (warning !== undefined) io.stderr(`${file}: ${warning}\n`);
    return Promise.resolve(0);
  } catch (error) {
    if (error instanceof ConfigError) {
      const count = error.issues.length;
      io.stderr(`${redactSecrets(error.message)}\n${file}: invalid (${count} problem${count === 1 ? "" : "s"})\n`);
      return Promise.resolve(2);
    }
    io.stderr(`mm check-config: ${redactSecrets(error instanceof Error ? error.message : String(error))}\n`);
    return Promise.resolve(1);
  }
}

export default checkConfig;
