/**
 * `mm`: the command-line entry point. Each command lives in its own module and is loaded
 * only when called, so `mm --help` stays fast. Exit codes: 0 success, 1 runtime failure,
 * 2 usage or validation error (bad flags, bad config, command not built yet).
 *
 * A command plugs in with one COMMANDS entry. Its function takes the arguments after its name and
 * answers `--help` / `-h` with its usage on stdout (exit 0); src/cli/args.ts (parseFlags) parses
 * its flags with the wording every command shares. Here: `mm --version`, `mm help [COMMAND]`,
 * `mm COMMAND -h` whatever else follows, and "did you mean" for a misspelt command.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { didYouMean } from "../config/suggest.js";

export interface Command {
  summary: string;
  usage: string;
  /** Absent while the command is not built yet. */
  load?: () => Promise<(argv: string[]) => Promise<number>>;
}

export const COMMANDS: Record<string, Command> = {
  run: {
    summary: "run the market-maker daemon (no --config: the demo against the embedded simulator)",
    usage: "mm run [--config FILE] [--status-every SECONDS] [--log-level L]",
    load: async () => (await import("./run.js")).runCommand,
  },
  sim: {
    summary: "serve the platform simulator over HTTP and WebSocket",
    usage: "mm sim [--scenario FILE] [--host H] [--port N] [--seed N] [--clock realtime|virtual] [--log-level L]",
    load: async () => (await import("./sim.js")).simCommand,
  },
  backtest: {
    summary: "run a strategy against the simulator in virtual time and report PnL",
    usage: "mm backtest [--config FILE] [--scenario FILE] [--duration D] [--seed N] [--out FILE] [--engine full|fast] [--data DIR] [--compare] [--log-level L] ...",
    load: async () => (await import("./backtest.js")).backtestCommand,
  },
  sweep: {
    summary: "parameter sweep (grid or random) of fast backtests on a worker pool, resumable, shardable; merge shards",
    usage: "mm sweep FILE --out DIR [--workers N] [--shard I/N] [--x KEY] [--y KEY] | mm sweep merge DIR... --out DIR",
    load: async () => (await import("./sweep.js")).sweepCommand,
  },
  paper: {
    summary: "paper trading: a real platform's public data, orders matched locally and never sent; backtest report at the end",
    usage: "mm paper --config FILE [--out FILE] [--html FILE] [--queue MODEL] [--latency E,R] [--duration D] [--log-level L]",
    load: async () => (await import("./paper.js")).paperCommand,
  },
  record: {
    summary: "record market rows, order books and public trades into a data set for backtests",
    usage: "mm record --config FILE --out DIR [--duration D] [--rotate-mb N] [--log-level L]",
    load: async () => (await import("./record.js")).recordCommand,
  },
  "check-config": {
    summary: "validate a daemon config file (exit 0 valid, 2 invalid)",
    usage: "mm check-config FILE [--log-level L]",
    load: async () => (await import("./check-config.js")).checkConfig,
  },
  status: {
    summary: "show a running daemon's wallets, markets, open orders, inventory, PnL and halts (its /status)",
    usage: "mm status [--url URL] [--token-file F] [--json]",
    load: async () => (await import("./status.js")).statusCommand,
  },
  orders: {
    summary: "list the open orders of a config's wallets straight from the platform (daemon not needed)",
    usage: "mm orders --config FILE [--wallet NAME] [--market SLUG] [--json]",
    load: async () => (await import("./orders.js")).ordersCommand,
  },
  "cancel-all": {
    summary: "cancel every open order of a config's wallets through the client, confirmed (daemon dead)",
    usage: "mm cancel-all --config FILE [--wallet NAME] [--market SLUG] [--yes] [--json]",
    load: async () => (await import("./cancel-all.js")).cancelAllCommand,
  },
  conform: {
    summary: "check, read-only, that a platform environment behaves as the client and simulator assume",
    usage: "mm conform --base-url URL [--api-key-file F] [--wallet ADDRESS] [--pace-ms N] [--json]",
    load: async () => (await import("./conform.js")).conformCommand,
  },
};

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, c]) => `  ${name.padEnd(width)}  ${c.summary}${c.load ? "" : " (not built yet)"}`,
  );
  return [
    "mm: market-making framework for the prediction-market partner API",
    "",
    "Usage: mm <command> [options]",
    "       mm help <command>     a command's options (also: mm <command> --help)",
    "       mm --version",
    "",
    "Commands:",
    ...lines,
    "",
    "Every command takes -h/--help; those that log take --log-level (or MM_LOG_LEVEL).",
    "",
  ].join("\n");
}

/** The package's version, from the package.json beside src/ (a checkout) or dist/ (a build). */
export function version(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ["../..", "../../.."]) {
    try {
      const pkg = JSON.parse(readFileSync(join(here, up, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "pm-market-maker" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not this one
    }
  }
  return "unknown";
}

export interface MainIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIo: MainIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

function unknownCommand(name: string): string {
  return `mm: unknown command ${JSON.stringify(name)}${didYouMean(name, Object.keys(COMMANDS))}\nRun \`mm --help\` for the list of commands.\n`;
}

async function commandHelp(name: string, io: MainIo): Promise<number> {
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr(unknownCommand(name));
    return 2;
  }
  if (!command.load) {
    io.stdout(`Usage: ${command.usage}\n(not built yet)\n`);
    return 0;
  }
  return (await command.load())(["--help"]);
}

export async function main(argv: string[], io: MainIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(helpText());
    return 2;
  }
  if (name === "--help" || name === "-h") {
    io.stdout(helpText());
    return 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    io.stdout(`mm ${version()}\n`);
    return 0;
  }
  if (name === "help") {
    if (rest.length === 0) {
      io.stdout(helpText());
      return 0;
    }
    if (rest.length > 1) {
      io.stderr(`mm help: expected one command, got ${rest.length}\nUsage: mm help <command>\n`);
      return 2;
    }
    return commandHelp(rest[0]!, io);
  }
  if (name.startsWith("-")) {
    io.stderr(`mm: unknown option ${name}${didYouMean(name, ["--help", "--version"])}\nUsage: mm <command> [options]; \`mm --help\` lists the commands.\n`);
    return 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(unknownCommand(name));
    return 2;
  }
  // -h anywhere in a command's arguments: its help, whatever else is there (before `--`).
  const beforeTerminator = rest.indexOf("--") === -1 ? rest : rest.slice(0, rest.indexOf("--"));
  if (beforeTerminator.includes("--help") || beforeTerminator.includes("-h")) return commandHelp(name, io);
  if (!command.load) {
    io.stderr(`mm ${name}: not built yet (usage: ${command.usage})\n`);
    return 2;
  }
  const run = await command.load();
  return run(rest);
}
