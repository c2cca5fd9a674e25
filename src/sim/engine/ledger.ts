/**
 * The ledger: every wallet's vault (settlement token and outcome shares, each total and locked),
 * fund locks for orders, deposits and withdrawals, splits and merges of complete sets, and
 * resolution payouts. Fill settlement is in settle.ts.
 *
 * Amounts are bigint micros kept in BigInt64Arrays (per account index, per position slot, per
 * market index): bigint arithmetic stays unboxed and updates allocate nothing. The bounds of
 * ticks.ts (order size, total deposits) keep every stored amount inside int64.
 *
 * Conservation (checked by the property test): the wallets' settlement token + house fees + house
 * rounding + the collateral backing every market's complete sets == deposits - withdrawals; and
 * every outcome's total supply in a market equals that market's complete sets.
 */
import type { Micros } from "../../core/money.js";
import { Account } from "./account.js";
import type { MarketState } from "./market.js";
import { F_SELL, NIL, type OrderStore } from "./order.js";
import { MAX_TOTAL_DEPOSITS, TICK_BIG } from "./ticks.js";
import { BALANCE_KIND_CODE, BalanceLog, TradeLog } from "./logs.js";
import type { BalanceEvent, BalanceEventKind, PayoutRow, TradeRecord } from "./types.js";

export class LedgerError extends Error {
  override readonly name = "LedgerError";
  constructor(
    readonly code: "insufficient_funds" | "invalid_amount",
    message: string,
  ) {
    super(message);
  }
}

export interface LedgerOptions {
  /** Keep the log of balance events (default true). */
  recordBalanceEvents?: boolean;
  /** Keep the log of trades (default true). */
  recordTrades?: boolean;
}

function grown(a: BigInt64Array, cap: number): BigInt64Array<ArrayBuffer> {
  const b = new BigInt64Array(cap);
  b.set(a);
  return b;
}
function grownI(a: Int32Array, cap: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}

export class Ledger {
  readonly accounts = new Map<string, Account>();
  readonly accountList: Account[] = [];
  /** Markets by index (registered by the engine). */
  readonly markets: MarketState[] = [];
  /** Per account index: settlement token total, locked, fees paid. */
  cash = new BigInt64Array(64);
  locked = new BigInt64Array(64);
  fees = new BigInt64Array(64);
  /** Per position slot: shares, shares locked by SELL orders, cost of the shares held (fees excluded). */
  posQty = new BigInt64Array(256);
  posLocked = new BigInt64Array(256);
  posCost = new BigInt64Array(256);
  posAccount = new Int32Array(256);
  posMarket = new Int32Array(256);
  posOutcome = new Int32Array(256);
  posCount = 0;
  /** Per market index: complete sets outstanding = collateral backing the market's shares. */
  sets = new BigInt64Array(16);
  /** [fees collected from takers, rounding differences of fills and payouts]. */
  readonly house = new BigInt64Array(2);
  /** Deposits minus withdrawals. */
  netDeposits: Micros = 0n;
  /**
   * Off-chain locks of vault operations (split / merge / convert waiting for their chain tx,
   * src/sim/desk/vault-ops.ts): settlement token per account index and shares per position slot.
   * Each is also counted in `locked` / `posLocked`, so orders and withdrawals cannot spend it.
   */
  readonly opCashLocks = new Map<number, Micros>();
  readonly opShareLocks = new Map<number, Micros>();
  readonly tradeLog: TradeLog = new TradeLog(this);
  readonly balanceLog: BalanceLog = new BalanceLog(this, (row) => this.tradeLog.idOf(row));
  readonly recordEvents: boolean;
  readonly recordTrades: boolean;

  constructor(
    readonly st: OrderStore,
    private readonly now: () => number,
    opts: LedgerOptions = {},
  ) {
    this.recordEvents = opts.recordBalanceEvents ?? true;
    this.recordTrades = opts.recordTrades ?? true;
  }

  get houseFees(): Micros {
    return this.house[0]!;
  }
  get houseDust(): Micros {
    return this.house[1]!;
  }

  /** Every trade row, oldest first (materialised on each call). */
  trades(): TradeRecord[] {
    const out: TradeRecord[] = [];
    for (let i = 0; i < this.tradeLog.count; i++) out.push(this.tradeLog.get(i));
    return out;
  }

  /** Trade rows a wallet took part in, oldest first. */
  tradesOf(wallet: string): TradeRecord[] {
    const a = this.find(wallet);
    return a === undefined ? [] : this.tradeLog.rowsOfAccount(a).map((i) => this.tradeLog.get(i));
  }

