/**
 * The paper account: what the platform would hold for our wallets if our orders had been sent.
 * Per wallet: cash (settlement token), positions per market outcome, orders and fills. Orders are
 * matched by the fast engine's exchange model (backtest/fast/exchange-model.ts: one `OutcomeBook`
 * per market outcome, with a queue-position model per resting order) against the books and public
 * trades the daemon reads from the real platform (the transport hands them over as they pass).
 *
 * Rules, as the simulator's ledger applies them (docs/spec-gaps.md, "Paper trading"):
 *   - market status: OPEN takes every order, PRE_MARKET post-only orders only, any other status
 *     none (`market_not_open`); a post-only order that would take liquidity is refused
 *     `post_only_would_cross` (exchange-model.ts);
 *   - a BUY locks ceil(price x qty) plus the largest taker fee the quantity could pay; a SELL locks
 *     the shares, which must be held (no short selling): `insufficient_funds` otherwise;
 *   - a fill moves cash by its notional, rounded against us (a buy pays ceil(price x qty), a sell
 *     receives floor(price x qty)), and the taker fee (the platform's curve, `takerFee`); makers
 *     pay no fee. The position's cost follows (average cost; a sell takes its share of the cost);
 *   - what is locked is recomputed from the live orders at every read, so it never drifts.
 * Pure bookkeeping: the clock is read through `now()`; frames go to `onFrame` at the instant the
 * modelled exchange makes them (the connector delays them by the response latency).
 */
import { complementPrice, maxTakerFee, type Side } from "../core/amounts.js";
import { formatMicros, notional, ONE, type Micros } from "../core/money.js";
import { Levels } from "../data/levels.js";
import { OutcomeBook, type ExchangeFill } from "../backtest/fast/exchange-model.js";
import { queueModelFactory, type QueueModelFactory, type QueueModelSpec } from "../backtest/models/queue.js";
import { USER_ORDERS_CHANNEL } from "../wire/frames.js";
import type { OrderStatus } from "../wire/enums.js";

/** What the account knows of a market, from the rows the daemon read. */
export interface PaperMarket {
  symbol: string;
  status: string;
  outcomeCount: number;
  feeTakerBps: number;
  negRiskEligible: boolean;
  /** Token id per outcome (market row), when known. */
  tokenIds: readonly (string | undefined)[];
  /** Outcome labels (market row). */
  labels?: readonly string[];
}

export interface PaperOrder {
  id: string;
  wallet: string;
  clientOrderId: string | null;
  orderHash: string;
  marketId: string;
  tokenId: string;
  outcome: number;
  side: Side;
  type: "limit" | "market";
  timeInForce: "GTC" | "GTD" | "IOC" | "FOK";
  postOnly: boolean;
  price: Micros;
  quantity: Micros;
  filled: Micros;
  status: OrderStatus;
  expiration: string;
  feeRateBps: number;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface PaperFill {
  tradeId: string;
  wallet: string;
  orderId: string;
  clientOrderId: string | null;
  marketId: string;
  tokenId: string;
  outcome: number;
  side: Side;
  price: Micros;
  qty: Micros;
  fee: Micros;
  feeRateBps: number;
  role: "maker" | "taker";
  ts: number;
}

interface Position {
  tokenId: string;
  qty: Micros;
  /** Cost of the shares held (micros), for the average price. */
  cost: Micros;
}

interface WalletBook {
  cash: Micros;
  positions: Map<string, Position>;
}

export interface PlaceRequest {
  wallet: string;
  orderHash: string;
  clientOrderId: string | null;
  marketId: string;
  outcome: number;
  tokenId: string;
  side: Side;
  price: Micros;
  quantity: Micros;
  type: "limit" | "market";
  timeInForce: "GTC" | "GTD" | "IOC" | "FOK";
  postOnly: boolean;
  expiration: string;
}

export type PlaceAnswer =
  | { status: "REJECTED"; code: string; message: string; orderId: null }
  | { status: "OPEN" | "PARTIAL" | "FILLED"; order: PaperOrder; fills: PaperFill[]; orderStatus?: "CANCELLED" };

export type CancelAnswer = { ok: true; order: PaperOrder } | { ok: false; code: "order_not_found" | "not_cancellable"; message: string };

export interface PaperAccountOptions {
  wallets: readonly string[];
  startingCash: Micros;
  queue: QueueModelSpec;
  now: () => number;
  /** Ended orders kept for history reads and lookups (oldest dropped). Default 20,000. */
  keepEnded?: number;
  /** Fills kept for `/api/me/trades` (oldest dropped). Default 50,000. */
  keepFills?: number;
}

/** The zero address stands for the other party of a modelled trade (it has no wallet). */
export const COUNTERPARTY = "0x0000000000000000000000000000000000000000";

const posKey = (marketId: string, outcome: number): string => `${marketId}|${outcome}`;

/** Cash a BUY of `qty` at `price` locks: ceil(price x qty) plus the largest taker fee. */
function buyLock(price: Micros, qty: Micros, feeRateBps: number): Micros {
  return notional(price, qty, "ceil") + maxTakerFee(qty, feeRateBps);
}

export class PaperAccount {
  private readonly o: PaperAccountOptions;
  private readonly queue: QueueModelFactory;
  private readonly walletBooks = new Map<string, WalletBook>();
  readonly markets = new Map<string, PaperMarket>();
  private readonly books = new Map<string, OutcomeBook>();
  /** The latest book seen per market outcome (prices, quantities), for marks and the report. */
  readonly lastBooks = new Map<string, { bids: Levels; asks: Levels; ts: number }>();
  /** Live orders by id, in creation order. */
  private readonly live = new Map<string, PaperOrder>();
  private readonly ended = new Map<string, PaperOrder>();
  private readonly fillLog: PaperFill[] = [];
  /** Per market: the newest public trade applied (createdAt, ms) and the ids applied at that instant. */
  private readonly tradeMarks = new Map<string, { at: number; ids: Set<string> }>();
  private nextOrder = 0;
  private nextTrade = 0;
  /** Every fill, once, as it happens (the report's series). */
  onFill: ((f: PaperFill) => void) | undefined;
  /** Every frame of `/ws/user` for a wallet, at the instant the modelled exchange makes it. */
  onFrame: ((wallet: string, frame: Record<string, unknown>) => void) | undefined;
  readonly counts = { placed: 0, accepted: 0, rejected: 0, rejectCodes: {} as Record<string, number>, cancels: 0, books: 0, trades: 0 };

