/**
 * The paper run's report: the fast engine's figures (per market fills, volume, fees, realised,
 * unrealised and net PnL, final positions) and the same time series (series.ts: equity, drawdown,
 * inventory, quotes, each fill with its markouts, PnL decomposition, days), built from the paper
 * account's fills as they happen. PnL is the daemon's own arithmetic (`Inventory`, average cost,
 * marked at the mid of the last book read), over every wallet of the run.
 */
import { formatMicros, type Micros } from "../core/money.js";
import { FillLedger } from "../bot/fills/fill-ledger.js";
import { Inventory } from "../bot/fills/inventory.js";
import { addToTotals, emptyTotals, type FillTotals } from "../bot/fills/fill-totals.js";
import { marketFigures, type FastMarketFigures, type FigureTotals, type MarketFigureInput } from "../backtest/market-figures.js";
import { renderHtmlReport } from "../backtest/report-html/html.js";
import { SeriesRecorder, type SeriesProbe, type SeriesReport } from "../backtest/series.js";
import { labelsOf, seriesLines, textTable } from "../backtest/summary.js";
import type { PaperAccount, PaperFill } from "./account.js";

export interface PaperReport {
  engine: "paper";
  /** Where the public data came from. */
  source: string;
  queueModel: string;
  latency: string;
  startingCash: string;
  firstTs: number | null;
  lastTs: number | null;
  /** Books and public trades the exchange model saw (as the daemon read them). */
  events: { book: number; trade: number };
  orders: { placed: number; accepted: number; rejected: number; rejectCodes: Record<string, number>; cancels: number };
  markets: FastMarketFigures[];
  totals: FigureTotals;
  /** Each wallet's paper cash at the end (total and locked by open orders). */
  wallets: { address: string; cash: string; locked: string }[];
  series?: SeriesReport;
}


/** Follows the account's fills into the daemon's ledger and inventory arithmetic and the series. */
export class PaperReporter {
  private readonly ledger = new FillLedger();
  readonly inventory = new Inventory();
  private readonly series: SeriesRecorder;
  private readonly sums = new Map<string, FillTotals>();
  private firstTs: number | null = null;
  private lastTs: number | null = null;

  constructor(
    private readonly account: PaperAccount,
    private readonly info: { source: string; queueModel: string; latency: string; startingCash: Micros },
  ) {
    this.series = new SeriesRecorder(this.probe());
    const previous = account.onFill;
    account.onFill = (f) => {
      previous?.(f);
      this.onFill(f);
    };
  }

  /** The clock moved to `ts` (call before anything stamped ts is applied, and from a timer). */
  advance(ts: number): void {
    this.firstTs ??= ts;
    if (this.lastTs === null || ts > this.lastTs) this.lastTs = ts;
    this.series.advance(ts);
  }

  private onFill(f: PaperFill): void {
    this.advance(f.ts);
    const r = this.ledger.add({ tradeId: f.tradeId, wallet: f.wallet, orderId: f.orderId, clientOrderId: f.clientOrderId ?? f.orderId, marketId: f.marketId, outcome: f.outcome, side: f.side, price: f.price, qty: f.qty, fee: f.fee, role: f.role, ts: f.ts, source: "stream" });
    this.inventory.applyLedgerResult(r);
    let s = this.sums.get(f.marketId);
    if (s === undefined) {
      s = emptyTotals();
      this.sums.set(f.marketId, s);
    }
    addToTotals(s, f);
    this.series.fill({ ts: f.ts, marketId: f.marketId, outcome: f.outcome, side: f.side, role: f.role, price: f.price, qty: f.qty, fee: f.fee });
  }

  private mid = (marketId: string, outcome: number): Micros | undefined => {
    const b = this.account.lastBooks.get(`${marketId}|${outcome}`);
    if (b === undefined || b.bids.length === 0 || b.asks.length === 0) return undefined;
    const bid = b.bids.price(0);
    const ask = b.asks.price(0);
    return bid < ask ? (bid + ask) / 2n : undefined;
  };

  /** Markets with a book read or a fill, sorted. */
  private marketIds(): string[] {
    const ids = new Set<string>(this.sums.keys());
    for (const k of this.account.lastBooks.keys()) ids.add(k.slice(0, k.lastIndexOf("|")));
    return [...ids].sort();
  }

  private pnl(marketId?: string): { realised: Micros; unrealised: Micros; fees: Micros; net: Micros } {
    let realised = 0n;
    let unrealised = 0n;
    let fees = 0n;
    let net = 0n;
    const markets = marketId === undefined ? this.marketIds() : [marketId];
    for (const w of this.account.wallets()) {
      for (const m of markets) {
        const x = this.inventory.pnl(w, this.mid, m);
        realised += x.realised;
        unrealised += x.unrealised;
        fees += x.fees;
        net += x.net;
      }
    }
    return { realised, unrealised, fees, net };
  }

  private probe(): SeriesProbe {
    const a = this.account;
    return {
      markets: () => this.marketIds(),
      labels: (m) => {
        const row = a.markets.get(m);
        const n = row?.outcomeCount ?? 2;
        return row?.labels !== undefined && row.labels.length === n ? row.labels : Array.from({ length: n }, (_, o) => `outcome ${o}`);
      },
      mid: this.mid,
      pnl: () => this.pnl(),
      position: (m, o) => {
        let q = 0n;
        for (const w of a.wallets()) q += this.inventory.summary(w, m, o).qty;
        return q;
      },
      quotes: (m) => {
        const out: { outcome: number; side: "BUY" | "SELL"; price: Micros }[] = [];
        for (const w of a.wallets()) for (const o of a.liveOrders(w, m)) out.push({ outcome: o.outcome, side: o.side, price: o.price });
        return out;
      },
      tradable: (m) => {
        const s = a.markets.get(m)?.status;
        return s === "OPEN" || s === "PRE_MARKET";
      },
    };
  }

