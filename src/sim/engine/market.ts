/**
 * A market as the engine and ledger see it: its books, fee rate, token ids and trading mode. The
 * collateral backing its shares (complete sets outstanding) lives in the ledger's `sets` array.
 */
import type { Account } from "./account.js";
import { Book } from "./book.js";
import type { OrderStore } from "./order.js";
import type { MarketSpec } from "./types.js";

export type MarketPhase = "open" | "halted" | "resolved" | "voided";

/**
 * The fee curve of src/core/amounts.ts in tick units, kept inside int64 for the hot path:
 *   takerFee(p, q, bps)  = ceil(bps * p * (1e6 - p) * q / 1e16)  with p = 1000 * t (micros)
 *                        = ceil(bps * t * (1000 - t) * q / 1e10)
 *   maxTakerFee(q, bps)  = ceil(bps * 500_000^2 * q / 1e16)      = ceil(bps * q / 40_000)
 * Equality with the amounts.ts functions is asserted by test/sim/engine/engine.fees.test.ts.
 */
const FILL_FEE_DEN = 10_000_000_000n;
const FILL_FEE_ROUND = FILL_FEE_DEN - 1n;
const MAX_FEE_DEN = 40_000n;
const MAX_FEE_ROUND = MAX_FEE_DEN - 1n;

export class MarketState {
  readonly binary: boolean;
  readonly tokenIds: readonly string[];
  readonly books: readonly Book[];
  readonly feeBps: bigint;
  /** Per book tick t: bps * t * (1000 - t), the fee numerator of a fill at that price. */
  readonly feeNum: BigInt64Array;
  postOnlyOnly: boolean;
  phase: MarketPhase = "open";
  /** Accounts that hold or held a position in this market (for payouts). */
  readonly holders = new Set<Account>();
  payoutNumerators: bigint[] | undefined = undefined;

  constructor(
    readonly id: string,
    /** Dense index (order store, position tables, the ledger's `sets`). */
    readonly index: number,
    readonly outcomeCount: number,
    readonly feeRateBps: number,
    spec: MarketSpec,
    store: OrderStore,
  ) {
    this.binary = outcomeCount === 2;
    this.tokenIds = spec.tokenIds ? [...spec.tokenIds] : Array.from({ length: outcomeCount }, (_, i) => `${id}:${i}`);
    this.books = Array.from({ length: this.binary ? 1 : outcomeCount }, () => new Book(store));
    this.feeBps = BigInt(feeRateBps);
    this.feeNum = new BigInt64Array(1001);
    for (let t = 1; t < 1000; t++) this.feeNum[t] = this.feeBps * BigInt(t * (1000 - t));
    this.postOnlyOnly = spec.postOnlyOnly ?? false;
  }

  bookOf(outcome: number): Book {
    return this.books[this.binary ? 0 : outcome]!;
  }

  /** maxTakerFee(qty, feeRateBps) of src/core/amounts.ts (the fund lock of a BUY). */
  maxFee(qty: bigint): bigint {
    return (this.feeBps * qty + MAX_FEE_ROUND) / MAX_FEE_DEN;
  }

  /** takerFee(price of tick t, qty, feeRateBps) of src/core/amounts.ts. */
  fillFee(t: number, qty: bigint): bigint {
    return (this.feeNum[t]! * qty + FILL_FEE_ROUND) / FILL_FEE_DEN;
  }
}
