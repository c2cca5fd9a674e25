/**
 * When the daemon compacts a wallet's fills (bounded memory for years of running): after each
 * wallet sync, fills stamped before
 *
 *   cut = min(C.ts - tradePullMarginMs, now - fillRetentionMs)
 *
 * are folded into the fill ledger's checkpoint and the inventory's position bases, C being the
 * cursor of the wallet's last complete trade pull (FillLedger.pullCoverage). The first bound is
 * what makes the watermark safe (the argument is in fill-ledger.ts, "Compaction"): the next pull
 * reads nothing older than C.ts - margin, and everything older was covered by complete pulls.
 * The second keeps an hour (by default) of records for what arrives late or out of order anyway:
 * a stream frame held up by a stalled loop, a trade the platform lists a little late, the
 * corrections of a `merged` record. No complete pull yet, or a retention of 0: nothing is compacted.
 * Memory is then about fills-per-hour x retention, whatever the uptime.
 *
 * The cut is also what lets the inventory retire a settled market (Inventory.coveredUntil, header of
 * inventory.ts): once it is past the settlement for every wallet, no fill of the market stamped
 * before the settlement can still arrive. A ledger that keeps its compacted records (backtests,
 * tests: their reports list every market) does not say so, and the inventory then retires nothing.
 */
import type { FillLedger, CompactionResult } from "./fill-ledger.js";
import type { Inventory } from "./inventory.js";

export interface CompactionTuning {
  /** Fill records younger than this stay in memory; 0 keeps them all (no compaction). */
  fillRetentionMs: number;
  tradePullMarginMs: number;
}

/** Fills stamped before the returned time may be compacted; undefined: none may yet. */
export function compactionCut(ledger: FillLedger, wallet: string, nowMs: number, t: CompactionTuning): number | undefined {
  if (!(t.fillRetentionMs > 0) || !Number.isFinite(t.fillRetentionMs)) return undefined;
  const covered = ledger.pullCoverage(wallet);
  if (covered === undefined) return undefined;
  return Math.min(covered.ts - Math.max(0, t.tradePullMarginMs), nowMs - t.fillRetentionMs);
}

/**
 * Compact one wallet in the ledger, then the inventory to the same watermark. `keepOrder` says
 * which orders may still fill (their cash-rounding notional is kept).
 */
export function compactWallet(
  ledger: FillLedger,
  inventory: Inventory,
  wallet: string,
  nowMs: number,
  t: CompactionTuning,
  keepOrder?: (orderId: string) => boolean,
): CompactionResult | undefined {
  const cut = compactionCut(ledger, wallet, nowMs, t);
  if (cut === undefined) return undefined;
  const r = ledger.compact(wallet, cut);
  if (r.watermark !== undefined) inventory.compact(wallet, r.watermark, keepOrder);
  if (!ledger.keepsCompacted) inventory.coveredUntil(wallet, cut);
  return r;
}
