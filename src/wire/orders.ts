/**
 * Order-related shapes (spec 2.12, 4.6) and the response shapes chosen in docs/spec-gaps.md:
 * signed order, trades, placement result, order record, pages, fills, fees summary, cancel and
 * batch results. Responses are loose; the signed order is strict (it is only ever a request).
 *
 * Placement `trades[]` rows are NOT checked against `trade`: spec 2.12 names the array but never
 * its rows, and one differing field there would turn every crossing placement into an unreadable
 * answer (an unknown outcome, then lookups). They parse as `unknown[]`; readers take each row with
 * `placementTradeRow` (what a reader needs, each row on its own) and skip what they cannot read.
 */
import { z } from "zod";
import { fillRole, orderStatus, orderType, side, timeInForce } from "./enums.js";
import {
  address,
  amountString,
  bytes32Hex,
  hexString,
  isoDateTime,
  nextCursor,
  nonNegativeInt,
  priceString,
  uint256String,
} from "./primitives.js";

/**
 * The 11 EIP-712 fields, in the spec's order (2.12). Only types are checked here; the rules
 * with their own error codes (feeRateBps <= 1000 -> fee_too_high, signatureType must be 1,
 * CEIL makerAmount, expiration in the future) are the simulator's business.
 */
export const signedOrderFields = z.strictObject({
  salt: uint256String,
  maker: address,
  signer: address,
  taker: address,
  tokenId: uint256String,
  makerAmount: uint256String,
  takerAmount: uint256String,
  expiration: uint256String,
  feeRateBps: nonNegativeInt,
  side: z.union([z.literal(0), z.literal(1)], { error: "expected 0 (BUY) or 1 (SELL)" }),
  signatureType: nonNegativeInt,
});
export type SignedOrderFields = z.infer<typeof signedOrderFields>;

export const SIGNED_ORDER_FIELD_NAMES = Object.keys(signedOrderFields.shape) as (keyof SignedOrderFields)[];

export const signedOrder = z.strictObject({ ...signedOrderFields.shape, signature: hexString });
export type SignedOrder = z.infer<typeof signedOrder>;

/** Trade row (docs/spec-gaps.md): price and side are the taker's. */
export const trade = z.looseObject({
  id: z.string(),
  marketId: z.string(),
  tokenId: uint256String,
  outcome: nonNegativeInt,
  side,
  price: priceString,
  quantity: amountString,
  fee: amountString,
  feeRateBps: nonNegativeInt,
  makerOrderId: z.string(),
  takerOrderId: z.string(),
  makerWallet: address,
  takerWallet: address,
  createdAt: isoDateTime,
});
export type Trade = z.infer<typeof trade>;

/** `/api/me/trades` row: expressed in the caller's token, with the caller's role and order. */
export const myTrade = z.looseObject({ ...trade.shape, role: fillRole, orderId: z.string() });
export type MyTrade = z.infer<typeof myTrade>;

/** `GET /api/markets/{symbol}/trades`: `{trades, nextCursor?}` (shape chosen; time cursors). */
export const marketTradesPage = z.looseObject({ trades: z.array(trade), nextCursor: nextCursor.optional() });
export type MarketTradesPage = z.infer<typeof marketTradesPage>;

/**
 * The same page for a reader that takes each row on its own (`trade.safeParse`), so one row that
 * does not read costs that row, not the page.
 */
export const marketTradesRawPage = z.looseObject({ trades: z.array(z.unknown()), nextCursor: nextCursor.optional() });
export type MarketTradesRawPage = z.infer<typeof marketTradesRawPage>;

export const myTradesPage = z.looseObject({ trades: z.array(myTrade), nextCursor });
export type MyTradesPage = z.infer<typeof myTradesPage>;

/** A field a reader can do without: an absent or unreadable value is `undefined`. */
const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/**
 * One placement `trades[]` row as a reader takes it: the id and quantity must read (else the row is
 * skipped and counted), the rest is checked field by field and is `undefined` when it does not
 * read. A row of the `trade` shape always parses here with every field present.
 */
export const placementTradeRow = z.looseObject({
  id: z.string().min(1),
  quantity: amountString,
  marketId: lenient(z.string().min(1)),
  outcome: lenient(nonNegativeInt),
  side: lenient(side),
  price: lenient(priceString),
  fee: lenient(amountString),
  makerOrderId: lenient(z.string()),
  takerOrderId: lenient(z.string()),
  createdAt: lenient(isoDateTime),
});
export type PlacementTradeRow = z.infer<typeof placementTradeRow>;

/** Placement `trades[]`: any array; rows are read one by one with `placementTradeRow`. */
export const placementTrades = z.array(z.unknown());

/**
 * Placement result, success form (spec 2.12 / 7.1.3). `orderStatus` (docs/spec-gaps.md) is the
 * order's own status when it differs from the placement `status`: an order that partly filled and
 * then ended within the call (IOC remainder, self-trade stop) answers PARTIAL with orderStatus
 * CANCELLED. An unreadable `orderStatus` is dropped (the answer still reads by its `status`).
 */
