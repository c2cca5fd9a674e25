/**
 * The fill ledger: every fill of our wallets, once, whatever path it came by.
 *
 * Identity. A fill is keyed by (wallet, tradeId, orderId): the trade id alone is not enough when
 * two of our wallets (or two orders of one wallet) are the two sides of one trade. Every source
 * names the order (user_fill `orderId`, `/api/me/trades` `orderId`, placement and order-fills rows
 * by maker/taker order id), so the key is the same whichever source saw the fill first.
 *
 * Idempotence. Adding a fill that is already there changes nothing (`duplicate`), except that the
 * record converges to the best source: the higher-ranked source's record is kept (trades_pull >
 * order_read > placement > stream, the platform's trade list being the reference), completed with
 * what only the other knew, such as a role that was unknown (spec 6: a missing role is unknown,
 * never taker) or the clientOrderId (`merged`, with the previous record). If two sources disagree
 * on the economics (market, outcome, side, price, qty, fee, or two known roles), the answer is
 * `conflict` with the previous record so the caller can correct inventory (`replaceFill`). Which
 * source arrives first never changes the ledger. A `merged` record may carry a new `ts` (trade time
 * instead of frame time): inventory must take it (Inventory.applyLedgerResult), because the new
 * time can fall before the start-up anchor, where the trade is already in the anchored figures.
 *
 * Recovery. `/api/me/trades` is pulled newest first down to `lastTradeCursor(wallet)`, the newest
 * trade any pull has returned (stream fills do not advance it: a fill seen on the stream says
 * nothing about the ones a dropped connection missed). `diffAgainst` compares the ledger with the
 * platform's list and must come back empty: "the daemon's fill ledger equals the platform's trade
 * list exactly". The cursor moves only when a pull completes (`beginPull` / `endPull`, as
 * fill-sync.ts brackets its walk): a walk that fails half-way must not raise the cursor past rows
 * it never read, or the next pull would stop above them and they would never be read.
 *
 * Compaction (bounded memory for years of running). `compact(wallet, beforeTs)` folds the wallet's
 * fills stamped before `beforeTs` into a checkpoint (fill-checkpoint.ts): totals per market and
 * outcome, and a watermark, the highest (ts, tradeId) compacted, trade ids in natural id order. A
 * new key at or below the watermark is answered `duplicate` (`compacted: true`) and changes nothing.
 * That is right only if every fill at or below the watermark is already applied, i.e. no fill we
 * have not seen can arrive stamped that old. The caller (fill-compaction.ts) takes `beforeTs` at or
 * below `C.ts - tradePullMarginMs`, C being the cursor of the wallet's last COMPLETE trade pull:
 *   - trades pull: the next pull reads rows down to C.ts - margin and no further, so every row it
 *     can bring is at or above the cut; the rows below were read by earlier complete pulls (the
 *     first one down to the session start, each next one down to its predecessor's cursor minus the
 *     margin: the covered span is contiguous), so a row below the cut is a trade we already hold;
 *   - stream: frames are live (no replay after a gap: the gap is reconciled by that same trades
 *     pull) and stamped with the send time, later than the trade; a frame would have to arrive
 *     more than the retention (fill-compaction.ts: at least an hour) late to fall below the cut;
 *   - order fill reads and placement rows (fill gaps, adopted orders found by the open-order walk):
 *     they name trades the platform already recorded, hence inside the span the pulls covered.
 *     One exception is harmless: an order adopted late whose fills predate the session start; such
 *     fills are in the start-up anchor, never in inventory, and the ledger may not list them.
 * A `conflict` (two sources disagreeing on economics) can no longer be seen for a compacted fill:
 * by then its record is the platform's trade row, which the pull merged within the margin.
 * `keepCompacted()` keeps the compacted records listable (backtests, tests): `fills()` and
 * `diffAgainst` still see every fill, and duplicates are still decided by the watermark. Without
 * it a platform fill at or below the watermark counts as held in `diffAgainst`; `size` is what
 * stays in memory, `total` every fill ever held, `totals()` the per market and outcome figures.
 */
import { compareIds } from "../../core/natural-order.js";
import type { Micros } from "../../core/money.js";
import { FillCheckpoint, type TotalsRow } from "./fill-checkpoint.js";
import { addToTotals, emptyTotals, mergeTotals } from "./fill-totals.js";
import type { Fill, FillSource, TradeCursor } from "./fill-types.js";

export type { Fill, FillRoleView, FillSource, TradeCursor } from "./fill-types.js";

export type AddStatus = "added" | "duplicate" | "merged" | "conflict";

export interface AddResult {
  status: AddStatus;
  /** The record kept in the ledger after this call. */
  fill: Fill;
  /** On `conflict`: the record that was there before (the caller corrects inventory with it). */
  previous?: Fill;
  /** On `conflict`: the fields that differ. */
  fields?: (keyof Fill)[];
  /** On `duplicate`: the key was not held but the fill is at or below the wallet's watermark. */
  compacted?: boolean;
}

