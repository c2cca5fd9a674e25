/**
 * What the backtest gathers while the daemon runs, from the engine's event stream (the same one
 * metrics and risk read) and from the daemon's own inventory and trackers:
 *
 * - order counts per wallet and market (placed, cancelled, cancel-too-late, rejected by code,
 *   unknown outcomes);
 * - the largest |position| per wallet, market and outcome, and per market and outcome across our
 *   wallets, read from the inventory after every fill (fill events are emitted after the
 *   inventory applied the fill, wallet-orders.ts);
 * - quote uptime: at every sample, whether each wallet had a live order on each market open for
 *   orders (the daemon's tracker; the simulator's market status);
 * - halts, tracker anomalies, drift records and reconciliation re-checks that still differed.
 *
 * Nothing here computes PnL: the report reads it from the daemon's Inventory.
 */
import { absMicros, type Micros } from "../core/money.js";
import type { EngineEvent, EngineObserver } from "../bot/observer.js";
import type { Inventory } from "../bot/fills/inventory.js";
import type { SeriesRecorder } from "./series.js";

export interface OrderCounts {
  placed: number;
  cancelled: number;
  cancelTooLate: number;
  cancelledBySettlement: number;
  rejected: Map<string, number>;
  unknown: number;
}

export interface UptimeCounts {
  samples: number;
  live: number;
}

export interface HaltRecord {
  at: number;
  action: string;
  scope: string;
  target: string;
  reason: string;
}

/** The parts of a wallet runner the sampler reads. */
export interface SampledRunner {
  wallet: string;
  tracker: { liveOrders(marketId: string): readonly unknown[] };
}

const key = (...parts: (string | number)[]): string => parts.join("|");

export function emptyOrderCounts(): OrderCounts {
  return { placed: 0, cancelled: 0, cancelTooLate: 0, cancelledBySettlement: 0, rejected: new Map(), unknown: 0 };
}

export class BacktestCollector implements EngineObserver {
  /** By wallet|market. */
  readonly orders = new Map<string, OrderCounts>();
  /** By wallet|market|outcome, and by *|market|outcome for our wallets together. */
  readonly maxAbs = new Map<string, Micros>();
  /** By wallet|market, and by *|market. */
  readonly uptime = new Map<string, UptimeCounts>();
  readonly halts: HaltRecord[] = [];
  readonly drift = new Map<string, number>();
  trackerAnomalies = 0;
  readonly reconciliation = { checks: 0, differing: 0, positions: 0, cash: 0 };
  /** Markets any event of ours named (orders, fills, quotes). */
  readonly markets = new Set<string>();
  /** The report's time series (series.ts, series-full.ts): told each fill. */
  series: SeriesRecorder | undefined;
  private inventory: Inventory | undefined;
  private wallets: readonly string[] = [];

  /** The daemon's inventory and wallets (lower-cased), once the daemon exists. */
  attach(inventory: Inventory, wallets: readonly string[]): void {
    this.inventory = inventory;
    this.wallets = wallets.map((w) => w.toLowerCase());
  }

  onEvent(e: EngineEvent): void {
    switch (e.type) {
      case "order_placed":
        this.counts(e.wallet, e.marketId).placed++;
        return;
      case "order_cancelled":
        if (e.result === "CANCELLED") this.counts(e.wallet, e.marketId).cancelled++;
        else if (e.result === "FILLED") this.counts(e.wallet, e.marketId).cancelTooLate++;
        return;
      case "order_rejected": {
        const r = this.counts(e.wallet, e.marketId).rejected;
        r.set(e.code, (r.get(e.code) ?? 0) + 1);
        return;
      }
      case "order_unknown":
        this.counts(e.wallet, e.marketId).unknown++;
        return;
      case "fill":
        this.markets.add(e.fill.marketId);
        this.afterFill(e.wallet, e.fill.marketId, e.fill.outcome);
        this.series?.fill({ ts: e.fill.ts, marketId: e.fill.marketId, outcome: e.fill.outcome, side: e.fill.side, role: e.fill.role, price: e.fill.price, qty: e.fill.qty, fee: e.fill.fee });
        return;
      case "halt":
        this.halts.push({ at: e.at, action: e.action, scope: e.scope, target: e.target, reason: e.reason });
        return;
      case "tracker_anomaly":
        this.trackerAnomalies++;
        return;
      case "drift":
        this.drift.set(e.kind, (this.drift.get(e.kind) ?? 0) + e.count);
        return;
      case "reconciliation":
        this.reconciliation.checks++;
        if (e.positions + e.cash > 0) this.reconciliation.differing++;
        this.reconciliation.positions += e.positions;
        this.reconciliation.cash += e.cash;
        return;
      default:
        return;
    }
  }

  private counts(wallet: string, marketId: string): OrderCounts {
    this.markets.add(marketId);
    const k = key(wallet.toLowerCase(), marketId);
    let c = this.orders.get(k);
    if (c === undefined) this.orders.set(k, (c = emptyOrderCounts()));
    return c;
  }

  private afterFill(wallet: string, marketId: string, outcome: number): void {
    const inv = this.inventory;
    if (inv === undefined) return;
    this.noteQty(key(wallet.toLowerCase(), marketId, outcome), inv.summary(wallet, marketId, outcome).qty);
    let net = 0n;
    for (const w of this.wallets) net += inv.summary(w, marketId, outcome).qty;
    this.noteQty(key("*", marketId, outcome), net);
  }

  /** Record a holding (also used for the final positions, so maxAbs >= |final| always). */
  noteQty(k: string, qty: Micros): void {
    const a = absMicros(qty);
    if (a > (this.maxAbs.get(k) ?? 0n)) this.maxAbs.set(k, a);
  }

  maxAbsOf(wallet: string, marketId: string, outcome: number): Micros {
    return this.maxAbs.get(key(wallet, marketId, outcome)) ?? 0n;
  }

  /** Orders of ours the platform cancelled when it settled a market (read from the simulator). */
  noteSettlementCancels(wallet: string, marketId: string, n: number): void {
    if (n > 0) this.counts(wallet, marketId).cancelledBySettlement += n;
  }

  ordersOf(wallet: string, marketId: string): OrderCounts {
    return this.orders.get(key(wallet.toLowerCase(), marketId)) ?? emptyOrderCounts();
  }

  uptimeOf(wallet: string, marketId: string): UptimeCounts | undefined {
    return this.uptime.get(key(wallet, marketId));
  }

  /**
   * One quote-uptime sample over `markets`: per wallet, and any wallet per market. A market only
   * counts while `tradable` (open for orders on the platform): time a market is closed or halted
   * is not quoting time missed.
   */
  sample(runners: readonly SampledRunner[], markets: Iterable<string>, tradable: (marketId: string) => boolean): void {
    for (const m of markets) {
      if (!tradable(m)) continue;
      let any = false;
      for (const r of runners) {
        const live = r.tracker.liveOrders(m).length > 0;
        any ||= live;
        this.bump(key(r.wallet, m), live);
      }
      this.bump(key("*", m), any);
    }
  }

  private bump(k: string, live: boolean): void {
    let u = this.uptime.get(k);
    if (u === undefined) this.uptime.set(k, (u = { samples: 0, live: 0 }));
    u.samples++;
    if (live) u.live++;
  }
}

/** "0.9731": live / samples to four places, rounded down; null without samples. */
export function formatUptime(u: UptimeCounts | undefined): string | null {
  if (u === undefined || u.samples === 0) return null;
  const bp = Math.floor((u.live * 10_000) / u.samples);
  return `${Math.floor(bp / 10_000)}.${String(bp % 10_000).padStart(4, "0")}`;
}
