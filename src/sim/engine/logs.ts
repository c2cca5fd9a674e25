/**
 * Append-only columnar logs of trades and balance events. Rows are stored as typed-array columns
 * (plus string columns for ids) and materialised as objects only when read: retaining one object
 * graph per fill made the young-generation GC copy and promote about a kilobyte per fill. Per-wallet
 * and per-market row indexes are plain integer arrays.
 */
import type { Micros } from "../../core/money.js";
import type { Account } from "./account.js";
import type { MarketState } from "./market.js";
import { PRICE_OF_TICK } from "./ticks.js";
import type { BalanceEvent, BalanceEventKind, FillKind, TradeRecord } from "./types.js";

const KINDS: readonly FillKind[] = ["transfer", "mint", "merge"];
export const BALANCE_KINDS: readonly BalanceEventKind[] = ["deposit", "withdraw", "trade", "fee", "payout", "split", "merge"];
/** BALANCE_KINDS.indexOf as a lookup (every fill writes two or three events). */
export const BALANCE_KIND_CODE: Readonly<Record<BalanceEventKind, number>> = {
  deposit: 0, withdraw: 1, trade: 2, fee: 3, payout: 4, split: 5, merge: 6,
};

function growB(a: BigInt64Array, cap: number): BigInt64Array<ArrayBuffer> {
  const b = new BigInt64Array(cap);
  b.set(a);
  return b;
}
function growI(a: Int32Array, cap: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}
function growF(a: Float64Array, cap: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}

/** Indexes the logs need to turn columns back into rows. */
export interface LogNames {
  readonly accountList: readonly Account[];
  readonly markets: readonly MarketState[];
}

export class TradeLog {
  count = 0;
  private cap = 1024;
  private ids: string[] = [];
  private takerOrder: string[] = [];
  private makerOrder: string[] = [];
  private market = new Int32Array(this.cap);
  private takerAcct = new Int32Array(this.cap);
  private makerAcct = new Int32Array(this.cap);
  private takerOutcome = new Int32Array(this.cap);
  private makerOutcome = new Int32Array(this.cap);
  private packed = new Int32Array(this.cap);
  private qty = new BigInt64Array(this.cap);
  private fee = new BigInt64Array(this.cap);
  private takerCash = new BigInt64Array(this.cap);
  private makerCash = new BigInt64Array(this.cap);
  private at = new Float64Array(this.cap);
  private readonly byMarket: number[][] = [];
  private readonly byAccount: number[][] = [];

  constructor(private readonly names: LogNames) {}

  /** `packed`: bit 0 taker sells, bit 1 maker sells, bits 2-3 fill kind, bits 8.. taker tick, bits 20.. maker tick. */
  append(
    id: string, market: number, takerOrder: string, makerOrder: string, takerAcct: number, makerAcct: number,
    takerOutcome: number, makerOutcome: number, packed: number, qty: Micros, fee: Micros, takerCash: Micros,
    makerCash: Micros, atMs: number,
  ): void {
    const i = this.count;
    if (i === this.cap) this.grow();
    this.ids.push(id);
    this.takerOrder.push(takerOrder);
    this.makerOrder.push(makerOrder);
    this.market[i] = market;
    this.takerAcct[i] = takerAcct;
    this.makerAcct[i] = makerAcct;
    this.takerOutcome[i] = takerOutcome;
    this.makerOutcome[i] = makerOutcome;
    this.packed[i] = packed;
    this.qty[i] = qty;
    this.fee[i] = fee;
    this.takerCash[i] = takerCash;
    this.makerCash[i] = makerCash;
    this.at[i] = atMs;
    (this.byMarket[market] ??= []).push(i);
    (this.byAccount[takerAcct] ??= []).push(i);
    if (makerAcct !== takerAcct) (this.byAccount[makerAcct] ??= []).push(i);
    this.count = i + 1;
  }

  idOf(i: number): string {
    return this.ids[i]!;
  }

