/**
 * `mm orders --config FILE [--wallet NAME] [--market SLUG] [--json]`: every open order of the
 * config's wallets, read through the client straight from the platform (the open-orders cursor,
 * page after page), for when the daemon is down or not trusted. Exit 0 when every wallet's walk
 * completed, 1 when one failed (the others are still printed), 2 on a usage or config error.
 */
import type { WalletClient } from "../api/index.js";
import type { OrderRecord } from "../wire/index.js";
import { parseFlags, stringFlag, usageError, type FlagSpecs } from "./args.js";
import { describeError, openPlatform, processIo, table, type CommandIo, type PlatformDeps } from "./platform-access.js";

export const USAGE = `Usage: mm orders --config FILE [--wallet NAME] [--market SLUG] [--json]

List the open orders of the config's wallets, read from the platform through the client (the
open-orders cursor, every page), without the daemon.

Options:
  --config FILE    daemon config (mode: live): platform URL, API key, wallets, rate tier
  --wallet NAME    only this wallet (its name in the config)
  --market SLUG    only this market (symbol)
  --json           one JSON document: [{ wallet, address, ok, orders | error }]

Exit 0 when every wallet was read, 1 when a walk failed, 2 on a usage or config error.
`;

export interface WalletOrders {
  wallet: string;
  address: string;
  orders: OrderRecord[] | undefined;
  error: string | undefined;
}

/** Every open order of `api`, optionally of one market (each id once). */
export async function walkOpenOrders(api: WalletClient, market: string | undefined, pageSize?: number): Promise<OrderRecord[]> {
  const out: OrderRecord[] = [];
  const q = { ...(market === undefined ? {} : { marketId: market }), ...(pageSize === undefined ? {} : { limit: pageSize }) };
  for await (const o of api.orders.open(q)) out.push(o);
  return out;
}

export function ordersTable(list: readonly { wallet: string; orders: readonly OrderRecord[] }[]): string {
  const rows = list.flatMap((w) =>
    w.orders.map((o) => [w.wallet, o.id, o.clientOrderId ?? "", o.marketId, o.outcome, o.side, o.price, o.remainingQty, o.filledQty, o.status, o.createdAt]),
  );
  return table(["wallet", "order", "clientOrderId", "market", "outcome", "side", "price", "remaining", "filled", "status", "created"], rows);
}

const FLAGS: FlagSpecs = { config: { type: "string" }, wallet: { type: "string" }, market: { type: "string" }, json: { type: "boolean" } };

export async function ordersCommand(argv: string[], io: CommandIo = processIo, deps: PlatformDeps = {}): Promise<number> {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") {
    io.stderr(usageError("orders", parsed, USAGE));
    return 2;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const flags = { config: stringFlag(parsed, "config"), wallet: stringFlag(parsed, "wallet"), market: stringFlag(parsed, "market"), json: parsed.values.get("json") === true };
  if (flags.config === undefined) {
    io.stderr(usageError("orders", "--config FILE is required", USAGE));
    return 2;
  }
  const p = openPlatform(flags.config, flags.wallet, deps, (t) => io.stderr(`mm orders: ${t}`));
  if (p === 2) return 2;
  try {
    const results: WalletOrders[] = [];
    for (const w of p.wallets) {
      try {
        results.push({ wallet: w.name, address: w.address, orders: await walkOpenOrders(p.client.forWallet(w.address), flags.market, p.pageSize), error: undefined });
      } catch (e) {
        results.push({ wallet: w.name, address: w.address, orders: undefined, error: describeError(e) });
      }
    }
    if (flags.json) {
      const doc = results.map((r) => (r.error === undefined ? { wallet: r.wallet, address: r.address, ok: true, orders: r.orders } : { wallet: r.wallet, address: r.address, ok: false, error: r.error }));
      io.stdout(JSON.stringify(doc, null, 2) + "\n");
    } else {
      const read = results.filter((r) => r.orders !== undefined).map((r) => ({ wallet: r.wallet, orders: r.orders! }));
      const n = read.reduce((s, r) => s + r.orders.length, 0);
      io.stdout(`${ordersTable(read)}\n`);
      for (const r of results) {
        io.stdout(r.error === undefined ? `${r.wallet} (${r.address}): ${r.orders!.length} open\n` : `${r.wallet} (${r.address}): NOT READ: ${r.error}\n`);
      }
      io.stdout(`${n} open order${n === 1 ? "" : "s"}${flags.market === undefined ? "" : ` on ${flags.market}`}\n`);
    }
    for (const r of results) if (r.error !== undefined) io.stderr(`mm orders: ${r.wallet}: open-orders walk failed: ${r.error}\n`);
    return results.some((r) => r.error !== undefined) ? 1 : 0;
  } finally {
    p.close();
  }
}

export default ordersCommand;