  constructor(o: PaperAccountOptions) {
    this.o = o;
    this.queue = queueModelFactory(o.queue);
    for (const w of o.wallets) this.walletBooks.set(w.toLowerCase(), { cash: o.startingCash, positions: new Map() });
  }

  // ---- what the daemon read from the platform ------------------------------------------------

  observeMarket(m: PaperMarket): void {
    const before = this.markets.get(m.symbol);
    // A row without token ids keeps the ones an earlier row gave.
    const tokenIds = m.tokenIds.some((t) => t !== undefined) ? m.tokenIds : (before?.tokenIds ?? m.tokenIds);
    this.markets.set(m.symbol, { ...m, tokenIds });
  }

  /** One outcome's book as read (others' orders only); a binary market's other outcome is its complement. */
  observeBook(symbol: string, outcome: number, bids: readonly (readonly [Micros, Micros])[], asks: readonly (readonly [Micros, Micros])[]): void {
    const m = this.markets.get(symbol);
    this.counts.books++;
    this.applyBook(symbol, outcome, Levels.of(bids), Levels.of(asks));
    if (m?.outcomeCount === 2) {
      const flip = (l: readonly (readonly [Micros, Micros])[]): [Micros, Micros][] => l.map(([p, q]) => [complementPrice(p), q]);
      this.applyBook(symbol, 1 - outcome, Levels.of(flip(asks)), Levels.of(flip(bids)));
    }
  }

  /**
   * A public trade (taker's side and price, in `outcome`'s terms; `at` its createdAt, epoch ms).
   * Each trade once: per market a watermark (the newest createdAt applied and the ids applied at
   * that millisecond) drops anything at or below it, however long a quiet market's trades page keeps
   * listing it; memory stays one millisecond's ids per market.
   *
   * A binary market's two books are one platform book (a NO bid at p is a YES ask at 1 - p): the
   * trade goes to its own outcome's book, then, mirrored, to the other with only the shares our
   * orders there did not take, so one trade never fills more than its size across both books.
   */
  observeTrade(symbol: string, t: { id: string; at: number; outcome: number; side: Side; price: Micros; quantity: Micros }): void {
    if (!this.passMark(symbol, t.at, t.id)) return;
    this.counts.trades++;
    const m = this.markets.get(symbol);
    const first = this.book(symbol, t.outcome).onTrade(t.side, t.price, t.quantity);
    this.applyExchangeFills(symbol, t.outcome, first);
    if (m?.outcomeCount === 2) {
      let left = t.quantity;
      for (const f of first) left -= f.qty;
      if (left <= 0n) return;
      const other = 1 - t.outcome;
      this.applyExchangeFills(symbol, other, this.book(symbol, other).onTrade(t.side === "BUY" ? "SELL" : "BUY", complementPrice(t.price), left));
    }
  }

