/**
 * The keyed routes the daemon uses, answered from the paper account in the shapes of src/wire (the
 * client validates every answer, so the daemon cannot tell): orders (place, place-batch, cancel,
 * cancel-batch, cancel-all, open, history, lookup, by id) and the wallet's reads (`/api/me/vault`,
 * `balances`, `positions`, `trades`, `fee-tier`, `auto-redeem`, `balance-events`, `splits-merges`).
 * Any other keyed route answers 501 `not_implemented`: paper mode never sends it.
 *
 * Paging: every list here is answered in one page unless a `limit` asks for less; cursors are
 * base64url of the position after the last row (`paper:<n>`), newest first for trades and
 * history, creation order for open orders and positions.
 */
import { parseMicros, formatMicros, type Micros } from "../core/money.js";
import { sideFromCode } from "../core/amounts.js";
import { errorEnvelope } from "../wire/errors.js";
import { orderRecordJson, type OrderRecordJson } from "../wire/order-record.js";
import { cancelAllBody, cancelBatchBody, cancelBody, checkPlaceBody, checkRequest, effectiveTimeInForce, placeBatchEnvelope, type PlaceBody } from "../wire/requests.js";
import { averagePrice, COUNTERPARTY, type PaperAccount, type PaperFill, type PaperOrder, type PlaceAnswer } from "./account.js";

export interface RouteAnswer {
  status: number;
  body: unknown;
}