export interface FillMismatch {
  key: string;
  fields: (keyof Fill)[];
  ours: Fill;
  theirs: Fill;
}

export interface LedgerDiff {
  /** On the platform, not in the ledger (missed fills). */
  missing: Fill[];
  /** In the ledger, not on the platform (phantom fills). */
  extra: Fill[];
  mismatched: FillMismatch[];
  /** True when all three lists are empty. */
  equal: boolean;
}

export interface LedgerCounters {
  added: number;
  duplicates: number;
  merged: number;
  conflicts: number;
  /** Duplicates recognised by the watermark alone (their key compacted, or never needed). */
  compactedDuplicates: number;
}

export interface CompactionResult {
  wallet: string;
  /** Fills folded into the checkpoint by this call. */
  compacted: number;
  /** The wallet's watermark after the call (undefined while nothing was ever compacted). */
  watermark: TradeCursor | undefined;
}

const SOURCE_RANK: Readonly<Record<FillSource, number>> = { stream: 0, placement: 1, order_read: 2, trades_pull: 3 };
const ECONOMIC_FIELDS = ["marketId", "outcome", "side", "price", "qty", "fee"] as const satisfies readonly (keyof Fill)[];

export function fillKey(f: Pick<Fill, "wallet" | "tradeId" | "orderId">): string {
  return `${f.wallet.toLowerCase()}|${f.tradeId}|${f.orderId}`;
}

/**
 * Canonical order of fills: time, then trade id, then order id (a total order on keys). Ids
 * compare with their digit runs as numbers ("t99" before "t100": counters keep execution order
 * within a millisecond), then as plain strings.
 */
export function compareFills(a: Pick<Fill, "ts" | "tradeId" | "orderId">, b: Pick<Fill, "ts" | "tradeId" | "orderId">): number {
  if (a.ts !== b.ts) return a.ts < b.ts ? -1 : 1;
  return compareIds(a.tradeId, b.tradeId) || compareIds(a.orderId, b.orderId);
}


function sameRecord(a: Fill, b: Fill): boolean {
  return a.ts === b.ts && a.source === b.source && a.role === b.role && a.clientOrderId === b.clientOrderId;
}

function differingFields(a: Fill, b: Fill): (keyof Fill)[] {
  const out: (keyof Fill)[] = ECONOMIC_FIELDS.filter((k) => a[k] !== b[k]);
  if (a.role !== "unknown" && b.role !== "unknown" && a.role !== b.role) out.push("role");
  return out;
}

export class FillLedger {
  private readonly byKey = new Map<string, Fill>();
  private readonly byOrder = new Map<string, Set<string>>();
  private readonly cursors = new Map<string, TradeCursor>();
  /** Pulls under way: the newest row each has returned so far (null: none yet). */
  private readonly pulling = new Map<string, TradeCursor | null>();
  /** Cursor of each wallet's last complete pull. */
  private readonly covered = new Map<string, TradeCursor>();
  private readonly checkpoint: FillCheckpoint;
  readonly counters: LedgerCounters = { added: 0, duplicates: 0, merged: 0, conflicts: 0, compactedDuplicates: 0 };

  constructor(opts: { keepCompacted?: boolean } = {}) {
    this.checkpoint = new FillCheckpoint(opts.keepCompacted === true);
  }

  /** Fill records held in memory (compacted ones are not, unless kept). */
  get size(): number {
    return this.byKey.size;
  }

  /** Every fill ever held: the records in memory plus the compacted ones. */
  get total(): number {
    return this.byKey.size + this.checkpoint.count();
  }

  /** Keep compacted records listable from now on (backtests, tests): memory is then not bounded. */
  keepCompacted(): void {
    this.checkpoint.keep();
  }

  /** True once compacted records are kept (keepCompacted). */
  get keepsCompacted(): boolean {
    return this.checkpoint.keeping;
  }