  /** Move the market's watermark past a trade without applying it (history from before the run). */
  skipTrade(symbol: string, t: { id: string; at: number }): void {
    this.passMark(symbol, t.at, t.id);
  }

  /** Is the trade past the market's watermark? If so the watermark moves to it. */
  private passMark(symbol: string, at: number, id: string): boolean {
    const w = this.tradeMarks.get(symbol);
    if (w === undefined || at > w.at) {
      this.tradeMarks.set(symbol, { at, ids: new Set([id]) });
      return true;
    }
    if (at < w.at || w.ids.has(id)) return false;
    w.ids.add(id);
    return true;
  }

  private applyBook(symbol: string, outcome: number, bids: Levels, asks: Levels): void {
    this.lastBooks.set(posKey(symbol, outcome), { bids, asks, ts: this.o.now() });
    this.applyExchangeFills(symbol, outcome, this.book(symbol, outcome).onBook(bids, asks));
  }

  private book(symbol: string, outcome: number): OutcomeBook {
    const key = posKey(symbol, outcome);
    let b = this.books.get(key);
    if (b === undefined) {
      b = new OutcomeBook(this.queue, this.markets.get(symbol)?.feeTakerBps ?? 0);
      this.books.set(key, b);
    }
    return b;
  }

  // ---- orders ---------------------------------------------------------------------------------

  place(r: PlaceRequest): PlaceAnswer {
    this.counts.placed++;
    const refuse = (code: string, message: string): PlaceAnswer => {
      this.counts.rejected++;
      this.counts.rejectCodes[code] = (this.counts.rejectCodes[code] ?? 0) + 1;
      return { status: "REJECTED", code, message, orderId: null };
    };
    const wb = this.walletBooks.get(r.wallet);
    if (wb === undefined) return refuse("insufficient_funds", "wallet has no paper balance");
    const m = this.markets.get(r.marketId);
    if (m === undefined) return refuse("market_not_found", `market ${r.marketId} has not been read from the platform`);
    if (r.outcome >= m.outcomeCount) return refuse("invalid_outcome", `outcome ${r.outcome} out of range`);
    if (!(m.status === "OPEN" || (m.status === "PRE_MARKET" && r.postOnly))) {
      return refuse("market_not_open", m.status === "PRE_MARKET" ? `market ${m.symbol} accepts post-only orders only` : `market ${m.symbol} is ${m.status}`);
    }
    if (r.side === "BUY") {
      if (this.availableCash(r.wallet) < buyLock(r.price, r.quantity, m.feeTakerBps)) return refuse("insufficient_funds", "available balance is too low");
    } else {
      const p = wb.positions.get(posKey(r.marketId, r.outcome));
      const free = (p?.qty ?? 0n) - this.lockedShares(r.wallet, r.marketId, r.outcome);
      if (free < r.quantity) return refuse("insufficient_funds", `outcome ${r.outcome} has fewer than ${formatMicros(r.quantity)} free shares`);
    }
    const now = this.o.now();
    const id = `paper-o${++this.nextOrder}`;
    const book = this.book(r.marketId, r.outcome);
    // FOK is all or none (as the simulator): if the book cannot fill it whole now, it is accepted and
    // ends CANCELLED at once without a fill.
    const killed = r.timeInForce === "FOK" && !r.postOnly && book.takeable(r.side, r.price, r.quantity) < r.quantity;
    const res = killed
      ? { status: "OPEN" as const, fills: [], filledQty: 0n }
      : book.submit({ orderId: id, clientOrderId: r.clientOrderId ?? id, side: r.side, price: r.price, size: r.quantity, postOnly: r.postOnly });
    if (res.status === "REJECTED") return refuse(res.code, "post-only order would take liquidity");
    this.counts.accepted++;
    const order: PaperOrder = {
      id,
      wallet: r.wallet,
      clientOrderId: r.clientOrderId,
      orderHash: r.orderHash,
      marketId: r.marketId,
      tokenId: r.tokenId,
      outcome: r.outcome,
      side: r.side,
      type: r.type,
      timeInForce: r.timeInForce,
      postOnly: r.postOnly,
      price: r.price,
      quantity: r.quantity,
      filled: 0n,
      status: "OPEN",
      expiration: r.expiration,
      feeRateBps: m.feeTakerBps,
      createdAtMs: now,
      updatedAtMs: now,
    };
    this.live.set(id, order);
    this.frame(order, { type: "order_placed", tokenId: order.tokenId, outcome: order.outcome, side: order.side, price: formatMicros(order.price), originalQuantity: formatMicros(order.quantity), remainingQty: formatMicros(order.quantity), status: "OPEN" });
    const fills = res.fills.map((f) => this.applyFill(order, f));
    // IOC / FOK / market orders do not rest: what did not fill at once ends.
    let orderStatus: "CANCELLED" | undefined;
    if (order.status !== "FILLED" && (r.type === "market" || r.timeInForce === "IOC" || r.timeInForce === "FOK")) {
      if (!killed) book.cancel(id);
      this.end(order, "CANCELLED");
      orderStatus = "CANCELLED";
    }
    const status = res.status;
    return orderStatus === undefined ? { status, order, fills } : { status, order, fills, orderStatus };
  }

