/**
 * `mm sim`: serve the platform simulator over HTTP and WebSocket.
 *
 *   mm sim [--scenario FILE] [--host H] [--port N] [--seed N] [--clock realtime|virtual] [--log-level L]
 *
 * Loads the scenario (default configs/scenarios/default.yaml), builds the Simulator, serves the
 * partner API (`/api/...`, `/ws/user`) and the `/sim/...` control routes, and stops cleanly on
 * SIGINT / SIGTERM. Exit codes: 0 after a clean stop, 1 when the server cannot start, 2 on bad
 * flags or an invalid scenario.
 *
 * The project logger scrubs anything shaped like an API key, by design. The scenario's test key
 * is meant to be copied, so it is printed once in a banner on stderr, marked as simulator test
 * credentials; the log lines carry the URL and the wallet addresses.
 */
import { RealClock, VirtualClock, type Clock } from "../core/clock.js";
import { ValidationError } from "../core/validation.js";
import { createLogger, type Logger, type LogLevel } from "../log/index.js";
import { LOG_LEVEL_FLAG, logFormatProblem, logLevelFlag, parseFlags, usageError, type FlagSpecs } from "./args.js";
import { envLogLevel } from "../config/env-overrides.js";
import { startSimServer, type SimServer } from "../sim/http/server.js";
import { allRoutes } from "../sim/http/routes/index.js";
import { defaultScenarioPath, loadScenario, scenarioStartMs, type Scenario } from "../sim/platform/scenario.js";
import { Simulator } from "../sim/simulator.js";

export const USAGE = `Usage: mm sim [--scenario FILE] [--host H] [--port N] [--seed N] [--clock realtime|virtual] [--log-level L]

Serve the platform simulator: the partner API under /api, the user stream at /ws/user and the
/sim control routes (unauthenticated: keep the default loopback host).

Options:
  --scenario FILE   scenario YAML (default: configs/scenarios/default.yaml)
  --host H          address to bind (default: 127.0.0.1)
  --port N          TCP port, 0 for any free port (default: 8080)
  --seed N          override the scenario's seed (integer 0..4294967295)
  --clock MODE      realtime (default) or virtual (time moves only via POST /sim/clock/advance)
  --log-level L     trace, debug, info (default: MM_LOG_LEVEL, else info), warn, error, fatal or silent
  -h, --help        this text

Docs: docs/simulator.md
`;

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = "127.0.0.1";

export interface SimOptions {
  scenario: string | undefined;
  host: string;
  port: number;
  seed: number | undefined;
  clock: "realtime" | "virtual";
  logLevel: LogLevel;
}

const FLAGS: FlagSpecs = {
  scenario: { type: "string" },
  host: { type: "string" },
  port: { type: "string" },
  seed: { type: "string" },
  clock: { type: "string" },
  ...LOG_LEVEL_FLAG,
};

/** Parse the flags; a string is the usage error to print. */
export function parseSimArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): SimOptions | string {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") return parsed;
  const values = new Map<string, string>();
  for (const [k, v] of parsed.values) if (typeof v === "string") values.set(`--${k}`, v);
  const int = (flag: string, min: number, max: number): number | string | undefined => {
    const v = values.get(flag);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) return `${flag} must be an integer in ${min}..${max}, got ${JSON.stringify(v)}`;
    return Number(v);
  };
  const port = int("--port", 0, 65535);
  if (typeof port === "string") return port;
  const seed = int("--seed", 0, 0xffffffff);
  if (typeof seed === "string") return seed;
  const clock = values.get("--clock") ?? "realtime";
  if (clock !== "realtime" && clock !== "virtual") return `--clock must be realtime or virtual, got ${JSON.stringify(clock)}`;
  const formatProblem = logFormatProblem(env);
  if (formatProblem !== undefined) return formatProblem;
  const logLevel = logLevelFlag(parsed) ?? envLogLevel(env) ?? "info";
  if (typeof logLevel !== "string") return logLevel.problem;
  const host = values.get("--host") ?? DEFAULT_HOST;
  if (host.trim() === "") return "--host must not be empty";
  const scenario = values.get("--scenario");
  if (scenario !== undefined && scenario.trim() === "") return "--scenario must not be empty";
  return { scenario, host, port: port ?? DEFAULT_PORT, seed, clock, logLevel };
}

export interface SimCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** For MM_LOG_LEVEL (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Default: a JSON-lines logger on stdout at the --log-level. */
  logger?: Logger;
  /** Stops the server like SIGINT does (tests). */
  signal?: AbortSignal;
  /** Called with the bound URL once the server listens (tests). */
  onListening?: (url: string, server: SimServer, sim: Simulator) => void;
}