export const acceptedPlacement = z.looseObject({
  orderId: z.string(),
  status: z.enum(["OPEN", "FILLED", "PARTIAL"]),
  filledQty: amountString,
  remainingQty: amountString,
  trades: placementTrades,
  orderStatus: lenient(orderStatus),
});
export type AcceptedPlacement = z.infer<typeof acceptedPlacement>;

/**
 * Placement result, reject form (HTTP 201). `orderId` is null when nothing was recorded; the
 * quantities and trades are usually "0"/[] and tolerated when absent.
 */
export const rejectedPlacement = z.looseObject({
  orderId: z.string().nullish(),
  status: z.literal("REJECTED"),
  filledQty: amountString.optional(),
  remainingQty: amountString.optional(),
  trades: placementTrades.optional(),
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type RejectedPlacement = z.infer<typeof rejectedPlacement>;

export const placementResult = z.discriminatedUnion("status", [acceptedPlacement, rejectedPlacement]);
export type PlacementResult = z.infer<typeof placementResult>;

/** Order record (order detail, lookup, history and open rows; docs/spec-gaps.md). */
export const orderRecord = z.looseObject({
  id: z.string(),
  clientOrderId: z.string().nullable(),
  orderHash: bytes32Hex,
  walletAddress: address,
  marketId: z.string(),
  tokenId: uint256String,
  outcome: nonNegativeInt,
  side,
  type: orderType,
  timeInForce,
  postOnly: z.boolean(),
  price: priceString,
  originalQuantity: amountString,
  filledQty: amountString,
  remainingQty: amountString,
  status: orderStatus,
  expiration: uint256String,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type OrderRecord = z.infer<typeof orderRecord>;
/** `GET /api/orders/{id}` and `GET /api/orders/lookup` answer the order record itself. */
export const orderDetail = orderRecord;
export const orderLookup = orderRecord;

/** `GET /api/orders/open` and `/history` (spec 4.6): `nextCursor` null only on the last page. */
export const ordersPage = z.looseObject({
  walletAddress: address,
  orders: z.array(orderRecord),
  nextCursor,
});
export type OrdersPage = z.infer<typeof ordersPage>;
export const openOrdersPage = ordersPage;
export const orderHistoryPage = ordersPage;

export const orderFills = z.looseObject({ orderId: z.string(), fills: z.array(trade) });
export type OrderFills = z.infer<typeof orderFills>;

export const orderFeesSummary = z.looseObject({
  orderId: z.string(),
  feesPaid: amountString,
  fillCount: nonNegativeInt,
  filledQty: amountString,
  notional: amountString,
});
export type OrderFeesSummary = z.infer<typeof orderFeesSummary>;

/** `POST /api/orders/cancel` 200. */
export const cancelDone = z.looseObject({
  orderId: z.string(),
  status: z.enum(["CANCELLED", "FILLED"]),
  filledQty: amountString,
  remainingQty: amountString,
});
export type CancelDone = z.infer<typeof cancelDone>;

/** `POST /api/orders/cancel` 202: recorded, no answer yet; no `remainingQty` (spec 4.6). */
export const cancelPending = z.looseObject({
  status: z.literal("cancel_pending"),
  code: z.literal("cancel_pending"),
  orderId: z.string(),
  message: z.string(),
  retryAfterSec: z.number().nonnegative(),
});
export type CancelPending = z.infer<typeof cancelPending>;

export const cancelResult = z.discriminatedUnion("status", [cancelDone, cancelPending]);
export type CancelResult = z.infer<typeof cancelResult>;

export const notCancelledEntry = z.looseObject({
  orderId: z.string(),
  code: z.string(),
  message: z.string(),
});
export type NotCancelledEntry = z.infer<typeof notCancelledEntry>;

/** cancel-batch and cancel-all answer (docs/spec-gaps.md). */
export const cancelManyResult = z.looseObject({
  cancelled: z.array(z.string()),
  notCancelled: z.array(notCancelledEntry),
});
export type CancelManyResult = z.infer<typeof cancelManyResult>;

/** A place-batch entry processed by the matcher: a placement result plus `success: true`. */
export const batchEntrySuccess = z.discriminatedUnion("status", [
  acceptedPlacement.extend({ success: z.literal(true) }),
  rejectedPlacement.extend({ success: z.literal(true) }),
]);

/**
 * A refused place-batch entry. Our simulator adds `status: "REJECTED"` so a reader that only
 * looks at `status` still sees a reject; a platform that omits it still parses.
 */
export const batchEntryFailure = z.looseObject({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  clientOrderId: z.string().optional(),
  status: z.literal("REJECTED").optional(),
  orderId: z.string().nullish(),
});
export type BatchEntryFailure = z.infer<typeof batchEntryFailure>;

export const placeBatchEntry = z.discriminatedUnion("success", [batchEntryFailure, batchEntrySuccess]);
export type PlaceBatchEntry = z.infer<typeof placeBatchEntry>;

/** `POST /api/orders/place-batch` 201: results in request order. */
export const placeBatchResult = z.looseObject({ results: z.array(placeBatchEntry) });
export type PlaceBatchResult = z.infer<typeof placeBatchResult>;
