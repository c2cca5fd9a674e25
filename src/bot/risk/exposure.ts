/**
 * Exposure snapshot: what each (wallet, market) holds and has resting, summed per wallet and in
 * total, for the limit checks. Built once per quoting cycle from the inventory and the order
 * tracker; `commit` updates it as each market's quotes are filtered so that markets filtered
 * later in the same cycle see the headroom the earlier ones took.
 *
 * Notional (settlement micros) of a (wallet, market) is:
 *   position cost: sum over outcomes of |qty| x (avgCost, else the mark, else 1: the most a share
 *                  can be worth, so an unpriced position is never under-counted)
 *   + open BUY notional: sum of remaining x price (ceil) of every live BUY order.
 * SELL orders add nothing: they can only sell shares already counted (no short inventory,
 * docs/spec-gaps.md "Binary asks").
 */
import { ONE, absMicros, notional, type Micros } from "../../core/money.js";
import type { LiveOrder, PositionView } from "../quote/quotes.js";

export interface MarketExposure {
  wallet: string;
  market: string;
  /** 2 for binary markets (net YES - NO exposure applies). */
  outcomeCount: number;
  positions: readonly PositionView[];
  /** Every live order of the wallet on the market, pending and cancelling included. */
  openOrders: readonly LiveOrder[];
  /** Mark price per outcome, used to value positions without an average cost. */
  marks?: Readonly<Record<number, Micros>>;
}

/** Derived figures of one (wallet, market). */
export interface MarketFigures {
  exposure: MarketExposure;
  positionNotional: Micros;
  /** All live BUY orders. */
  openBuyNotional: Micros;
  /** Live BUY orders with a cancel in flight: they may still fill whatever this cycle decides. */
  cancellingBuyNotional: Micros;
  /** Remaining shares of cancelling orders, by outcome. */
  cancellingBuy: ReadonlyMap<number, Micros>;
  cancellingSell: ReadonlyMap<number, Micros>;
}

/** The sums by outcome of a pair with no cancelling order (most pairs): one shared, empty, never written. */
const NO_AMOUNTS: ReadonlyMap<number, Micros> = new Map();

function add(map: Map<number, Micros> | undefined, k: number, v: Micros): Map<number, Micros> {
  const m = map ?? new Map<number, Micros>();
  m.set(k, (m.get(k) ?? 0n) + v);
  return m;
}

export function heldQty(e: Pick<MarketExposure, "positions">, outcome: number): Micros {
  let q = 0n;
  for (const p of e.positions) if (p.outcome === outcome) q += p.qty;
  return q;
}

export function figuresOf(e: MarketExposure): MarketFigures {
  let positionNotional = 0n;
  for (const p of e.positions) {
    if (p.qty === 0n) continue;
    const value = p.avgCost ?? e.marks?.[p.outcome] ?? ONE;
    positionNotional += notional(value, absMicros(p.qty), "ceil");
  }
  let openBuyNotional = 0n;
  let cancellingBuyNotional = 0n;
  let cancellingBuy: Map<number, Micros> | undefined;
  let cancellingSell: Map<number, Micros> | undefined;
  for (const o of e.openOrders) {
    if (o.remaining <= 0n) continue;
    if (o.side === "BUY") {
      const n = notional(o.price, o.remaining, "ceil");
      openBuyNotional += n;
      if (o.state === "cancelling") {
        cancellingBuyNotional += n;
        cancellingBuy = add(cancellingBuy, o.outcome, o.remaining);
      }
    } else if (o.state === "cancelling") {
      cancellingSell = add(cancellingSell, o.outcome, o.remaining);
    }
  }
  return { exposure: e, positionNotional, openBuyNotional, cancellingBuyNotional, cancellingBuy: cancellingBuy ?? NO_AMOUNTS, cancellingSell: cancellingSell ?? NO_AMOUNTS };
}

function marketKey(wallet: string, market: string): string {
  return `${wallet}\u0000${market}`;
}

/**
 * Read access to figures computed elsewhere (exposure-book.ts hands out a frozen one): what a
 * RiskSnapshot starts from before its own exposures and commits are laid over it.
 */
export interface ExposureBase {
  market(wallet: string, market: string): MarketFigures | undefined;
  walletNotional(wallet: string): Micros;
  totalNotional(): Micros;
}

/**
 * The figures of every (wallet, market) given, summed per wallet and in total. Built over a `base`
 * it starts from the base's figures and lays its own on top (an exposure given here replaces the
 * base's for its pair); the base is only read, never changed.
 */
export class RiskSnapshot {
  private readonly markets = new Map<string, MarketFigures>();
  /** Per wallet, and in total: the change against the base (the whole figure without one). */
  private readonly wallets = new Map<string, Micros>();
  private total = 0n;

  constructor(
    exposures: readonly MarketExposure[] = [],
    private readonly base?: ExposureBase,
  ) {
    for (const e of exposures) this.put(figuresOf(e));
  }

  market(wallet: string, market: string): MarketFigures | undefined {
    return this.markets.get(marketKey(wallet, market)) ?? this.base?.market(wallet, market);
  }

  walletNotional(wallet: string): Micros {
    return (this.base?.walletNotional(wallet) ?? 0n) + (this.wallets.get(wallet) ?? 0n);
  }

  totalNotional(): Micros {
    return (this.base?.totalNotional() ?? 0n) + this.total;
  }

  /**
   * After filtering (wallet, market): its open BUY notional becomes what the allowed quotes (plus
   * the orders still cancelling) would rest.
   */
  commit(wallet: string, market: string, openBuyNotional: Micros): void {
    const f = this.market(wallet, market) ?? figuresOf({ wallet, market, outcomeCount: 2, positions: [], openOrders: [] });
    this.put({ ...f, openBuyNotional });
  }

  private put(f: MarketFigures): void {
    const k = marketKey(f.exposure.wallet, f.exposure.market);
    const prev = this.market(f.exposure.wallet, f.exposure.market);
    if (prev !== undefined) this.account(prev, -1n);
    this.markets.set(k, f);
    this.account(f, 1n);
  }

  private account(f: MarketFigures, sign: 1n | -1n): void {
    const n = notionalOf(f) * sign;
    const w = f.exposure.wallet;
    this.wallets.set(w, (this.wallets.get(w) ?? 0n) + n);
    this.total += n;
  }
}

/** What a (wallet, market) adds to its wallet's and the total notional. */
export function notionalOf(f: MarketFigures): Micros {
  return f.positionNotional + f.openBuyNotional;
}
