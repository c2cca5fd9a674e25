/**
 * The report rows built from per-market fill tallies (FillTotals, bot/fills/fill-totals.ts), shared
 * by the fast engine's report (fast/engine.ts) and paper trading's (src/paper/report.ts, which sits
 * above src/backtest in the layers): the same figures, named and formatted the same way, from one
 * place.
 */
import { formatMicros, ONE, type Micros } from "../core/money.js";
import type { FillTotals } from "../bot/fills/fill-totals.js";

/** One market's row of a report, decimal strings. */
export interface FastMarketFigures {
  symbol: string;
  fills: number;
  makerFills: number;
  takerFills: number;
  /** Shares traded (bought + sold), decimal string. */
  volume: string;
  boughtShares: string;
  soldShares: string;
  /** Sums of price x quantity of the buys / sells (micro-exact). */
  buyNotional: string;
  sellNotional: string;
  fees: string;
  realised: string;
  unrealised: string;
  net: string;
  /** Position per outcome at the end, decimal strings. */
  positions: Record<string, string>;
}

export interface FigureTotals {
  fills: number;
  volume: string;
  fees: string;
  realised: string;
  unrealised: string;
  net: string;
}

/**
 * What the builder needs of one market: the tally of our fills on it (fill-totals.ts: micro-exact,
 * notionals in micros squared, rounded down to the micro here), its PnL (Inventory.pnl) and end
 * positions.
 */
export interface MarketFigureInput {
  symbol: string;
  sums: FillTotals;
  pnl: { realised: Micros; unrealised: Micros; net: Micros };
  positions: Record<string, string>;
}

/** The rows, in the order given, and their totals. */
export function marketFigures(rows: readonly MarketFigureInput[]): { markets: FastMarketFigures[]; totals: FigureTotals } {
  const markets: FastMarketFigures[] = [];
  let fills = 0;
  let volume = 0n;
  let fees = 0n;
  let realised = 0n;
  let unrealised = 0n;
  let net = 0n;
  for (const { symbol, sums: s, pnl, positions } of rows) {
    markets.push({
      symbol,
      fills: s.fills,
      makerFills: s.maker,
      takerFills: s.taker,
      volume: formatMicros(s.bought + s.sold),
      boughtShares: formatMicros(s.bought),
      soldShares: formatMicros(s.sold),
      buyNotional: formatMicros(s.buyNotional2 / ONE),
      sellNotional: formatMicros(s.sellNotional2 / ONE),
      fees: formatMicros(s.fees),
      realised: formatMicros(pnl.realised),
      unrealised: formatMicros(pnl.unrealised),
      net: formatMicros(pnl.net),
      positions,
    });
    fills += s.fills;
    volume += s.bought + s.sold;
    fees += s.fees;
    realised += pnl.realised;
    unrealised += pnl.unrealised;
    net += pnl.net;
  }
  return { markets, totals: { fills, volume: formatMicros(volume), fees: formatMicros(fees), realised: formatMicros(realised), unrealised: formatMicros(unrealised), net: formatMicros(net) } };
}
