/**
 * The backtest's consistency check: the daemon's fill ledger against the simulator's own trade
 * list for our wallets. Both are turned into fills keyed as the ledger keys them (wallet, trade
 * id, order id: two of our wallets, or two orders of one wallet, can be the two sides of one
 * trade), then compared key by key and on the economics (market, outcome, side, price, quantity,
 * fee, and the role when both sides know it). Equal lists mean every PnL figure of the report is
 * computed from exactly the trades the platform executed.
 */
import { fillKey, type Fill } from "../bot/fills/fill-ledger.js";
import type { Simulator } from "../sim/simulator.js";
import type { ConsistencyReport, FillRef } from "./types.js";

/** Listed examples per kind of difference (the counts are always complete). */
export const LISTED_DIFFERENCES = 20;

const ECONOMICS = ["marketId", "outcome", "side", "price", "qty", "fee"] as const;

/**
 * Every trade of the simulator's ledger in which one of `wallets` took part, as that wallet's
 * fill: the maker sees its own order's outcome, side and price and pays no fee; the taker sees
 * the trade as taken and pays the trade's fee.
 */
export function platformFills(sim: Simulator, wallets: readonly string[]): Fill[] {
  const ours = new Set(wallets.map((w) => w.toLowerCase()));
  const out: Fill[] = [];
  for (const t of sim.engine.ledger.trades()) {
    const maker = t.makerWallet.toLowerCase();
    const taker = t.takerWallet.toLowerCase();
    if (ours.has(maker)) {
      out.push({
        tradeId: t.id,
        wallet: maker,
        orderId: t.makerOrderId,
        marketId: t.marketId,
        outcome: t.makerOutcome,
        side: t.makerSide,
        price: t.makerPrice,
        qty: t.quantity,
        fee: 0n,
        role: "maker",
        ts: t.createdAtMs,
        source: "trades_pull",
      });
    }
    if (ours.has(taker)) {
      out.push({
        tradeId: t.id,
        wallet: taker,
        orderId: t.takerOrderId,
        marketId: t.marketId,
        outcome: t.outcome,
        side: t.side,
        price: t.price,
        qty: t.quantity,
        fee: t.fee,
        role: "taker",
        ts: t.createdAtMs,
        source: "trades_pull",
      });
    }
  }
  return out;
}

function refOf(f: Fill): FillRef {
  return { wallet: f.wallet.toLowerCase(), tradeId: f.tradeId, orderId: f.orderId, marketId: f.marketId };
}

function byKey(list: readonly Fill[]): Map<string, Fill> {
  const m = new Map<string, Fill>();
  for (const f of list) m.set(fillKey(f), f);
  return m;
}

/** Keys in a fixed order, so the listed examples are the same every run. */
function sortedKeys(m: ReadonlyMap<string, Fill>): string[] {
  return [...m.keys()].sort();
}

/**
 * Compare the daemon's fills (`ledger`) with the platform's (`platform`). `wallets` fixes which
 * wallets appear in `perWallet` (and in which order); fills of other wallets still count.
 */
export function compareFillLists(ledger: readonly Fill[], platform: readonly Fill[], wallets: readonly string[] = []): ConsistencyReport {
  const ours = byKey(ledger);
  const theirs = byKey(platform);
  const missing: FillRef[] = [];
  const extra: FillRef[] = [];
  const mismatched: (FillRef & { fields: string[] })[] = [];
  let missingCount = 0;
  let extraCount = 0;
  let mismatchedCount = 0;
  for (const key of sortedKeys(theirs)) {
    const t = theirs.get(key)!;
    const o = ours.get(key);
    if (o === undefined) {
      if (missingCount++ < LISTED_DIFFERENCES) missing.push(refOf(t));
      continue;
    }
    const fields: string[] = ECONOMICS.filter((k) => o[k] !== t[k]);
    if (o.role !== "unknown" && t.role !== "unknown" && o.role !== t.role) fields.push("role");
    if (fields.length > 0 && mismatchedCount++ < LISTED_DIFFERENCES) mismatched.push({ ...refOf(t), fields });
  }
  for (const key of sortedKeys(ours)) {
    if (theirs.has(key)) continue;
    if (extraCount++ < LISTED_DIFFERENCES) extra.push(refOf(ours.get(key)!));
  }
  const count = (list: ReadonlyMap<string, Fill>, w: string): number => {
    let n = 0;
    for (const f of list.values()) if (f.wallet.toLowerCase() === w) n++;
    return n;
  };
  const perWallet = wallets.map((w) => w.toLowerCase()).map((w) => ({ wallet: w, ledger: count(ours, w), platform: count(theirs, w) }));
  const tradeIds = (list: ReadonlyMap<string, Fill>): number => new Set([...list.values()].map((f) => f.tradeId)).size;
  const duplicateKeys = ledger.length - ours.size + (platform.length - theirs.size);
  let unknownRoles = 0;
  for (const f of ours.values()) if (f.role === "unknown") unknownRoles++;
  return {
    ok: missingCount === 0 && extraCount === 0 && mismatchedCount === 0 && duplicateKeys === 0,
    ledgerFills: ledger.length,
    platformFills: platform.length,
    ledgerTradeIds: tradeIds(ours),
    platformTradeIds: tradeIds(theirs),
    perWallet,
    missing,
    missingCount,
    extra,
    extraCount,
    mismatched,
    mismatchedCount,
    duplicateKeys,
    unknownRoles,
  };
}

/** One line per kind of difference, for the loud part of the CLI output. */
export function describeConsistency(c: ConsistencyReport): string[] {
  if (c.ok) return [`consistency OK: ledger ${c.ledgerFills} fills = platform ${c.platformFills} fills (${c.platformTradeIds} trades)`];
  const lines = [`CONSISTENCY FAILED: ledger ${c.ledgerFills} fills (${c.ledgerTradeIds} trades) vs platform ${c.platformFills} fills (${c.platformTradeIds} trades)`];
  if (c.duplicateKeys > 0) lines.push(`  ${c.duplicateKeys} fill key(s) listed twice`);
  const show = (f: FillRef): string => `${f.wallet} trade ${f.tradeId} order ${f.orderId} (${f.marketId})`;
  if (c.missingCount > 0) lines.push(`  ${c.missingCount} platform fill(s) missing from the ledger, e.g. ${c.missing.slice(0, 3).map(show).join("; ")}`);
  if (c.extraCount > 0) lines.push(`  ${c.extraCount} ledger fill(s) the platform does not have, e.g. ${c.extra.slice(0, 3).map(show).join("; ")}`);
  if (c.mismatchedCount > 0) lines.push(`  ${c.mismatchedCount} fill(s) with different economics, e.g. ${c.mismatched.slice(0, 3).map((m) => `${show(m)}: ${m.fields.join(",")}`).join("; ")}`);
  for (const w of c.perWallet) if (w.ledger !== w.platform) lines.push(`  wallet ${w.wallet}: ledger ${w.ledger} vs platform ${w.platform}`);
  return lines;
}
