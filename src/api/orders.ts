/**
 * Orders of one wallet (spec 4.6): placement and cancels (placement.ts, cancels.ts) and the reads:
 * open orders and history as pages or as iterators over `nextCursor`, one order by id, its fills
 * and fees, and the lookup by clientOrderId / orderHash that resolves unknown outcomes.
 */
import type { OrderFeesSummary, OrderFills, OrderRecord, OrdersPage, OrderStatus, OrderType, Side } from "../wire/index.js";
import { orderFeesSummary, orderFills, orderRecord, ordersPage } from "../wire/index.js";
import type {
  CancelManyOutcome,
  CancelOutcome,
  CancelUntilFinalOptions,
  CancelUntilFinalReport,
} from "./cancels.js";
import { cancelAllOrders, cancelOrder, cancelOrderBatch, cancelUntilFinal } from "./cancels.js";
import type { ApiCore, CallSpec } from "./core.js";
import { readCall, readCallOrNull } from "./decode.js";
import { cursorPages, uniqueItems } from "./paging.js";
import type { PlaceBatchOptions, PlaceBatchOutcome, PlaceOptions, PlaceOutcome, PlaceRequestBody } from "./placement.js";
import { placeOrder, placeOrderBatch } from "./placement.js";
import { path, withQuery } from "./query.js";
import type { CallOptions, Ok } from "./results.js";

export interface OrderFilters {
  /** Market symbol. */
  marketId?: string;
  side?: Side | "buy" | "sell";
  outcome?: number;
  type?: OrderType;
}

export interface OpenOrdersQuery extends OrderFilters {
  /** 1..500; omitted: a first page of 500. */
  limit?: number;
  cursor?: string;
}

export interface OrderHistoryQuery extends OrderFilters {
  /** Default 100, max 200. */
  limit?: number;
  cursor?: string;
  status?: OrderStatus;
}

export type OrderLookupKey = { clientOrderId: string; orderHash?: undefined } | { orderHash: string; clientOrderId?: undefined };

export class OrdersApi {
  constructor(
    private readonly core: ApiCore,
    /** `X-User-Wallet` of every call; undefined for single_wallet partners. */
    readonly wallet: string | undefined,
  ) {}

  private readSpec(p: string, opts?: CallOptions): CallSpec {
    return { method: "GET", path: p, wallet: this.wallet, auth: true, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) };
  }

  // ---- writes -----------------------------------------------------------------------------

  /** Place one signed order. See placement.ts for the three outcomes and what a throw means. */
  place(body: PlaceRequestBody, opts?: PlaceOptions): Promise<PlaceOutcome> {
    return placeOrder(this.core, this.wallet, body, opts);
  }

  /** Place 1..15 signed orders; per-entry outcomes in request order. */
  placeBatch(bodies: readonly PlaceRequestBody[], opts?: PlaceBatchOptions): Promise<PlaceBatchOutcome> {
    return placeOrderBatch(this.core, this.wallet, bodies, opts);
  }

  cancel(orderId: string, opts?: CallOptions): Promise<CancelOutcome> {
    return cancelOrder(this.core, this.wallet, orderId, opts);
  }

  /** 1..100 ids. */
  cancelBatch(orderIds: readonly string[], opts?: CallOptions): Promise<CancelManyOutcome> {
    return cancelOrderBatch(this.core, this.wallet, orderIds, opts);
  }

  /** Sent once, never repeated; follow up its `pending` ids with `cancelUntilFinal`. */
  cancelAll(q: { marketId?: string } = {}, opts?: CallOptions): Promise<CancelManyOutcome> {
    return cancelAllOrders(this.core, this.wallet, q, opts);
  }

  /** Cancel and repeat for pending ids after Retry-After until final or the deadline. */
  cancelUntilFinal(orderIds: readonly string[], opts: CancelUntilFinalOptions): Promise<CancelUntilFinalReport> {
    return cancelUntilFinal(this.core, this.wallet, orderIds, opts);
  }

  // ---- reads ------------------------------------------------------------------------------

  openPage(q: OpenOrdersQuery = {}, opts?: CallOptions): Promise<Ok<OrdersPage>> {
    const p = withQuery("/api/orders/open", {
      marketId: q.marketId,
      side: q.side,
      outcome: q.outcome,
      type: q.type,
      limit: q.limit,
      cursor: q.cursor,
    });
    return readCall(this.core, this.readSpec(p, opts), ordersPage);
  }

  /** Every page of open orders, newest first, until `nextCursor` is null. */
  openPages(q: OpenOrdersQuery = {}, opts?: CallOptions): AsyncGenerator<Ok<OrdersPage>, void, undefined> {
    return cursorPages((cursor) => this.openPage({ ...q, cursor }, opts), { method: "GET", path: "/api/orders/open" }, q.cursor);
  }

  /** Every open order once, across pages. */
  open(q: OpenOrdersQuery = {}, opts?: CallOptions): AsyncGenerator<OrderRecord, void, undefined> {
    return uniqueItems(this.openPages(q, opts), (p) => p.orders, (o) => o.id);
  }

  historyPage(q: OrderHistoryQuery = {}, opts?: CallOptions): Promise<Ok<OrdersPage>> {
    const p = withQuery("/api/orders/history", {
      marketId: q.marketId,
      side: q.side,
      outcome: q.outcome,
      type: q.type,
      status: q.status,
      limit: q.limit,
      cursor: q.cursor,
    });
    return readCall(this.core, this.readSpec(p, opts), ordersPage);
  }

  historyPages(q: OrderHistoryQuery = {}, opts?: CallOptions): AsyncGenerator<Ok<OrdersPage>, void, undefined> {
    return cursorPages((cursor) => this.historyPage({ ...q, cursor }, opts), { method: "GET", path: "/api/orders/history" }, q.cursor);
  }

  history(q: OrderHistoryQuery = {}, opts?: CallOptions): AsyncGenerator<OrderRecord, void, undefined> {
    return uniqueItems(this.historyPages(q, opts), (p) => p.orders, (o) => o.id);
  }

  /** Final status and fill total. */
  get(orderId: string, opts?: CallOptions): Promise<Ok<OrderRecord>> {
    return readCall(this.core, this.readSpec(path`/api/orders/${orderId}`, opts), orderRecord);
  }

  fills(orderId: string, opts?: CallOptions): Promise<Ok<OrderFills>> {
    return readCall(this.core, this.readSpec(path`/api/orders/${orderId}/fills`, opts), orderFills);
  }

  feesSummary(orderId: string, opts?: CallOptions): Promise<Ok<OrderFeesSummary>> {
    return readCall(this.core, this.readSpec(path`/api/orders/${orderId}/fees-summary`, opts), orderFeesSummary);
  }

  /**
   * Find an order by clientOrderId or orderHash (exactly one). `data` is null when the platform
   * answers 404 `order_not_found`: not recorded (yet), which is an answer, not an error.
   */
  lookup(key: OrderLookupKey, opts?: CallOptions): Promise<Ok<OrderRecord | null>> {
    const p = withQuery("/api/orders/lookup", { clientOrderId: key.clientOrderId, orderHash: key.orderHash });
    return readCallOrNull(this.core, this.readSpec(p, opts), orderRecord, ["order_not_found"]);
  }
}
