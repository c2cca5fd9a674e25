/**
 * The exposure book: the figures of every (wallet, market) kept between quote cycles, so that a
 * cycle's RiskSnapshot costs what changed since the last one instead of a walk over every wallet
 * and market (50 wallets x 100 markets made that walk most of the daemon's CPU).
 *
 * A pair's figures are a function of its non-zero positions, its live orders and, for a position
 * without an average cost only, its market's mark (exposure.ts). They are recomputed, at the next
 * `snapshot`, only when one of those facts may have moved:
 *   - a position of the pair changed: the inventory says so (`positionChanged`, wired to
 *     Inventory.onPositionChange, which fires on every fold, refold, anchor, settlement and compaction);
 *   - an order of the wallet changed: `ordersVersion(wallet)` moved, and then only the markets whose
 *     `liveVersion(wallet, market)` moved (OrderTracker.liveVersion: a stamp per market of its live
 *     orders); sources without liveVersion re-read every market of the wallet (a re-read of a market
 *     without orders is a map miss);
 *   - the followed markets changed: the markets that came or went are re-read for every wallet
 *     (a market counts while followed or held, as in the from-scratch snapshot);
 *   - a position valued at the mark: re-read at every snapshot (the mark moves with every book;
 *     the inventory always has an average cost for a non-zero position, so this does not happen there).
 * Per-wallet and total notional are running sums over the pairs. test/bot/risk/exposure-book.property.test.ts
 * checks that after random changes the book equals a snapshot built from scratch.
 *
 * The figures a snapshot was built over never change afterwards: after a snapshot the next write
 * copies the wallet map it touches (copy on write, per wallet), so a snapshot is a value even if
 * it is read after later changes.
 */
import type { Micros } from "../../core/money.js";
import type { LiveOrder, PositionView } from "../quote/quotes.js";
import { RiskSnapshot, figuresOf, notionalOf, type ExposureBase, type MarketExposure, type MarketFigures } from "./exposure.js";
import type { EngineView, RiskContext } from "./risk-hook.js";

/** What a quote cycle's snapshot takes from its context: its own pair, as the cycle sees it. */
export type SnapshotContext = Pick<RiskContext, "wallet" | "walletName" | "marketId" | "outcomeCount" | "inventory" | "live">;

type ViewReads = Pick<EngineView, "markets" | "liveOrders" | "positions" | "mark" | "outcomeCount">;

/** The cycle's own (wallet, market) as it sees it (its inventory and live orders), marks from the view. */
export function contextExposure(v: Pick<EngineView, "mark">, ctx: SnapshotContext): MarketExposure {
  const marks: Record<number, Micros> = {};
  for (const p of ctx.inventory) {
    const m = v.mark(ctx.marketId, p.outcome);
    if (m !== undefined) marks[p.outcome] = m;
  }
  return { wallet: ctx.walletName, market: ctx.marketId, outcomeCount: ctx.outcomeCount, positions: ctx.inventory, openOrders: ctx.live, marks };
}

/**
 * The definition the book keeps cheaply: exposure of every wallet on every followed market (and
 * any market it holds shares in), the cycle's own (wallet, market) always included as it sees it.
 * A walk over every wallet and market: for tests and for a CoreRisk built without a book.
 */
export function scratchSnapshot(v: ViewReads, wallets: readonly { name: string; address: string }[], ctx?: SnapshotContext): RiskSnapshot {
  const followed = v.markets();
  const exposures: MarketExposure[] = [];
  for (const w of wallets) {
    const markets = new Set(followed);
    for (const p of v.positions(w.address)) if (p.qty !== 0n) markets.add(p.marketId);
    for (const market of markets) {
      if (ctx !== undefined && ctx.walletName === w.name && ctx.marketId === market) continue;
      const positions = v.positions(w.address, market).filter((p) => p.qty !== 0n);
      const openOrders = v.liveOrders(w.address, market);
      if (positions.length === 0 && openOrders.length === 0) continue;
      const marks: Record<number, Micros> = {};
      for (const p of positions) {
        const m = v.mark(market, p.outcome);
        if (m !== undefined) marks[p.outcome] = m;
      }
      exposures.push({
        wallet: w.name,
        market,
        outcomeCount: v.outcomeCount(market) ?? 2,
        positions: positions.map((p) => ({ outcome: p.outcome, qty: p.qty, avgCost: p.avgCost })),
        openOrders,
        marks,
      });
    }
  }
  if (ctx !== undefined) exposures.push(contextExposure(v, ctx));
  return new RiskSnapshot(exposures);
}