  cancel(wallet: string, orderId: string): CancelAnswer {
    const o = this.live.get(orderId);
    if (o === undefined || o.wallet !== wallet) {
      const e = this.ended.get(orderId);
      if (e !== undefined && e.wallet === wallet) return { ok: false, code: "not_cancellable", message: `order ${orderId} is ${e.status}` };
      return { ok: false, code: "order_not_found", message: `order ${orderId} is unknown for this wallet` };
    }
    this.counts.cancels++;
    this.book(o.marketId, o.outcome).cancel(o.id);
    this.end(o, "CANCELLED");
    this.frame(o, { type: "order_cancelled", originalQuantity: formatMicros(o.quantity), remainingQty: formatMicros(o.quantity - o.filled), status: "CANCELLED" });
    return { ok: true, order: o };
  }

  /** Live orders of a wallet (optionally of one market), in creation order. */
  liveOrders(wallet: string, marketId?: string): PaperOrder[] {
    const out: PaperOrder[] = [];
    for (const o of this.live.values()) if (o.wallet === wallet && (marketId === undefined || o.marketId === marketId)) out.push(o);
    return out;
  }

  /** Every live order of every wallet on one market outcome (the book answers show them). */
  restingOn(marketId: string, outcome: number): PaperOrder[] {
    const out: PaperOrder[] = [];
    for (const o of this.live.values()) if (o.marketId === marketId && o.outcome === outcome) out.push(o);
    return out;
  }

  endedOrders(wallet: string): PaperOrder[] {
    const out: PaperOrder[] = [];
    for (const o of this.ended.values()) if (o.wallet === wallet) out.push(o);
    return out;
  }

  order(wallet: string, id: string): PaperOrder | undefined {
    const o = this.live.get(id) ?? this.ended.get(id);
    return o?.wallet === wallet ? o : undefined;
  }

  find(wallet: string, by: { clientOrderId?: string; orderHash?: string }): PaperOrder | undefined {
    const match = (o: PaperOrder): boolean =>
      o.wallet === wallet && (by.clientOrderId !== undefined ? o.clientOrderId === by.clientOrderId : o.orderHash === by.orderHash?.toLowerCase());
    for (const o of this.live.values()) if (match(o)) return o;
    let found: PaperOrder | undefined;
    for (const o of this.ended.values()) if (match(o)) found = o;
    return found;
  }

  // ---- the ledger -----------------------------------------------------------------------------

  /** A wallet's fills, oldest first. */
  fills(wallet?: string): PaperFill[] {
    return wallet === undefined ? [...this.fillLog] : this.fillLog.filter((f) => f.wallet === wallet);
  }

  cash(wallet: string): Micros {
    return this.walletBooks.get(wallet)?.cash ?? 0n;
  }

  lockedCash(wallet: string): Micros {
    let locked = 0n;
    for (const o of this.live.values()) if (o.wallet === wallet && o.side === "BUY") locked += buyLock(o.price, o.quantity - o.filled, o.feeRateBps);
    return locked;
  }

  availableCash(wallet: string): Micros {
    return this.cash(wallet) - this.lockedCash(wallet);
  }

  lockedShares(wallet: string, marketId: string, outcome: number): Micros {
    let locked = 0n;
    for (const o of this.live.values()) if (o.wallet === wallet && o.side === "SELL" && o.marketId === marketId && o.outcome === outcome) locked += o.quantity - o.filled;
    return locked;
  }

