/**
 * The matching core under MatchingEngine: taking liquidity level by level in price-time order,
 * executing fills, resting remainders, ending orders, and the FOK fillability walk. Public
 * validation and the API live in engine.ts.
 */
import type { Clock } from "../../core/clock.js";
import type { Micros } from "../../core/money.js";
import type { Account } from "./account.js";
import type { Book, BookSideLevels } from "./book.js";
import { IdIndex } from "./id-index.js";
import type { Ledger } from "./ledger.js";
import type { MarketState } from "./market.js";
import {
  ASK, BID, END_REASONS, F_ASK, NIL, S_FILLED, S_PARTIAL, endReasonCode, isGtd, orderInfo, type BookSide,
  type OrderNames, type OrderStore,
} from "./order.js";
import { settleFill } from "./settle.js";
import { PRICE_OF_TICK } from "./ticks.js";
import type { EndReason, EventSink, IdSource, OrderInfo, TradeRecord } from "./types.js";

export class Matcher implements OrderNames {
  /** @internal live orders: id -> slot. */
  readonly orders: IdIndex;
  protected liveGtd = 0;

  constructor(
    /** @internal */
    readonly st: OrderStore,
    readonly ledger: Ledger,
    protected readonly clock: Clock,
    protected readonly ids: IdSource,
    protected readonly sink: EventSink | undefined,
  ) {
    this.orders = new IdIndex(st.ids);
  }

  wallet(accountIndex: number): string {
    return this.ledger.accountList[accountIndex]!.key;
  }
  marketId(marketIndex: number): string {
    return this.ledger.markets[marketIndex]!.id;
  }
  tokenId(marketIndex: number, outcome: number): string {
    return this.ledger.markets[marketIndex]!.tokenIds[outcome]!;
  }

  protected info(s: number): OrderInfo {
    return orderInfo(this.st, s, this, PRICE_OF_TICK[this.st.tick(s)]!);
  }

  protected reasonOf(s: number): EndReason | undefined {
    return END_REASONS[this.st.endReason(s)];
  }

  /** Walk the crossing liquidity without touching it: can slot `s` fill completely (self-trade stops it)? */
  protected fillable(s: number, a: Account, book: Book): boolean {
    const st = this.st;
    const opp: BookSide = (st.flags(s) & F_ASK) !== 0 ? BID : ASK;
    const lv = opp === ASK ? book.asks : book.bids;
    const limit = st.bookTick(s);
    let need = st.quantity(s);
    for (let t = book.best(opp); opp === ASK ? t <= limit : t >= limit; t = book.nextTick(opp, t)) {
      if (a.openOrders === 0) {
        const q = lv.qty[t]!;
        if (q >= need) return true;
        need -= q;
        continue;
      }
      for (let mk = lv.head[t]!; mk !== NIL; mk = st.next(mk)) {
        if (st.account(mk) === a.index) return false;
        const q = st.remaining(mk);
        if (q >= need) return true;
        need -= q;
      }
    }
    return false;
  }

  /** Take liquidity until filled or no longer crossing; true when stopped by the self-trade rule. */
  protected match(s: number, a: Account, m: MarketState, book: Book, now: number, trades: TradeRecord[]): boolean {
    const st = this.st;
    const bid = (st.flags(s) & F_ASK) === 0;
    const lv = bid ? book.asks : book.bids;
    const limit = st.bookTick(s);
    for (;;) {
      const t = bid ? book.bestAsk : book.bestBid;
      if (bid ? t > limit : t < limit) return false;
      let mk = lv.head[t]!;
      // A best price over an empty level is a corrupt book: fail loudly rather than spin forever.
      if (mk === NIL) throw new Error(`engine invariant broken: best level ${t} is empty`);
      while (mk !== NIL) {
        if (st.account(mk) === a.index) return true;
        const next = st.next(mk);
        const mr = st.remaining(mk);
        const tr = st.remaining(s);
        this.execute(s, a, mk, m, book, lv, t, mr < tr ? mr : tr, now, trades);
        if (st.remaining(s) === 0n) return false;
        mk = next;
      }
    }
  }

  private execute(
    taker: number, ta: Account, maker: number, m: MarketState, book: Book, lv: BookSideLevels,
    t: number, q: Micros, now: number, trades: TradeRecord[],
  ): void {
    const st = this.st;
    const tr = st.remaining(taker) - q;
    st.setRemaining(taker, tr);
    st.setFilled(taker, st.filled(taker) + q);
    st.setStatus(taker, tr === 0n ? S_FILLED : S_PARTIAL);
    st.setUpdatedAt(taker, now);
    const mr = st.remaining(maker) - q;
    st.setRemaining(maker, mr);
    st.setFilled(maker, st.filled(maker) + q);
    st.setStatus(maker, mr === 0n ? S_FILLED : S_PARTIAL);
    st.setUpdatedAt(maker, now);
    lv.qty[t] = lv.qty[t]! - q;
    book.lastTick = t;
    const ma = this.ledger.accountList[st.account(maker)]!;
    const trade = settleFill(this.ledger, m, taker, ta, maker, ma, t, q, this.ids.next("trade"), now);
    trades.push(trade);
    if (this.sink !== undefined) this.sink({ type: "fill", trade, taker: this.info(taker), maker: this.info(maker) });
    if (mr === 0n) {
      this.endOrder(maker, ma, m, S_FILLED, "filled", now);
      st.release(maker);
    }
  }

  /** The taker's remainder rests: locks trimmed to what it can still cost, appended to its level, indexed. */
  protected rest(s: number, a: Account, m: MarketState, book: Book, side: BookSide): void {
    const st = this.st;
    if (st.filled(s) !== 0n) this.ledger.trimLocks(s, a, m);
    book.append(s, side);
    this.orders.addHashed(s, st.idHash(s));
    a.pushOrder(st, s, st.gen(s));
    a.openOrders++;
    if (isGtd(st.flags(s))) this.liveGtd++;
    if (this.sink !== undefined) this.sink({ type: "rested", order: this.info(s) });
  }

  /** End an order: off the book and indexes, locks released, status set, event sent. The slot is not freed. */
  protected endOrder(s: number, a: Account, m: MarketState, status: number, reason: EndReason, now: number): void {
    const st = this.st;
    if (st.isResting(s)) {
      m.bookOf(st.outcome(s)).remove(s, st.bookSide(s));
      this.orders.deleteHashed(st.idHash(s), s);
      // Its entry in the wallet's order array goes stale here (the slot is no longer resting).
      a.openOrders--;
      if (isGtd(st.flags(s))) this.liveGtd--;
    }
    this.ledger.releaseOrder(s, a, m);
    st.setStatus(s, status);
    st.setEndReason(s, endReasonCode(reason));
    st.setUpdatedAt(s, now);
    if (this.sink !== undefined) {
      const order = this.info(s);
      this.sink({ type: "ended", order, status: order.status as "FILLED" | "CANCELLED" | "EXPIRED", reason });
    }
  }
}
