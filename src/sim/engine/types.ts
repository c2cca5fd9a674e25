/**
 * Public shapes of the matching engine: requests, results, events, trade rows, snapshots.
 *
 * Amounts are bigint micros (src/core/money.ts); prices are micros of the settlement token per
 * whole share on the 0.001 grid. Every price a caller sees is in that caller's own token: a NO
 * order at 0.40 rests on the YES-denominated binary book at 0.60, but its fills, its order view
 * and the trade row written for its side all say 0.40.
 */
import type { Micros } from "../../core/money.js";
import type { Side } from "../../core/amounts.js";

export type { Side };
export type OrderType = "limit" | "market";
export type TimeInForce = "GTC" | "GTD" | "IOC" | "FOK";
/** Order lifecycle statuses (spec 3.3); PENDING belongs to the platform layer, never to the engine. */
export type OrderStatus = "OPEN" | "PARTIAL" | "FILLED" | "CANCELLED" | "EXPIRED" | "REJECTED";
export type Role = "maker" | "taker";

/** Codes the engine itself refuses an order with (spec 7.3 names). */
export type RejectCode =
  | "market_not_found"
  | "market_not_open"
  | "invalid_outcome"
  | "invalid_amounts"
  | "invalid_tif"
  | "expired"
  | "post_only_would_cross"
  | "insufficient_funds"
  | "duplicate_order_id";

/** Why an order left the book. */
export type EndReason =
  | "filled"
  | "user_cancel"
  | "ioc_remainder"
  | "fok_unfillable"
  | "self_trade"
  | "expired"
  | "market_resolved"
  | "market_voided"
  | "market_halted";

export interface PlaceRequest {
  /** The platform's order id; drawn from the engine's id source when absent. */
  orderId?: string;
  /** Acting wallet (any case; compared case-insensitively). */
  wallet: string;
  marketId: string;
  /** 0-based outcome index; on binary markets 0 = YES, 1 = NO. */
  outcome: number;
  side: Side;
  /** Limit price in micros of the order's own token; for market orders the worst acceptable price. */
  price: Micros;
  quantity: Micros;
  /** Default "limit". */
  type?: OrderType;
  /** Default "GTC" for limit, "IOC" for market. */
  timeInForce?: TimeInForce;
  postOnly?: boolean;
  /** Unix seconds; required (non-zero) for GTD, ignored otherwise. */
  expiration?: number;
}

/** A plain-object snapshot of an order, taken when it is handed out. */
export interface OrderInfo {
  readonly id: string;
  /** Lower-case wallet. */
  readonly wallet: string;
  readonly marketId: string;
  readonly outcome: number;
  readonly tokenId: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly postOnly: boolean;
  readonly price: Micros;
  /** Unix seconds, 0 when none. */
  readonly expiration: number;
  readonly quantity: Micros;
  readonly filledQty: Micros;
  readonly remainingQty: Micros;
  readonly status: OrderStatus;
  readonly feesPaid: Micros;
  readonly createdAtMs: number;
  readonly updatedAtMs: number;
  /** Set once the order has ended. */
  readonly endReason: EndReason | undefined;
}

export type FillKind = "transfer" | "mint" | "merge";

/**
 * One fill. The flat fields follow the trade row of docs/spec-gaps.md and are taker-centric (side,
 * outcome, tokenId, price, fee of the taker); the maker's view is in the `maker*` fields.
 */
export interface TradeRecord {
  readonly id: string;
  readonly marketId: string;
  readonly kind: FillKind;
  readonly tokenId: string;
  readonly outcome: number;
  readonly side: Side;
  readonly price: Micros;
  readonly quantity: Micros;
  /** Taker fee in settlement micros (makers pay nothing). */
  readonly fee: Micros;
  readonly feeRateBps: number;
  readonly makerOrderId: string;
  readonly takerOrderId: string;
  /** EIP-55 checksum-cased. */
  readonly makerWallet: string;
  readonly takerWallet: string;
  readonly makerOutcome: number;
  readonly makerTokenId: string;
  readonly makerSide: Side;
  readonly makerPrice: Micros;
  /** Settlement token moved by each leg before the fee: paid by a BUY, received by a SELL. */
  readonly takerCash: Micros;
  readonly makerCash: Micros;
  readonly createdAtMs: number;
}