  /** A wallet's non-zero positions, in market then outcome order. */
  positions(wallet: string): { marketId: string; outcome: number; tokenId: string; qty: Micros; cost: Micros; locked: Micros }[] {
    const wb = this.walletBooks.get(wallet);
    if (wb === undefined) return [];
    const out = [];
    for (const [key, p] of wb.positions) {
      if (p.qty === 0n) continue;
      const bar = key.lastIndexOf("|");
      const marketId = key.slice(0, bar);
      const outcome = Number(key.slice(bar + 1));
      out.push({ marketId, outcome, tokenId: p.tokenId, qty: p.qty, cost: p.cost, locked: this.lockedShares(wallet, marketId, outcome) });
    }
    return out.sort((a, b) => (a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : a.outcome - b.outcome));
  }

  wallets(): string[] {
    return [...this.walletBooks.keys()];
  }

  /** Maker fills the exchange model found (a book or a trade moved through our price). */
  private applyExchangeFills(symbol: string, outcome: number, fills: readonly ExchangeFill[]): void {
    for (const f of fills) {
      const o = this.live.get(f.orderId);
      if (o === undefined || o.marketId !== symbol || o.outcome !== outcome) continue;
      this.applyFill(o, f);
    }
  }

  private applyFill(o: PaperOrder, f: ExchangeFill): PaperFill {
    const wb = this.walletBooks.get(o.wallet)!;
    const now = this.o.now();
    const key = posKey(o.marketId, o.outcome);
    let p = wb.positions.get(key);
    if (p === undefined) {
      p = { tokenId: o.tokenId, qty: 0n, cost: 0n };
      wb.positions.set(key, p);
    }
    if (f.side === "BUY") {
      const paid = notional(f.price, f.qty, "ceil");
      wb.cash -= paid + f.fee;
      p.qty += f.qty;
      p.cost += paid;
    } else {
      wb.cash += notional(f.price, f.qty, "floor") - f.fee;
      const share = p.qty === 0n ? 0n : (p.cost * f.qty) / p.qty;
      p.qty -= f.qty;
      p.cost = p.qty === 0n ? 0n : p.cost - share;
    }
    o.filled += f.qty;
    o.updatedAtMs = now;
    const done = o.filled === o.quantity;
    o.status = done ? "FILLED" : "PARTIAL";
    const fill: PaperFill = {
      tradeId: `paper-t${++this.nextTrade}`,
      wallet: o.wallet,
      orderId: o.id,
      clientOrderId: o.clientOrderId,
      marketId: o.marketId,
      tokenId: o.tokenId,
      outcome: o.outcome,
      side: o.side,
      price: f.price,
      qty: f.qty,
      fee: f.fee,
      feeRateBps: f.role === "taker" ? o.feeRateBps : 0,
      role: f.role,
      ts: now,
    };
    this.fillLog.push(fill);
    if (this.fillLog.length > (this.o.keepFills ?? 50_000)) this.fillLog.shift();
    if (done) this.end(o, "FILLED");
    this.frame(o, {
      type: "user_fill",
      tradeId: fill.tradeId,
      tokenId: o.tokenId,
      outcome: o.outcome,
      side: o.side,
      price: formatMicros(f.price),
      quantity: formatMicros(f.qty),
      fee: formatMicros(f.fee),
      role: f.role,
      orderStatus: o.status,
      filledQty: formatMicros(o.filled),
      remainingQty: formatMicros(o.quantity - o.filled),
    });
    this.onFill?.(fill);
    return fill;
  }

  private end(o: PaperOrder, status: OrderStatus): void {
    o.status = status;
    o.updatedAtMs = this.o.now();
    this.live.delete(o.id);
    this.ended.set(o.id, o);
    const keep = this.o.keepEnded ?? 20_000;
    while (this.ended.size > keep) this.ended.delete(this.ended.keys().next().value as string);
  }

  private frame(o: PaperOrder, body: Record<string, unknown>): void {
    this.onFrame?.(o.wallet, {
      channel: USER_ORDERS_CHANNEL,
      serverTs: this.o.now(),
      walletAddress: o.wallet,
      orderId: o.id,
      clientOrderId: o.clientOrderId,
      marketId: o.marketId,
      ...body,
    });
  }
}

/** The price of one share in [0, 1] as a fraction of ONE (for the average price). */
export function averagePrice(cost: Micros, qty: Micros): Micros | undefined {
  return qty === 0n ? undefined : (cost * ONE) / qty;
}