  /** The report now (the series is closed: call once, at the end). */
  finish(nowMs: number): PaperReport {
    this.advance(nowMs);
    const a = this.account;
    const rows: MarketFigureInput[] = [];
    for (const symbol of [...this.sums.keys()].sort()) {
      const positions: Record<string, string> = {};
      const count = a.markets.get(symbol)?.outcomeCount ?? 2;
      for (let o = 0; o < count; o++) {
        let q = 0n;
        for (const w of a.wallets()) q += this.inventory.summary(w, symbol, o).qty;
        if (q !== 0n) positions[String(o)] = formatMicros(q);
      }
      rows.push({ symbol, sums: this.sums.get(symbol)!, pnl: this.pnl(symbol), positions });
    }
    const { markets, totals } = marketFigures(rows);
    const c = a.counts;
    return {
      engine: "paper",
      source: this.info.source,
      queueModel: this.info.queueModel,
      latency: this.info.latency,
      startingCash: formatMicros(this.info.startingCash),
      firstTs: this.firstTs,
      lastTs: this.lastTs,
      events: { book: c.books, trade: c.trades },
      orders: { placed: c.placed, accepted: c.accepted, rejected: c.rejected, rejectCodes: { ...c.rejectCodes }, cancels: c.cancels },
      markets,
      totals,
      wallets: a.wallets().map((w) => ({ address: w, cash: formatMicros(a.cash(w)), locked: formatMicros(a.lockedCash(w)) })),
      series: this.series.finish(nowMs),
    };
  }
}

export function formatPaperSummary(r: PaperReport): string {
  const label = labelsOf(r);
  const span = r.firstTs === null || r.lastTs === null ? "no data" : `${new Date(r.firstTs).toISOString()} .. ${new Date(r.lastTs).toISOString()}`;
  const o = r.orders;
  const codes = Object.entries(o.rejectCodes).map(([k, n]) => `${k} ${n}`).join(", ");
  const lines = [
    `paper trading: ${r.source}; ${span}; queue model ${r.queueModel}; latency ${r.latency}; start ${r.startingCash} per wallet`,
    `seen: ${r.events.book} books, ${r.events.trade} public trades; orders (never sent): ${o.placed} placed, ${o.accepted} accepted, ${o.rejected} rejected${codes === "" ? "" : ` (${codes})`}, ${o.cancels} cancelled`,
    "",
  ];
  const rows: string[][] = [["market", "fills", "maker", "taker", "volume", "fees", "net", "position"]];
  for (const m of r.markets) {
    const pos = Object.entries(m.positions).map(([oc, q]) => `${label(m.symbol, Number(oc))} ${q}`).join(", ") || "flat";
    rows.push([m.symbol, String(m.fills), String(m.makerFills), String(m.takerFills), m.volume, m.fees, m.net, pos]);
  }
  const t = r.totals;
  rows.push(["total", String(t.fills), "", "", t.volume, t.fees, t.net, ""]);
  lines.push(textTable(rows, new Set([1, 2, 3, 4, 5, 6])));
  lines.push("net = realised + unrealised (marked at the last book's mid) - fees; decimal units of the settlement token");
  for (const w of r.wallets) lines.push(`wallet ${w.address}: cash ${w.cash} (locked by open orders ${w.locked})`);
  lines.push(...seriesLines(r.series));
  return lines.join("\n") + "\n";
}

export function paperReportJson(r: PaperReport): string {
  return JSON.stringify(r, null, 2) + "\n";
}

const inventoryText = (positions: Record<string, string>, labels: readonly string[] | undefined): string =>
  Object.entries(positions)
    .map(([o, q]) => `${labels?.[Number(o)] ?? `outcome ${o}`} ${q}`)
    .join(", ") || "flat";

export function htmlFromPaper(r: PaperReport): string {
  const s = r.series;
  if (s === undefined) throw new Error("paper report: no series to draw");
  const labels = new Map(s.markets.map((m) => [m.marketId, m.labels]));
  const span = r.firstTs === null || r.lastTs === null ? "no data" : `${new Date(r.firstTs).toISOString()} .. ${new Date(r.lastTs).toISOString()}`;
  return renderHtmlReport({
    title: `Paper trading: ${r.source}`,
    facts: [`paper trading (orders never sent), ${span}, queue model ${r.queueModel}, latency ${r.latency}`, `${r.events.book} books, ${r.events.trade} public trades, ${r.orders.placed} orders placed`],
    totals: [
      { label: "net PnL", value: r.totals.net },
      { label: "realised", value: r.totals.realised },
      { label: "unrealised", value: r.totals.unrealised },
      { label: "fees", value: r.totals.fees },
      { label: "fills", value: String(r.totals.fills) },
      { label: "shares traded", value: r.totals.volume },
      { label: "max drawdown", value: s.drawdown.max },
    ],
    marketHead: ["market", "fills", "maker", "taker", "shares", "fees", "net", "final inventory"],
    marketRows: r.markets.map((m) => [m.symbol, m.fills, m.makerFills, m.takerFills, m.volume, m.fees, m.net, inventoryText(m.positions, labels.get(m.symbol))]),
    series: s,
  });
}
