/**
 * Wire forms of what the desk hands out (docs/spec-gaps.md shapes): trade rows (taker's view and
 * one party's view), placement results, error envelopes. Amounts leave as canonical decimal
 * strings, times as ISO-8601 UTC, addresses lower-case except the EIP-55 trade wallets (2.1).
 */
import { formatMicros, type Micros } from "../../core/money.js";
import { errorEnvelope, type ErrorEnvelope } from "../../wire/errors.js";
import type { Role, TradeRecord } from "../engine/index.js";
import type { PlatformFailure } from "../platform/errors.js";
import { isoOf } from "../platform/time.js";

export interface TradeJson {
  id: string;
  marketId: string;
  tokenId: string;
  outcome: number;
  side: "BUY" | "SELL";
  price: string;
  quantity: string;
  fee: string;
  feeRateBps: number;
  makerOrderId: string;
  takerOrderId: string;
  makerWallet: string;
  takerWallet: string;
  createdAt: string;
}

export interface MyTradeJson extends TradeJson {
  role: Role;
  orderId: string;
}

/** The trade row in the taker's token (placement `trades[]`, the public feed). */
export function tradeJson(t: TradeRecord): TradeJson {
  return {
    id: t.id,
    marketId: t.marketId,
    tokenId: t.tokenId,
    outcome: t.outcome,
    side: t.side,
    price: formatMicros(t.price),
    quantity: formatMicros(t.quantity),
    fee: formatMicros(t.fee),
    feeRateBps: t.feeRateBps,
    makerOrderId: t.makerOrderId,
    takerOrderId: t.takerOrderId,
    makerWallet: t.makerWallet,
    takerWallet: t.takerWallet,
    createdAt: isoOf(t.createdAtMs),
  };
}

/**
 * The row as one party sees it (`/api/me/trades`, order fills): token, outcome, side, price and
 * fee are that party's (a maker pays no fee), plus its role and its order.
 */
export function partyTradeJson(t: TradeRecord, role: Role): MyTradeJson {
  if (role === "taker") return { ...tradeJson(t), role, orderId: t.takerOrderId };
  return {
    ...tradeJson(t),
    tokenId: t.makerTokenId,
    outcome: t.makerOutcome,
    side: t.makerSide,
    price: formatMicros(t.makerPrice),
    fee: "0",
    role,
    orderId: t.makerOrderId,
  };
}

/** Which side of a trade a wallet was on (the engine never matches a wallet with itself). */
export function roleOf(t: TradeRecord, wallet: string): Role {
  return t.takerWallet.toLowerCase() === wallet.toLowerCase() ? "taker" : "maker";
}

export interface AcceptedPlacementJson {
  orderId: string;
  status: "OPEN" | "PARTIAL" | "FILLED";
  filledQty: string;
  remainingQty: string;
  trades: TradeJson[];
  /** Present when the order already ended within the call (an IOC remainder): its real status. */
  orderStatus?: "CANCELLED";
}

export interface RejectedPlacementJson {
  /** Null when nothing was recorded (docs/spec-gaps.md). */
  orderId: string | null;
  status: "REJECTED";
  filledQty: string;
  remainingQty: string;
  trades: TradeJson[];
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export type PlacementJson = AcceptedPlacementJson | RejectedPlacementJson;

export function rejected(code: string, message: string, details?: Record<string, unknown>, orderId: string | null = null): RejectedPlacementJson {
  const r: RejectedPlacementJson = { orderId, status: "REJECTED", filledQty: "0", remainingQty: "0", trades: [], code, message };
  if (details !== undefined) r.details = details;
  return r;
}

/** A platform-layer failure as a REJECTED placement; retry hints move into `details`. */
export function rejectedFromFailure(f: PlatformFailure): RejectedPlacementJson {
  const details: Record<string, unknown> = { ...(f.details ?? {}) };
  if (f.retryable !== undefined) details.retryable = f.retryable;
  if (f.retryAfterSec !== undefined) details.retryAfterSec = f.retryAfterSec;
  return rejected(f.code, f.message, Object.keys(details).length > 0 ? details : undefined);
}

export function envelopeOf(f: PlatformFailure): ErrorEnvelope {
  return errorEnvelope(f.status, f.code, f.message, {
    ...(f.details !== undefined ? { details: { ...f.details } } : {}),
    ...(f.retryable !== undefined ? { retryable: f.retryable } : {}),
    ...(f.retryAfterSec !== undefined ? { retryAfterSec: f.retryAfterSec } : {}),
  });
}

export function amount(v: Micros): string {
  return formatMicros(v);
}
