/**
 * Inventory and PnL per wallet, market and outcome, from fills. Pure bookkeeping in bigint.
 *
 * Positions. BUY adds shares, SELL removes them. Each position is a fold over its fills in
 * canonical order (time, trade id, order id: see fill-ledger.ts), so the same set of fills gives the
 * same position whatever order they arrived in; a fill that sorts last is applied in O(1), an
 * out-of-order one refolds its position.
 *
 * Average-cost method. The cost basis is kept EXACT as sum(price x qty) in micros x micro-shares
 * ("micro²"); avgCost = cost / qty. A reducing fill realises `price x closed - cost x closed / held`
 * (the only division, truncated toward zero at micro² precision; closing the whole position
 * removes the whole cost, so a round trip realises exactly). A fill that crosses zero closes the
 * old side and opens the rest at its price. Realised PnL is gross: fees are kept apart and
 * `net = realised + unrealised - fees`. avgCost excludes fees, like the platform's `avgPrice`.
 *
 * Cash. Settlement-token movement as the platform books it: per order, a BUY has paid
 * ceil(sum(price x qty) / 1e6) and a SELL received floor(...) (the simulator's ledger rule, so an
 * order's total equals its signed amount's rounding), minus each fill's fee, plus resolution
 * payouts. `cashDelta` is therefore exact against `/api/me/balances` where realised PnL is not
 * (they differ by that per-order rounding, under a micro per order).
 *
 * Settlement. `resolve` pays each position floor(qty x numerator / sum(numerators)); `voidMarket`
 * pays 1/outcomeCount per share (the conditional-token convention, as the simulator does). It
 * realises `payout - cost` and flattens the position; fills stamped after it are counted as anomalies.
 *
 * Anchoring. A daemon that starts with holdings `anchor`s each wallet to `/api/me/positions` and
 * `/api/me/balances` read at a server time: fills stamped at or before it are already in those
 * figures and are ignored here. A stream fill is stamped with its frame's send time, later than the
 * trade, so a trade just before the anchor can arrive stamped after it; the trades pull then gives
 * its real time (the ledger `merged`s the record). Applying a fill whose key is already applied but
 * whose record differs (time or economics) is therefore a correction: the old record is taken out
 * and the new one applied afresh, anchor test included, so such a trade ends up counted once, in
 * the anchor's figures. `applyLedgerResult` feeds every ledger answer through that rule.
 *
 * Compaction. `compact(wallet, watermark)` folds the wallet's fills at or below the fill ledger's
 * watermark into each position's base and forgets their keys (fill-ledger.ts says why no fill can
 * arrive that old unseen); a fill at or below it that is not held is then a duplicate. An order's
 * cumulative notional (for the cash rounding) is forgotten once its last fill is at or below the
 * watermark and the caller says the order can fill no more (`keepOrder`: the daemon asks its
 * tracker, which holds an order while it may still fill and a while after it ended).
 *
 * Retirement (bounded memory for a daemon that quotes daily markets for weeks). A settled market the
 * daemon no longer follows is handed to `retireWhenSafe`; its positions are forgotten once nothing
 * can change them any more: the market is settled here, no wallet awaits its payout (or the clearing
 * of its losing shares), each of its positions is flat and has every fill folded into its base, and
 * every wallet's fills up to the settlement are all in: `coveredUntil` (the fill compaction's cut,
 * fill-compaction.ts: no fill stamped before it can still arrive unseen) is past the settlement for
 * every wallet known here. What the positions contributed is folded into a per-wallet retired
 * accumulator (exact micro² realised PnL, fees, payouts), so every wallet-level figure (pnl,
 * cashDelta, expectedCash, the drift check's cash) is unchanged to the micro; it is also listed as
 * one flat position per wallet under the market RETIRED_MARKET, so a sum over `positions` /
 * per-market `pnl` (the metrics' "other" series) is unchanged too. A flat position and a missing one
 * are the same to the drift check. A fill that still arrives for a recently retired market (one
 * stamped after the settlement: an anomaly, the platform stops trading first) gets the market's
 * settlement back, is folded as it would have been, and is counted (`counters.afterRetirement`; the
 * daemon logs it); the last `retiredMemory` retired markets are remembered for that (an older one's
 * fill opens a plain position: the same quantities and money, only not marked settled). A fill
 * stamped before the settlement is at or below the compaction watermark: a duplicate. Until
 * `coveredUntil` is called nothing is retired: a run whose fill ledger keeps every compacted record
 * (backtests: their reports list every market) never calls it.
 *
 * Reads by (wallet, market) go through an index; every change of a position is announced to
 * `onPositionChange` listeners (the risk layer's exposure book keeps per-pair figures that way).
 *
 * The per-position fold (average cost, settlement, summary) is in inventory-position.ts; the
 * comparison with the platform's figures in inventory-drift.ts.
 */