  /** Balance events, oldest first, of one wallet or of all. */
  balanceEvents(wallet?: string): BalanceEvent[] {
    const log = this.balanceLog;
    if (wallet === undefined) return Array.from({ length: log.count }, (_, i) => log.get(i));
    const a = this.find(wallet);
    return a === undefined ? [] : log.rowsOfAccount(a).map((i) => log.get(i));
  }

  registerMarket(m: MarketState): void {
    this.markets[m.index] = m;
    if (m.index >= this.sets.length) this.sets = grown(this.sets, this.sets.length * 2);
  }

  /** The account of a wallet, created when missing. */
  account(wallet: string): Account {
    const a = this.accounts.get(wallet);
    if (a !== undefined) return a;
    const key = wallet.toLowerCase();
    let b = this.accounts.get(key);
    if (b === undefined) {
      b = new Account(key, this.accountList.length);
      this.accounts.set(key, b);
      this.accountList.push(b);
      if (b.index >= this.cash.length) {
        const cap = this.cash.length * 2;
        this.cash = grown(this.cash, cap);
        this.locked = grown(this.locked, cap);
        this.fees = grown(this.fees, cap);
      }
    }
    return b;
  }

  /** The account of a wallet, or undefined (nothing is created). */
  find(wallet: string): Account | undefined {
    return this.accounts.get(wallet) ?? this.accounts.get(wallet.toLowerCase());
  }

  available(a: Account): Micros {
    return this.cash[a.index]! - this.locked[a.index]!;
  }

  deposit(wallet: string, amount: Micros): void {
    if (amount <= 0n) throw new LedgerError("invalid_amount", `deposit must be positive, got ${amount}`);
    if (this.netDeposits + amount > MAX_TOTAL_DEPOSITS) throw new LedgerError("invalid_amount", "deposit exceeds the simulator's ceiling");
    const a = this.account(wallet);
    this.cash[a.index] = this.cash[a.index]! + amount;
    this.netDeposits += amount;
    this.event(a, "deposit", amount, NIL, NIL);
  }

  /** Take settlement token out of a wallet (withdrawals); what is locked cannot leave. */
  withdraw(wallet: string, amount: Micros): void {
    if (amount <= 0n) throw new LedgerError("invalid_amount", `withdrawal must be positive, got ${amount}`);
    const a = this.find(wallet);
    if (a === undefined || this.available(a) < amount) throw new LedgerError("insufficient_funds", `available balance is below ${amount}`);
    this.cash[a.index] = this.cash[a.index]! - amount;
    this.netDeposits -= amount;
    this.event(a, "withdraw", -amount, NIL, NIL);
  }

  /** Lock free settlement token for a vault operation; throws insufficient_funds when short. */
  lockOpCash(a: Account, amount: Micros): void {
    if (amount <= 0n) throw new LedgerError("invalid_amount", `lock must be positive, got ${amount}`);
    if (this.available(a) < amount) throw new LedgerError("insufficient_funds", `available balance is below ${amount}`);
    this.locked[a.index] = this.locked[a.index]! + amount;
    this.opCashLocks.set(a.index, (this.opCashLocks.get(a.index) ?? 0n) + amount);
  }

  /** Release (up to) `amount` of a vault operation's settlement-token lock. */
  unlockOpCash(a: Account, amount: Micros): void {
    const held = this.opCashLocks.get(a.index) ?? 0n;
    const r = amount < held ? amount : held;
    if (r <= 0n) return;
    this.locked[a.index] = this.locked[a.index]! - r;
    if (held === r) this.opCashLocks.delete(a.index);
    else this.opCashLocks.set(a.index, held - r);
  }

  /** Lock free shares of one outcome for a vault operation; throws insufficient_funds when short. */
  lockOpShares(a: Account, m: MarketState, outcome: number, qty: Micros): void {
    if (qty <= 0n) throw new LedgerError("invalid_amount", `lock must be positive, got ${qty}`);
    const p = this.peekSlot(a, m, outcome);
    if (p === NIL || this.posQty[p]! - this.posLocked[p]! < qty) throw new LedgerError("insufficient_funds", `outcome ${outcome} has fewer than ${qty} free shares`);
    this.posLocked[p] = this.posLocked[p]! + qty;
    this.opShareLocks.set(p, (this.opShareLocks.get(p) ?? 0n) + qty);
  }

  /** Release (up to) `qty` of a vault operation's share lock (nothing left after a payout). */
  unlockOpShares(a: Account, m: MarketState, outcome: number, qty: Micros): void {
    const p = this.peekSlot(a, m, outcome);
    if (p === NIL) return;
    const held = this.opShareLocks.get(p) ?? 0n;
    const r = qty < held ? qty : held;
    if (r <= 0n) return;
    this.posLocked[p] = this.posLocked[p]! - r;
    if (held === r) this.opShareLocks.delete(p);
    else this.opShareLocks.set(p, held - r);
  }