/** What the book reads; wallets are lower-cased addresses here, names in the figures. */
export interface ExposureSources {
  /** Configured wallets (address lower-cased), config order. */
  wallets: readonly { name: string; address: string }[];
  /** Symbols of the markets followed now. */
  markets(): readonly string[];
  outcomeCount(marketId: string): number | undefined;
  mark(marketId: string, outcome: number): Micros | undefined;
  /** The wallet's non-terminal orders on the market (pending and cancelling included). */
  liveOrders(wallet: string, marketId: string): readonly LiveOrder[];
  /**
   * Moves whenever an order of the wallet may have changed, on any market (a counter of the events
   * its order tracker was given: see `trackerVersion`).
   */
  ordersVersion(wallet: string): number;
  /**
   * Optional, finer: moves whenever the wallet's live orders on that one market may have changed
   * (OrderTracker.liveVersion). Given, a move of `ordersVersion` re-reads only the markets whose
   * version moved, instead of every market of the wallet.
   */
  liveVersion?(wallet: string, marketId: string): number;
  /** The wallet's positions on the market (zero ones are skipped here). */
  positions(wallet: string, marketId: string): readonly PositionView[];
  /** Markets where the wallet has a position: read once, at the first snapshot. */
  positionMarkets(wallet: string): Iterable<string>;
}

/** What the book reads of a wallet's order tracker (OrderTracker has this shape). */
export interface OrderSource {
  /** Counts every event the tracker was given (see trackerVersion). */
  readonly counters: Readonly<Record<string, number>>;
  liveOrders(marketId: string): readonly LiveOrder[];
  /** See ExposureSources.liveVersion. */
  liveVersion?(marketId: string): number;
}

/**
 * An order tracker's version for `ordersVersion`: the sum of its counters. OrderTracker.apply counts
 * every event it is given under its outcome, and orders change only through apply, so the sum
 * moves with every change (and with events that change nothing: a harmless re-read).
 */
export function trackerVersion(counters: Readonly<Record<string, number>>): number {
  let n = 0;
  for (const k in counters) n += counters[k]!;
  return n;
}

interface WalletFigures {
  /** The generation that wrote this object: one older than the last snapshot is shared, copy it first. */
  gen: number;
  markets: Map<string, MarketFigures>;
  notional: Micros;
}

interface WalletState {
  name: string;
  address: string;
  ordersVersion: number | undefined;
  /** Markets where the wallet has (had) a position: they count beside the followed ones. */
  held: Set<string>;
  /** Markets to re-read at the next snapshot. */
  dirty: Set<string>;
  /** Markets whose figures use a mark (re-read at every snapshot). */
  marked: Set<string>;
  /** With ExposureSources.liveVersion: each market's live-orders version when last looked at. */
  liveSeen: Map<string, number>;
}

/** A frozen state of the book: the base of a RiskSnapshot. */
class Frozen implements ExposureBase {
  constructor(
    private readonly wallets: ReadonlyMap<string, WalletFigures>,
    private readonly total: Micros,
  ) {}
  market(wallet: string, market: string): MarketFigures | undefined {
    return this.wallets.get(wallet)?.markets.get(market);
  }
  walletNotional(wallet: string): Micros {
    return this.wallets.get(wallet)?.notional ?? 0n;
  }
  totalNotional(): Micros {
    return this.total;
  }
}

export class ExposureBook {
  private readonly states = new Map<string, WalletState>();
  private followed = new Set<string>();
  private followedList: readonly string[] = [];
  private started = false;
  /** Figures by wallet NAME. */
  private figures = new Map<string, WalletFigures>();
  private figuresGen = 0;
  private total = 0n;
  /** Generation being written; objects of an older one than `frozenGen` + 1 are shared. */
  private gen = 1;
  private frozenGen = 0;
  private frozen: Frozen | undefined;
  /** Pairs recomputed since the book started (for tests and benches). */
  recomputed = 0;

  constructor(private readonly src: ExposureSources) {
    for (const w of src.wallets) {
      this.states.set(w.address, { name: w.name, address: w.address, ordersVersion: undefined, held: new Set(), dirty: new Set(), marked: new Set(), liveSeen: new Map() });
    }
  }

  /** A position of (wallet address, market) changed. */
  positionChanged(wallet: string, marketId: string): void {
    const s = this.states.get(wallet.toLowerCase());
    if (s === undefined) return;
    s.held.add(marketId);
    s.dirty.add(marketId);
  }

  /**
   * A RiskSnapshot of every pair now, `exposures` laid over it (the cycle's own pair). A pair laid
   * over is not re-read here: the snapshot takes the book's figure of it out of the sums and puts
   * the one given in, so whatever the book holds for it cancels out (it is re-read at a later
   * snapshot that needs it). A quote cycle therefore re-reads only the other pairs that changed.
   */
  snapshot(exposures: readonly MarketExposure[] = []): RiskSnapshot {
    return new RiskSnapshot(exposures, this.base(exposures));
  }

  /** The figures of every pair now (but `over`, see snapshot); later changes do not reach the object returned. */
  base(over: readonly Pick<MarketExposure, "wallet" | "market">[] = []): ExposureBase {
    this.refresh(over);
    if (this.frozen === undefined) {
      this.frozen = new Frozen(this.figures, this.total);
      this.frozenGen = this.gen;
      this.gen += 1;
    }
    return this.frozen;
  }

