/**
 * Fills from each source, in our order's terms: `user_fill` frames, `/api/me/trades` rows, and the
 * taker-centric trade rows of placements and order fill reads. The ledger (fill-ledger.ts) keys and
 * merges them.
 */
import { ONE, parseMicros } from "../../core/money.js";
import type { Side } from "../../core/amounts.js";
import type { UserFillFrame } from "../../wire/frames.js";
import { placementTradeRow, type MyTrade } from "../../wire/orders.js";
import type { Fill } from "./fill-types.js";

function parseTs(iso: string): number {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) throw new Error(`bad trade timestamp ${JSON.stringify(iso)}`);
  return t;
}

/** A `user_fill` frame (spec 6). `role` missing or null stays unknown, never taker. */
export function fillFromUserFill(frame: UserFillFrame): Fill {
  const f: Fill = {
    tradeId: frame.tradeId,
    wallet: frame.walletAddress.toLowerCase(),
    orderId: frame.orderId,
    marketId: frame.marketId,
    outcome: frame.outcome,
    side: frame.side,
    price: parseMicros(frame.price),
    qty: parseMicros(frame.quantity),
    fee: parseMicros(frame.fee),
    role: frame.role ?? "unknown",
    ts: frame.serverTs,
    source: "stream",
  };
  if (frame.clientOrderId !== null) f.clientOrderId = frame.clientOrderId;
  return f;
}

/** A `/api/me/trades` row: already in the caller's token, with the caller's role, order and fee. */
export function fillFromMyTrade(wallet: string, row: MyTrade, clientOrderId?: string): Fill {
  const f: Fill = {
    tradeId: row.id,
    wallet: wallet.toLowerCase(),
    orderId: row.orderId,
    marketId: row.marketId,
    outcome: row.outcome,
    side: row.side,
    price: parseMicros(row.price),
    qty: parseMicros(row.quantity),
    fee: parseMicros(row.fee),
    role: row.role,
    ts: parseTs(row.createdAt),
    source: "trades_pull",
  };
  if (clientOrderId !== undefined) f.clientOrderId = clientOrderId;
  return f;
}

export interface OwnOrderRef {
  orderId: string;
  clientOrderId?: string;
  outcome: number;
  side: Side;
  /** Our order's market: used when a placement trade row does not carry a readable `marketId`. */
  marketId?: string;
}

/** Why a taker-centric trade row gave no fill. */
export type OrderTradeSkip = "not_ours" | "unreadable";

/**
 * A taker-centric trade row (placement `trades[]`, `GET /orders/{id}/fills`) seen from our order.
 * As taker the row is ours as is. As maker, side/outcome/price are the taker's: our side and outcome
 * are our order's, and the price is the row's when the taker traded our outcome, else its
 * complement (binary markets: a NO bid at 1 - p matches a YES buy at p); the row's fee is the
 * taker's, so ours is 0. Rows are read best effort (placementTradeRow): a row that names neither
 * side as our order is "not_ours"; one without what the fill needs (id, quantity, price, time, our
 * order id; as taker the fee; as maker the taker's outcome) is "unreadable" and left to the trades
 * pull. Outcome and side a taker row lacks are our order's; a missing market is the order's.
 */
export function readOrderTrade(wallet: string, row: unknown, order: OwnOrderRef, source: "placement" | "order_read"): Fill | OrderTradeSkip {
  const p = placementTradeRow.safeParse(row);
  if (!p.success) return "unreadable";
  const t = p.data;
  const taker = t.takerOrderId === order.orderId;
  if (!taker && t.makerOrderId !== order.orderId) return t.takerOrderId === undefined || t.makerOrderId === undefined ? "unreadable" : "not_ours";
  const ts = t.createdAt === undefined ? Number.NaN : Date.parse(t.createdAt);
  const marketId = t.marketId ?? order.marketId;
  if (t.price === undefined || Number.isNaN(ts) || marketId === undefined) return "unreadable";
  if (taker ? t.fee === undefined : t.outcome === undefined) return "unreadable";
  const price = parseMicros(t.price);
  const f: Fill = {
    tradeId: t.id,
    wallet: wallet.toLowerCase(),
    orderId: order.orderId,
    marketId,
    outcome: taker ? (t.outcome ?? order.outcome) : order.outcome,
    side: taker ? (t.side ?? order.side) : order.side,
    price: taker || t.outcome === order.outcome ? price : ONE - price,
    qty: parseMicros(t.quantity),
    fee: taker ? parseMicros(t.fee ?? "0") : 0n,
    role: taker ? "taker" : "maker",
    ts,
    source,
  };
  if (order.clientOrderId !== undefined) f.clientOrderId = order.clientOrderId;
  return f;
}

/** readOrderTrade as a Fill or undefined (not ours, or unreadable: see readOrderTrades to count those). */
export function fillFromOrderTrade(wallet: string, trade: unknown, order: OwnOrderRef, source: "placement" | "order_read"): Fill | undefined {
  const f = readOrderTrade(wallet, trade, order, source);
  return typeof f === "string" ? undefined : f;
}

/** Every row of a placement's `trades[]` (or an order's fills): the fills, and how many rows could not be read. */
export function readOrderTrades(
  wallet: string,
  rows: readonly unknown[],
  order: OwnOrderRef,
  source: "placement" | "order_read",
): { fills: Fill[]; notOurs: number; unreadable: number } {
  const out = { fills: [] as Fill[], notOurs: 0, unreadable: 0 };
  for (const row of rows) {
    const f = readOrderTrade(wallet, row, order, source);
    if (f === "unreadable") out.unreadable++;
    else if (f === "not_ours") out.notOurs++;
    else out.fills.push(f);
  }
  return out;
}