  /** Slot of a position, created (with its market's other outcomes) when missing. */
  posSlot(a: Account, m: MarketState, outcome: number): number {
    const base = a.posBase[m.index];
    if (base !== undefined && base !== NIL) return base + outcome;
    const first = this.posCount;
    this.posCount += m.outcomeCount;
    if (this.posCount > this.posQty.length) {
      let cap = this.posQty.length * 2;
      while (cap < this.posCount) cap *= 2;
      this.posQty = grown(this.posQty, cap);
      this.posLocked = grown(this.posLocked, cap);
      this.posCost = grown(this.posCost, cap);
      this.posAccount = grownI(this.posAccount, cap);
      this.posMarket = grownI(this.posMarket, cap);
      this.posOutcome = grownI(this.posOutcome, cap);
    }
    for (let i = 0; i < m.outcomeCount; i++) {
      const p = first + i;
      this.posQty[p] = 0n;
      this.posLocked[p] = 0n;
      this.posCost[p] = 0n;
      this.posAccount[p] = a.index;
      this.posMarket[p] = m.index;
      this.posOutcome[p] = i;
    }
    a.posBase[m.index] = first;
    m.holders.add(a);
    return first + outcome;
  }

  /** Slot of an existing position, or NIL. */
  peekSlot(a: Account, m: MarketState, outcome: number): number {
    const base = a.posBase[m.index];
    return base === undefined || base === NIL ? NIL : base + outcome;
  }

  /** Collateral -> one share of every outcome per unit (conditional-token split). */
  split(a: Account, m: MarketState, amount: Micros): void {
    if (amount <= 0n) throw new LedgerError("invalid_amount", `split amount must be positive, got ${amount}`);
    if (this.available(a) < amount) throw new LedgerError("insufficient_funds", `available balance is below ${amount}`);
    this.cash[a.index] = this.cash[a.index]! - amount;
    this.sets[m.index] = this.sets[m.index]! + amount;
    const n = BigInt(m.outcomeCount);
    for (let i = 0; i < m.outcomeCount; i++) {
      const p = this.posSlot(a, m, i);
      this.posQty[p] = this.posQty[p]! + amount;
      // The set's cost is spread evenly; outcome 0 carries the rounding remainder.
      this.posCost[p] = this.posCost[p]! + amount / n + (i === 0 ? amount % n : 0n);
    }
    this.event(a, "split", -amount, m.index, NIL);
  }

  /** One share of every outcome per unit -> collateral (conditional-token merge). */
  merge(a: Account, m: MarketState, amount: Micros): void {
    if (amount <= 0n) throw new LedgerError("invalid_amount", `merge amount must be positive, got ${amount}`);
    for (let i = 0; i < m.outcomeCount; i++) {
      const p = this.peekSlot(a, m, i);
      if (p === NIL || this.posQty[p]! - this.posLocked[p]! < amount) {
        throw new LedgerError("insufficient_funds", `outcome ${i} has fewer than ${amount} free shares`);
      }
    }
    for (let i = 0; i < m.outcomeCount; i++) this.reduceShares(this.posSlot(a, m, i), amount);
    this.sets[m.index] = this.sets[m.index]! - amount;
    this.cash[a.index] = this.cash[a.index]! + amount;
    this.event(a, "merge", amount, m.index, NIL);
  }

  /**
   * Move free shares between wallets without settlement-token flow (starting positions, airdrops).
   * The receiver's cost basis grows by `qty * costPrice` when given, else by the share of the
   * sender's cost basis that leaves with them.
   */
  transferShares(from: Account, to: Account, m: MarketState, outcome: number, qty: Micros, costPrice?: Micros): void {
    if (qty <= 0n) throw new LedgerError("invalid_amount", `transfer must be positive, got ${qty}`);
    const src = this.peekSlot(from, m, outcome);
    if (src === NIL || this.posQty[src]! - this.posLocked[src]! < qty) {
      throw new LedgerError("insufficient_funds", `outcome ${outcome} has fewer than ${qty} free shares`);
    }
    const before = this.posCost[src]!;
    this.reduceShares(src, qty);
    const dst = this.posSlot(to, m, outcome);
    this.posQty[dst] = this.posQty[dst]! + qty;
    this.posCost[dst] = this.posCost[dst]! + (costPrice === undefined ? before - this.posCost[src]! : (qty * costPrice) / 1_000_000n);
  }

  /** Remove `qty` shares from a position, reducing its cost basis pro rata. */
  reduceShares(p: number, qty: Micros): void {
    const have = this.posQty[p]!;
    const cost = this.posCost[p]!;
    if (have === qty) this.posCost[p] = 0n;
    else if (cost !== 0n) this.posCost[p] = cost - (cost * qty) / have;
    this.posQty[p] = have - qty;
  }