import { ONE, SCALE, divRound, parseMicros, type Micros } from "../../core/money.js";
import type { Balances, Position } from "../../wire/portfolio.js";
import { atOrBelow } from "./fill-checkpoint.js";
import { compareFills, fillKey, type AddResult, type TradeCursor } from "./fill-ledger.js";
import { driftReport, type DriftReport } from "./inventory-drift.js";
import { avgCostOf, compactPosition, emptyBase, emptyPos, floorMicros, foldFill, posKey, refoldPosition, summarise, type InventoryFill, type Pos, type PositionSummary, type Settlement } from "./inventory-position.js";
import type { PositionView } from "../quote/quotes.js";

export type { CashDrift, DriftReport, PositionDrift } from "./inventory-drift.js";
export type { InventoryFill, PositionSummary } from "./inventory-position.js";

export interface PnlSummary {
  realised: Micros;
  unrealised: Micros;
  fees: Micros;
  /** realised + unrealised - fees. */
  net: Micros;
  /** Positions held with no mark (their unrealised PnL is not in `unrealised`). */
  unmarked: { marketId: string; outcome: number }[];
}

/** Mark price (micros per share) of an outcome; undefined when there is none. */
export type Marks = (marketId: string, outcome: number) => Micros | undefined;

export interface AnchorPosition {
  marketId: string;
  outcome: number;
  qty: Micros;
  /** Average entry price (micros per share); null or absent counts as 0. */
  avgPrice?: Micros | null;
}

/** The market under which each wallet's retired positions are listed (never a real symbol). */
export const RETIRED_MARKET = "(retired)";

/** Settled markets remembered after retirement (for a fill that still arrives), by default. */
export const DEFAULT_RETIRED_MEMORY = 4096;

/** What a wallet's retired positions added up to (see the header, "Retirement"). */
interface RetiredTotals {
  /** Exact, micro² (what the wallet's pnl sums). */
  realised: bigint;
  /** Sum over the retired (wallet, market) pairs of floor(realised of the pair): per-market pnl. */
  realisedPairFloors: Micros;
  /** Sum over the retired positions of floor(realised): their summaries. */
  realisedPositionFloors: Micros;
  fees: Micros;
  payout: Micros;
  afterSettlement: number;
  positions: number;
  markets: number;
}

export interface InventoryCounters {
  fills: number;
  duplicates: number;
  preAnchor: number;
  /** Applied fills replaced by a corrected record of the same key (new time or economics). */
  corrected: number;
  driftChecks: number;
  driftRecords: number;
  /** Fills folded into position bases by compaction (still counted in `fills`). */
  compacted: number;
  /** Settled markets whose positions were retired (folded into the wallets' retired totals). */
  retiredMarkets: number;
  retiredPositions: number;
  /** Fills applied to a market after it was retired (its settlement brought back; see the header). */
  afterRetirement: number;
}

/** `/api/me/positions` rows as anchor positions (avgPrice parsed down to the micro). */
export function anchorPositionsOf(rows: readonly Position[]): AnchorPosition[] {
  return rows.map((r) => ({
    marketId: r.marketId,
    outcome: r.outcome,
    qty: parseMicros(r.quantity),
    avgPrice: r.avgPrice === null ? null : parseMicros(r.avgPrice, "floor"),
  }));
}

