/**
 * Auto-merge, the pure part (issue 14 part 2): which YES+NO pairs to merge back into cash, and the
 * daemon's view of shares locked by pending merges. The shell (engine/auto-merge-runner.ts) reads
 * the inventory, the tracker and the platform's operation records, and sends.
 *
 * Rules, in order, per binary market:
 *   - a merge of the market already pending            -> skip "pending"
 *   - any order of the wallet live or in flight there  -> skip "orders_open" (never merge shares an
 *     order may sell, nor while a BUY may still add to them)
 *   - pair = min(YES, NO) free of locks, floored to whole shares
 *   - pair below `threshold`                           -> skip "below_threshold"
 *   - pair below `minSize`                             -> skip "below_min_size"
 *   - otherwise merge the whole pair.
 * Markets with other than two outcomes are not considered (a merge needs every outcome).
 */
import type { Micros } from "../../core/money.js";
import type { PositionView } from "../quote/quotes.js";

export interface AutoMergeParams {
  threshold: Micros;
  minSize: Micros;
}

export interface MergeCandidate {
  marketId: string;
  outcomeCount: number;
  /** Held shares per outcome (YES = 0, NO = 1), locks not subtracted. */
  yes: Micros;
  no: Micros;
  /** Orders of the wallet in this market, live or in flight. */
  liveOrders: number;
  /** Shares of each outcome locked by a pending merge of this market (0 when none). */
  pending: Micros;
}

export type MergeSkip = "pending" | "orders_open" | "not_binary" | "below_threshold" | "below_min_size";

export type MergeDecision = { marketId: string; action: "merge"; amount: Micros } | { marketId: string; action: "skip"; reason: MergeSkip; pair: Micros };

const SHARE = 1_000_000n;

export function decideMerge(p: AutoMergeParams, c: MergeCandidate): MergeDecision {
  const raw = c.yes < c.no ? c.yes : c.no;
  const pair = raw < 0n ? 0n : (raw / SHARE) * SHARE;
  if (c.outcomeCount !== 2) return { marketId: c.marketId, action: "skip", reason: "not_binary", pair };
  if (c.pending > 0n) return { marketId: c.marketId, action: "skip", reason: "pending", pair };
  if (c.liveOrders > 0) return { marketId: c.marketId, action: "skip", reason: "orders_open", pair };
  if (pair < p.threshold) return { marketId: c.marketId, action: "skip", reason: "below_threshold", pair };
  if (pair < p.minSize) return { marketId: c.marketId, action: "skip", reason: "below_min_size", pair };
  return { marketId: c.marketId, action: "merge", amount: pair };
}

/** Decisions for every candidate, in the order given. */
export function decideMerges(p: AutoMergeParams, cs: readonly MergeCandidate[]): MergeDecision[] {
  return cs.map((c) => decideMerge(p, c));
}

/**
 * Shares locked by pending merges, per (wallet, market): the quote cycle sees the position less
 * what is locked, so no quote sells shares on their way into a merge. Released on confirmation
 * (when the inventory itself drops) or on failure (after the unlock).
 */
export class MergeLocks {
  private readonly locks = new Map<string, Micros>();

  private key(wallet: string, marketId: string): string {
    return `${wallet.toLowerCase()}\n${marketId}`;
  }

  lock(wallet: string, marketId: string, amount: Micros): void {
    const k = this.key(wallet, marketId);
    this.locks.set(k, (this.locks.get(k) ?? 0n) + amount);
  }

  release(wallet: string, marketId: string, amount: Micros): void {
    const k = this.key(wallet, marketId);
    const left = (this.locks.get(k) ?? 0n) - amount;
    if (left > 0n) this.locks.set(k, left);
    else this.locks.delete(k);
  }

  locked(wallet: string, marketId: string): Micros {
    return this.locks.get(this.key(wallet, marketId)) ?? 0n;
  }

  /** Positions as the quote cycle should see them: every outcome less the locked amount (never below 0). */
  view(wallet: string, marketId: string, positions: readonly PositionView[]): readonly PositionView[] {
    const l = this.locked(wallet, marketId);
    if (l === 0n) return positions;
    return positions.map((p) => (p.qty > 0n ? { ...p, qty: p.qty > l ? p.qty - l : 0n } : p));
  }
}