  /**
   * Lock what order slot `s` can spend: BUY makerAmount + maxTakerFee(qty) (docs/spec-gaps.md),
   * SELL the shares. False, with nothing changed, when the available balance is short.
   */
  lockOrder(s: number, a: Account, m: MarketState): boolean {
    const st = this.st;
    const q = st.quantity(s);
    if ((st.flags(s) & F_SELL) === 0) {
      const cash = (TICK_BIG[st.tick(s)]! * q + 999n) / 1000n;
      const fee = m.maxFee(q);
      const i = a.index;
      const locked = this.locked[i]!;
      const need = cash + fee;
      if (this.cash[i]! - locked < need) return false;
      this.locked[i] = locked + need;
      st.setLockCash(s, cash);
      st.setLockFee(s, fee);
      return true;
    }
    const p = this.peekSlot(a, m, st.outcome(s));
    if (p === NIL) return false;
    const locked = this.posLocked[p]!;
    if (this.posQty[p]! - locked < q) return false;
    this.posLocked[p] = locked + q;
    return true;
  }

  /** Release whatever an ending order still holds. */
  releaseOrder(s: number, a: Account, m: MarketState): void {
    const st = this.st;
    if ((st.flags(s) & F_SELL) === 0) {
      const rest = st.lockCash(s) + st.lockFee(s);
      if (rest !== 0n) this.locked[a.index] = this.locked[a.index]! - rest;
      st.setLockCash(s, 0n);
      st.setLockFee(s, 0n);
    } else {
      const rem = st.remaining(s);
      if (rem !== 0n) {
        const p = this.peekSlot(a, m, st.outcome(s));
        this.posLocked[p] = this.posLocked[p]! - rem;
      }
    }
  }

  /**
   * A BUY taker's remainder is about to rest after some fills: release what price improvement saved
   * and keep exactly what the remainder can still cost. Once resting, every fill is at the limit
   * tick T, so the order will have paid ceil((cashAcc + T * remaining) / 1000) in total; the fee lock
   * becomes maxTakerFee(remaining).
   */
  trimLocks(s: number, a: Account, m: MarketState): void {
    const st = this.st;
    if ((st.flags(s) & F_SELL) !== 0) return;
    const rem = st.remaining(s);
    const cashTarget = (st.cashAcc(s) + TICK_BIG[st.tick(s)]! * rem + 999n) / 1000n - st.cashDone(s);
    const feeTarget = m.maxFee(rem);
    let release = 0n;
    const lockCash = st.lockCash(s);
    if (lockCash > cashTarget) {
      release += lockCash - cashTarget;
      st.setLockCash(s, cashTarget);
    }
    const lockFee = st.lockFee(s);
    if (lockFee > feeTarget) {
      release += lockFee - feeTarget;
      st.setLockFee(s, feeTarget);
    }
    if (release !== 0n) this.locked[a.index] = this.locked[a.index]! - release;
  }

  /**
   * Pay every position of a market `qty * numerator / sum(numerators)` (rounded down; the dust goes
   * to the house) and remove it. Open orders must have been cancelled first.
   */
  payout(m: MarketState, numerators: readonly bigint[]): PayoutRow[] {
    let den = 0n;
    for (const n of numerators) den += n;
    const rows: PayoutRow[] = [];
    let paid = 0n;
    for (const a of m.holders) {
      const base = this.peekSlot(a, m, 0);
      if (base === NIL) continue;
      for (let i = 0; i < m.outcomeCount; i++) {
        const p = base + i;
        const qty = this.posQty[p]!;
        this.posQty[p] = 0n;
        this.posCost[p] = 0n;
        this.posLocked[p] = 0n;
        this.opShareLocks.delete(p);
        if (qty === 0n) continue;
        const amount = (qty * numerators[i]!) / den;
        rows.push({ wallet: a.key, marketId: m.id, outcome: i, tokenId: m.tokenIds[i]!, quantity: qty, amount });
        if (amount !== 0n) {
          this.cash[a.index] = this.cash[a.index]! + amount;
          this.event(a, "payout", amount, m.index, NIL);
        }
        paid += amount;
      }
      // The slots stay allocated to the account (zeroed): a settled market has no further trading.
    }
    this.house[1] = this.house[1]! + this.sets[m.index]! - paid;
    this.sets[m.index] = 0n;
    return rows;
  }

  /** Append a balance event (when recording is on); `market` and `tradeRow` are NIL when not applicable. */
  event(a: Account, kind: BalanceEventKind, amount: Micros, market: number, tradeRow: number): void {
    if (!this.recordEvents) return;
    this.balanceLog.append(a.index, BALANCE_KIND_CODE[kind], amount, this.cash[a.index]!, market, tradeRow, this.now());
  }
}
