/**
 * Per wallet and market figures of the report, from the daemon's own ledger (fills) and
 * inventory (PnL, positions), with bigint sums formatted as decimal strings only at the end.
 * Totals are sums of the rows (so a column adds up exactly; Inventory.pnl over a whole wallet
 * rounds once instead of per market and can differ from it by a few micros).
 */
import { SCALE, absMicros, divRound, formatMicros, type Micros } from "../core/money.js";
import type { Fill } from "../bot/fills/fill-ledger.js";
import { emptyTotals, mergeTotals, totalsOf, type FillTotals } from "../bot/fills/fill-totals.js";
import type { Inventory, Marks, PnlSummary } from "../bot/fills/inventory.js";
import { emptyOrderCounts, formatUptime, type BacktestCollector, type OrderCounts } from "./collector.js";
import type { MarketMark } from "./marks.js";
import type { FillFigures, MarketFigures, OrderFigures, OutcomeInventory, PnlFigures, TotalFigures } from "./types.js";

/** bigint form of the figures, summed before formatting. */
export interface RawFigures {
  /** The fills' tally (its `fees` are not reported from here: the fees column is the inventory's, in `pnl`). */
  fills: FillTotals;
  orders: OrderCounts;
  pnl: { fees: Micros; realised: Micros; unrealised: Micros; unmarked: number; unrealisedFv: Micros; unmarkedFv: number };
  gross: Micros;
}

export function emptyRaw(): RawFigures {
  return {
    fills: emptyTotals(),
    orders: emptyOrderCounts(),
    pnl: { fees: 0n, realised: 0n, unrealised: 0n, unmarked: 0, unrealisedFv: 0n, unmarkedFv: 0 },
    gross: 0n,
  };
}

export function addRaw(into: RawFigures, x: RawFigures): void {
  mergeTotals(into.fills, x.fills);
  addOrders(into.orders, x.orders);
  into.pnl.fees += x.pnl.fees;
  into.pnl.realised += x.pnl.realised;
  into.pnl.unrealised += x.pnl.unrealised;
  into.pnl.unmarked += x.pnl.unmarked;
  into.pnl.unrealisedFv += x.pnl.unrealisedFv;
  into.pnl.unmarkedFv += x.pnl.unmarkedFv;
  into.gross += x.gross;
}

export interface RowInputs {
  wallet: string;
  marketId: string;
  fills: readonly Fill[];
  inventory: Inventory;
  /** The market's mark (marks.ts); undefined: unmarked. */
  mark: MarketMark | undefined;
  /** The simulator's hidden fair value per outcome, for the sensitivity figure. */
  fairValue: readonly Micros[] | undefined;
  collector: BacktestCollector;
}

/**
 * The wallet's PnL on one market with its positions valued at `prices`, or, for a settled market,
 * each at exactly what the platform pays it: trunc(qty x numerator / sum) per position (positions
 * are never short on the platform, so that is a floor). Inventory.pnl gives floor(-cost) at a zero
 * mark; payouts are whole micros, so adding them keeps the row's single floor exact.
 */
export function marketPnl(inv: Inventory, wallet: string, marketId: string, mark: Pick<MarketMark, "prices" | "settlement"> | undefined): PnlSummary {
  const s = mark?.settlement;
  if (s === undefined) {
    const prices = mark?.prices;
    const marks: Marks = (m, o) => (m === marketId ? prices?.[o] : undefined);
    return inv.pnl(wallet, marks, marketId);
  }
  const atZero = inv.pnl(wallet, (m) => (m === marketId ? 0n : undefined), marketId);
  let payouts = 0n;
  for (const p of inv.positions(wallet, marketId)) if (p.qty !== 0n) payouts += (p.qty * (s.nums[p.outcome] ?? 0n)) / s.den;
  const unrealised = atZero.unrealised + payouts;
  return { ...atZero, unrealised, net: atZero.realised + unrealised - atZero.fees };
}

