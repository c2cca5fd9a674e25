/**
 * What `mm orders` and `mm cancel-all` share: the platform client of a daemon config, built as the
 * daemon builds it (its API key, its rate tier and safety margin through the same rate gate, its
 * request timeout, the client's retry rules), the wallets picked by `--wallet`, and the output
 * helpers (`mm status` uses those too; flags go through args.ts like every command's). They act
 * through the client directly, so they work when the daemon is dead.
 *
 * A `mode: simulator` config has no platform outside the `mm run` process that embeds it: refused
 * with a hint (a live config pointed at `mm sim` works). Tests hand in the transport (a live
 * config's platform.baseUrl is then not used).
 */
import Table from "cli-table3";
import { createClient, FetchTransport, isApiError, type PartnerClient, type SecretLike, type Transport } from "../api/index.js";
import { RealClock, type Clock } from "../core/clock.js";
import type { Rng } from "../core/rng.js";
import type { Config } from "../config/index.js";
import { redactSecrets } from "../log/index.js";
import { RateGate, platformGateOptions } from "../ratelimit/index.js";
import { loadCommandConfig } from "./command-setup.js";

/** Where the commands write, and what the tests replace. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processIo: CommandIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** What tests (and nothing else) hand in instead of the config's platform. */
export interface PlatformDeps {
  transport?: Transport;
  apiKey?: string | SecretLike;
  clock?: Clock;
  rng?: Rng;
  /** Open orders per page (default: the platform's, 500), so tests can walk several pages. */
  pageSize?: number;
}

export interface PlatformAccess {
  config: Config;
  client: PartnerClient;
  clock: Clock;
  /** The wallets picked (all of the config's, or the one --wallet names). */
  wallets: { name: string; address: string }[];
  /** Open orders per page asked (undefined: the platform's default). */
  pageSize: number | undefined;
  close(): void;
}

/** The config's client and the wallets `--wallet` picks; a string is the problem (exit 2). */
export function openPlatform(file: string, walletName: string | undefined, deps: PlatformDeps, stderr: (t: string) => void): PlatformAccess | 2 {
  const config = loadCommandConfig(file, stderr);
  if (config === 2) return 2;
  if (config.mode !== "live") {
    stderr(
      `${file}: mode: simulator: its platform is the simulator inside the \`mm run\` process; ` +
        "give a live config (mode: live, platform.baseUrl, platform.apiKey), which may point at `mm sim`\n",
    );
    return 2;
  }
  const wallets = config.wallets.map((w) => ({ name: w.name, address: w.address.toLowerCase() }));
  const picked = walletName === undefined ? wallets : wallets.filter((w) => w.name === walletName);
  if (picked.length === 0) {
    stderr(`--wallet ${JSON.stringify(walletName)}: no wallet of that name in ${file} (wallets: ${wallets.map((w) => w.name).join(", ")})\n`);
    return 2;
  }
  const apiKey = deps.apiKey ?? config.platform.apiKey;
  const clock = deps.clock ?? new RealClock();
  const platform = config.platform;
  const gate = new RateGate({ clock, ...platformGateOptions(platform) });
  const transport =
    deps.transport ?? new FetchTransport({ baseUrl: config.platform.baseUrl, clock, timeoutMs: platform.requestTimeoutMs });
  const client = createClient({
    transport,
    apiKey,
    clock,
    gate,
    timeoutMs: platform.requestTimeoutMs,
    ...(deps.rng === undefined ? {} : { rng: deps.rng }),
  });
  return { config, client, clock, wallets: picked, pageSize: deps.pageSize, close: () => gate.close() };
}

/** An error as one line, scrubbed of anything shaped like a secret. */
export function describeError(e: unknown): string {
  if (isApiError(e)) return redactSecrets(`${e.code} (HTTP ${e.status}): ${e.detail}`);
  return redactSecrets(e instanceof Error ? e.message : String(e));
}

/** A plain table (no colours, so output captured or piped reads the same). */
export function table(head: string[], rows: (string | number)[][]): string {
  const t = new Table({ head, style: { head: [], border: [], compact: true } });
  for (const r of rows) t.push(r.map(String));
  return t.toString();
}
