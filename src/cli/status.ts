/**
 * `mm status [--url URL] [--token-file F] [--json]`: a running daemon's wallets, markets, open
 * orders, inventory, PnL and halts, read from its authenticated `GET /status`
 * (src/metrics/status-route.ts) and printed as tables (or passed through as JSON).
 *
 * The token: `--token-file F` (a private file, as the config's key files: refused when group or
 * others may read it), else the environment variable MM_STATUS_TOKEN. The answer is checked
 * against the document's schema before anything is printed.
 */
import { z } from "zod";
import { readKeyFile, formatMode } from "../config/key-file.js";
import { redactSecrets } from "../log/index.js";
import { STATUS_PATH, STATUS_VERSION, type StatusDocument } from "../metrics/status-route.js";
import { parseFlags, stringFlag, usageError, type FlagSpecs } from "./args.js";
import { processIo, table, type CommandIo } from "./platform-access.js";

export const DEFAULT_STATUS_URL = "http://127.0.0.1:9464";
export const STATUS_TOKEN_ENV = "MM_STATUS_TOKEN";
const TIMEOUT_MS = 10_000;

export const USAGE = `Usage: mm status [--url URL] [--token-file F] [--json]

Show a running daemon's wallets, markets, open orders, inventory, PnL and halts, from its
GET /status endpoint (on the metrics server; needs metrics.statusToken in the daemon's config).

Options:
  --url URL          the daemon's metrics server (default ${DEFAULT_STATUS_URL}; /status is added)
  --token-file F     file holding the status token (chmod 600); default: $${STATUS_TOKEN_ENV}
  --json             print the document as JSON instead of tables

Exit 0 on an answer, 1 when the daemon cannot be reached or refuses, 2 on a usage error.
`;

export interface StatusDeps {
  fetch?: typeof fetch;
  env?: Record<string, string | undefined>;
}

const money = z.string().regex(/^-?\d+(\.\d{1,6})?$/, "expected a decimal string");
const pnl = z.looseObject({ realised: money, unrealised: money, fees: money, net: money });

/** The document as `mm status` reads it (extra fields tolerated). */
const statusSchema = z.looseObject({
  version: z.literal(STATUS_VERSION),
  at: z.string(),
  instance: z.string(),
  running: z.boolean(),
  ready: z.boolean(),
  wallets: z.array(
    z.looseObject({
      name: z.string(),
      address: z.string(),
      state: z.string(),
      streamSubscribed: z.boolean(),
      markets: z.array(z.string()),
      openOrders: z.number(),
      unknownOrders: z.number(),
      pnl,
      positions: z.array(z.looseObject({ market: z.string(), outcome: z.number(), qty: money, avgCost: money.nullable(), realised: money, fees: money })),
      orders: z.array(
        z.looseObject({
          orderId: z.string().nullable(),
          clientOrderId: z.string(),
          market: z.string(),
          outcome: z.number(),
          side: z.string(),
          price: money,
          size: money,
          filled: money,
          state: z.string(),
          createdAt: z.string(),
        }),
      ),
      lease: z
        .looseObject({
          name: z.string(),
          state: z.string(),
          holder: z.string().nullable(),
          renewedAt: z.string().nullable(),
          renewAgeSec: z.number().nullable(),
          since: z.string(),
          losses: z.number(),
          error: z.string().nullable(),
        })
        .optional(),
    }),
  ),
  markets: z.array(z.looseObject({ symbol: z.string(), status: z.string(), phase: z.string(), wallets: z.array(z.string()), openOrders: z.number() })),
  totals: z.looseObject({ openOrders: z.number(), unknownOrders: z.number(), fills: z.number(), positions: z.number(), sharesHeld: money, pnl }),
  halts: z.array(z.looseObject({ scope: z.string(), target: z.string(), reason: z.string(), detail: z.string(), since: z.string().nullable() })),
});

/** The /status URL of `--url` (the server's root, or already ending in /status). */
export function statusUrl(raw: string): URL | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `--url ${JSON.stringify(raw)} is not a URL (expected e.g. ${DEFAULT_STATUS_URL})`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `--url ${JSON.stringify(raw)}: expected an http(s) URL`;
  if (!url.pathname.endsWith(STATUS_PATH)) url.pathname = url.pathname.replace(/\/+$/, "") + STATUS_PATH;
  return url;
}

function tokenOf(file: string | undefined, env: Record<string, string | undefined>): { token: string } | { error: string } {
  if (file !== undefined) {
    const read = readKeyFile(file);
    if (!read.ok) {
      return {
        error:
          read.problem === "too_open"
            ? `--token-file ${file} is readable by others (mode ${formatMode(read.mode)}): chmod 600 it`
            : `--token-file ${file}: cannot read it (${read.code})`,
      };
    }
    const token = read.content.trim();
    return token === "" ? { error: `--token-file ${file} is empty` } : { token };
  }
  const token = env[STATUS_TOKEN_ENV]?.trim() ?? "";
  return token === "" ? { error: `no token: give --token-file F or set ${STATUS_TOKEN_ENV} (the daemon's metrics.statusToken)` } : { token };
}