  add(input: Fill): AddResult {
    const fill: Fill = { ...input, wallet: input.wallet.toLowerCase() };
    if (fill.source === "trades_pull") this.advanceCursor(fill.wallet, fill);
    const key = fillKey(fill);
    const have = this.byKey.get(key);
    if (have === undefined) {
      // Below the watermark: applied before and compacted (the argument in the header).
      if (this.checkpoint.covers(fill)) {
        this.counters.duplicates++;
        this.counters.compactedDuplicates++;
        return { status: "duplicate", fill: this.checkpoint.archived(key) ?? fill, compacted: true };
      }
      this.byKey.set(key, fill);
      const ok = `${fill.wallet}|${fill.orderId}`;
      let set = this.byOrder.get(ok);
      if (set === undefined) this.byOrder.set(ok, (set = new Set()));
      set.add(key);
      this.counters.added++;
      return { status: "added", fill };
    }
    // The record of the higher-ranked source is kept (its time and provenance too), completed
    // with what only the other one knows: the ledger converges to the platform's trade list.
    const fields = differingFields(have, fill);
    const winner = SOURCE_RANK[fill.source] > SOURCE_RANK[have.source] ? fill : have;
    const kept = this.fillIn(winner, winner === fill ? have : fill);
    if (fields.length > 0) {
      this.counters.conflicts++;
      this.byKey.set(key, kept);
      return { status: "conflict", fill: kept, previous: have, fields };
    }
    if (sameRecord(kept, have)) {
      this.counters.duplicates++;
      return { status: "duplicate", fill: have };
    }
    this.byKey.set(key, kept);
    this.counters.merged++;
    return { status: "merged", fill: kept, previous: have };
  }

  /** `base` with the role / clientOrderId that only `other` knows; `base` itself when nothing is new. */
  private fillIn(base: Fill, other: Fill): Fill {
    const role = base.role === "unknown" && other.role !== "unknown" ? other.role : base.role;
    const clientOrderId = base.clientOrderId ?? other.clientOrderId;
    if (role === base.role && clientOrderId === base.clientOrderId) return base;
    const out: Fill = { ...base, role };
    if (clientOrderId !== undefined) out.clientOrderId = clientOrderId;
    return out;
  }

  private advanceCursor(wallet: string, f: TradeCursor): void {
    const next = { ts: f.ts, tradeId: f.tradeId };
    const newer = (c: TradeCursor | null | undefined): boolean => c == null || f.ts > c.ts || (f.ts === c.ts && compareIds(f.tradeId, c.tradeId) > 0);
    if (this.pulling.has(wallet)) {
      if (newer(this.pulling.get(wallet))) this.pulling.set(wallet, next);
    } else if (newer(this.cursors.get(wallet))) this.cursors.set(wallet, next);
  }

  /** A trades pull starts: its rows move the cursor only when `endPull` says it completed. */
  beginPull(wallet: string): void {
    this.pulling.set(wallet.toLowerCase(), null);
  }

  /** The pull begun last walked down to its stop: its newest row becomes the cursor. */
  endPull(wallet: string): void {
    const w = wallet.toLowerCase();
    const newest = this.pulling.get(w);
    if (newest === undefined) return;
    this.pulling.delete(w);
    if (newest !== null) this.advanceCursor(w, newest);
    const c = this.cursors.get(w);
    if (c !== undefined) this.covered.set(w, { ...c });
  }

  /** Cursor of the wallet's last complete pull: rows below `ts - margin` are never read again. */
  pullCoverage(wallet: string): TradeCursor | undefined {
    const c = this.covered.get(wallet.toLowerCase());
    return c === undefined ? undefined : { ...c };
  }

  /**
   * Fold the wallet's fills stamped before `beforeTs` into the checkpoint (see the header for
   * the rule the caller must keep). Returns the new watermark for Inventory.compact.
   */
  compact(wallet: string, beforeTs: number): CompactionResult {
    const w = wallet.toLowerCase();
    const out: Fill[] = [];
    for (const f of this.byKey.values()) if (f.wallet === w && f.ts < beforeTs) out.push(f);
    out.sort(compareFills);
    for (const f of out) {
      const key = fillKey(f);
      this.byKey.delete(key);
      if (this.checkpoint.keeping) continue;
      const ok = `${w}|${f.orderId}`;
      const set = this.byOrder.get(ok);
      set?.delete(key);
      if (set !== undefined && set.size === 0) this.byOrder.delete(ok);
    }
    this.checkpoint.absorb(w, out, fillKey);
    return { wallet: w, compacted: out.length, watermark: this.checkpoint.watermark(w) };
  }

  /** Highest (ts, tradeId) compacted for the wallet; undefined before any compaction. */
  watermark(wallet: string): TradeCursor | undefined {
    return this.checkpoint.watermark(wallet.toLowerCase());
  }

  /** Fills compacted so far (of one wallet when given). */
  compactedCount(wallet?: string): number {
    return this.checkpoint.count(wallet?.toLowerCase());
  }

