/**
 * Order reads (spec 4.6; shapes in docs/spec-gaps.md): open orders and history as keyset pages
 * (newest first, `nextCursor` null only on the last page), one order, its fills, its fees, and
 * the lookup by clientOrderId or orderHash. Orders of another wallet read as unknown (404
 * `order_not_found`, "order unknown for this wallet"); only the cancel says `forbidden`.
 */
import { z } from "zod";
import {
  checkQuery,
  openOrdersQuery,
  orderHistoryQuery,
  requestErrorEnvelope,
  type QueryInput,
} from "../../wire/requests.js";
import { errorAnswer, type DeskAnswer } from "./answers.js";
import { decodeCursor, encodeCursor, type Cursor } from "./cursor.js";
import { amount, partyTradeJson, roleOf } from "./format.js";
import { orderJson, type DeskOrder, type OrderFilter, type OrderRecords, type Page } from "./records.js";

function badCursor(): DeskAnswer {
  return errorAnswer(400, "invalid_request", "cursor is not a cursor of this endpoint", { fields: ["cursor"], field: "cursor" });
}

function parseCursor(text: string | undefined): { ok: true; cursor: Cursor | undefined } | { ok: false } {
  if (text === undefined) return { ok: true, cursor: undefined };
  const c = decodeCursor(text);
  return c === undefined ? { ok: false } : { ok: true, cursor: c };
}

function pageBody(wallet: string, page: Page): Record<string, unknown> {
  return {
    walletAddress: wallet,
    orders: page.orders.map(orderJson),
    nextCursor: page.next === null ? null : encodeCursor(page.next),
  };
}

/** The filters open and history share (spec 4.6: "same filters as open"). */
function filterOf(q: { marketId?: string | undefined; side?: OrderFilter["side"] | undefined; outcome?: number | undefined; type?: OrderFilter["type"] | undefined }): OrderFilter {
  const filter: OrderFilter = {};
  if (q.marketId !== undefined) filter.marketId = q.marketId;
  if (q.side !== undefined) filter.side = q.side;
  if (q.outcome !== undefined) filter.outcome = q.outcome;
  if (q.type !== undefined) filter.type = q.type;
  return filter;
}

export function openOrders(records: OrderRecords, wallet: string, query: QueryInput): DeskAnswer {
  const q = checkQuery(openOrdersQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  const c = parseCursor(q.value.cursor);
  if (!c.ok) return badCursor();
  return { status: 200, body: pageBody(wallet, records.openPage(wallet, filterOf(q.value), c.cursor, q.value.limit)) };
}

export function orderHistory(records: OrderRecords, wallet: string, query: QueryInput): DeskAnswer {
  const q = checkQuery(orderHistoryQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  const c = parseCursor(q.value.cursor);
  if (!c.ok) return badCursor();
  const filter = filterOf(q.value);
  if (q.value.status !== undefined) filter.status = q.value.status;
  return { status: 200, body: pageBody(wallet, records.historyPage(wallet, filter, c.cursor, q.value.limit)) };
}

function own(records: OrderRecords, wallet: string, id: string): DeskOrder | DeskAnswer {
  const o = records.get(id);
  if (o === undefined || o.wallet !== wallet) return errorAnswer(404, "order_not_found", `order ${id} is unknown for this wallet`, { orderId: id });
  return o;
}

function isAnswer(v: DeskOrder | DeskAnswer): v is DeskAnswer {
  return "status" in v && "body" in v;
}

export function orderById(records: OrderRecords, wallet: string, id: string): DeskAnswer {
  const o = own(records, wallet, id);
  return isAnswer(o) ? o : { status: 200, body: orderJson(o) };
}

/** `{orderId, fills}`: rows in the order's own token (the caller's view), with role and orderId. */
export function orderFills(records: OrderRecords, wallet: string, id: string): DeskAnswer {
  const o = own(records, wallet, id);
  if (isAnswer(o)) return o;
  return { status: 200, body: { orderId: o.id, fills: o.trades.map((t) => partyTradeJson(t, roleOf(t, wallet))) } };
}

/** `{orderId, feesPaid, fillCount, filledQty, notional}`; notional is the settlement token this order's fills moved. */
export function orderFeesSummary(records: OrderRecords, wallet: string, id: string): DeskAnswer {
  const o = own(records, wallet, id);
  if (isAnswer(o)) return o;
  let notional = 0n;
  let fees = 0n;
  for (const t of o.trades) {
    const taker = t.takerOrderId === o.id;
    notional += taker ? t.takerCash : t.makerCash;
    if (taker) fees += t.fee;
  }
  return {
    status: 200,
    body: { orderId: o.id, feesPaid: amount(fees), fillCount: o.trades.length, filledQty: amount(o.filledQty), notional: amount(notional) },
  };
}

// Not one of the five endpoints that reject undefined parameters (spec 4): others are ignored.
const lookupQuery = z.object({
  clientOrderId: z.string().min(1).optional(),
  orderHash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, { error: "expected 0x-prefixed 32-byte hex" }).optional(),
});

export function orderLookup(records: OrderRecords, wallet: string, query: QueryInput): DeskAnswer {
  const q = checkQuery(lookupQuery, query);
  if (!q.ok) return { status: 400, body: requestErrorEnvelope(q) };
  const { clientOrderId, orderHash } = q.value;
  if ((clientOrderId === undefined) === (orderHash === undefined)) {
    return errorAnswer(400, "invalid_request", "give exactly one of clientOrderId and orderHash", {
      fields: ["clientOrderId", "orderHash"],
      field: "clientOrderId",
    });
  }
  const o = clientOrderId !== undefined ? records.byClientOrderId(wallet, clientOrderId) : records.byOrderHash(wallet, orderHash!);
  if (o === undefined) return errorAnswer(404, "order_not_found", "no order of this wallet has that key", clientOrderId !== undefined ? { clientOrderId } : { orderHash });
  return { status: 200, body: orderJson(o) };
}
