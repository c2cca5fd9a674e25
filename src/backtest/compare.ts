/**
 * Calibration (`mm backtest --compare`): the full engine's report and the fast engine's, on the same
 * inputs, side by side per market and in total: fills (maker / taker), shares bought and sold, the
 * average price of each, fees, realised, unrealised and net PnL, and the final position per outcome.
 * Every difference is fast - full, exact (decimal strings in, decimal strings out).
 *
 * What it says: how far the fast engine's answer is from the whole daemon's on these inputs. On
 * synthetic flow the two see different markets once we trade (the full engine's simulator reacts to
 * our orders, the fast engine's recorded books do not), so the gap includes that impact; on a
 * recorded data set replayed by both it is the exchange model's (queue, latency, fills) alone.
 */
import { Decimal } from "decimal.js";
import type { FastMarketFigures, FastReport } from "./fast/engine.js";
import type { BacktestReport, MarketFigures } from "./types.js";

export interface ComparedFigure {
  name: string;
  full: string;
  fast: string;
  /** fast - full. */
  diff: string;
}

export interface ComparedMarket {
  symbol: string;
  /** Only in one of the reports. */
  onlyIn?: "full" | "fast";
  figures: ComparedFigure[];
}

export interface Comparison {
  markets: ComparedMarket[];
  totals: ComparedFigure[];
}

/** The figures both engines report, as decimal strings. */
interface Common {
  fills: string;
  maker: string;
  taker: string;
  bought: string;
  sold: string;
  avgBuyPrice: string;
  avgSellPrice: string;
  fees: string;
  realised: string;
  unrealised: string;
  net: string;
  positions: Record<string, string>;
}

const ORDER: readonly (keyof Omit<Common, "positions">)[] = ["fills", "maker", "taker", "bought", "sold", "avgBuyPrice", "avgSellPrice", "fees", "realised", "unrealised", "net"];

function avg(notional: string, shares: string): string {
  const s = new Decimal(shares);
  return s.isZero() ? "0" : new Decimal(notional).div(s).toDecimalPlaces(6, Decimal.ROUND_HALF_EVEN).toFixed();
}

function fromFull(f: MarketFigures): Common {
  const positions: Record<string, string> = {};
  for (const i of f.inventory) if (!new Decimal(i.final).isZero()) positions[String(i.outcome)] = i.final;
  return {
    fills: String(f.fills.count),
    maker: String(f.fills.maker),
    taker: String(f.fills.taker),
    bought: f.fills.boughtShares,
    sold: f.fills.soldShares,
    avgBuyPrice: avg(f.fills.buyNotional, f.fills.boughtShares),
    avgSellPrice: avg(f.fills.sellNotional, f.fills.soldShares),
    fees: f.pnl.fees,
    realised: f.pnl.realised,
    unrealised: f.pnl.unrealised,
    net: f.pnl.net,
    positions,
  };
}

function fromFast(m: FastMarketFigures): Common {
  return {
    fills: String(m.fills),
    maker: String(m.makerFills),
    taker: String(m.takerFills),
    bought: m.boughtShares,
    sold: m.soldShares,
    avgBuyPrice: avg(m.buyNotional, m.boughtShares),
    avgSellPrice: avg(m.sellNotional, m.soldShares),
    fees: m.fees,
    realised: m.realised,
    unrealised: m.unrealised,
    net: m.net,
    positions: m.positions,
  };
}

const ZERO: Common = { fills: "0", maker: "0", taker: "0", bought: "0", sold: "0", avgBuyPrice: "0", avgSellPrice: "0", fees: "0", realised: "0", unrealised: "0", net: "0", positions: {} };

function figures(full: Common, fast: Common): ComparedFigure[] {
  const out: ComparedFigure[] = ORDER.map((name) => ({ name, full: full[name], fast: fast[name], diff: new Decimal(fast[name]).minus(full[name]).toFixed() }));
  const outcomes = [...new Set([...Object.keys(full.positions), ...Object.keys(fast.positions)])].sort();
  for (const o of outcomes) {
    const a = full.positions[o] ?? "0";
    const b = fast.positions[o] ?? "0";
    out.push({ name: `position o${o}`, full: a, fast: b, diff: new Decimal(b).minus(a).toFixed() });
  }
  return out;
}

function sum(cs: readonly Common[]): Common {
  const add = (k: keyof Omit<Common, "positions" | "avgBuyPrice" | "avgSellPrice">): string => cs.reduce((a, c) => a.plus(c[k]), new Decimal(0)).toFixed();
  return { ...ZERO, fills: add("fills"), maker: add("maker"), taker: add("taker"), bought: add("bought"), sold: add("sold"), fees: add("fees"), realised: add("realised"), unrealised: add("unrealised"), net: add("net") };
}

export function compareReports(full: BacktestReport, fast: FastReport): Comparison {
  const a = new Map(full.markets.map((m) => [m.marketId, fromFull(m.figures)]));
  const b = new Map(fast.markets.map((m) => [m.symbol, fromFast(m)]));
  const symbols = [...new Set([...a.keys(), ...b.keys()])].sort();
  const markets: ComparedMarket[] = symbols.map((symbol) => {
    const x = a.get(symbol);
    const y = b.get(symbol);
    const m: ComparedMarket = { symbol, figures: figures(x ?? ZERO, y ?? ZERO) };
    if (x === undefined) m.onlyIn = "fast";
    else if (y === undefined) m.onlyIn = "full";
    return m;
  });
  const totals = figures(sum([...a.values()]), sum([...b.values()])).filter((f) => !f.name.startsWith("avg"));
  return { markets, totals };
}

export function formatComparison(c: Comparison): string {
  const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));
  const left = (s: string, n: number): string => (s.length >= n ? s : " ".repeat(n - s.length) + s);
  const rows = (fs: readonly ComparedFigure[]): string[] => fs.map((f) => `  ${pad(f.name, 14)} ${left(f.full, 14)} ${left(f.fast, 14)} ${left(f.diff, 14)}`);
  const head = `  ${pad("", 14)} ${left("full", 14)} ${left("fast", 14)} ${left("fast - full", 14)}`;
  const lines = ["calibration: the fast engine against the full engine on the same inputs", ""];
  for (const m of c.markets) {
    lines.push(`${m.symbol}${m.onlyIn !== undefined ? ` (only in the ${m.onlyIn} engine's report)` : ""}`, head, ...rows(m.figures), "");
  }
  lines.push("total", head, ...rows(c.totals));
  return lines.join("\n") + "\n";
}
