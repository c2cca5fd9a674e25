/**
 * The fill vocabulary shared by the ledger (fill-ledger.ts), its checkpoint (fill-checkpoint.ts) and
 * the readers that turn each source into fills (fill-sources.ts): in a file of its own so none of them
 * imports another in a circle.
 */
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";

export type FillRoleView = "maker" | "taker" | "unknown";
export type FillSource = "stream" | "trades_pull" | "order_read" | "placement";

/** One fill of one of our orders, in our order's terms (our outcome, side and price). */
export interface Fill {
  tradeId: string;
  /** Lower-cased. */
  wallet: string;
  orderId: string;
  clientOrderId?: string;
  marketId: string;
  outcome: number;
  side: Side;
  /** Micros per share. */
  price: Micros;
  /** Micro-shares, > 0. */
  qty: Micros;
  /** Settlement micros we paid for this fill (0 for makers unless the row says otherwise). */
  fee: Micros;
  role: FillRoleView;
  /** Epoch ms: trade time for pulled rows, `serverTs` for stream frames. */
  ts: number;
  source: FillSource;
}

/** Where a trade pull stopped: the newest trade it read (platform time, then trade id). */
export interface TradeCursor {
  ts: number;
  tradeId: string;
}
