/**
 * Order storage in typed arrays indexed by slot.
 *
 * Why not one object per order: a resting order in a deep book lives for tens of thousands of
 * operations, so an object (with its own bigint fields, each update allocating a new BigInt) is
 * copied by the young-generation GC and promoted, and GC then dominates. Here amounts live in
 * BigInt64Arrays, where V8 keeps bigint arithmetic in unboxed int64 and a write allocates nothing;
 * the amount bounds in ticks.ts keep every stored value far inside int64.
 *
 * Each resting order sits in its price level's FIFO, an intrusive doubly linked list (prev/next), so
 * a cancel is one id lookup plus O(1) unlinking; its wallet lists it in an append-only array of
 * (slot, gen) entries that go stale when it ends (account.ts). Slots are recycled through a free
 * list; `gen` changes on every reuse so stale references can be detected.
 */
import type { EndReason, OrderInfo, OrderStatus, TimeInForce } from "./types.js";

export const NIL = -1;
export const BID = 0;
export const ASK = 1;
export type BookSide = typeof BID | typeof ASK;

// flags
export const F_SELL = 1;
export const F_ASK = 2;
/** Binary NO order: its own price is the complement of the YES book price. */
export const F_COMPLEMENT = 4;
export const F_POST_ONLY = 8;
export const F_MARKET = 16;
export const F_RESTING = 32;
export const TIF_SHIFT = 6;
export const TIFS: readonly TimeInForce[] = ["GTC", "GTD", "IOC", "FOK"];
/** TIFS.indexOf(tif) without the array search (placement's hot path); -1 for anything else, as indexOf. */
export function tifCode(tif: TimeInForce): number {
  switch (tif) {
    case "GTC": return 0;
    case "GTD": return 1;
    case "IOC": return 2;
    case "FOK": return 3;
    default: return -1;
  }
}
const TIF_GTD = 1;
/**
 * Is an order with these flags GTD (the only kind with a non-zero expiration)? Read from the int
 * record, so ending an order does not load its times just to keep the GTD count.
 */
export function isGtd(flags: number): boolean {
  return ((flags >>> TIF_SHIFT) & 3) === TIF_GTD;
}

// status codes
export const S_FREE = 0;
export const S_OPEN = 1;
export const S_PARTIAL = 2;
export const S_FILLED = 3;
export const S_CANCELLED = 4;
export const S_EXPIRED = 5;
export const STATUS_NAMES: readonly OrderStatus[] = ["REJECTED", "OPEN", "PARTIAL", "FILLED", "CANCELLED", "EXPIRED"];
export const END_REASONS: readonly (EndReason | undefined)[] = [
  undefined, "filled", "user_cancel", "ioc_remainder", "fok_unfillable", "self_trade", "expired",
  "market_resolved", "market_voided", "market_halted",
];
const END_REASON_CODE: Readonly<Record<EndReason, number>> = {
  filled: 1, user_cancel: 2, ioc_remainder: 3, fok_unfillable: 4, self_trade: 5, expired: 6,
  market_resolved: 7, market_voided: 8, market_halted: 9,
};
/** END_REASONS.indexOf(r), as a lookup: every ending order takes it. */
export function endReasonCode(r: EndReason): number {
  return END_REASON_CODE[r];
}

/*
 * One 128-byte record per order in a single buffer, seen through three views: words 0-7 the amounts
 * (BigInt64), words 8-10 the times (Float64), and the last 40 bytes ten int32 fields, two of them
 * packed (own tick | book tick << 16, both <= 1000; status | end reason << 4). A cancel deep in a
 * book then touches one record's two or three adjacent cache lines instead of lines in three arrays.
 */
const REC_BYTES = 128;
// BigInt64 / Float64 word of the record (record base: s << 4).
const W_SHIFT = 4;
const B_QTY = 0;
const B_REM = 1;
const B_FILLED = 2;
const B_FEES = 3;
const B_CASH_ACC = 4;
const B_CASH_DONE = 5;
const B_LOCK_CASH = 6;
const B_LOCK_FEE = 7;
const D_EXPIRATION = 8;
const D_CREATED = 9;
const D_UPDATED = 10;
// Int32 field of the record (record base: s << 5).
const I_SHIFT = 5;
const I_ACCOUNT = 22;
const I_MARKET = 23;
const I_OUTCOME = 24;
/** tick | bookTick << 16. */
const I_TICKS = 25;
const I_FLAGS = 26;
/** status | endReason << 4. */
const I_STATE = 27;
const I_GEN = 28;
const I_PREV = 29;
const I_NEXT = 30;
const I_HASH = 31;

/**
 * Orders as fixed-size records (see above) recycled through a free list. Accessors are small enough
 * for the JIT to inline.
 */