/** The document as tables: summary, wallets, leases (shard.lease), markets, open orders, positions, halts. */
export function statusTables(d: StatusDocument): string {
  const out: string[] = [];
  const t = d.totals;
  out.push(
    `instance ${d.instance} at ${d.at}: ${d.running ? "running" : "not running"}, ${d.ready ? "ready" : "NOT READY"}; ` +
      `open orders ${t.openOrders}${t.unknownOrders > 0 ? ` (${t.unknownOrders} unknown)` : ""}, fills ${t.fills}, positions ${t.positions} (${t.sharesHeld} shares), ` +
      `pnl net ${t.pnl.net} (realised ${t.pnl.realised}, unrealised ${t.pnl.unrealised}, fees ${t.pnl.fees})`,
  );
  out.push("", "Wallets");
  out.push(
    table(
      ["wallet", "address", "state", "stream", "markets", "open", "unknown", "net", "realised", "unrealised", "fees"],
      d.wallets.map((w) => [w.name, w.address, w.state, w.streamSubscribed ? "up" : "down", w.markets.join(" "), w.openOrders, w.unknownOrders, w.pnl.net, w.pnl.realised, w.pnl.unrealised, w.pnl.fees]),
    ),
  );
  // shard.lease: each wallet's Lease as this replica sees it (absent without it).
  const leases = d.wallets.flatMap((w) => (w.lease === undefined ? [] : [[w.name, w.lease.state, w.lease.holder ?? "", w.lease.renewAgeSec === null ? "never" : `${w.lease.renewAgeSec} s ago`, w.lease.since, w.lease.losses, w.lease.error ?? "", w.lease.name]]));
  if (leases.length > 0) {
    out.push("", "Leases");
    out.push(table(["wallet", "lease", "holder", "renewed", "since", "losses", "error", "name"], leases));
  }
  out.push("", "Markets");
  out.push(table(["market", "status", "phase", "wallets", "open orders"], d.markets.map((m) => [m.symbol, m.status, m.phase, m.wallets.join(" "), m.openOrders])));
  const orders = d.wallets.flatMap((w) => w.orders.map((o) => [w.name, o.market, o.outcome, o.side, o.price, o.size, o.filled, o.state, o.orderId ?? "(none yet)", o.clientOrderId]));
  out.push("", `Open orders (${orders.length})`);
  out.push(table(["wallet", "market", "outcome", "side", "price", "size", "filled", "state", "order", "clientOrderId"], orders));
  const positions = d.wallets.flatMap((w) => w.positions.map((p) => [w.name, p.market, p.outcome, p.qty, p.avgCost ?? "", p.realised, p.fees]));
  out.push("", `Inventory (${positions.length} positions)`);
  out.push(table(["wallet", "market", "outcome", "shares", "avg cost", "realised", "fees"], positions));
  if (d.halts.length === 0) out.push("", "Halts: none");
  else {
    out.push("", `Halts (${d.halts.length})`);
    out.push(table(["scope", "target", "reason", "detail", "since"], d.halts.map((h) => [h.scope, h.target, h.reason, h.detail, h.since ?? ""])));
  }
  return out.join("\n") + "\n";
}

const FLAGS: FlagSpecs = { url: { type: "string" }, "token-file": { type: "string" }, json: { type: "boolean" } };

export async function statusCommand(argv: string[], io: CommandIo = processIo, deps: StatusDeps = {}): Promise<number> {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") {
    io.stderr(usageError("status", parsed, USAGE));
    return 2;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const flags = { url: stringFlag(parsed, "url"), tokenFile: stringFlag(parsed, "token-file"), json: parsed.values.get("json") === true };
  const url = statusUrl(flags.url ?? DEFAULT_STATUS_URL);
  if (typeof url === "string") {
    io.stderr(`mm status: ${url}\n`);
    return 2;
  }
  const token = tokenOf(flags.tokenFile, deps.env ?? process.env);
  if ("error" in token) {
    io.stderr(`mm status: ${token.error}\n`);
    return 2;
  }
  const doFetch = deps.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { headers: { authorization: `Bearer ${token.token}`, accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    io.stderr(`mm status: cannot reach ${url.href}: ${redactSecrets(cause ?? (e instanceof Error ? e.message : String(e)))} (is the daemon running? see metrics.host/port)\n`);
    return 1;
  }
  const text = await res.text();
  if (res.status === 401) {
    io.stderr(`mm status: ${url.href} refused the token (401): it must equal the daemon's metrics.statusToken\n`);
    return 1;
  }
  if (res.status === 404) {
    io.stderr(`mm status: ${url.href}: 404: the daemon serves no /status (set metrics.statusToken in its config and restart it)\n`);
    return 1;
  }
  if (res.status !== 200) {
    io.stderr(`mm status: ${url.href} answered HTTP ${res.status}: ${redactSecrets(text.slice(0, 200))}\n`);
    return 1;
  }
  let doc: StatusDocument;
  try {
    doc = statusSchema.parse(JSON.parse(text)) as StatusDocument;
  } catch (e) {
    const why = e instanceof z.ZodError ? e.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ") : "not JSON";
    io.stderr(`mm status: ${url.href} answered something that is not a status document (version ${STATUS_VERSION}): ${why}\n`);
    return 1;
  }
  io.stdout(flags.json ? JSON.stringify(doc, null, 2) + "\n" : statusTables(doc));
  return 0;
}

export default statusCommand;