const processIo: SimCliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** The banner with the scenario's test credentials (stderr, never through the scrubbing logger). */
export function credentialsBanner(scenario: Scenario, url: string, sim: Simulator): string {
  const lines = [`mm sim: listening on ${url}`, "", "  SIMULATOR TEST CREDENTIALS (from the scenario file; never use them anywhere real):"];
  for (const p of scenario.partners) {
    for (const k of p.keys) {
      if (k.revoked) continue;
      lines.push(`    partner ${p.id} (${p.kind}) key: ${k.key}  scopes: ${k.scopes.join(",")}`);
    }
  }
  for (const w of sim.platform.walletSecrets) {
    lines.push(`    wallet ${w.name ?? "(unnamed)"}: ${w.address}${w.partnerId ? ` (partner ${w.partnerId})` : ""}`);
  }
  const key = scenario.partners.flatMap((p) => p.keys.filter((k) => !k.revoked).map((k) => k.key))[0];
  const wallet = sim.platform.walletSecrets[0]?.address;
  lines.push("", `  try: curl -s ${url}/api/markets | head -c 400`);
  if (key && wallet) lines.push(`       curl -s -H "X-Api-Key: ${key}" -H "X-User-Wallet: ${wallet}" ${url}/api/me/balances`);
  const env = examplesEnv(scenario, url, sim);
  if (env !== undefined) {
    lines.push(
      "",
      "  the client examples (docs/client.md) against this simulator: paste in another terminal, then run one",
      `    export ${Object.entries(env).map(([name, value]) => `${name}=${shellWord(value)}`).join(" ")}`,
      "    npx tsx examples/client/place-order.ts",
    );
  }
  return lines.join("\n") + "\n\n";
}

/**
 * The variables examples/client/setup.ts reads (PM_BASE_URL, PM_API_KEY, PM_WALLET, PM_WALLET_KEY) for
 * this simulator: a key that may place orders (else any live one) of the first partner, multi_wallet first,
 * that has a wallet with a test private key in the scenario, and that wallet. Undefined when none has.
 */
export function examplesEnv(scenario: Scenario, url: string, sim: Simulator): Record<string, string> | undefined {
  const partners = [...scenario.partners].sort((a, b) => Number(b.kind === "multi_wallet") - Number(a.kind === "multi_wallet"));
  for (const p of partners) {
    const keys = p.keys.filter((k) => !k.revoked);
    const key = keys.find((k) => k.scopes.includes("orders:write")) ?? keys[0];
    const wallet = sim.platform.walletSecrets.find((w) => w.partnerId === p.id && w.privateKey !== null);
    if (key === undefined || wallet === undefined) continue;
    return { PM_BASE_URL: url, PM_API_KEY: key.key, PM_WALLET: wallet.address, PM_WALLET_KEY: wallet.privateKey! };
  }
  return undefined;
}

/** A value as one shell word: as is when plainly safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

export async function simCommand(argv: string[], io: SimCliIo = processIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const opts = parseSimArgs(argv, io.env ?? process.env);
  if (typeof opts === "string") {
    io.stderr(usageError("sim", opts, USAGE));
    return 2;
  }
  const scenarioPath = opts.scenario ?? defaultScenarioPath();
  let scenario: Scenario;
  try {
    scenario = loadScenario(scenarioPath);
  } catch (e) {
    if (e instanceof ValidationError) {
      io.stderr(`mm sim: invalid scenario\n${e.issues.map((i) => `  ${e.where}: ${i.path}: ${i.message}\n`).join("")}`);
      return 2;
    }
    throw e;
  }

  const real = new RealClock();
  const clock: Clock = opts.clock === "virtual" ? new VirtualClock(scenarioStartMs(scenario, real.now())) : real;
  const logger = io.logger ?? createLogger({ level: opts.logLevel, name: "mm-sim", clock });
  const sim = new Simulator(scenario, { clock, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) });
  sim.start();

  let server: SimServer;
  try {
    server = await startSimServer({ sim, routes: allRoutes(), host: opts.host, port: opts.port, logger });
  } catch (e) {
    sim.stop();
    io.stderr(`mm sim: cannot listen on ${opts.host}:${opts.port}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }

  const onRejection = (reason: unknown): void => {
    logger.error({ err: reason }, "unhandled promise rejection (the simulator keeps running)");
  };
  process.on("unhandledRejection", onRejection);

  logger.info(
    {
      url: server.url,
      scenario: scenarioPath,
      seed: opts.seed ?? scenario.seed,
      clock: opts.clock,
      apiVersion: sim.platform.settings.apiVersion,
      wallets: sim.platform.walletSecrets.map((w) => ({ name: w.name, address: w.address, partner: w.partnerId })),
    },
    "simulator listening (test credentials on stderr)",
  );
  io.stderr(credentialsBanner(scenario, server.url, sim));
  io.onListening?.(server.url, server, sim);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      io.signal?.removeEventListener("abort", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener("abort", stop, { once: true });
  });

  logger.info("stopping the simulator");
  await server.close();
  sim.stop();
  process.off("unhandledRejection", onRejection);
  logger.info("simulator stopped");
  return 0;
}

export default simCommand;
