/**
 * Market trades and price history read from the engine's trade log.
 *
 * Trades page (docs/spec-gaps.md shapes): newest first. `before` / `after` are time cursors
 * (ISO-8601 or epoch ms) or the page's `nextCursor`, an opaque keyset over (createdAt, log row)
 * so trades stamped in the same millisecond (common on a virtual clock) are never skipped.
 * `after` is a lower bound, `before` the upper one: a poller asks `after=<last seen>` and walks
 * older pages with `before=<nextCursor>` while keeping the same `after`.
 */
import { formatMicros, SCALE, type Micros } from "../../../core/money.js";
import type { MatchingEngine, TradeRecord } from "../../engine/index.js";
import { isoOf } from "../../platform/index.js";
import { tradeJson, type TradeJson } from "../../desk/format.js";
import { base64url, fromBase64url, isDigits, parseIso } from "./public-common.js";

/** A position in the trade log: time, then log row (execution order). */
export interface TradeKey {
  ms: number;
  row: number;
}

/** A parsed `before` / `after`: a time (any row at that instant counts as "at") or a keyset cursor. */
export type TradeBound = { kind: "time"; ms: number } | { kind: "key"; key: TradeKey };

export function encodeTradeCursor(key: TradeKey): string {
  return base64url(`${key.ms}:${key.row}`);
}

/** ISO-8601, epoch milliseconds, or a `nextCursor`; undefined when it is none of them. */
export function parseTradeBound(text: string): TradeBound | undefined {
  if (isDigits(text)) {
    const ms = Number(text);
    return Number.isSafeInteger(ms) ? { kind: "time", ms } : undefined;
  }
  const iso = parseIso(text);
  if (iso !== undefined) return { kind: "time", ms: iso.ms };
  const decoded = fromBase64url(text);
  const m = decoded === undefined ? null : /^(\d{1,16}):(\d{1,12})$/.exec(decoded);
  if (m === null) return undefined;
  return { kind: "key", key: { ms: Number(m[1]), row: Number(m[2]) } };
}

function cmp(a: TradeKey, b: TradeKey): number {
  return a.ms !== b.ms ? a.ms - b.ms : a.row - b.row;
}

function isBefore(k: TradeKey, bound: TradeBound): boolean {
  return bound.kind === "time" ? k.ms < bound.ms : cmp(k, bound.key) < 0;
}

function isAfter(k: TradeKey, bound: TradeBound): boolean {
  return bound.kind === "time" ? k.ms > bound.ms : cmp(k, bound.key) > 0;
}

export interface TradesPageJson {
  trades: TradeJson[];
  nextCursor: string | null;
}

/** One page of a market's trades, newest first. */
export function tradesPage(
  engine: MatchingEngine,
  symbol: string,
  opts: { limit: number; before?: TradeBound; after?: TradeBound },
): TradesPageJson {
  const m = engine.markets.get(symbol);
  if (m === undefined) return { trades: [], nextCursor: null };
  const log = engine.ledger.tradeLog;
  const rows = log.rowsOfMarket(m);
  const out: TradeJson[] = [];
  let lastKey: TradeKey | undefined;
  let more = false;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    const t = log.get(row);
    const key = { ms: t.createdAtMs, row };
    if (opts.after !== undefined && !isAfter(key, opts.after)) break; // rows are in time order
    if (opts.before !== undefined && !isBefore(key, opts.before)) continue;
    if (out.length === opts.limit) {
      more = true;
      break;
    }
    out.push(tradeJson(t));
    lastKey = key;
  }
  return { trades: out, nextCursor: more && lastKey !== undefined ? encodeTradeCursor(lastKey) : null };
}

/**
 * The price of `outcome` a trade implies, in that outcome's token. A binary trade names two
 * tokens (the taker's and the maker's, the same one on transfers); the other outcome of a
 * binary market trades at the complement. Multi-outcome trades are transfers of one token.
 */
export function tradePriceFor(t: TradeRecord, outcome: number, binary: boolean): Micros | undefined {
  if (t.outcome === outcome) return t.price;
  if (t.makerOutcome === outcome) return t.makerPrice;
  return binary ? SCALE - t.price : undefined;
}

export const PRICE_INTERVALS: Readonly<Record<string, number>> = {
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "1h": 3_600_000,
  "4h": 14_400_000,
  "1d": 86_400_000,
};

/** Most points one price-history response carries (the newest are kept). */
export const MAX_PRICE_POINTS = 1000;

export interface PricePointJson {
  timestamp: string;
  price: string;
}

/**
 * Trade prices of one outcome, oldest first, within [fromMs, toMs]. With an interval, one point
 * per bucket: the last trade price of the bucket, stamped at the bucket start.
 */
export function pricePoints(
  engine: MatchingEngine,
  symbol: string,
  outcome: number,
  opts: { intervalMs?: number; fromMs?: number; toMs?: number },
): PricePointJson[] {
  const m = engine.markets.get(symbol);
  if (m === undefined) return [];
  const log = engine.ledger.tradeLog;
  const binary = m.outcomeCount === 2;
  const points: { ms: number; price: Micros }[] = [];
  for (const row of log.rowsOfMarket(m)) {
    const t = log.get(row);
    if (opts.fromMs !== undefined && t.createdAtMs < opts.fromMs) continue;
    if (opts.toMs !== undefined && t.createdAtMs > opts.toMs) break;
    const price = tradePriceFor(t, outcome, binary);
    if (price === undefined) continue;
    if (opts.intervalMs === undefined) {
      points.push({ ms: t.createdAtMs, price });
      continue;
    }
    const bucket = Math.floor(t.createdAtMs / opts.intervalMs) * opts.intervalMs;
    const last = points[points.length - 1];
    if (last !== undefined && last.ms === bucket) last.price = price;
    else points.push({ ms: bucket, price });
  }
  return points.slice(-MAX_PRICE_POINTS).map((p) => ({ timestamp: isoOf(p.ms), price: formatMicros(p.price) }));
}
