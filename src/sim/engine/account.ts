/**
 * A wallet's identity in the ledger. Its amounts live in the ledger's typed arrays (indexed by
 * `index` for settlement token, by position slot for shares); the object keeps what the hot path
 * must reach without a map lookup: its position slots per market and the head of its live orders.
 */
import { getAddress } from "viem/utils";
import { NIL } from "./order.js";

export class Account {
  /** EIP-55 form for trade rows, computed once (getAddress is slow). */
  readonly checksum: string;
  /** Position slot of outcome 0 per market index (outcomes follow consecutively); -1 when none. */
  readonly posBase: number[] = [];
  /** Head slot of the intrusive list of this wallet's live orders. */
  ordHead = NIL;
  openOrders = 0;

  constructor(
    readonly key: string,
    readonly index: number,
  ) {
    this.checksum = checksumOf(key);
  }
}

/** EIP-55 for a 20-byte hex address; any other identifier (tests, synthetic traders) is kept as is. */
export function checksumOf(wallet: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(wallet)) return wallet;
  return getAddress(wallet);
}