/** One wallet on one market: raw sums plus the per-outcome inventory. */
export function walletMarketRow(p: RowInputs): { raw: RawFigures; inventory: OutcomeInventory[]; uptime: string | null } {
  const raw = emptyRaw();
  raw.fills = totalsOf(p.fills);
  addOrders(raw.orders, p.collector.ordersOf(p.wallet, p.marketId));
  const pnl = marketPnl(p.inventory, p.wallet, p.marketId, p.mark);
  const fair = p.mark?.settlement !== undefined || p.fairValue === undefined ? p.mark : { prices: [...p.fairValue] };
  const fv = marketPnl(p.inventory, p.wallet, p.marketId, fair);
  raw.pnl = { fees: pnl.fees, realised: pnl.realised, unrealised: pnl.unrealised, unmarked: pnl.unmarked.length, unrealisedFv: fv.unrealised, unmarkedFv: fv.unmarked.length };
  const inventory: OutcomeInventory[] = [];
  for (const s of p.inventory.positions(p.wallet, p.marketId)) {
    p.collector.noteQty(`${p.wallet}|${p.marketId}|${s.outcome}`, s.qty);
    raw.gross += absMicros(s.qty);
    inventory.push({
      outcome: s.outcome,
      final: formatMicros(s.qty),
      maxAbs: formatMicros(p.collector.maxAbsOf(p.wallet, p.marketId, s.outcome)),
      avgCost: s.avgCost === null ? null : formatMicros(s.avgCost),
    });
  }
  return { raw, inventory, uptime: formatUptime(p.collector.uptimeOf(p.wallet, p.marketId)) };
}

function addOrders(into: OrderCounts, x: OrderCounts): void {
  into.placed += x.placed;
  into.cancelled += x.cancelled;
  into.cancelTooLate += x.cancelTooLate;
  into.cancelledBySettlement += x.cancelledBySettlement;
  into.unknown += x.unknown;
  for (const [code, n] of x.rejected) into.rejected.set(code, (into.rejected.get(code) ?? 0) + n);
}

function formatFills(f: FillTotals): FillFigures {
  const buy = divRound(f.buyNotional2, SCALE, "floor");
  const sell = divRound(f.sellNotional2, SCALE, "floor");
  return {
    count: f.fills,
    maker: f.maker,
    taker: f.taker,
    unknownRole: f.unknownRole,
    boughtShares: formatMicros(f.bought),
    soldShares: formatMicros(f.sold),
    buyNotional: formatMicros(buy),
    sellNotional: formatMicros(sell),
    volume: formatMicros(buy + sell),
  };
}

function formatOrders(o: OrderCounts): OrderFigures {
  const rejected: Record<string, number> = {};
  let total = 0;
  for (const code of [...o.rejected.keys()].sort()) {
    const n = o.rejected.get(code)!;
    rejected[code] = n;
    total += n;
  }
  return {
    placed: o.placed,
    cancelled: o.cancelled,
    cancelTooLate: o.cancelTooLate,
    cancelledBySettlement: o.cancelledBySettlement,
    rejected,
    rejectedTotal: total,
    unknown: o.unknown,
  };
}

function formatPnl(p: RawFigures["pnl"]): PnlFigures {
  return {
    fees: formatMicros(p.fees),
    realised: formatMicros(p.realised),
    unrealised: formatMicros(p.unrealised),
    net: formatMicros(p.realised + p.unrealised - p.fees),
    unmarked: p.unmarked,
  };
}

export function formatTotals(raw: RawFigures): TotalFigures {
  return { fills: formatFills(raw.fills), orders: formatOrders(raw.orders), pnl: formatPnl(raw.pnl), grossFinalShares: formatMicros(raw.gross) };
}

export function formatMarketFigures(marketId: string, raw: RawFigures, inventory: OutcomeInventory[], uptime: string | null): MarketFigures {
  return { marketId, ...formatTotals(raw), inventory, quoteUptime: uptime };
}
