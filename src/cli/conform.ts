/**
 * `mm conform --base-url URL [--api-key-file F] [--wallet ADDRESS] [--pace-ms N] [--json]`: a
 * read-only check of a platform environment against what the client and the simulator assume
 * (src/conform). Only GET requests, paced; never an order, a cancel or a funds movement.
 * Exit 0 when nothing is contradicted, 1 on a contradiction, 2 on a usage error.
 */
import { FetchTransport } from "../api/fetch-transport.js";
import { RealClock, type Clock } from "../core/clock.js";
import { formatMode, readKeyFile } from "../config/key-file.js";
import { DEFAULT_PACE_MS, formatReport, keyPrefixEnv, runConform } from "../conform/run.js";
import type { Transport } from "../wire/transport.js";
import { parseFlags, stringFlag, usageError as usageText, type FlagSpecs } from "./args.js";
import { processIo, type CommandIo } from "./platform-access.js";

export const USAGE = `Usage: mm conform --base-url URL [--api-key-file F] [--wallet ADDRESS] [--pace-ms N] [--json]

Check, read-only, that a platform environment (staging, test, or \`mm sim\`) still behaves as the
client and the simulator assume: public endpoints and their shapes, common and rate-limit
headers, the events paging rules, error envelopes for deliberately bad requests (unknown slugs,
bad limits, forbidden parameters, malformed keys) and the choices in docs/spec-gaps.md that can be
seen without trading. Only GET requests, paced; it never places or cancels an order or moves funds.

Options:
  --base-url URL       the platform's base address (http or https)
  --api-key-file F     file holding the partner API key (chmod 600): enables the authenticated probes
  --wallet ADDRESS     X-User-Wallet for the authenticated probes (multi_wallet keys)
  --pace-ms N          at least N ms between two requests (default ${DEFAULT_PACE_MS}; about 30 requests in all)
  --json               the report as one JSON document

Prints confirmed / CONTRADICTED / unobservable per assumption.
Exit 0 when nothing is contradicted, 1 on a contradiction (or the platform unreachable), 2 on a usage error.
`;

export interface ConformDeps {
  /** Tests: the transport and clock (default FetchTransport on RealClock). */
  transport?: (baseUrl: string) => Transport;
  clock?: Clock;
}

const FLAGS: FlagSpecs = {
  "base-url": { type: "string" },
  "api-key-file": { type: "string" },
  wallet: { type: "string" },
  "pace-ms": { type: "string" },
  json: { type: "boolean" },
};

function usageError(io: CommandIo, problem: string): number {
  io.stderr(usageText("conform", problem, USAGE));
  return 2;
}

export async function conformCommand(argv: string[], io: CommandIo = processIo, deps: ConformDeps = {}): Promise<number> {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") return usageError(io, parsed);
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const flags = {
    "base-url": stringFlag(parsed, "base-url"),
    "api-key-file": stringFlag(parsed, "api-key-file"),
    wallet: stringFlag(parsed, "wallet"),
    "pace-ms": stringFlag(parsed, "pace-ms"),
    json: parsed.values.get("json") === true,
  };
  const baseUrl = flags["base-url"];
  if (baseUrl === undefined) return usageError(io, "--base-url is required");
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return usageError(io, `--base-url ${JSON.stringify(baseUrl)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return usageError(io, `--base-url must be http or https, got ${url.protocol}`);
  let apiKey: string | undefined;
  const keyFile = flags["api-key-file"];
  if (keyFile !== undefined) {
    const read = readKeyFile(keyFile);
    if (!read.ok) {
      return usageError(
        io,
        read.problem === "too_open" ? `--api-key-file ${keyFile} is readable by others (mode ${formatMode(read.mode)}): chmod 600 it` : `--api-key-file ${keyFile}: cannot read it (${read.code})`,
      );
    }
    apiKey = read.content.trim();
    if (apiKey === "") return usageError(io, `--api-key-file ${keyFile} is empty`);
    if (keyPrefixEnv(apiKey) === undefined) return usageError(io, `--api-key-file ${keyFile}: the key is not <prefix>_<env>_<keyId>_<secret>`);
  }
  const wallet = flags.wallet;
  if (wallet !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(wallet)) return usageError(io, `--wallet ${JSON.stringify(wallet)} is not 0x followed by 40 hex characters`);
  let paceMs = DEFAULT_PACE_MS;
  if (flags["pace-ms"] !== undefined) {
    const t = flags["pace-ms"];
    if (!/^\d+$/.test(t) || Number(t) > 60_000) return usageError(io, `--pace-ms must be an integer from 0 to 60000, got ${JSON.stringify(t)}`);
    paceMs = Number(t);
  }
  const clock = deps.clock ?? new RealClock();
  const transport = deps.transport ? deps.transport(baseUrl) : new FetchTransport({ baseUrl, clock });
  const report = await runConform({
    transport,
    clock,
    paceMs,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(wallet !== undefined ? { wallet } : {}),
  });
  const failed = report.results.find((r) => r.detail.startsWith("request failed"));
  if (failed && report.results.every((r) => r.verdict === "unobservable")) {
    io.stderr(`mm conform: ${baseUrl} could not be reached (${failed.detail})\n`);
    return 1;
  }
  io.stdout(flags.json ? JSON.stringify({ baseUrl, ...report }, null, 2) + "\n" : formatReport(report));
  return report.counts.contradicted > 0 ? 1 : 0;
}