export interface PaperRouteContext {
  account: PaperAccount;
  /** The calling wallet (lower case, from X-User-Wallet). */
  wallet: string;
  vaultOf: (wallet: string) => string;
  /** The order hash of a signed order (EIP-712 digest when the platform's contracts are known). */
  orderHashOf: (body: PlaceBody) => string;
  now: () => number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function error(status: number, code: string, message: string, details?: Record<string, unknown>): RouteAnswer {
  return { status, body: errorEnvelope(status, code, message, details === undefined ? {} : { details }) };
}

export function orderJson(o: PaperOrder): OrderRecordJson {
  return orderRecordJson(o, o.filled, o.quantity - o.filled);
}

/** A fill as a trade row; `mine` adds the caller's role and order (`/api/me/trades`). */
export function tradeJson(f: PaperFill, mine: boolean): Record<string, unknown> {
  const taker = f.role === "taker";
  const row: Record<string, unknown> = {
    id: f.tradeId,
    marketId: f.marketId,
    tokenId: f.tokenId,
    outcome: f.outcome,
    side: f.side,
    price: formatMicros(f.price),
    quantity: formatMicros(f.qty),
    fee: formatMicros(f.fee),
    feeRateBps: f.feeRateBps,
    makerOrderId: taker ? "paper-counterparty" : f.orderId,
    takerOrderId: taker ? f.orderId : "paper-counterparty",
    makerWallet: taker ? COUNTERPARTY : f.wallet,
    takerWallet: taker ? f.wallet : COUNTERPARTY,
    createdAt: iso(f.ts),
  };
  if (mine) Object.assign(row, { role: f.role, orderId: f.orderId });
  return row;
}

function placementJson(a: PlaceAnswer): Record<string, unknown> {
  if (a.status === "REJECTED") return { orderId: null, status: "REJECTED", filledQty: "0", remainingQty: "0", trades: [], code: a.code, message: a.message };
  const out: Record<string, unknown> = {
    orderId: a.order.id,
    status: a.status,
    filledQty: formatMicros(a.order.filled),
    remainingQty: formatMicros(a.orderStatus === "CANCELLED" ? 0n : a.order.quantity - a.order.filled),
    trades: a.fills.map((f) => tradeJson(f, false)),
  };
  if (a.orderStatus !== undefined) out["orderStatus"] = a.orderStatus;
  return out;
}

/** One placement at the modelled exchange (after the entry latency). */
function placeOne(ctx: PaperRouteContext, body: PlaceBody): PlaceAnswer | RouteAnswer {
  const maker = body.maker.toLowerCase();
  if (maker !== ctx.wallet && maker !== ctx.vaultOf(ctx.wallet)) return error(403, "maker_mismatch", "maker must be the effective wallet or its vault");
  const m = body.marketId === undefined ? undefined : ctx.account.markets.get(body.marketId);
  let marketId = body.marketId;
  let outcome = body.outcome;
  if (marketId === undefined || outcome === undefined) {
    // Found by token id among the markets read.
    for (const mk of ctx.account.markets.values()) {
      const i = mk.tokenIds.indexOf(body.order.tokenId);
      if (i >= 0) {
        marketId = mk.symbol;
        outcome = i;
      }
    }
  }
  if (marketId === undefined || outcome === undefined) return error(400, "invalid_request", "marketId and outcome are needed in paper mode (the token id is not among the markets read)", { fields: ["marketId"], field: "marketId" });
  if (sideFromCode(body.order.side) !== body.side) return error(400, "invalid_request", "side does not match the signed side", { fields: ["side"], field: "side" });
  const tif = effectiveTimeInForce(body.type, body.timeInForce);
  return ctx.account.place({
    wallet: ctx.wallet,
    orderHash: ctx.orderHashOf(body),
    clientOrderId: body.clientOrderId ?? null,
    marketId,
    outcome,
    tokenId: m?.tokenIds[outcome] ?? body.order.tokenId,
    side: body.side,
    price: parseMicros(body.price),
    quantity: parseMicros(body.quantity),
    type: body.type,
    timeInForce: tif,
    postOnly: body.postOnly,
    expiration: body.order.expiration,
  });
}

const isAnswer = (x: PlaceAnswer | RouteAnswer): x is RouteAnswer => "body" in x;

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function badBody(message: string, fields: string[]): RouteAnswer {
  return error(400, "invalid_request", message, { fields, field: fields[0] ?? null });
}

function cursorStart(q: URLSearchParams): number | RouteAnswer {
  const c = q.get("cursor");
  if (c === null) return 0;
  const m = /^paper:(\d{1,9})$/.exec(Buffer.from(c, "base64url").toString("utf8"));
  return m === null ? badBody("cursor is not a cursor of this endpoint", ["cursor"]) : Number(m[1]);
}

function limitOf(q: URLSearchParams, dflt: number, max: number): number | RouteAnswer {
  const l = q.get("limit");
  if (l === null) return dflt;
  if (!/^\d{1,9}$/.test(l) || Number(l) < 1) return badBody("limit: expected a positive integer", ["limit"]);
  return Math.min(Number(l), max);
}

/** One page of `rows` from the cursor: the rows and the next cursor (null on the last page). */
function page<T>(rows: readonly T[], q: URLSearchParams, dflt: number, max: number): { rows: T[]; next: string | null } | RouteAnswer {
  const start = cursorStart(q);
  if (typeof start !== "number") return start;
  const limit = limitOf(q, dflt, max);
  if (typeof limit !== "number") return limit;
  const out = rows.slice(start, start + limit);
  const end = start + out.length;
  return { rows: out, next: end < rows.length ? Buffer.from(`paper:${end}`, "utf8").toString("base64url") : null };
}

function orderFilter(q: URLSearchParams): (o: PaperOrder) => boolean {
  const market = q.get("marketId");
  const side = q.get("side")?.toUpperCase();
  const outcome = q.get("outcome");
  const status = q.get("status")?.toUpperCase();
  return (o) =>
    (market === null || o.marketId === market) &&
    (side === undefined || o.side === side) &&
    (outcome === null || String(o.outcome) === outcome) &&
    (status === undefined || o.status === status);
}

/** The routes paper mode answers (method and path without the query). */
export function isPaperRoute(path: string): boolean {
  return /^\/api\/(orders|me|vault|withdrawals|v1\/partner)(\/|$)/.test(path);
}

/**
 * Answer one keyed request. Placements run `placeAt` (the caller waits the entry latency inside
 * it) so the order reaches the modelled exchange when a real one would reach the platform.
 */
export async function answerPaperRoute(
  ctx: PaperRouteContext,
  method: string,
  path: string,
  q: URLSearchParams,
  bodyText: string | undefined,
  atExchange: <T>(fn: () => T) => Promise<T>,
): Promise<RouteAnswer> {
  const a = ctx.account;
  const w = ctx.wallet;
  const key = `${method} ${path}`;
  switch (key) {
    case "POST /api/orders/place": {
      const check = checkPlaceBody(parseJson(bodyText));
      if (!check.ok) return badBody(check.message, check.fields);
      const r = await atExchange(() => placeOne(ctx, check.value));
      return isAnswer(r) ? r : { status: 201, body: placementJson(r) };
    }
    case "POST /api/orders/place-batch": {
      const env = checkRequest(placeBatchEnvelope, parseJson(bodyText));
      if (!env.ok) return badBody(env.message, env.fields);
      const results = await atExchange(() =>
        env.value.orders.map((raw) => {
          const check = checkPlaceBody(raw);
          if (!check.ok) return { success: false, status: "REJECTED", code: check.code, message: check.message, orderId: null };
          const r = placeOne(ctx, check.value);
          if (isAnswer(r)) {
            const e = (r.body as { error: { code: string; message: string } }).error;
            return { success: false, status: "REJECTED", code: e.code, message: e.message, orderId: null, ...(check.value.clientOrderId !== undefined ? { clientOrderId: check.value.clientOrderId } : {}) };
          }
          return { ...placementJson(r), success: true };
        }),
      );
      return { status: 201, body: { results } };
    }
    case "POST /api/orders/cancel": {
      const check = checkRequest(cancelBody, parseJson(bodyText));
      if (!check.ok) return badBody(check.message, check.fields);
      const r = await atExchange(() => a.cancel(w, check.value.orderId));
      if (!r.ok) return error(r.code === "order_not_found" ? 404 : 409, r.code, r.message);
      return { status: 200, body: { orderId: r.order.id, status: "CANCELLED", filledQty: formatMicros(r.order.filled), remainingQty: formatMicros(r.order.quantity - r.order.filled) } };
    }
    case "POST /api/orders/cancel-batch":
    case "POST /api/orders/cancel-all": {
      const all = key.endsWith("cancel-all");
      const check = all ? checkRequest(cancelAllBody, parseJson(bodyText)) : checkRequest(cancelBatchBody, parseJson(bodyText));
      if (!check.ok) return badBody(check.message, check.fields);
      const v = check.value as { orderIds?: string[]; marketId?: string };
      const body = await atExchange(() => {
        const ids = all ? a.liveOrders(w, v.marketId).map((o) => o.id) : (v.orderIds ?? []);
        const cancelled: string[] = [];
        const notCancelled: { orderId: string; code: string; message: string }[] = [];
        for (const id of ids) {
          const r = a.cancel(w, id);
          if (r.ok) cancelled.push(id);
          else notCancelled.push({ orderId: id, code: r.code, message: r.message });
        }
        return { cancelled, notCancelled };
      });
      return { status: 200, body };
    }
    case "GET /api/orders/open": {
      const p = page(a.liveOrders(w).filter(orderFilter(q)), q, 500, 500);
      return "rows" in p ? { status: 200, body: { walletAddress: w, orders: p.rows.map(orderJson), nextCursor: p.next } } : p;
    }
    case "GET /api/orders/history": {
      const rows = [...a.endedOrders(w), ...a.liveOrders(w)].filter(orderFilter(q)).sort((x, y) => y.createdAtMs - x.createdAtMs || y.id.length - x.id.length || (y.id < x.id ? -1 : 1));
      const p = page(rows, q, 100, 200);
      return "rows" in p ? { status: 200, body: { walletAddress: w, orders: p.rows.map(orderJson), nextCursor: p.next } } : p;
    }
    case "GET /api/orders/lookup": {
      const clientOrderId = q.get("clientOrderId") ?? undefined;
      const orderHash = q.get("orderHash") ?? undefined;
      if ((clientOrderId === undefined) === (orderHash === undefined)) return badBody("give exactly one of clientOrderId and orderHash", ["clientOrderId", "orderHash"]);
      const o = a.find(w, clientOrderId !== undefined ? { clientOrderId } : { orderHash: orderHash! });
      return o === undefined ? error(404, "order_not_found", "order unknown for this wallet") : { status: 200, body: orderJson(o) };
    }
    case "GET /api/me/vault":
      return { status: 200, body: { walletAddress: w, vaultAddress: ctx.vaultOf(w), deployed: true } };
    case "GET /api/me/balances": {
      const total = a.cash(w);
      const locked = a.lockedCash(w);
      return { status: 200, body: { walletAddress: w, vaultAddress: ctx.vaultOf(w), collateral: { total: formatMicros(total), locked: formatMicros(locked), available: formatMicros(total - locked) } } };
    }
    case "GET /api/me/positions": {
      const rows = a.positions(w);
      const p = q.get("limit") === null && q.get("cursor") === null ? { rows, next: null } : page(rows, q, 50, 50);
      if (!("rows" in p)) return p;
      const positions = p.rows.map((r) => ({
        marketId: r.marketId,
        tokenId: r.tokenId,
        outcome: r.outcome,
        quantity: formatMicros(r.qty),
        locked: formatMicros(r.locked),
        avgPrice: fmtOpt(averagePrice(r.cost, r.qty)),
      }));
      return { status: 200, body: { walletAddress: w, positions, nextCursor: p.next } };
    }
    case "GET /api/me/trades": {
      const before = q.get("before");
      const beforeMs = before === null ? Infinity : /^\d{1,16}$/.test(before) ? Number(before) : Date.parse(before);
      if (Number.isNaN(beforeMs)) return badBody("before must be an ISO-8601 date-time or epoch milliseconds", ["before"]);
      const rows = a.fills(w).filter((f) => f.ts < beforeMs).reverse();
      const p = page(rows, q, 50, 200);
      return "rows" in p ? { status: 200, body: { trades: p.rows.map((f) => tradeJson(f, true)), nextCursor: p.next } } : p;
    }
    case "GET /api/me/fee-tier":
      return { status: 200, body: { walletAddress: w, tier: "paper", makerBps: 0 } };
    case "GET /api/me/auto-redeem":
      return { status: 200, body: { walletAddress: w, enabled: false } };
    case "GET /api/me/balance-events":
      return { status: 200, body: { walletAddress: w, events: [], nextCursor: null } };
    case "GET /api/me/splits-merges":
    case "GET /api/me/splits-merges/unlockable":
      return { status: 200, body: { walletAddress: w, operations: [], nextCursor: null } };
    default:
      break;
  }
  const byId = /^\/api\/orders\/([^/]+)$/.exec(path);
  if (method === "GET" && byId !== null) {
    const o = a.order(w, decodeURIComponent(byId[1]!));
    return o === undefined ? error(404, "order_not_found", "order unknown for this wallet") : { status: 200, body: orderJson(o) };
  }
  return error(501, "not_implemented", `${method} ${path} is not modelled in paper mode (nothing is sent to the platform)`);
}

function fmtOpt(v: Micros | undefined): string | null {
  return v === undefined ? null : formatMicros(v);
}