/** A trade row as one party sees it (`/api/me/trades`, `user_fill`). */
export interface PartyFill {
  tradeId: string;
  orderId: string;
  role: Role;
  marketId: string;
  tokenId: string;
  outcome: number;
  side: Side;
  price: Micros;
  quantity: Micros;
  fee: Micros;
  createdAtMs: number;
}

export interface PlaceResult {
  orderId: string;
  /**
   * The order's status once the call returns: OPEN / PARTIAL (resting), FILLED, REJECTED (with
   * `code`), or CANCELLED when it ended unfilled or partly filled within the call (IOC / market
   * remainder, killed FOK, self-trade stop: see `endReason`). The spec's placement result knows only
   * OPEN, FILLED, PARTIAL and REJECTED, so the platform layer maps CANCELLED for its answer.
   */
  status: OrderStatus;
  code?: RejectCode;
  message?: string;
  filledQty: Micros;
  remainingQty: Micros;
  trades: readonly TradeRecord[];
  /** Why the order ended, when it ended within the call. */
  endReason?: EndReason;
}

export type CancelResult =
  | { ok: true; orderId: string; status: "CANCELLED"; quantity: Micros; filledQty: Micros; remainingQty: Micros }
  | { ok: false; code: "order_not_found" | "forbidden"; orderId: string };

export type EngineEvent =
  /** Passed validation and funds check, before matching; status OPEN, remainingQty = quantity. */
  | { type: "accepted"; order: OrderInfo }
  | { type: "rejected"; orderId: string; wallet: string; code: RejectCode; message: string; request: PlaceRequest }
  /** Both orders already reflect this fill (status PARTIAL or FILLED, filled/remaining updated). */
  | { type: "fill"; trade: TradeRecord; taker: OrderInfo; maker: OrderInfo }
  /** The taker's remainder now rests on the book (OPEN or PARTIAL). */
  | { type: "rested"; order: OrderInfo }
  /** The order left the book or ended: FILLED, CANCELLED or EXPIRED. */
  | { type: "ended"; order: OrderInfo; status: "FILLED" | "CANCELLED" | "EXPIRED"; reason: EndReason };

/**
 * Receives every event synchronously, in order, while the operation runs (fills arrive mid-match).
 * It must not call back into the engine; queue work instead. Orders in events are snapshots.
 */
export type EventSink = (event: EngineEvent) => void;

export interface IdSource {
  next(kind: "order" | "trade"): string;
}

export interface MarketSpec {
  /** The market id the engine is addressed by (the platform uses the symbol). */
  id: string;
  outcomeCount: number;
  feeRateBps: number;
  /** One token id per outcome (binary: [yes, no]); default `${id}:${index}`. */
  tokenIds?: readonly string[];
  /** PRE_MARKET: only post-only orders are accepted. */
  postOnlyOnly?: boolean;
}

export interface BookLevelView {
  price: Micros;
  quantity: Micros;
  orders: number;
}

export interface BookSnapshot {
  marketId: string;
  outcome: number;
  tokenId: string;
  /** Best first. */
  bids: BookLevelView[];
  asks: BookLevelView[];
  bestBid: Micros | null;
  bestAsk: Micros | null;
  lastTradePrice: Micros | null;
}

export interface BalanceView {
  wallet: string;
  total: Micros;
  locked: Micros;
  available: Micros;
  feesPaid: Micros;
}

export interface PositionView {
  marketId: string;
  tokenId: string;
  outcome: number;
  quantity: Micros;
  locked: Micros;
  /** Average entry price in micros (cost of the held shares / quantity, fees excluded); 0 when flat. */
  avgPrice: Micros;
}

export type BalanceEventKind = "deposit" | "withdraw" | "trade" | "fee" | "payout" | "split" | "merge";

export interface BalanceEvent {
  seq: number;
  wallet: string;
  kind: BalanceEventKind;
  /** Signed change of the wallet's settlement-token total. */
  amount: Micros;
  /** Total after the change. */
  balance: Micros;
  marketId?: string;
  tradeId?: string;
  atMs: number;
}

export interface PayoutRow {
  wallet: string;
  marketId: string;
  outcome: number;
  tokenId: string;
  quantity: Micros;
  amount: Micros;
}

export interface ResolutionResult {
  marketId: string;
  payoutNumerators: bigint[];
  cancelled: OrderInfo[];
  payouts: PayoutRow[];
  /** Collateral left by rounding payouts down; moved to the house account. */
  dust: Micros;
}
