/**
 * The fast engine's SeriesProbe (series.ts): reads the engine's inventory, order tracker and
 * market states, each only when the recorder samples (the engine's hook is a call per time step
 * and per fill, fast/engine.ts).
 *
 * Mids: each outcome's own recorded book, (best bid + best ask) / 2, as the fast report marks
 * positions; a binary market's outcome without its own book at 1 - the other's mid.
 */
import { ONE, type Micros } from "../core/money.js";
import type { Levels } from "../data/levels.js";
import type { Inventory } from "../bot/fills/inventory.js";
import type { OrderTracker } from "../bot/orders/order-tracker.js";
import { SeriesRecorder, type SeriesOptions, type SeriesProbe } from "./series.js";

/** What the probe reads of one of the engine's markets. */
export interface FastMarketView {
  row: { status: string; outcomeLabels?: readonly string[] | undefined };
  outcomeCount: number;
  books: ReadonlyMap<number, { bids: Levels; asks: Levels }>;
}

export interface FastSeriesParts {
  wallet: string;
  inventory: Inventory;
  tracker: OrderTracker;
  markets: ReadonlyMap<string, FastMarketView>;
}

function bookMid(m: FastMarketView, outcome: number): Micros | undefined {
  const b = m.books.get(outcome);
  if (b === undefined || b.bids.length === 0 || b.asks.length === 0) return undefined;
  const bid = b.bids.price(0);
  const ask = b.asks.price(0);
  return bid < ask ? (bid + ask) / 2n : undefined;
}

export function fastSeriesProbe(p: FastSeriesParts): SeriesProbe {
  const mid = (marketId: string, outcome: number): Micros | undefined => {
    const m = p.markets.get(marketId);
    if (m === undefined) return undefined;
    const own = bookMid(m, outcome);
    if (own !== undefined || m.outcomeCount !== 2) return own;
    const other = bookMid(m, 1 - outcome);
    return other === undefined ? undefined : ONE - other;
  };
  let sorted: string[] = [];
  return {
    markets: () => {
      if (sorted.length !== p.markets.size) sorted = [...p.markets.keys()].sort();
      return sorted;
    },
    labels: (marketId) => {
      const m = p.markets.get(marketId);
      if (m === undefined) return [];
      const l = m.row.outcomeLabels;
      return l !== undefined && l.length === m.outcomeCount ? l : Array.from({ length: m.outcomeCount }, (_, o) => `outcome ${o}`);
    },
    mid,
    // Per market, summed: the report's figures round per market (figures.ts), so the last sample equals them.
    pnl: () => {
      let realised = 0n;
      let unrealised = 0n;
      let fees = 0n;
      let net = 0n;
      for (const m of p.markets.keys()) {
        const x = p.inventory.pnl(p.wallet, mid, m);
        realised += x.realised;
        unrealised += x.unrealised;
        fees += x.fees;
        net += x.net;
      }
      return { realised, unrealised, fees, net };
    },
    position: (marketId, outcome) => p.inventory.summary(p.wallet, marketId, outcome).qty,
    quotes: (marketId) => p.tracker.liveOrders(marketId),
    tradable: (marketId) => {
      const s = p.markets.get(marketId)?.row.status;
      return s === "OPEN" || s === "PRE_MARKET";
    },
  };
}

export function fastSeries(p: FastSeriesParts, o?: SeriesOptions): SeriesRecorder {
  return new SeriesRecorder(fastSeriesProbe(p), o);
}
