/**
 * A wallet's identity in the ledger. Its amounts live in the ledger's typed arrays (indexed by
 * `index` for settlement token, by position slot for shares); the object keeps what the hot path
 * must reach without a map lookup: its position slots per market and its resting orders.
 */
import { getAddress } from "viem/utils";
import type { OrderStore } from "./order.js";

export interface RestingSlots {
  gen(s: number): number;
  isResting(s: number): boolean;
}

/** Is entry (slot, generation) of a wallet's order array still a resting order? */
function current(st: RestingSlots, s: number, gen: number): boolean {
  return st.gen(s) === gen && st.isResting(s);
}

export class Account {
  /** EIP-55 form for trade rows, computed once (getAddress is slow). */
  readonly checksum: string;
  /** Position slot of outcome 0 per market index (outcomes follow consecutively); -1 when none. */
  readonly posBase: number[] = [];
  /**
   * This wallet's resting orders in the order they came to rest, as (slot, generation) pairs. An
   * order that ends is not removed (that would touch other orders' records at random, a cache miss
   * or two per cancel deep in a book): its entry goes stale, since its slot is no longer resting or
   * has a new generation, and is dropped when the array next fills up.
   */
  private ord = new Int32Array(16);
  private ordLen = 0;
  /** Resting orders (the live entries of `ord`). */
  openOrders = 0;

  constructor(
    readonly key: string,
    readonly index: number,
  ) {
    this.checksum = checksumOf(key);
  }

  /** Record slot `s` (generation `gen`), which has just come to rest; the caller counts it in openOrders. */
  pushOrder(st: RestingSlots, s: number, gen: number): void {
    if (this.ordLen === this.ord.length) this.compact(st);
    this.ord[this.ordLen++] = s;
    this.ord[this.ordLen++] = gen;
  }

  /** Slots of the wallet's resting orders, newest first (optionally those of one market index). */
  restingSlots(st: RestingSlots & Pick<OrderStore, "market">, marketIndex = -1): number[] {
    const out: number[] = [];
    const o = this.ord;
    for (let i = this.ordLen - 2; i >= 0; i -= 2) {
      const s = o[i]!;
      if (current(st, s, o[i + 1]!) && (marketIndex < 0 || st.market(s) === marketIndex)) out.push(s);
    }
    return out;
  }

  /** Drop stale entries, keeping the order; grow when the live ones fill more than half. */
  private compact(st: RestingSlots): void {
    const o = this.ord;
    let w = 0;
    for (let r = 0; r < this.ordLen; r += 2) {
      const s = o[r]!;
      const g = o[r + 1]!;
      if (!current(st, s, g)) continue;
      o[w++] = s;
      o[w++] = g;
    }
    this.ordLen = w;
    if (w * 2 > o.length) {
      const bigger = new Int32Array(o.length * 2);
      bigger.set(o.subarray(0, w));
      this.ord = bigger;
    }
  }
}

/** EIP-55 for a 20-byte hex address; any other identifier (tests, synthetic traders) is kept as is. */
export function checksumOf(wallet: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(wallet)) return wallet;
  return getAddress(wallet);
}
