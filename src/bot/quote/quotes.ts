/**
 * The quote vocabulary of the daemon: the strategy contract's data (strategies/contract.ts, where
 * the strategies read it) plus our live orders as the reconciler sees them and their slots.
 */
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";

export * from "../../../strategies/contract.js";

/**
 * - pending: sent, not acknowledged (or in an unknown state): may rest on the book, cannot be
 *   cancelled by id yet, and must never be placed again.
 * - cancelling: a cancel is in flight: never cancelled again.
 */
export type LiveOrderState = "pending" | "open" | "partial" | "cancelling";

/** One of our orders as the order tracker knows it. */
export interface LiveOrder {
  clientOrderId: string;
  /** Platform id, known once acknowledged. A cancel needs it. */
  orderId?: string;
  outcome: number;
  side: Side;
  price: Micros;
  /** Original quantity. */
  size: Micros;
  remaining: Micros;
  postOnly: boolean;
  createdAtMs: number;
  state: LiveOrderState;
}

/** Slot key of a quote or order: orders in one slot are interchangeable for reconciling. */
export function slotKey(q: { outcome: number; side: Side }): string {
  return `${q.outcome}:${q.side}`;
}
