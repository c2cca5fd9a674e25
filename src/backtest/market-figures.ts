/**
 * Per-market fill sums and the report rows built from them, shared by the fast engine's report
 * (fast/engine.ts) and paper trading's (src/paper/report.ts, which sits above src/backtest in the
 * layers): the same figures, named and formatted the same way, from one place.
 */
import { formatMicros, ONE, type Micros } from "../core/money.js";

/** What one market's fills add up to (micro-exact; notionals are price x quantity, micros squared). */
export interface MarketSums {
  fills: number;
  makerFills: number;
  takerFills: number;
  volume: Micros;
  bought: Micros;
  sold: Micros;
  buyNotional: bigint;
  sellNotional: bigint;
  fees: Micros;
}

export function emptySums(): MarketSums {
  return { fills: 0, makerFills: 0, takerFills: 0, volume: 0n, bought: 0n, sold: 0n, buyNotional: 0n, sellNotional: 0n, fees: 0n };
}

/** Count one fill of ours into its market's sums. */
export function addFill(s: MarketSums, f: { side: "BUY" | "SELL"; role: "maker" | "taker"; price: Micros; qty: Micros; fee: Micros }): void {
  s.fills++;
  if (f.role === "maker") s.makerFills++;
  else s.takerFills++;
  s.volume += f.qty;
  // price x quantity kept exact (micros squared); rounded down to the micro once, in the report.
  if (f.side === "BUY") {
    s.bought += f.qty;
    s.buyNotional += f.price * f.qty;
  } else {
    s.sold += f.qty;
    s.sellNotional += f.price * f.qty;
  }
  s.fees += f.fee;
}

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

/** What the builder needs of one market: its sums, its PnL (Inventory.pnl) and end positions. */
export interface MarketFigureInput {
  symbol: string;
  sums: MarketSums;
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
      makerFills: s.makerFills,
      takerFills: s.takerFills,
      volume: formatMicros(s.volume),
      boughtShares: formatMicros(s.bought),
      soldShares: formatMicros(s.sold),
      buyNotional: formatMicros(s.buyNotional / ONE),
      sellNotional: formatMicros(s.sellNotional / ONE),
      fees: formatMicros(s.fees),
      realised: formatMicros(pnl.realised),
      unrealised: formatMicros(pnl.unrealised),
      net: formatMicros(pnl.net),
      positions,
    });
    fills += s.fills;
    volume += s.volume;
    fees += s.fees;
    realised += pnl.realised;
    unrealised += pnl.unrealised;
    net += pnl.net;
  }
  return { markets, totals: { fills, volume: formatMicros(volume), fees: formatMicros(fees), realised: formatMicros(realised), unrealised: formatMicros(unrealised), net: formatMicros(net) } };
}
