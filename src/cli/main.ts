/**
 * `mm`: the command-line entry point. Each command lives in its own module and is loaded
 * only when called, so `mm --help` stays fast. Exit codes: 0 success, 1 runtime failure,
 * 2 usage or validation error (bad flags, bad config, command not built yet).
 */
export interface Command {
  summary: string;
  usage: string;
  /** Absent while the command is not built yet. */
  load?: () => Promise<(argv: string[]) => Promise<number>>;
}

export const COMMANDS: Record<string, Command> = {
  run: {
    summary: "run the market-maker daemon (no --config: the demo against the embedded simulator)",
    usage: "mm run [--config FILE] [--status-every SECONDS]",
    load: async () => (await import("./run.js")).runCommand,
  },
  sim: {
    summary: "serve the platform simulator over HTTP and WebSocket",
    usage: "mm sim [--scenario FILE] [--host H] [--port N] [--seed N] [--clock realtime|virtual] [--log-level L]",
    load: async () => (await import("./sim.js")).simCommand,
  },
  backtest: {
    summary: "run a strategy against the simulator in virtual time and report PnL",
    usage: "mm backtest [--config FILE] [--scenario FILE] [--duration D] [--seed N] [--out FILE]",
    load: async () => (await import("./backtest.js")).backtestCommand,
  },
  record: {
    summary: "record market rows, order books and public trades into a data set for backtests",
    usage: "mm record --config FILE --out DIR [--duration D] [--rotate-mb N] [--log-level L]",
    load: async () => (await import("./record.js")).recordCommand,
  },
  "check-config": {
    summary: "validate a daemon config file (exit 0 valid, 2 invalid)",
    usage: "mm check-config FILE",
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
    "",
    "Commands:",
    ...lines,
    "",
    "Run `mm <command> --help` for a command's options.",
    "",
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(helpText());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`mm: unknown command ${JSON.stringify(name)}\n\n${helpText()}`);
    return 2;
  }
  if (!command.load) {
    if (rest.includes("--help") || rest.includes("-h")) {
      process.stdout.write(`Usage: ${command.usage}\n(not built yet)\n`);
      return 0;
    }
    process.stderr.write(`mm ${name}: not built yet (usage: ${command.usage})\n`);
    return 2;
  }
  const run = await command.load();
  return run(rest);
}