  /**
   * Totals per wallet, market and outcome over every fill ever held, compacted or not (of one
   * wallet when given), in wallet, market, outcome order.
   */
  totals(wallet?: string): TotalsRow[] {
    const w = wallet?.toLowerCase();
    const rows = new Map<string, TotalsRow>();
    const row = (wallet: string, marketId: string, outcome: number): TotalsRow => {
      const k = `${wallet}|${marketId}|${outcome}`;
      let r = rows.get(k);
      if (r === undefined) rows.set(k, (r = { wallet, marketId, outcome, totals: emptyTotals() }));
      return r;
    };
    for (const c of this.checkpoint.totals(w)) mergeTotals(row(c.wallet, c.marketId, c.outcome).totals, c.totals);
    for (const f of this.byKey.values()) if (w === undefined || f.wallet === w) addToTotals(row(f.wallet, f.marketId, f.outcome).totals, f);
    const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    return [...rows.values()].sort((a, b) => cmp(a.wallet, b.wallet) || cmp(a.marketId, b.marketId) || a.outcome - b.outcome);
  }

  private lookup(key: string): Fill | undefined {
    return this.byKey.get(key) ?? this.checkpoint.archived(key);
  }

  /** Held in memory, or compacted and kept (a compacted key not kept is not `has`: see `watermark`). */
  has(wallet: string, tradeId: string, orderId: string): boolean {
    return this.lookup(fillKey({ wallet, tradeId, orderId })) !== undefined;
  }

  get(wallet: string, tradeId: string, orderId: string): Fill | undefined {
    return this.lookup(fillKey({ wallet, tradeId, orderId }));
  }

  /** All fills (of one wallet when given), in canonical order; compacted ones only when kept. */
  fills(wallet?: string): Fill[] {
    const w = wallet?.toLowerCase();
    const out: Fill[] = this.checkpoint.archivedFills(w);
    for (const f of this.byKey.values()) if (w === undefined || f.wallet === w) out.push(f);
    return out.sort(compareFills);
  }

  /** One order's fills held in memory (compacted ones only when kept), in canonical order. */
  fillsForOrder(wallet: string, orderId: string): Fill[] {
    const keys = this.byOrder.get(`${wallet.toLowerCase()}|${orderId}`);
    if (keys === undefined) return [];
    const out: Fill[] = [];
    for (const k of keys) {
      const f = this.lookup(k);
      if (f !== undefined) out.push(f);
    }
    return out.sort(compareFills);
  }

  /** Sum of the fill quantities of one order: compare with the tracker's filled quantity. */
  filledQty(wallet: string, orderId: string): Micros {
    let total = 0n;
    for (const f of this.fillsForOrder(wallet, orderId)) total += f.qty;
    return total;
  }

  /** Newest trade returned by any `/api/me/trades` pull for the wallet; undefined before the first. */
  lastTradeCursor(wallet: string): TradeCursor | undefined {
    const c = this.cursors.get(wallet.toLowerCase());
    return c === undefined ? undefined : { ...c };
  }

  /**
   * Paging stop rule for a newest-first `/api/me/trades` walk: true once a row is strictly older than
   * the cursor minus `marginMs` (rows at the cursor's own millisecond are still read: ordering inside
   * one millisecond is the platform's, not ours). No cursor: never reached (walk to the end or to the
   * caller's own start time).
   */
  pullReached(wallet: string, rowTs: number, marginMs = 0): boolean {
    const c = this.cursors.get(wallet.toLowerCase());
    return c !== undefined && rowTs < c.ts - marginMs;
  }

  /**
   * Compare one wallet's ledger with the platform's list of its trades. `sinceTs` restricts `extra`
   * to ledger fills at or after it (when the platform list is a window, not the whole history).
   * A role we hold as unknown is not a mismatch (spec 6); two different known roles are. A platform
   * fill at or below the wallet's watermark whose record was not kept counts as held (compacted).
   */
  diffAgainst(wallet: string, platform: readonly Fill[], opts: { sinceTs?: number } = {}): LedgerDiff {
    const w = wallet.toLowerCase();
    const theirs = new Map<string, Fill>();
    for (const f of platform) theirs.set(fillKey(f), { ...f, wallet: f.wallet.toLowerCase() });
    const missing: Fill[] = [];
    const mismatched: FillMismatch[] = [];
    for (const [key, t] of theirs) {
      if (t.wallet !== w) continue;
      const ours = this.lookup(key);
      if (ours === undefined) {
        if (!this.checkpoint.covers(t)) missing.push(t);
        continue;
      }
      const fields = differingFields(ours, t);
      if (fields.length > 0) mismatched.push({ key, fields, ours, theirs: t });
    }
    const extra: Fill[] = [];
    for (const f of this.fills(w)) {
      if (theirs.has(fillKey(f))) continue;
      if (opts.sinceTs !== undefined && f.ts < opts.sinceTs) continue;
      extra.push(f);
    }
    missing.sort(compareFills);
    extra.sort(compareFills);
    return { missing, extra, mismatched, equal: missing.length === 0 && extra.length === 0 && mismatched.length === 0 };
  }
}

export { fillFromMyTrade, fillFromOrderTrade, fillFromUserFill, readOrderTrade, readOrderTrades, type OrderTradeSkip, type OwnOrderRef } from "./fill-sources.js";
