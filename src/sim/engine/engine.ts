/**
 * The matching engine: order books with price-time priority over the ledger's fund locks.
 *
 * Binary markets trade YES and NO as ONE book denominated in YES (the conditional-token exchange
 * layout): BUY YES at p bids p, SELL YES at p offers p, BUY NO at p offers YES at 1-p, SELL NO at p
 * bids YES at 1-p. A bid meeting an ask is then a YES transfer (BUY YES x SELL YES), a mint (BUY YES
 * x BUY NO: both pay, a YES+NO pair is created from collateral), a merge (SELL NO x SELL YES: both
 * deliver, the pair's collateral is released to them) or a NO transfer (SELL NO x BUY NO). Fills
 * execute at the resting order's price. Multi-outcome markets have one book per outcome (transfers
 * only; shares come from splitting collateral into complete sets).
 *
 * Self-trade rule: an incoming order never matches a resting order of the same wallet. Matching
 * stops at the first such order and the incoming remainder is cancelled (reason `self_trade`), also
 * for a GTC, rather than resting crossed. This is "cancel newest / expire taker" (Binance's default
 * STP mode, CME's cancel-aggressor): the resting quote keeps its queue position and the book never
 * holds a crossed pair, so a market maker whose hedge would hit its own quote finds out at once.
 *
 * Everything is synchronous and in memory; time and ids are injected, so a run is deterministic.
 * Events go to one optional sink; placement also returns its trades. Only live orders are kept:
 * the platform layer owns order history.
 */
import type { Clock } from "../../core/clock.js";
import type { Micros } from "../../core/money.js";
import type { Side } from "../../core/amounts.js";
import { Ledger, type LedgerOptions } from "./ledger.js";
import { MarketState } from "./market.js";
import { ExpiryHeap } from "./expiry.js";
import { Matcher } from "./matcher.js";
import { hashId } from "./id-index.js";
import {
  ASK, BID, F_ASK, F_COMPLEMENT, F_MARKET, F_POST_ONLY, F_SELL, NIL, OrderStore, S_CANCELLED, S_EXPIRED,
  S_FILLED, STATUS_NAMES, TIF_SHIFT, tifCode, type BookSide,
} from "./order.js";
import { MAX_ORDER_QTY, TICK_ONE, tickOf } from "./ticks.js";
import { bookSnapshot } from "./snapshot.js";
import { balanceOf, positionsOf } from "./views.js";
import type {
  BalanceView, BookSnapshot, CancelResult, EndReason, EventSink, IdSource, MarketSpec, OrderInfo,
  PayoutRow, PlaceRequest, PlaceResult, PositionView, RejectCode, ResolutionResult, TradeRecord,
} from "./types.js";

/** How a market settles: `deferPayout` settles it (orders cancelled, status terminal) but pays later (`payOut`). */
export interface SettleOptions {
  deferPayout?: boolean;
}

export interface EngineOptions {
  clock: Clock;
  ids?: IdSource;
  onEvent?: EventSink;
  ledger?: LedgerOptions;
  /** Initial order-store capacity (it grows by doubling). */
  capacity?: number;
}

/** Default ids: `o1`, `o2`, ... and `t1`, `t2`, ... */
export function counterIds(): IdSource {
  let orders = 0;
  let trades = 0;
  return { next: (kind) => (kind === "order" ? `o${++orders}` : `t${++trades}`) };
}

const NO_TRADES: readonly TradeRecord[] = Object.freeze([]);

export class MatchingEngine extends Matcher {
  /** @internal markets by id, for snapshots and invariant checks. */
  readonly markets = new Map<string, MarketState>();
  private readonly expiry = new ExpiryHeap();
  /** Settled markets whose payout is deferred: their numerators. */
  private readonly unpaid = new Map<string, bigint[]>();

  constructor(opts: EngineOptions) {
    const st = new OrderStore(opts.capacity ?? 1024);
    const ledger = new Ledger(st, () => opts.clock.now(), opts.ledger);
    super(st, ledger, opts.clock, opts.ids ?? counterIds(), opts.onEvent);
  }