  private refresh(over: readonly Pick<MarketExposure, "wallet" | "market">[]): void {
    if (!this.started) {
      this.started = true;
      for (const s of this.states.values()) for (const m of this.src.positionMarkets(s.address)) s.held.add(m);
    }
    const markets = this.src.markets();
    if (!sameList(markets, this.followedList)) {
      const next = new Set(markets);
      const moved: string[] = [];
      for (const m of next) if (!this.followed.has(m)) moved.push(m);
      for (const m of this.followed) if (!next.has(m)) moved.push(m);
      for (const s of this.states.values()) for (const m of moved) s.dirty.add(m);
      this.followed = next;
      this.followedList = markets;
    }
    for (const s of this.states.values()) {
      const v = this.src.ordersVersion(s.address);
      if (v !== s.ordersVersion) {
        s.ordersVersion = v;
        for (const m of s.held) if (this.ordersMoved(s, m)) s.dirty.add(m);
        // The followed markets it holds nothing in: most have no order of the wallet either, and
        // a look at its live orders there is all they need (no position to read).
        for (const m of this.followed) {
          if (s.dirty.has(m) || !this.ordersMoved(s, m)) continue;
          if (isOver(over, s.name, m)) s.dirty.add(m);
          else this.reread(s, m);
        }
      }
      for (const m of s.marked) s.dirty.add(m);
      if (s.dirty.size === 0) continue;
      for (const m of s.dirty) {
        if (isOver(over, s.name, m)) continue;
        this.recompute(s, m);
        s.dirty.delete(m);
      }
    }
  }

  /**
   * Whether the wallet's live orders on `market` may have changed since the pair's figures were
   * last computed. Without the sources' liveVersion: always (the wallet's version moved).
   */
  private ordersMoved(s: WalletState, market: string): boolean {
    return this.src.liveVersion === undefined || s.liveSeen.get(market) !== this.src.liveVersion(s.address, market);
  }

  /** The pair's figures are computed from its live orders as they are now. */
  private seeOrders(s: WalletState, market: string): void {
    if (this.src.liveVersion !== undefined) s.liveSeen.set(market, this.src.liveVersion(s.address, market));
  }

  /** A followed market where the wallet holds nothing: its live orders decide. */
  private reread(s: WalletState, market: string): void {
    this.seeOrders(s, market);
    if (this.src.liveOrders(s.address, market).length > 0) {
      this.recompute(s, market);
      return;
    }
    this.recomputed += 1;
    this.remove(s.name, market);
  }

  private recompute(s: WalletState, market: string): void {
    this.recomputed += 1;
    this.seeOrders(s, market);
    const positions: PositionView[] = [];
    if (s.held.has(market)) for (const p of this.src.positions(s.address, market)) if (p.qty !== 0n) positions.push({ outcome: p.outcome, qty: p.qty, avgCost: p.avgCost });
    const counted = positions.length > 0 || this.followed.has(market);
    const openOrders = counted ? this.src.liveOrders(s.address, market) : [];
    if (positions.length === 0 && openOrders.length === 0) {
      s.marked.delete(market);
      // Neither followed nor held: nothing looks at its orders until it is one again (then it is read afresh).
      if (!counted) s.liveSeen.delete(market);
      this.remove(s.name, market);
      return;
    }
    const marks: Record<number, Micros> = {};
    let marked = false;
    for (const p of positions) {
      if (p.avgCost !== null) continue;
      const m = this.src.mark(market, p.outcome);
      if (m !== undefined) marks[p.outcome] = m;
      marked = true;
    }
    if (marked) s.marked.add(market);
    else s.marked.delete(market);
    const e: MarketExposure = { wallet: s.name, market, outcomeCount: this.src.outcomeCount(market) ?? 2, positions, openOrders };
    if (marked) e.marks = marks;
    this.put(s.name, market, figuresOf(e));
  }

  private put(wallet: string, market: string, f: MarketFigures): void {
    const w = this.writable(wallet);
    const prev = w.markets.get(market);
    const delta = notionalOf(f) - (prev === undefined ? 0n : notionalOf(prev));
    w.markets.set(market, f);
    w.notional += delta;
    this.total += delta;
  }

  private remove(wallet: string, market: string): void {
    const prev = this.figures.get(wallet)?.markets.get(market);
    if (prev === undefined) return;
    const w = this.writable(wallet);
    w.markets.delete(market);
    w.notional -= notionalOf(prev);
    this.total -= notionalOf(prev);
  }

  /** The wallet's figures, copied first when a snapshot shares them. */
  private writable(wallet: string): WalletFigures {
    this.frozen = undefined;
    if (this.figuresGen <= this.frozenGen) {
      this.figures = new Map(this.figures);
      this.figuresGen = this.gen;
    }
    let w = this.figures.get(wallet);
    if (w === undefined || w.gen <= this.frozenGen) {
      w = { gen: this.gen, markets: new Map(w?.markets), notional: w?.notional ?? 0n };
      this.figures.set(wallet, w);
    }
    return w;
  }
}

function isOver(over: readonly Pick<MarketExposure, "wallet" | "market">[], wallet: string, market: string): boolean {
  for (const e of over) if (e.wallet === wallet && e.market === market) return true;
  return false;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
