/**
 * The order record as the platforms we build answer it (docs/spec-gaps.md; the schema is `orderRecord`
 * in orders.ts): the simulator's desk and the paper account both serialize with `orderRecordJson`, so
 * the two cannot drift apart in a field, a format or the key order (the simulator's black-box
 * conformance compares the bytes). Amounts leave as canonical decimal strings, times as ISO-8601 UTC.
 */
import { formatMicros, type Micros } from "../core/money.js";
import type { OrderStatus, OrderType, Side, TimeInForce } from "./enums.js";

/** An order record on the wire, in the key order it is written. */
export interface OrderRecordJson {
  id: string;
  clientOrderId: string | null;
  orderHash: string;
  walletAddress: string;
  marketId: string;
  tokenId: string;
  outcome: number;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  postOnly: boolean;
  price: string;
  originalQuantity: string;
  filledQty: string;
  remainingQty: string;
  status: OrderStatus;
  expiration: string;
  createdAt: string;
  updatedAt: string;
}

/** What a platform keeps of an order that the record shows (the filled and remaining amounts are passed apart: each platform keeps them its own way). */
export interface OrderRecordSource {
  readonly id: string;
  /** Lower-case acting wallet (the wire `walletAddress`). */
  readonly wallet: string;
  readonly clientOrderId: string | null;
  readonly orderHash: string;
  readonly marketId: string;
  readonly tokenId: string;
  readonly outcome: number;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly postOnly: boolean;
  readonly price: Micros;
  /** The original quantity. */
  readonly quantity: Micros;
  readonly status: OrderStatus;
  /** Unix seconds as signed (decimal string, "0" when none). */
  readonly expiration: string;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
}

export function orderRecordJson(o: OrderRecordSource, filled: Micros, remaining: Micros): OrderRecordJson {
  return {
    id: o.id,
    clientOrderId: o.clientOrderId,
    orderHash: o.orderHash,
    walletAddress: o.wallet,
    marketId: o.marketId,
    tokenId: o.tokenId,
    outcome: o.outcome,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    postOnly: o.postOnly,
    price: formatMicros(o.price),
    originalQuantity: formatMicros(o.quantity),
    filledQty: formatMicros(filled),
    remainingQty: formatMicros(remaining),
    status: o.status,
    expiration: o.expiration,
    createdAt: new Date(o.createdAtMs).toISOString(),
    updatedAt: new Date(o.updatedAtMs).toISOString(),
  };
}