/** Marks of a binary market from the YES mid: YES at mid, NO at 1 - mid. */
export function binaryMarks(marketId: string, yesMid: Micros): Marks {
  return (m, o) => (m !== marketId ? undefined : o === 0 ? yesMid : o === 1 ? ONE - yesMid : undefined);
}

/** Told (wallet lower-cased, market) after any position of the pair may have changed. */
export type PositionListener = (wallet: string, marketId: string) => void;

export class Inventory {
  private readonly pos = new Map<string, Pos>();
  /** The same positions by (wallet, market), each list in outcome order. */
  private readonly byPair = new Map<string, Pos[]>();
  private readonly listeners: PositionListener[] = [];
  private readonly seen = new Set<string>();
  /** Per order and side: exact cumulative notional (micro²), and the order's latest fill time. */
  private readonly orderNotional = new Map<string, { wallet: string; orderId: string; notional: bigint; lastTs: number }>();
  private readonly tradeCash = new Map<string, Micros>();
  private readonly settlements = new Map<string, Settlement>();
  private readonly anchors = new Map<string, { ts: number; cash?: Micros }>();
  /** Per wallet: settled markets whose payout is awaited, and its amount. */
  private readonly awaitedPayouts = new Map<string, Map<string, Micros>>();
  /** Per wallet: the highest (ts, tradeId) folded into the bases. */
  private readonly watermarks = new Map<string, TradeCursor>();
  /** Per wallet: every fill stamped before this time is in (coveredUntil). */
  private readonly covered = new Map<string, number>();
  /** Wallets named by retireWhenSafe (the daemon's): each must be covered past a settlement. */
  private readonly parties = new Set<string>();
  /** Settled markets to retire once safe (retireWhenSafe). */
  private readonly releasing = new Set<string>();
  /** The settlements of the last `retiredMemory` retired markets, oldest first. */
  private readonly retiredSettlements = new Map<string, Settlement>();
  private readonly retired = new Map<string, RetiredTotals>();
  private readonly retiredMemory: number;
  readonly counters: InventoryCounters = {
    fills: 0,
    duplicates: 0,
    preAnchor: 0,
    corrected: 0,
    driftChecks: 0,
    driftRecords: 0,
    compacted: 0,
    retiredMarkets: 0,
    retiredPositions: 0,
    afterRetirement: 0,
  };