  addMarket(spec: MarketSpec): void {
    if (this.markets.has(spec.id)) throw new Error(`market ${spec.id} already exists`);
    if (!Number.isInteger(spec.outcomeCount) || spec.outcomeCount < 2) throw new Error("outcomeCount must be an integer >= 2");
    if (!Number.isInteger(spec.feeRateBps) || spec.feeRateBps < 0) throw new Error("feeRateBps must be a non-negative integer");
    if (spec.tokenIds && spec.tokenIds.length !== spec.outcomeCount) throw new Error("tokenIds must have one id per outcome");
    const m = new MarketState(spec.id, this.markets.size, spec.outcomeCount, spec.feeRateBps, spec, this.st);
    this.markets.set(spec.id, m);
    this.ledger.registerMarket(m);
  }

  market(marketId: string): MarketState {
    const m = this.markets.get(marketId);
    if (m === undefined) throw new Error(`unknown market ${marketId}`);
    return m;
  }

  /** PRE_MARKET mode: every order that is not post-only is refused with `market_not_open`. */
  setPostOnlyOnly(marketId: string, on: boolean): void {
    this.market(marketId).postOnlyOnly = on;
  }

  /** Halt (new orders refused with `market_not_open`, resting ones kept unless cancelled) or reopen. */
  setHalted(marketId: string, halted: boolean): void {
    const m = this.market(marketId);
    if (m.phase === "resolved" || m.phase === "voided") throw new Error(`market ${marketId} is settled`);
    m.phase = halted ? "halted" : "open";
  }

  /** Would an order at this price take liquidity right now (self-trade ignored)? */
  wouldCross(marketId: string, outcome: number, side: Side, price: Micros): boolean {
    const m = this.market(marketId);
    const tick = tickOf(price);
    if (tick < 0 || !Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomeCount) return false;
    const complement = m.binary && outcome === 1;
    const bookSide: BookSide = (side === "BUY") !== complement ? BID : ASK;
    return m.bookOf(outcome).crosses(bookSide, complement ? TICK_ONE - tick : tick);
  }

  /** Snapshot of a live order, or undefined (filled, cancelled, expired or unknown). */
  getOrder(orderId: string): OrderInfo | undefined {
    const s = this.orders.get(orderId);
    return s < 0 ? undefined : this.info(s);
  }

