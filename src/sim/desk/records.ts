/**
 * Order records of the desk: every order placed through the API (the engine keeps only live
 * orders), with the indexes the reads need: by id, by (wallet, clientOrderId), by (wallet,
 * orderHash), a wallet's orders in creation order (history) and its live ones (open orders).
 * Orders of the synthetic flow are engine-only and never recorded here.
 */
import type { Micros } from "../../core/money.js";
import type { Side } from "../../core/amounts.js";
import type { OrderStatus } from "../../wire/enums.js";
import type { EndReason, OrderInfo, OrderType, TradeRecord } from "../engine/index.js";
import { compareKeys, isBelow, type Cursor, type Key } from "./cursor.js";
import { orderRecordJson, type OrderRecordJson, type OrderRecordSource } from "../../wire/order-record.js";
import type { PlacementJson } from "./format.js";

export interface CancelRequest {
  /** pending: recorded, answered 202, not executed yet; done: executed (or found already ended). */
  state: "pending" | "done";
  requestedAtMs: number;
  completeAtMs: number;
}

/** An order as the desk keeps it: the record's fields (src/wire/order-record.ts; `orderHash` the EIP-712 digest, lower-case 0x-hex; `marketId` the market's symbol) and the rest of its life. */
export interface DeskOrder extends OrderRecordSource {
  filledQty: Micros;
  remainingQty: Micros;
  status: OrderStatus;
  updatedAtMs: number;
  feesPaid: Micros;
  endReason: EndReason | undefined;
  /** This order's fills, oldest first. */
  readonly trades: TradeRecord[];
  /** The placement result first answered (replayed for a repeated clientOrderId). */
  placement: PlacementJson | undefined;
  cancel: CancelRequest | undefined;
}

/** The order record on the wire (one serializer with the paper account's, src/wire/order-record.ts). */
export type OrderJson = OrderRecordJson;

export function orderJson(o: DeskOrder): OrderJson {
  return orderRecordJson(o, o.filledQty, o.remainingQty);
}

export const TERMINAL: ReadonlySet<OrderStatus> = new Set(["FILLED", "CANCELLED", "EXPIRED", "REJECTED"]);

export function keyOf(o: DeskOrder): Key {
  return { ms: o.createdAtMs, id: o.id };
}

export interface OrderFilter {
  marketId?: string;
  side?: Side;
  outcome?: number;
  type?: OrderType;
  status?: OrderStatus;
}

function matches(o: DeskOrder, f: OrderFilter): boolean {
  return (
    (f.marketId === undefined || o.marketId === f.marketId) &&
    (f.side === undefined || o.side === f.side) &&
    (f.outcome === undefined || o.outcome === f.outcome) &&
    (f.type === undefined || o.type === f.type) &&
    (f.status === undefined || o.status === f.status)
  );
}

export interface Page {
  orders: DeskOrder[];
  /** Key of the last row when more rows follow, else null. */
  next: Key | null;
}

function nestedGet<V>(m: Map<string, Map<string, V>>, a: string, b: string): V | undefined {
  return m.get(a)?.get(b);
}

function nestedSet<V>(m: Map<string, Map<string, V>>, a: string, b: string, v: V): void {
  let inner = m.get(a);
  if (inner === undefined) m.set(a, (inner = new Map<string, V>()));
  inner.set(b, v);
}

export class OrderRecords {
  private readonly byId = new Map<string, DeskOrder>();
  private readonly byClientId = new Map<string, Map<string, DeskOrder>>();
  private readonly byHash = new Map<string, Map<string, DeskOrder>>();
  /** Per wallet, in creation order (keys ascending). */
  private readonly history = new Map<string, DeskOrder[]>();
  private readonly live = new Map<string, Map<string, DeskOrder>>();

  get size(): number {
    return this.byId.size;
  }

  add(o: DeskOrder): void {
    if (this.byId.has(o.id)) throw new Error(`order ${o.id} is already recorded`);
    this.byId.set(o.id, o);
    if (o.clientOrderId !== null) nestedSet(this.byClientId, o.wallet, o.clientOrderId, o);
    nestedSet(this.byHash, o.wallet, o.orderHash, o);
    let list = this.history.get(o.wallet);
    if (list === undefined) this.history.set(o.wallet, (list = []));
    list.push(o);
    if (!TERMINAL.has(o.status)) nestedSet(this.live, o.wallet, o.id, o);
  }

  get(id: string): DeskOrder | undefined {
    return this.byId.get(id);
  }

  byClientOrderId(wallet: string, clientOrderId: string): DeskOrder | undefined {
    return nestedGet(this.byClientId, wallet, clientOrderId);
  }

  byOrderHash(wallet: string, orderHash: string): DeskOrder | undefined {
    return nestedGet(this.byHash, wallet, orderHash.toLowerCase());
  }

  /** Bring a record up to date with the engine's snapshot of the order. */
  update(o: DeskOrder, info: OrderInfo): void {
    o.filledQty = info.filledQty;
    o.remainingQty = info.remainingQty;
    o.status = info.status;
    o.updatedAtMs = info.updatedAtMs;
    o.feesPaid = info.feesPaid;
    o.endReason = info.endReason;
    if (TERMINAL.has(o.status)) this.live.get(o.wallet)?.delete(o.id);
  }

  /** The matcher refused a recorded order. */
  markRejected(o: DeskOrder, nowMs: number): void {
    o.status = "REJECTED";
    o.remainingQty = 0n;
    o.updatedAtMs = nowMs;
    this.live.get(o.wallet)?.delete(o.id);
  }

  /** A wallet's live orders (any order). */
  liveOf(wallet: string): DeskOrder[] {
    const m = this.live.get(wallet);
    return m === undefined ? [] : [...m.values()];
  }

  /** Open orders page: live orders, newest first, strictly below the cursor. */
  openPage(wallet: string, filter: OrderFilter, cursor: Cursor | undefined, limit: number): Page {
    const rows = this.liveOf(wallet).filter((o) => matches(o, filter) && isBelow(keyOf(o), cursor));
    rows.sort((a, b) => compareKeys(keyOf(b), keyOf(a)));
    return cut(rows, limit);
  }

  /** History page: every recorded order of the wallet, newest first, strictly below the cursor. */
  historyPage(wallet: string, filter: OrderFilter, cursor: Cursor | undefined, limit: number): Page {
    const list = this.history.get(wallet) ?? [];
    const out: DeskOrder[] = [];
    for (let i = startBelow(list, cursor); i >= 0 && out.length <= limit; i--) {
      const o = list[i]!;
      if (matches(o, filter)) out.push(o);
    }
    return cut(out, limit);
  }
}

function cut(rows: DeskOrder[], limit: number): Page {
  if (rows.length <= limit) return { orders: rows, next: null };
  const orders = rows.slice(0, limit);
  return { orders, next: keyOf(orders[orders.length - 1]!) };
}

/** Index of the newest row strictly below the cursor in an ascending list (binary search). */
function startBelow(list: readonly DeskOrder[], cursor: Cursor | undefined): number {
  if (cursor === undefined) return list.length - 1;
  let lo = 0;
  let hi = list.length;
  // First index whose key is NOT below the cursor; everything before it is below.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isBelow(keyOf(list[mid]!), cursor)) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
