/**
 * The QuoteSource market-json.ts needs, read from the matching engine. The catalogue addresses
 * markets by uuid, the engine by symbol (Engineer A registers engine markets by symbol); a
 * market the engine does not know (yet) simply has no book and no trades.
 *
 * Volumes are sums over the engine's trade log. They are kept incrementally per market (the
 * log only grows and the clock only moves forward) so a 500-row markets page does not rescan
 * every trade ever made.
 */
import type { Micros } from "../../../core/money.js";
import type { MatchingEngine } from "../../engine/index.js";
import type { Catalogue, QuoteSource } from "../../platform/index.js";

const DAY_MS = 86_400_000;

interface VolumeState {
  /** Rows of the market's trade list already summed. */
  seen: number;
  total: Micros;
  /** First row still inside the trailing 24 h window. */
  windowStart: number;
  windowSum: Micros;
}

const volumeCache = new WeakMap<MatchingEngine, Map<string, VolumeState>>();

/** The engine's book state of one outcome, or undefined when the engine has no such market. */
function top(engine: MatchingEngine, symbol: string, outcome: number) {
  const m = engine.markets.get(symbol);
  if (m === undefined || outcome < 0 || outcome >= m.outcomeCount) return undefined;
  return engine.book(symbol, outcome, 0);
}

/** Traded notional (the taker leg's cash, fees excluded) in total and over the last 24 h. */
export function marketVolume(engine: MatchingEngine, symbol: string, nowMs: number): { total: Micros; last24h: Micros } | undefined {
  const m = engine.markets.get(symbol);
  if (m === undefined) return undefined;
  let byMarket = volumeCache.get(engine);
  if (byMarket === undefined) {
    byMarket = new Map();
    volumeCache.set(engine, byMarket);
  }
  let v = byMarket.get(symbol);
  if (v === undefined) {
    v = { seen: 0, total: 0n, windowStart: 0, windowSum: 0n };
    byMarket.set(symbol, v);
  }
  const log = engine.ledger.tradeLog;
  const rows = log.rowsOfMarket(m);
  for (; v.seen < rows.length; v.seen++) {
    const cash = log.get(rows[v.seen]!).takerCash;
    v.total += cash;
    v.windowSum += cash;
  }
  while (v.windowStart < rows.length) {
    const t = log.get(rows[v.windowStart]!);
    if (t.createdAtMs > nowMs - DAY_MS) break;
    v.windowSum -= t.takerCash;
    v.windowStart++;
  }
  return { total: v.total, last24h: v.windowSum };
}

/** outcomePrices / chances / volumes of market rows, from the live engine. */
export function engineQuotes(engine: MatchingEngine, cat: Catalogue, nowMs: number): QuoteSource {
  const symbolOf = (marketId: string): string | undefined => cat.market(marketId, true)?.symbol;
  return {
    bestBid(marketId, outcome) {
      const s = symbolOf(marketId);
      return s === undefined ? undefined : (top(engine, s, outcome)?.bestBid ?? undefined);
    },
    bestAsk(marketId, outcome) {
      const s = symbolOf(marketId);
      return s === undefined ? undefined : (top(engine, s, outcome)?.bestAsk ?? undefined);
    },
    lastTradePrice(marketId, outcome) {
      const s = symbolOf(marketId);
      return s === undefined ? undefined : (top(engine, s, outcome)?.lastTradePrice ?? undefined);
    },
    volume(marketId) {
      const s = symbolOf(marketId);
      return (s === undefined ? undefined : marketVolume(engine, s, nowMs)) ?? { total: 0n, last24h: 0n };
    },
  };
}
