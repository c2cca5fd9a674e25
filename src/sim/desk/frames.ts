/**
 * `/ws/user` frames of the `user_orders` channel (spec 6; payloads in docs/spec-gaps.md). Every
 * frame carries `serverTs` (the sim clock when it was built) and the wallet it is for.
 */
import type { Micros } from "../../core/money.js";
import { USER_ORDERS_CHANNEL } from "../../wire/frames.js";
import type { OrderStatus } from "../../wire/enums.js";
import type { TradeRecord } from "../engine/index.js";
import type { UserFrame } from "../bus.js";
import { amount, partyTradeJson } from "./format.js";
import type { DeskOrder } from "./records.js";

function base(type: string, o: DeskOrder, nowMs: number): UserFrame {
  return {
    type,
    channel: USER_ORDERS_CHANNEL,
    serverTs: nowMs,
    walletAddress: o.wallet,
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    marketId: o.marketId,
  };
}

/** `order_placed`: the order as accepted, before it took any liquidity. */
export function orderPlacedFrame(o: DeskOrder, nowMs: number): UserFrame {
  return {
    ...base("order_placed", o, nowMs),
    tokenId: o.tokenId,
    outcome: o.outcome,
    side: o.side,
    price: amount(o.price),
    originalQuantity: amount(o.quantity),
    remainingQty: amount(o.quantity),
    status: "OPEN",
  };
}

/** `order_cancelled` / `order_expired`; `status` is the final one (FILLED when a pending cancel lost the race). */
export function orderEndedFrame(
  type: "order_cancelled" | "order_expired",
  o: DeskOrder,
  nowMs: number,
  status: OrderStatus = o.status,
  remainingQty: Micros = o.remainingQty,
): UserFrame {
  return {
    ...base(type, o, nowMs),
    originalQuantity: amount(o.quantity),
    remainingQty: amount(remainingQty),
    status,
  };
}

/** `user_fill` for one party of a trade, in that party's token, with its role. */
export function userFillFrame(o: DeskOrder, t: TradeRecord, role: "maker" | "taker", nowMs: number): UserFrame {
  const row = partyTradeJson(t, role);
  return {
    ...base("user_fill", o, nowMs),
    tradeId: t.id,
    tokenId: row.tokenId,
    outcome: row.outcome,
    side: row.side,
    price: row.price,
    quantity: row.quantity,
    fee: row.fee,
    role,
    orderStatus: o.status,
    filledQty: amount(o.filledQty),
    remainingQty: amount(o.remainingQty),
  };
}