  /** Row `i` (0-based, in execution order). */
  get(i: number): TradeRecord {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`no trade row ${i}`);
    const m = this.names.markets[this.market[i]!]!;
    const p = this.packed[i]!;
    const tt = (p >>> 8) & 0xfff;
    const mt = (p >>> 20) & 0xfff;
    const to = this.takerOutcome[i]!;
    const mo = this.makerOutcome[i]!;
    return {
      id: this.ids[i]!,
      marketId: m.id,
      kind: KINDS[(p >>> 2) & 3]!,
      tokenId: m.tokenIds[to]!,
      outcome: to,
      side: (p & 1) !== 0 ? "SELL" : "BUY",
      price: PRICE_OF_TICK[tt]!,
      quantity: this.qty[i]!,
      fee: this.fee[i]!,
      feeRateBps: m.feeRateBps,
      makerOrderId: this.makerOrder[i]!,
      takerOrderId: this.takerOrder[i]!,
      makerWallet: this.names.accountList[this.makerAcct[i]!]!.checksum,
      takerWallet: this.names.accountList[this.takerAcct[i]!]!.checksum,
      makerOutcome: mo,
      makerTokenId: m.tokenIds[mo]!,
      makerSide: (p & 2) !== 0 ? "SELL" : "BUY",
      makerPrice: PRICE_OF_TICK[mt]!,
      takerCash: this.takerCash[i]!,
      makerCash: this.makerCash[i]!,
      createdAtMs: this.at[i]!,
    };
  }

  /** Row numbers of a market's trades, oldest first (live array: do not modify). */
  rowsOfMarket(m: MarketState): readonly number[] {
    return this.byMarket[m.index] ?? [];
  }

  /** Row numbers of the trades a wallet took part in, oldest first (live array: do not modify). */
  rowsOfAccount(a: Account): readonly number[] {
    return this.byAccount[a.index] ?? [];
  }

  private grow(): void {
    const cap = this.cap * 2;
    this.market = growI(this.market, cap);
    this.takerAcct = growI(this.takerAcct, cap);
    this.makerAcct = growI(this.makerAcct, cap);
    this.takerOutcome = growI(this.takerOutcome, cap);
    this.makerOutcome = growI(this.makerOutcome, cap);
    this.packed = growI(this.packed, cap);
    this.qty = growB(this.qty, cap);
    this.fee = growB(this.fee, cap);
    this.takerCash = growB(this.takerCash, cap);
    this.makerCash = growB(this.makerCash, cap);
    this.at = growF(this.at, cap);
    this.cap = cap;
  }
}

export class BalanceLog {
  count = 0;
  private cap = 1024;
  private acct = new Int32Array(this.cap);
  private kind = new Int32Array(this.cap);
  private market = new Int32Array(this.cap);
  /** Trade row of a `trade`/`fee` event, -1 otherwise. */
  private trade = new Int32Array(this.cap);
  private amount = new BigInt64Array(this.cap);
  private balance = new BigInt64Array(this.cap);
  private at = new Float64Array(this.cap);
  private readonly byAccount: number[][] = [];

  constructor(
    private readonly names: LogNames,
    private readonly tradeIds: (row: number) => string,
  ) {}

  append(acct: number, kind: number, amount: Micros, balance: Micros, market: number, tradeRow: number, atMs: number): void {
    const i = this.count;
    if (i === this.cap) this.grow();
    this.acct[i] = acct;
    this.kind[i] = kind;
    this.market[i] = market;
    this.trade[i] = tradeRow;
    this.amount[i] = amount;
    this.balance[i] = balance;
    this.at[i] = atMs;
    (this.byAccount[acct] ??= []).push(i);
    this.count = i + 1;
  }

  get(i: number): BalanceEvent {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`no balance event ${i}`);
    const e: BalanceEvent = {
      seq: i + 1,
      wallet: this.names.accountList[this.acct[i]!]!.key,
      kind: BALANCE_KINDS[this.kind[i]!]!,
      amount: this.amount[i]!,
      balance: this.balance[i]!,
      atMs: this.at[i]!,
    };
    const m = this.market[i]!;
    if (m >= 0) e.marketId = this.names.markets[m]!.id;
    const t = this.trade[i]!;
    if (t >= 0) e.tradeId = this.tradeIds(t);
    return e;
  }

  rowsOfAccount(a: Account): readonly number[] {
    return this.byAccount[a.index] ?? [];
  }

  private grow(): void {
    const cap = this.cap * 2;
    this.acct = growI(this.acct, cap);
    this.kind = growI(this.kind, cap);
    this.market = growI(this.market, cap);
    this.trade = growI(this.trade, cap);
    this.amount = growB(this.amount, cap);
    this.balance = growB(this.balance, cap);
    this.at = growF(this.at, cap);
    this.cap = cap;
  }
}