  /** Is the order live (resting on a book)? Cheaper than getOrder when no snapshot is needed. */
  isLive(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  /** Live orders of a wallet (newest first), optionally of one market. */
  openOrders(wallet: string, marketId?: string): OrderInfo[] {
    const a = this.ledger.find(wallet);
    const mi = marketId === undefined ? -1 : this.market(marketId).index;
    return a === undefined ? [] : a.restingSlots(this.st, mi).map((s) => this.info(s));
  }

  book(marketId: string, outcome: number, depth = 50): BookSnapshot {
    return bookSnapshot(this.market(marketId), outcome, depth);
  }

  balance(wallet: string): BalanceView {
    return balanceOf(this.ledger, wallet);
  }

  positions(wallet: string, marketId?: string): PositionView[] {
    return positionsOf(this.ledger, wallet, marketId === undefined ? undefined : this.market(marketId));
  }

  deposit(wallet: string, amount: Micros): void {
    this.ledger.deposit(wallet, amount);
  }

  withdraw(wallet: string, amount: Micros): void {
    this.ledger.withdraw(wallet, amount);
  }

  /** Split collateral into complete sets of a market's outcome shares. */
  split(wallet: string, marketId: string, amount: Micros): void {
    this.ledger.split(this.ledger.account(wallet), this.market(marketId), amount);
  }

  /** Merge complete sets back into collateral. */
  merge(wallet: string, marketId: string, amount: Micros): void {
    this.ledger.merge(this.ledger.account(wallet), this.market(marketId), amount);
  }

  place(req: PlaceRequest): PlaceResult {
    const now = this.clock.now();
    if (this.expiry.size !== 0 && this.expiry.peekSecs() * 1000 <= now) this.expireDue(now);
    const id = req.orderId ?? this.ids.next("order");
    const m = this.markets.get(req.marketId);
    if (m === undefined) return this.reject(req, id, "market_not_found", `unknown market ${req.marketId}`);
    if (m.phase !== "open") return this.reject(req, id, "market_not_open", `market ${m.id} is ${m.phase}`);
    const outcome = req.outcome;
    if (!Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomeCount) {
      return this.reject(req, id, "invalid_outcome", `outcome must be 0..${m.outcomeCount - 1}`);
    }
    const tick = tickOf(req.price);
    if (tick < 0) return this.reject(req, id, "invalid_amounts", "price must be a multiple of 0.001 in [0.001, 0.999]");
    const qty = req.quantity;
    if (qty <= 0n || qty > MAX_ORDER_QTY) return this.reject(req, id, "invalid_amounts", "quantity must be in (0, 1000000]");
    if (req.side !== "BUY" && req.side !== "SELL") return this.reject(req, id, "invalid_amounts", "side must be BUY or SELL");
    const type = req.type ?? "limit";
    const tif = req.timeInForce ?? (type === "market" ? "IOC" : "GTC");
    const postOnly = req.postOnly === true;
    if (type === "market" && (tif === "GTC" || tif === "GTD")) return this.reject(req, id, "invalid_tif", `market orders cannot be ${tif}`);
    if (postOnly && (tif === "IOC" || tif === "FOK")) return this.reject(req, id, "invalid_tif", `post-only orders cannot be ${tif}`);
    let expiration = 0;
    if (tif === "GTD") {
      expiration = req.expiration ?? 0;
      if (!Number.isInteger(expiration) || expiration <= 0) return this.reject(req, id, "invalid_tif", "GTD needs a non-zero expiration");
      if (expiration * 1000 <= now) return this.reject(req, id, "expired", "expiration is in the past");
    }
    if (m.postOnlyOnly && !postOnly) return this.reject(req, id, "market_not_open", `market ${m.id} accepts post-only orders only`);
    // The id's hash is computed once here and kept with the order for the index's add and delete.
    let idHash = 0;
    if (req.orderId !== undefined) {
      idHash = hashId(id);
      if (this.orders.getHashed(id, idHash) >= 0) return this.reject(req, id, "duplicate_order_id", `order ${id} is live`);
    }
    const a = this.ledger.find(req.wallet);
    if (a === undefined) return this.reject(req, id, "insufficient_funds", "wallet has no balance");
    const complement = m.binary && outcome === 1;
    const bookSide: BookSide = (req.side === "BUY") !== complement ? BID : ASK;
    const bookTick = complement ? TICK_ONE - tick : tick;
    const book = m.bookOf(outcome);
    if (postOnly && book.crosses(bookSide, bookTick)) {
      return this.reject(req, id, "post_only_would_cross", "post-only order would take liquidity");
    }
    const st = this.st;
    const s = st.alloc();
    st.ids[s] = id;
    st.setAccount(s, a.index);
    st.setMarket(s, m.index);
    st.setOutcome(s, outcome);
    st.setTicks(s, tick, bookTick);
    st.setFlags(s, (req.side === "SELL" ? F_SELL : 0) | (bookSide === ASK ? F_ASK : 0) | (complement ? F_COMPLEMENT : 0)
      | (postOnly ? F_POST_ONLY : 0) | (type === "market" ? F_MARKET : 0) | (tifCode(tif) << TIF_SHIFT));
    st.setExpiration(s, expiration);
    st.setCreatedAt(s, now);
    st.setUpdatedAt(s, now);
    st.setQuantity(s, qty);
    st.setRemaining(s, qty);
    if (!this.ledger.lockOrder(s, a, m)) {
      st.release(s);
      return this.reject(req, id, "insufficient_funds", "available balance is too low");
    }
    if (this.sink !== undefined) this.sink({ type: "accepted", order: this.info(s) });

    let trades: TradeRecord[] | null = null;
    let end: EndReason | undefined;
    const fok = tif === "FOK";
    if (book.crosses(bookSide, bookTick)) {
      if (fok && !this.fillable(s, a, book)) end = "fok_unfillable";
      else {
        trades = [];
        if (this.match(s, a, m, book, now, trades)) end = "self_trade";
      }
    } else if (fok) {
      end = "fok_unfillable";
    }
    let ended = true;
    if (st.remaining(s) === 0n) this.endOrder(s, a, m, S_FILLED, "filled", now);
    else if (end !== undefined || fok || tif === "IOC") this.endOrder(s, a, m, S_CANCELLED, end ?? "ioc_remainder", now);
    else {
      ended = false;
      st.setIdHash(s, req.orderId !== undefined ? idHash : hashId(id));
      this.rest(s, a, m, book, bookSide);
      if (expiration !== 0) this.expiry.push(s, st.gen(s), expiration);
    }
    // Without fills the amounts are known bigints: reuse them rather than materialise new ones.
    const filled = trades === null ? 0n : st.filled(s);
    const result: PlaceResult = {
      orderId: id,
      status: STATUS_NAMES[st.status(s)]!,
      filledQty: filled,
      remainingQty: filled === 0n ? qty : st.remaining(s),
      trades: trades ?? NO_TRADES,
    };
    if (ended) {
      result.endReason = this.reasonOf(s);
      st.release(s);
    }
    return result;
  }

  cancel(orderId: string, wallet?: string): CancelResult {
    const s = this.orders.get(orderId);
    if (s < 0) return { ok: false, code: "order_not_found", orderId };
    const a = this.ledger.accountList[this.st.account(s)]!;
    if (wallet !== undefined && wallet !== a.key && wallet.toLowerCase() !== a.key) return { ok: false, code: "forbidden", orderId };
    this.endOrder(s, a, this.ledger.markets[this.st.market(s)]!, S_CANCELLED, "user_cancel", this.clock.now());
    const st = this.st;
    const res: CancelResult = {
      ok: true, orderId, status: "CANCELLED", quantity: st.quantity(s), filledQty: st.filled(s), remainingQty: st.remaining(s),
    };
    st.release(s);
    return res;
  }

  /** Cancel every live order of a wallet, optionally in one market; returns their final snapshots. */
  cancelAll(wallet: string, marketId?: string): OrderInfo[] {
    const a = this.ledger.find(wallet);
    const mi = marketId === undefined ? -1 : this.market(marketId).index;
    return this.endMany(a === undefined ? [] : a.restingSlots(this.st, mi), S_CANCELLED, "user_cancel");
  }

  /** Cancel every live order of a market (halts, resolution); returns their final snapshots. */
  cancelMarketOrders(marketId: string, reason: EndReason = "market_halted"): OrderInfo[] {
    const m = this.market(marketId);
    const picked: number[] = [];
    for (const book of m.books) {
      for (const side of [book.bids, book.asks]) {
        for (let t = 1; t < TICK_ONE; t++) for (let s = side.head[t]!; s !== NIL; s = this.st.next(s)) picked.push(s);
      }
    }
    return this.endMany(picked, S_CANCELLED, reason);
  }

  /** Remove every GTD order whose expiration (unix seconds) is at or before `nowMs`. */
  expireDue(nowMs: number = this.clock.now()): OrderInfo[] {
    const picked: number[] = [];
    const st = this.st;
    const h = this.expiry;
    while (h.size !== 0 && h.peekSecs() * 1000 <= nowMs) {
      const s = h.peekSlot();
      if (st.gen(s) === h.peekGen() && st.isResting(s)) picked.push(s);
      h.pop();
    }
    const out = this.endMany(picked, S_EXPIRED, "expired", nowMs);
    h.compactIfSparse(this.liveGtd, (s, gen) => st.gen(s) === gen && st.isResting(s));
    return out;
  }

  /** Move free shares of one outcome between wallets (no settlement-token flow); see Ledger.transferShares. */
  transferShares(from: string, to: string, marketId: string, outcome: number, qty: Micros, costPrice?: Micros): void {
    const m = this.market(marketId);
    if (!Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomeCount) throw new RangeError(`outcome must be 0..${m.outcomeCount - 1}`);
    this.ledger.transferShares(this.ledger.account(from), this.ledger.account(to), m, outcome, qty, costPrice);
  }

  /**
   * Resolve: cancel open orders, then pay every position qty * numerator / sum(numerators).
   * `deferPayout`: settle the market now but pay later (`payOut`): the shares stay until then.
   */
  resolve(marketId: string, payoutNumerators: readonly (number | bigint)[], opts: SettleOptions = {}): ResolutionResult {
    return this.settleMarket(marketId, payoutNumerators, "market_resolved", opts);
  }

  /** Void: every outcome pays 1/outcomeCount (the conditional-token convention for an invalid market). */
  voidMarket(marketId: string, opts: SettleOptions = {}): ResolutionResult {
    return this.settleMarket(marketId, new Array<bigint>(this.market(marketId).outcomeCount).fill(1n), "market_voided", opts);
  }

  /** Settled markets whose payout was deferred and not made yet. */
  unpaidMarkets(): string[] {
    return [...this.unpaid.keys()];
  }

  /** Make a deferred payout now (its rows and dust); undefined when the market has none pending. */
  payOut(marketId: string): { payouts: PayoutRow[]; dust: Micros } | undefined {
    const numerators = this.unpaid.get(marketId);
    if (numerators === undefined) return undefined;
    this.unpaid.delete(marketId);
    const dustBefore = this.ledger.houseDust;
    const payouts = this.ledger.payout(this.market(marketId), numerators);
    return { payouts, dust: this.ledger.houseDust - dustBefore };
  }

  private settleMarket(marketId: string, nums: readonly (number | bigint)[], reason: "market_resolved" | "market_voided", opts: SettleOptions): ResolutionResult {
    const m = this.market(marketId);
    if (m.phase === "resolved" || m.phase === "voided") throw new Error(`market ${marketId} is already settled`);
    if (nums.length !== m.outcomeCount) throw new Error(`payoutNumerators needs ${m.outcomeCount} entries`);
    const numerators = nums.map((n) => BigInt(n));
    if (numerators.some((n) => n < 0n) || numerators.every((n) => n === 0n)) {
      throw new Error("payoutNumerators must be non-negative with a positive sum");
    }
    const cancelled = this.cancelMarketOrders(marketId, reason);
    m.phase = reason === "market_resolved" ? "resolved" : "voided";
    m.payoutNumerators = numerators;
    if (opts.deferPayout === true) {
      this.unpaid.set(marketId, numerators);
      return { marketId, payoutNumerators: numerators, cancelled, payouts: [], dust: 0n };
    }
    const dustBefore = this.ledger.houseDust;
    const payouts = this.ledger.payout(m, numerators);
    return { marketId, payoutNumerators: numerators, cancelled, payouts, dust: this.ledger.houseDust - dustBefore };
  }

  private endMany(slots: number[], status: typeof S_CANCELLED | typeof S_EXPIRED, reason: EndReason, now = this.clock.now()): OrderInfo[] {
    const out: OrderInfo[] = [];
    for (const s of slots) {
      const a = this.ledger.accountList[this.st.account(s)]!;
      this.endOrder(s, a, this.ledger.markets[this.st.market(s)]!, status, reason, now);
      out.push(this.info(s));
      this.st.release(s);
    }
    return out;
  }

  private reject(req: PlaceRequest, orderId: string, code: RejectCode, message: string): PlaceResult {
    if (this.sink !== undefined) this.sink({ type: "rejected", orderId, wallet: req.wallet, code, message, request: req });
    return { orderId, status: "REJECTED", code, message, filledQty: 0n, remainingQty: 0n, trades: NO_TRADES };
  }
}
