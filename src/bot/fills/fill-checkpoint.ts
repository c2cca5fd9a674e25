/**
 * The compacted part of the fill ledger: per wallet, a watermark and the totals of the fills folded
 * below it (the argument for why that keeps the ledger's idempotence is in fill-ledger.ts,
 * "Compaction"). A checkpoint holds no fill record unless it is told to keep them (`keep`: backtests
 * and tests, whose consistency checks need the full list); then the records move to an archive
 * that `FillLedger.fills()` still lists, while duplicates are still decided by the watermark, so a
 * backtest exercises the same path as a long-running daemon.
 */
import { compareIds } from "../../core/natural-order.js";
import type { Fill, TradeCursor } from "./fill-types.js";
import { addToTotals, emptyTotals, type FillTotals } from "./fill-totals.js";

/** The totals (fill-totals.ts) of the fills of one wallet, market and outcome. */
export interface TotalsRow {
  wallet: string;
  marketId: string;
  outcome: number;
  totals: FillTotals;
}

/** True when (ts, tradeId) of `f` is at or below `w` (time, then trade id in natural id order). */
export function atOrBelow(f: Pick<Fill, "ts" | "tradeId">, w: TradeCursor): boolean {
  return f.ts < w.ts || (f.ts === w.ts && compareIds(f.tradeId, w.tradeId) <= 0);
}

interface WalletCheckpoint {
  watermark: TradeCursor;
  fills: number;
  /** By `marketId|outcome`. */
  totals: Map<string, { marketId: string; outcome: number; totals: FillTotals }>;
}

export class FillCheckpoint {
  private readonly wallets = new Map<string, WalletCheckpoint>();
  /** Compacted records by fill key, only when keeping them. */
  private archive: Map<string, Fill> | undefined;

  constructor(keep = false) {
    if (keep) this.archive = new Map();
  }

  get keeping(): boolean {
    return this.archive !== undefined;
  }

  /** Keep the records of fills compacted from now on (backtests, tests). */
  keep(): void {
    this.archive ??= new Map();
  }

  /** Highest (ts, tradeId) compacted for the wallet (lower-cased); undefined before any compaction. */
  watermark(wallet: string): TradeCursor | undefined {
    const c = this.wallets.get(wallet);
    return c === undefined ? undefined : { ...c.watermark };
  }

  /** True when a fill of this wallet at this (ts, tradeId) is known to be applied or compacted. */
  covers(f: Pick<Fill, "wallet" | "ts" | "tradeId">): boolean {
    const c = this.wallets.get(f.wallet);
    return c !== undefined && atOrBelow(f, c.watermark);
  }

  /**
   * Fold fills (one wallet, in canonical order, all above the current watermark) into the
   * checkpoint. The watermark becomes the last one's (ts, tradeId).
   */
  absorb(wallet: string, fills: readonly Fill[], keyOf: (f: Fill) => string): void {
    const last = fills[fills.length - 1];
    if (last === undefined) return;
    let c = this.wallets.get(wallet);
    if (c === undefined) this.wallets.set(wallet, (c = { watermark: { ts: last.ts, tradeId: last.tradeId }, fills: 0, totals: new Map() }));
    else if (!atOrBelow(c.watermark, last)) throw new Error(`compaction of ${wallet} would move its watermark back`);
    c.watermark = { ts: last.ts, tradeId: last.tradeId };
    c.fills += fills.length;
    for (const f of fills) {
      const k = `${f.marketId}|${f.outcome}`;
      let row = c.totals.get(k);
      if (row === undefined) c.totals.set(k, (row = { marketId: f.marketId, outcome: f.outcome, totals: emptyTotals() }));
      addToTotals(row.totals, f);
      this.archive?.set(keyOf(f), f);
    }
  }

  /** Fills compacted (of one wallet when given). */
  count(wallet?: string): number {
    if (wallet !== undefined) return this.wallets.get(wallet)?.fills ?? 0;
    let n = 0;
    for (const c of this.wallets.values()) n += c.fills;
    return n;
  }

  /** Totals of the compacted fills, per wallet, market and outcome (of one wallet when given). */
  totals(wallet?: string): TotalsRow[] {
    const out: TotalsRow[] = [];
    for (const [w, c] of this.wallets) {
      if (wallet !== undefined && w !== wallet) continue;
      for (const r of c.totals.values()) out.push({ wallet: w, marketId: r.marketId, outcome: r.outcome, totals: { ...r.totals } });
    }
    return out;
  }

  /** A kept compacted record (only when keeping them). */
  archived(key: string): Fill | undefined {
    return this.archive?.get(key);
  }

  /** Every kept compacted record (of one wallet when given); empty when not keeping them. */
  archivedFills(wallet?: string): Fill[] {
    if (this.archive === undefined) return [];
    const out: Fill[] = [];
    for (const f of this.archive.values()) if (wallet === undefined || f.wallet === wallet) out.push(f);
    return out;
  }
}