  constructor(opts: { retiredMemory?: number } = {}) {
    const n = opts.retiredMemory ?? DEFAULT_RETIRED_MEMORY;
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`retiredMemory must be a non-negative integer, got ${n}`);
    this.retiredMemory = n;
  }

  /**
   * Apply one fill; false when it was already applied as is (same key and record) or predates the
   * wallet's anchor. A known key with a different record (a corrected time, or economics) replaces
   * the applied one and is judged afresh against the anchor.
   */
  applyFill(f: InventoryFill): boolean {
    const key = fillKey(f);
    if (this.seen.has(key)) {
      const applied = this.applied(f, key);
      if (applied === undefined || sameFill(applied, f)) {
        this.counters.duplicates++;
        return false;
      }
      this.counters.corrected++;
      this.removeFill(applied);
    } else if (this.isCompacted(f)) {
      this.counters.duplicates++;
      return false;
    }
    const wallet = f.wallet.toLowerCase();
    const anchor = this.anchors.get(wallet);
    if (anchor !== undefined && f.ts <= anchor.ts) {
      this.counters.preAnchor++;
      return false;
    }
    this.seen.add(key);
    this.counters.fills++;
    const fill = { ...f, wallet };
    this.unretire(f.marketId);
    this.moveNotional(fill, 1n);
    const p = this.position(wallet, f.marketId, f.outcome);
    const last = p.fills[p.fills.length - 1];
    const settlement = this.settlements.get(f.marketId);
    p.fills.push(fill);
    if (last === undefined || compareFills(last, fill) <= 0) {
      if (settlement === undefined) foldFill(p, fill);
      else this.refold(p);
    } else {
      p.fills.sort(compareFills);
      this.refold(p);
    }
    this.changed(p);
    return true;
  }

  private isCompacted(f: InventoryFill): boolean {
    const w = this.watermarks.get(f.wallet.toLowerCase());
    return w !== undefined && atOrBelow(f, w);
  }

  /**
   * Fold the wallet's fills at or below `watermark` (the fill ledger's, after FillLedger.compact)
   * into their positions' bases and forget their keys. Returns the number of fills folded.
   */
  compact(wallet: string, watermark: TradeCursor, keepOrder: (orderId: string) => boolean = () => false): number {
    const w = wallet.toLowerCase();
    const prev = this.watermarks.get(w);
    if (prev === undefined || atOrBelow(prev, watermark)) this.watermarks.set(w, { ...watermark });
    let folded = 0;
    for (const p of this.pos.values()) {
      if (p.wallet !== w) continue;
      // Fills are kept in canonical order: those at or below the watermark are a prefix.
      let n = 0;
      while (n < p.fills.length && atOrBelow(p.fills[n]!, watermark)) n++;
      if (n === 0) continue;
      for (const f of p.fills.slice(0, n)) this.seen.delete(fillKey(f));
      compactPosition(p, n, this.settlements.get(p.marketId));
      this.changed(p);
      folded += n;
    }
    this.counters.compacted += folded;
    for (const [k, o] of this.orderNotional) {
      if (o.wallet === w && o.lastTs <= watermark.ts && !keepOrder(o.orderId)) this.orderNotional.delete(k);
    }
    return folded;
  }

  /** Records held in memory: fills applied and not compacted, orders whose notional is kept. */
  get held(): { fills: number; orders: number } {
    return { fills: this.seen.size, orders: this.orderNotional.size };
  }

  /** Sizes of the per-market state (what retirement keeps bounded). */
  get marketState(): { positions: number; pairs: number; settlements: number; releasing: number; retiredRemembered: number } {
    return { positions: this.pos.size, pairs: this.byPair.size, settlements: this.settlements.size, releasing: this.releasing.size, retiredRemembered: this.retiredSettlements.size };
  }

  // ---- retirement (see the header) ------------------------------------------------------------

  /**
   * Every fill of the wallet stamped before `ts` is in: the fill compaction's cut
   * (fill-compaction.ts), not given by a run that keeps every compacted record. Retries the
   * markets waiting to be retired.
   */
  coveredUntil(wallet: string, ts: number): void {
    if (!Number.isFinite(ts)) throw new Error(`coveredUntil: not a time: ${ts}`);
    const w = wallet.toLowerCase();
    if (ts > (this.covered.get(w) ?? Number.NEGATIVE_INFINITY)) this.covered.set(w, ts);
    for (const m of [...this.releasing]) this.tryRetire(m);
  }

  /**
   * The daemon no longer follows the market (no live order, no payout awaited): forget its
   * positions as soon as that is safe (now, or at a later coveredUntil). `wallets` are the wallets
   * whose fills could still name it (the daemon's). A market not settled here is not retired
   * (false, and not remembered). True when the market was retired now.
   */
  retireWhenSafe(marketId: string, wallets: readonly string[]): boolean {
    for (const w of wallets) this.parties.add(w.toLowerCase());
    if (!this.settlements.has(marketId)) return false;
    this.releasing.add(marketId);
    return this.tryRetire(marketId);
  }

  /** True while the market waits in retireWhenSafe's queue. */
  retiring(marketId: string): boolean {
    return this.releasing.has(marketId);
  }

  private tryRetire(marketId: string): boolean {
    const s = this.settlements.get(marketId);
    if (s === undefined) {
      this.releasing.delete(marketId);
      return false;
    }
    if (this.payoutAwaited(marketId)) return false;
    const held: Pos[] = [];
    for (const p of this.pos.values()) {
      if (p.marketId !== marketId) continue;
      if (p.qty !== 0n || p.fills.length > 0) return false;
      held.push(p);
    }
    const wallets = new Set<string>([...this.parties, ...this.anchors.keys(), ...this.covered.keys(), ...this.watermarks.keys(), ...held.map((p) => p.wallet)]);
    for (const w of wallets) if (!((this.covered.get(w) ?? Number.NEGATIVE_INFINITY) > s.ts)) return false;
    const pairs = new Map<string, bigint>();
    for (const p of held) {
      const r = this.retiredOf(p.wallet);
      r.realised += p.realised;
      r.realisedPositionFloors += floorMicros(p.realised);
      r.fees += p.fees;
      r.payout += p.payout;
      r.afterSettlement += p.afterSettlement;
      r.positions += 1;
      pairs.set(p.wallet, (pairs.get(p.wallet) ?? 0n) + p.realised);
      this.pos.delete(posKey(p.wallet, p.marketId, p.outcome));
    }
    for (const [w, realised] of pairs) {
      const r = this.retiredOf(w);
      r.realisedPairFloors += floorMicros(realised);
      r.markets += 1;
      this.byPair.delete(pairKey(w, marketId));
    }
    this.settlements.delete(marketId);
    this.releasing.delete(marketId);
    this.retiredSettlements.delete(marketId);
    if (this.retiredMemory > 0) {
      this.retiredSettlements.set(marketId, s);
      for (const k of this.retiredSettlements.keys()) {
        if (this.retiredSettlements.size <= this.retiredMemory) break;
        this.retiredSettlements.delete(k);
      }
    }
    this.counters.retiredMarkets++;
    this.counters.retiredPositions += held.length;
    for (const w of pairs.keys()) for (const l of this.listeners) l(w, marketId);
    return true;
  }

  /** A fill for a recently retired market: its settlement comes back (and the fact is counted). */
  private unretire(marketId: string): void {
    const s = this.retiredSettlements.get(marketId);
    if (s === undefined || this.settlements.has(marketId)) return;
    this.retiredSettlements.delete(marketId);
    this.settlements.set(marketId, s);
    this.counters.afterRetirement++;
  }

  private retiredOf(wallet: string): RetiredTotals {
    let r = this.retired.get(wallet);
    if (r === undefined) {
      r = { realised: 0n, realisedPairFloors: 0n, realisedPositionFloors: 0n, fees: 0n, payout: 0n, afterSettlement: 0, positions: 0, markets: 0 };
      this.retired.set(wallet, r);
    }
    return r;
  }

  /** The wallet's retired positions as one flat, settled position of RETIRED_MARKET. */
  private retiredSummary(wallet: string): PositionSummary | undefined {
    const r = this.retired.get(wallet);
    if (r === undefined) return undefined;
    return {
      wallet,
      marketId: RETIRED_MARKET,
      outcome: 0,
      qty: 0n,
      avgCost: null,
      costBasis: 0n,
      realisedPnl: r.realisedPositionFloors,
      fees: r.fees,
      payout: r.payout,
      settled: true,
      fillsAfterSettlement: r.afterSettlement,
    };
  }

  /** What the wallet's retired positions added up to (zeros when none). */
  retiredTotals(wallet: string): { realised: Micros; fees: Micros; payout: Micros; positions: number; markets: number } {
    const r = this.retired.get(wallet.toLowerCase());
    return r === undefined
      ? { realised: 0n, fees: 0n, payout: 0n, positions: 0, markets: 0 }
      : { realised: floorMicros(r.realised), fees: r.fees, payout: r.payout, positions: r.positions, markets: r.markets };
  }

  /** Take back a fill applied earlier (a ledger conflict resolved the other way). */
  removeFill(f: InventoryFill): boolean {
    const key = fillKey(f);
    if (!this.seen.delete(key)) return false;
    const p = this.pos.get(posKey(f.wallet.toLowerCase(), f.marketId, f.outcome));
    if (p === undefined) return false;
    const i = p.fills.findIndex((x) => fillKey(x) === key);
    if (i < 0) return false;
    const [old] = p.fills.splice(i, 1);
    this.moveNotional(old!, -1n);
    this.counters.fills--;
    this.refold(p);
    this.changed(p);
    return true;
  }

  replaceFill(previous: InventoryFill, next: InventoryFill): void {
    this.removeFill(previous);
    this.applyFill(next);
  }

  /**
   * What a FillLedger.add answer means here: `added` is applied, `merged` / `conflict` replace the
   * record applied before (a better source's time can move a fill to before the anchor, or its
   * economics differ), `duplicate` changes nothing. True when the fill is now counted anew.
   */
  applyLedgerResult(r: Pick<AddResult, "status" | "fill">): boolean {
    if (r.status === "duplicate") return false;
    return this.applyFill(r.fill);
  }

  private applied(f: InventoryFill, key: string): InventoryFill | undefined {
    return this.pos.get(posKey(f.wallet.toLowerCase(), f.marketId, f.outcome))?.fills.find((x) => fillKey(x) === key) ?? this.findApplied(key);
  }

  /** The applied record of a key whose position (market / outcome) the new record disagrees on. */
  private findApplied(key: string): InventoryFill | undefined {
    for (const p of this.pos.values()) {
      const hit = p.fills.find((x) => fillKey(x) === key);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  /** The wallet's holdings and cash as read from the platform at server time `ts`. */
  anchor(wallet: string, ts: number, positions: readonly AnchorPosition[], cash?: Micros): void {
    const w = wallet.toLowerCase();
    this.anchors.set(w, cash === undefined ? { ts } : { ts, cash });
    for (const a of positions) {
      const p = this.position(w, a.marketId, a.outcome);
      p.openQty = a.qty;
      p.openCost = a.qty * (a.avgPrice ?? 0n);
      p.base = emptyBase();
      this.refold(p);
      this.changed(p);
    }
  }

  /** Resolution with the market's payoutNumerators (spec 2.6). */
  resolve(marketId: string, payoutNumerators: readonly (bigint | number | string)[], ts: number): void {
    const nums = payoutNumerators.map((n) => BigInt(n));
    const den = nums.reduce((a, b) => a + b, 0n);
    if (den <= 0n) throw new Error(`payoutNumerators of ${marketId} sum to ${den}`);
    this.settlements.set(marketId, { ts, nums, den });
    for (const p of this.pos.values()) {
      if (p.marketId !== marketId) continue;
      this.refold(p);
      this.changed(p);
    }
  }

  /** Void: every outcome pays 1/outcomeCount. */
  voidMarket(marketId: string, outcomeCount: number, ts: number): void {
    this.resolve(marketId, new Array<bigint>(outcomeCount).fill(1n), ts);
  }

  // ---- queries ------------------------------------------------------------------------------

  private position(wallet: string, marketId: string, outcome: number): Pos {
    const w = wallet.toLowerCase();
    const key = posKey(w, marketId, outcome);
    let p = this.pos.get(key);
    if (p === undefined) {
      p = emptyPos(w, marketId, outcome);
      this.pos.set(key, p);
      const pk = pairKey(w, marketId);
      this.byPair.set(pk, [...(this.byPair.get(pk) ?? []), p].sort((a, b) => a.outcome - b.outcome));
    }
    return p;
  }

  /** Call `listener` after every change of a position; returns the unsubscribe. */
  onPositionChange(listener: PositionListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private changed(p: Pos): void {
    for (const l of this.listeners) l(p.wallet, p.marketId);
  }

  summary(wallet: string, marketId: string, outcome: number): PositionSummary {
    const w = wallet.toLowerCase();
    const p = this.pos.get(posKey(w, marketId, outcome));
    return summarise(p ?? emptyPos(w, marketId, outcome));
  }

  /**
   * Every position (of one wallet / market when given), in wallet, market, outcome order. Without a
   * market, each wallet's retired positions are one flat row of RETIRED_MARKET (see the header).
   */
  positions(wallet?: string, marketId?: string): PositionSummary[] {
    const w = wallet?.toLowerCase();
    if (marketId === RETIRED_MARKET) {
      const ws = w !== undefined ? [w] : [...this.retired.keys()].sort();
      return ws.flatMap((x) => this.retiredSummary(x) ?? []);
    }
    if (w !== undefined && marketId !== undefined) return (this.byPair.get(pairKey(w, marketId)) ?? []).map(summarise);
    const out: PositionSummary[] = [];
    for (const p of this.pos.values()) {
      if ((w !== undefined && p.wallet !== w) || (marketId !== undefined && p.marketId !== marketId)) continue;
      out.push(summarise(p));
    }
    if (marketId === undefined) {
      for (const x of w !== undefined ? [w] : this.retired.keys()) {
        const r = this.retiredSummary(x);
        if (r !== undefined) out.push(r);
      }
    }
    return out.sort((a, b) => (a.wallet !== b.wallet ? (a.wallet < b.wallet ? -1 : 1) : a.marketId !== b.marketId ? (a.marketId < b.marketId ? -1 : 1) : a.outcome - b.outcome));
  }

  /** The strategy's view of one wallet's holdings on a market (non-zero positions only), in outcome order. */
  positionViews(wallet: string, marketId: string): PositionView[] {
    const out: PositionView[] = [];
    for (const p of this.byPair.get(pairKey(wallet.toLowerCase(), marketId)) ?? []) {
      if (p.qty !== 0n) out.push({ outcome: p.outcome, qty: p.qty, avgCost: avgCostOf(p) });
    }
    return out;
  }

  /** Settlement-token movement since the anchor (or since the start): trades, fees, payouts. */
  cashDelta(wallet: string): Micros {
    const w = wallet.toLowerCase();
    let total = this.tradeCash.get(w) ?? 0n;
    for (const p of this.pos.values()) if (p.wallet === w) total += p.payout - p.fees;
    const r = this.retired.get(w);
    if (r !== undefined) total += r.payout - r.fees;
    return total;
  }

  /**
   * A settled market's payout (micros) the platform has not shown yet (src/bot/fills/settlement-check.ts):
   * until `payoutArrived`, the drift check leaves the market's positions and that cash out.
   */
  awaitPayout(wallet: string, marketId: string, amount: Micros): void {
    const w = wallet.toLowerCase();
    let m = this.awaitedPayouts.get(w);
    if (m === undefined) this.awaitedPayouts.set(w, (m = new Map<string, Micros>()));
    m.set(marketId, amount);
  }

  payoutArrived(wallet: string, marketId: string): void {
    this.awaitedPayouts.get(wallet.toLowerCase())?.delete(marketId);
  }

  /** True while any wallet awaits a payout (or the clearing of losing shares) on the market. */
  payoutAwaited(marketId: string): boolean {
    for (const m of this.awaitedPayouts.values()) if (m.has(marketId)) return true;
    return false;
  }

  /** Anchored cash plus the delta; undefined when the wallet's cash was never anchored. */
  expectedCash(wallet: string): Micros | undefined {
    const a = this.anchors.get(wallet.toLowerCase());
    return a?.cash === undefined ? undefined : a.cash + this.cashDelta(wallet);
  }

  /** The wallet's PnL (of one market when given; RETIRED_MARKET: the retired markets' together). */
  pnl(wallet: string, marks: Marks, marketId?: string): PnlSummary {
    const w = wallet.toLowerCase();
    const gone = this.retired.get(w);
    if (marketId === RETIRED_MARKET) {
      // As the retired markets' per-market figures summed (each floored as pnl(w, marks, market) did).
      const realisedM = gone?.realisedPairFloors ?? 0n;
      const feesM = gone?.fees ?? 0n;
      return { realised: realisedM, unrealised: 0n, fees: feesM, net: realisedM - feesM, unmarked: [] };
    }
    let realised = marketId === undefined ? (gone?.realised ?? 0n) : 0n;
    let unrealised = 0n;
    let fees = marketId === undefined ? (gone?.fees ?? 0n) : 0n;
    const unmarked: { marketId: string; outcome: number }[] = [];
    for (const p of this.pos.values()) {
      if (p.wallet !== w || (marketId !== undefined && p.marketId !== marketId)) continue;
      realised += p.realised;
      fees += p.fees;
      if (p.qty === 0n) continue;
      const mark = marks(p.marketId, p.outcome);
      if (mark === undefined) unmarked.push({ marketId: p.marketId, outcome: p.outcome });
      else unrealised += mark * p.qty - p.cost;
    }
    const r = floorMicros(realised);
    const u = floorMicros(unrealised);
    return { realised: r, unrealised: u, fees, net: floorMicros(realised + unrealised) - fees, unmarked };
  }

  /**
   * Compare one wallet with `/api/me/positions` (quantities) and `/api/me/balances` (total, when the
   * wallet's cash is anchored). Every difference is a drift record; nothing is corrected here.
   */
  checkAgainst(wallet: string, platformPositions: readonly Position[], balances?: Balances): DriftReport {
    const w = wallet.toLowerCase();
    this.counters.driftChecks++;
    const awaited = this.awaitedPayouts.get(w);
    let ours = [...this.pos.values()].filter((p) => p.wallet === w);
    let theirs = platformPositions;
    if (awaited !== undefined && awaited.size > 0) {
      // A settled market whose payout is awaited: the platform may show it paid (shares gone, cash
      // in) or not yet (shares there, cash not). Either is the settlement check's business
      // (overdue alert), not drift: the market is left out, and the cash matches with or without it.
      ours = ours.filter((p) => !awaited.has(p.marketId));
      theirs = theirs.filter((p) => !awaited.has(p.marketId));
    }
    const report = driftReport(w, ours, theirs, balances, this.expectedCash(w));
    if (report.cash !== undefined && awaited !== undefined && awaited.size > 0 && unpaidMayBe(-report.cash.diff, [...awaited.values()])) {
      // Some of the awaited payouts may have arrived and others not yet: the cash is short by
      // exactly what is still unpaid, i.e. by the sum of some of the awaited amounts.
      delete report.cash;
      report.clean = report.positions.length === 0;
    }
    this.counters.driftRecords += report.positions.length + (report.cash === undefined ? 0 : 1);
    return report;
  }

  // ---- internals ----------------------------------------------------------------------------

  private moveNotional(f: InventoryFill, sign: 1n | -1n): void {
    const k = `${f.wallet}|${f.orderId}|${f.side}`;
    const o = this.orderNotional.get(k);
    const before = o?.notional ?? 0n;
    const after = before + sign * f.price * f.qty;
    this.orderNotional.set(k, { wallet: f.wallet, orderId: f.orderId, notional: after, lastTs: Math.max(o?.lastTs ?? f.ts, f.ts) });
    // BUY pays ceil of its cumulative notional, SELL receives floor: see the header.
    const cash = (x: bigint): Micros => (f.side === "BUY" ? -divRound(x, SCALE, "ceil") : divRound(x, SCALE, "floor"));
    this.tradeCash.set(f.wallet, (this.tradeCash.get(f.wallet) ?? 0n) + cash(after) - cash(before));
  }

  private refold(p: Pos): void {
    refoldPosition(p, this.settlements.get(p.marketId));
  }
}

/** Awaited payouts beyond this many are only excused all together (2^n subset sums otherwise). */
const MAX_SUBSET_PAYOUTS = 16;

/**
 * True when `short` (our expected cash minus the platform's) equals the sum of some of the awaited
 * payouts (each one paid or not, independently); with more than MAX_SUBSET_PAYOUTS non-zero
 * amounts, only all of them.
 */
function unpaidMayBe(short: Micros, awaited: readonly Micros[]): boolean {
  const amounts = awaited.filter((a) => a > 0n);
  if (short <= 0n) return false;
  if (amounts.length > MAX_SUBSET_PAYOUTS) return short === amounts.reduce((a, b) => a + b, 0n);
  let sums = new Set<Micros>([0n]);
  for (const a of amounts) {
    const next = new Set(sums);
    for (const s of sums) if (s + a <= short) next.add(s + a);
    if (next.has(short)) return true;
    sums = next;
  }
  return false;
}

function pairKey(wallet: string, marketId: string): string {
  return `${wallet}|${marketId}`;
}

function sameFill(a: InventoryFill, b: InventoryFill): boolean {
  return a.ts === b.ts && a.marketId === b.marketId && a.outcome === b.outcome && a.side === b.side && a.price === b.price && a.qty === b.qty && a.fee === b.fee;
}
