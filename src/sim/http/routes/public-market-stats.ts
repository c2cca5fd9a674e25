/**
 * Market sub-resources read from the engine's trade log (spec 4.3; shapes not shown, ours):
 *
 *   GET /api/markets/{symbol}/ohlc?interval&outcome   (deprecated upstream)
 *     {marketId, outcome, interval, candles: [{timestamp, open, high, low, close, volume}]}, oldest
 *     first, one candle per bucket that saw a trade; `volume` is shares of that outcome.
 *   GET /api/markets/{symbol}/traders?limit
 *     {marketId, traders: [{walletAddress, volume, trades}]}: wallets by traded notional
 *     (settlement token, both legs), largest first.
 *   GET /api/markets/{symbol}/traders/by-outcome?limit
 *     {marketId, outcomes: [{outcome, label, traders: [{walletAddress, volume, trades}]}]}: the
 *     same per outcome token, `volume` in shares.
 *
 * Wallets are EIP-55 as in trade rows (spec 2.1).
 */
import { formatMicros, type Micros } from "../../../core/money.js";
import type { MatchingEngine, TradeRecord } from "../../engine/index.js";
import { isoOf, type Market } from "../../platform/index.js";
import { MAX_PRICE_POINTS, tradePriceFor } from "./public-trades.js";

export interface CandleJson {
  timestamp: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** The quantity of `outcome` a trade moved (a binary trade moves both tokens; multi-outcome only its own). */
function outcomeQuantity(t: TradeRecord, outcome: number, binary: boolean): Micros {
  if (t.outcome === outcome || t.makerOutcome === outcome || binary) return t.quantity;
  return 0n;
}

export function candles(engine: MatchingEngine, symbol: string, outcome: number, intervalMs: number): CandleJson[] {
  const m = engine.markets.get(symbol);
  if (m === undefined) return [];
  const log = engine.ledger.tradeLog;
  const binary = m.outcomeCount === 2;
  const out: { ms: number; o: Micros; h: Micros; l: Micros; c: Micros; v: Micros }[] = [];
  for (const row of log.rowsOfMarket(m)) {
    const t = log.get(row);
    const p = tradePriceFor(t, outcome, binary);
    if (p === undefined) continue;
    const ms = Math.floor(t.createdAtMs / intervalMs) * intervalMs;
    const q = outcomeQuantity(t, outcome, binary);
    const last = out[out.length - 1];
    if (last !== undefined && last.ms === ms) {
      if (p > last.h) last.h = p;
      if (p < last.l) last.l = p;
      last.c = p;
      last.v += q;
    } else out.push({ ms, o: p, h: p, l: p, c: p, v: q });
  }
  return out.slice(-MAX_PRICE_POINTS).map((b) => ({
    timestamp: isoOf(b.ms),
    open: formatMicros(b.o),
    high: formatMicros(b.h),
    low: formatMicros(b.l),
    close: formatMicros(b.c),
    volume: formatMicros(b.v),
  }));
}

export interface TraderJson {
  walletAddress: string;
  volume: string;
  trades: number;
}

interface Tally {
  wallet: string;
  volume: Micros;
  trades: number;
}

function ranked(tallies: Iterable<Tally>, limit: number): TraderJson[] {
  return [...tallies]
    .sort((a, b) => (a.volume === b.volume ? (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : 0) : a.volume > b.volume ? -1 : 1))
    .slice(0, limit)
    .map((t) => ({ walletAddress: t.wallet, volume: formatMicros(t.volume), trades: t.trades }));
}

function bump(map: Map<string, Tally>, wallet: string, volume: Micros): void {
  const key = wallet.toLowerCase();
  const t = map.get(key) ?? { wallet, volume: 0n, trades: 0 };
  t.volume += volume;
  t.trades += 1;
  map.set(key, t);
}

/** Wallets by traded notional on the market (both legs count). */
export function traders(engine: MatchingEngine, symbol: string, limit: number): TraderJson[] {
  const m = engine.markets.get(symbol);
  if (m === undefined) return [];
  const log = engine.ledger.tradeLog;
  const tallies = new Map<string, Tally>();
  for (const row of log.rowsOfMarket(m)) {
    const t = log.get(row);
    bump(tallies, t.takerWallet, t.takerCash);
    bump(tallies, t.makerWallet, t.makerCash);
  }
  return ranked(tallies.values(), limit);
}

export interface OutcomeTradersJson {
  outcome: number;
  label: string;
  traders: TraderJson[];
}

/** Per outcome: wallets by shares of that outcome's token they traded. */
export function tradersByOutcome(engine: MatchingEngine, market: Market, limit: number): OutcomeTradersJson[] {
  const byOutcome = market.outcomeLabels.map(() => new Map<string, Tally>());
  const em = engine.markets.get(market.symbol);
  if (em !== undefined) {
    const log = engine.ledger.tradeLog;
    for (const row of log.rowsOfMarket(em)) {
      const t = log.get(row);
      const taker = byOutcome[t.outcome];
      if (taker !== undefined) bump(taker, t.takerWallet, t.quantity);
      const maker = byOutcome[t.makerOutcome];
      if (maker !== undefined) bump(maker, t.makerWallet, t.quantity);
    }
  }
  return market.outcomeLabels.map((label, outcome) => ({ outcome, label, traders: ranked(byOutcome[outcome]!.values(), limit) }));
}