export class OrderStore {
  cap: number;
  ids: (string | undefined)[];
  private i32: Int32Array;
  private big: BigInt64Array;
  private f64: Float64Array;
  private readonly free: number[] = [];
  private top = 0;
  live = 0;

  constructor(cap = 1024) {
    this.cap = cap;
    this.ids = new Array<string | undefined>(cap);
    const buf = new ArrayBuffer(cap * REC_BYTES);
    this.i32 = new Int32Array(buf);
    this.big = new BigInt64Array(buf);
    this.f64 = new Float64Array(buf);
  }

  /** A fresh slot: amounts zeroed, links cleared, status OPEN; its generation is kept. */
  alloc(): number {
    let s: number;
    if (this.free.length !== 0) s = this.free.pop()!;
    else {
      if (this.top === this.cap) this.grow();
      s = this.top++;
    }
    // Eight stores rather than big.fill(0n, b, b + 8): the builtin costs about 100 ns a call here.
    const big = this.big;
    const b = s << W_SHIFT;
    big[b] = 0n;
    big[b + 1] = 0n;
    big[b + 2] = 0n;
    big[b + 3] = 0n;
    big[b + 4] = 0n;
    big[b + 5] = 0n;
    big[b + 6] = 0n;
    big[b + 7] = 0n;
    const i = s << I_SHIFT;
    this.i32[i + I_PREV] = NIL;
    this.i32[i + I_NEXT] = NIL;
    this.i32[i + I_STATE] = S_OPEN;
    this.live++;
    return s;
  }

  release(s: number): void {
    const i = s << I_SHIFT;
    this.i32[i + I_STATE] = (this.i32[i + I_STATE]! & ~15) | S_FREE;
    this.i32[i + I_GEN] = (this.i32[i + I_GEN]! + 1) | 0;
    this.ids[s] = undefined;
    this.free.push(s);
    this.live--;
  }

  account(s: number): number { return this.i32[(s << I_SHIFT) + I_ACCOUNT]!; }
  setAccount(s: number, v: number): void { this.i32[(s << I_SHIFT) + I_ACCOUNT] = v; }
  market(s: number): number { return this.i32[(s << I_SHIFT) + I_MARKET]!; }
  setMarket(s: number, v: number): void { this.i32[(s << I_SHIFT) + I_MARKET] = v; }
  outcome(s: number): number { return this.i32[(s << I_SHIFT) + I_OUTCOME]!; }
  setOutcome(s: number, v: number): void { this.i32[(s << I_SHIFT) + I_OUTCOME] = v; }
  /** Own-token limit tick. */
  tick(s: number): number { return this.i32[(s << I_SHIFT) + I_TICKS]! & 0xffff; }
  /** Tick on the book (YES-denominated for a binary NO order). */
  bookTick(s: number): number { return this.i32[(s << I_SHIFT) + I_TICKS]! >>> 16; }
  /** Both ticks at once (each in 1..999). */
  setTicks(s: number, tick: number, bookTick: number): void { this.i32[(s << I_SHIFT) + I_TICKS] = tick | (bookTick << 16); }
  flags(s: number): number { return this.i32[(s << I_SHIFT) + I_FLAGS]!; }
  setFlags(s: number, v: number): void { this.i32[(s << I_SHIFT) + I_FLAGS] = v; }
  status(s: number): number { return this.i32[(s << I_SHIFT) + I_STATE]! & 15; }
  setStatus(s: number, v: number): void {
    const i = (s << I_SHIFT) + I_STATE;
    this.i32[i] = (this.i32[i]! & ~15) | v;
  }
  endReason(s: number): number { return this.i32[(s << I_SHIFT) + I_STATE]! >>> 4; }
  setEndReason(s: number, v: number): void {
    const i = (s << I_SHIFT) + I_STATE;
    this.i32[i] = (this.i32[i]! & 15) | (v << 4);
  }
  /** Changes on every reuse of the slot, so stale references (expiry entries) can be detected. */
  gen(s: number): number { return this.i32[(s << I_SHIFT) + I_GEN]!; }
  prev(s: number): number { return this.i32[(s << I_SHIFT) + I_PREV]!; }
  setPrev(s: number, v: number): void { this.i32[(s << I_SHIFT) + I_PREV] = v; }
  next(s: number): number { return this.i32[(s << I_SHIFT) + I_NEXT]!; }
  setNext(s: number, v: number): void { this.i32[(s << I_SHIFT) + I_NEXT] = v; }
  /** hashId of ids[s], computed once at placement so the id index never hashes the id again for it. */
  idHash(s: number): number { return this.i32[(s << I_SHIFT) + I_HASH]!; }
  setIdHash(s: number, v: number): void { this.i32[(s << I_SHIFT) + I_HASH] = v; }

  quantity(s: number): bigint { return this.big[(s << W_SHIFT) + B_QTY]!; }
  setQuantity(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_QTY] = v; }
  remaining(s: number): bigint { return this.big[(s << W_SHIFT) + B_REM]!; }
  setRemaining(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_REM] = v; }
  filled(s: number): bigint { return this.big[(s << W_SHIFT) + B_FILLED]!; }
  setFilled(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_FILLED] = v; }
  feesPaid(s: number): bigint { return this.big[(s << W_SHIFT) + B_FEES]!; }
  setFeesPaid(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_FEES] = v; }
  /**
   * Exact notional of the fills so far in tick-micros (sum of ownTick * qty). The order's settlement
   * amount is derived from it cumulatively (BUY ceil, SELL floor, of cashAcc / 1000): see settle.ts.
   */
  cashAcc(s: number): bigint { return this.big[(s << W_SHIFT) + B_CASH_ACC]!; }
  setCashAcc(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_CASH_ACC] = v; }
  /** Settlement token paid (BUY) or received (SELL) so far. */
  cashDone(s: number): bigint { return this.big[(s << W_SHIFT) + B_CASH_DONE]!; }
  setCashDone(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_CASH_DONE] = v; }
  /** BUY only: settlement token still locked for the notional. */
  lockCash(s: number): bigint { return this.big[(s << W_SHIFT) + B_LOCK_CASH]!; }
  setLockCash(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_LOCK_CASH] = v; }
  /** BUY only: settlement token still locked for the taker fee. */
  lockFee(s: number): bigint { return this.big[(s << W_SHIFT) + B_LOCK_FEE]!; }
  setLockFee(s: number, v: bigint): void { this.big[(s << W_SHIFT) + B_LOCK_FEE] = v; }

  /** Unix seconds, 0 when none. */
  expiration(s: number): number { return this.f64[(s << W_SHIFT) + D_EXPIRATION]!; }
  setExpiration(s: number, v: number): void { this.f64[(s << W_SHIFT) + D_EXPIRATION] = v; }
  createdAt(s: number): number { return this.f64[(s << W_SHIFT) + D_CREATED]!; }
  setCreatedAt(s: number, v: number): void { this.f64[(s << W_SHIFT) + D_CREATED] = v; }
  updatedAt(s: number): number { return this.f64[(s << W_SHIFT) + D_UPDATED]!; }
  setUpdatedAt(s: number, v: number): void { this.f64[(s << W_SHIFT) + D_UPDATED] = v; }

  isSell(s: number): boolean {
    return (this.flags(s) & F_SELL) !== 0;
  }
  isResting(s: number): boolean {
    return (this.flags(s) & F_RESTING) !== 0;
  }
  isLive(s: number): boolean {
    const st = this.status(s);
    return st === S_OPEN || st === S_PARTIAL;
  }
  bookSide(s: number): BookSide {
    return (this.flags(s) & F_ASK) !== 0 ? ASK : BID;
  }
  tif(s: number): TimeInForce {
    return TIFS[(this.flags(s) >>> TIF_SHIFT) & 3]!;
  }

  private grow(): void {
    const cap = this.cap * 2;
    this.ids.length = cap;
    const buf = new ArrayBuffer(cap * REC_BYTES);
    new Uint8Array(buf).set(new Uint8Array(this.i32.buffer));
    this.i32 = new Int32Array(buf);
    this.big = new BigInt64Array(buf);
    this.f64 = new Float64Array(buf);
    this.cap = cap;
  }
}

/** Names a snapshot needs that the store keeps as indexes. */
export interface OrderNames {
  wallet(accountIndex: number): string;
  marketId(marketIndex: number): string;
  tokenId(marketIndex: number, outcome: number): string;
}

/** A detached, plain-object copy of an order's public fields. */
export function orderInfo(st: OrderStore, s: number, names: OrderNames, price: bigint): OrderInfo {
  const f = st.flags(s);
  const m = st.market(s);
  const outcome = st.outcome(s);
  return {
    id: st.ids[s]!,
    wallet: names.wallet(st.account(s)),
    marketId: names.marketId(m),
    outcome,
    tokenId: names.tokenId(m, outcome),
    side: (f & F_SELL) !== 0 ? "SELL" : "BUY",
    type: (f & F_MARKET) !== 0 ? "market" : "limit",
    timeInForce: TIFS[(f >>> TIF_SHIFT) & 3]!,
    postOnly: (f & F_POST_ONLY) !== 0,
    price,
    expiration: st.expiration(s),
    quantity: st.quantity(s),
    filledQty: st.filled(s),
    remainingQty: st.remaining(s),
    status: STATUS_NAMES[st.status(s)]!,
    feesPaid: st.feesPaid(s),
    createdAtMs: st.createdAt(s),
    updatedAtMs: st.updatedAt(s),
    endReason: END_REASONS[st.endReason(s)],
  };
}
