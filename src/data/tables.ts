/**
 * The sealed form of a segment: one Parquet table per event kind (`seg-000001.trade.parquet`...),
 * plus `book_level` (one row per level of every book). Column names are snake_case for the tools
 * quants use (DuckDB, pandas, polars); times are TIMESTAMP(ms, UTC), money DECIMAL(18,6), every
 * column REQUIRED. Books and their levels join on `seq`; a book's levels are stored bids first
 * (best first), then asks, in `seq` order, so a reader can also walk them by the counts
 * `n_bids` / `n_asks` without joining.
 */
import type { DataEvent, EventKind } from "./events.js";
import { Levels } from "./levels.js";

/** i64 and ts decode to numbers (seq and ms fit in 2^53), money to bigint micros. */
export type ColumnType = "i32" | "i64" | "ts" | "money" | "str" | "bool";

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  /** Stored DELTA_BINARY_PACKED whatever the type's default (parquet.ts `ENCODING`). */
  delta?: boolean;
}

export type TableName = EventKind | "book_level";

/** A decoded column. */
export type ColumnData = Int32Array | Float64Array | BigInt64Array | string[] | Uint8Array;

const c = (name: string, type: ColumnType, delta = false): ColumnSpec => ({ name, type, ...(delta ? { delta } : {}) });
const BASE = [c("seq", "i64"), c("ts", "ts")];

export const TABLES: Readonly<Record<TableName, readonly ColumnSpec[]>> = {
  market: [...BASE, c("symbol", "str"), c("status", "str"), c("row", "str")],
  book: [...BASE, c("symbol", "str"), c("outcome", "i32"), c("server_ts", "ts"), c("n_bids", "i32"), c("n_asks", "i32")],
  book_level: [c("seq", "i64", true), c("side", "str"), c("level", "i32", true), c("price", "money"), c("quantity", "money")],
  trade: [...BASE, c("symbol", "str"), c("outcome", "i32"), c("id", "str"), c("side", "str"), c("price", "money"), c("quantity", "money"), c("trade_ts", "ts")],
  gap: [...BASE, c("symbol", "str"), c("from_ts", "ts"), c("to_ts", "ts"), c("reason", "str")],
  order: [
    ...BASE,
    c("action", "str"),
    c("wallet", "str"),
    c("symbol", "str"),
    c("outcome", "i32"),
    c("client_order_id", "str"),
    c("order_id", "str"),
    c("side", "str"),
    c("price", "money"),
    c("quantity", "money"),
    c("post_only", "bool"),
  ],
  ack: [...BASE, c("action", "str"), c("wallet", "str"), c("client_order_id", "str"), c("order_id", "str"), c("status", "str"), c("code", "str")],
  fill: [
    ...BASE,
    c("wallet", "str"),
    c("symbol", "str"),
    c("outcome", "i32"),
    c("order_id", "str"),
    c("client_order_id", "str"),
    c("trade_id", "str"),
    c("side", "str"),
    c("role", "str"),
    c("price", "money"),
    c("quantity", "money"),
    c("fee", "money"),
    c("trade_ts", "ts"),
  ],
  latency: [...BASE, c("method", "str"), c("route", "str"), c("route_class", "str"), c("status", "i32"), c("latency_ms", "i32"), c("server_ts", "ts")],
};

/** Values as the writer takes them: numbers, bigints, strings, booleans. */
export type ColumnValues = (number | bigint | string | boolean)[];

/** The columns of every table with rows, from the events of one segment (in seq order). */
export function tablesOf(events: readonly DataEvent[]): Map<TableName, Map<string, ColumnValues>> {
  const out = new Map<TableName, Map<string, ColumnValues>>();
  const cols = (t: TableName): Map<string, ColumnValues> => {
    let m = out.get(t);
    if (m === undefined) {
      m = new Map(TABLES[t].map((s) => [s.name, []]));
      out.set(t, m);
    }
    return m;
  };
  const push = (m: Map<string, ColumnValues>, row: Record<string, number | bigint | string | boolean>): void => {
    for (const [k, v] of Object.entries(row)) m.get(k)!.push(v);
  };
  for (const e of events) {
    const b = { seq: e.seq, ts: e.ts };
    switch (e.kind) {
      case "market":
        push(cols("market"), { ...b, symbol: e.symbol, status: e.status, row: e.row });
        break;
      case "book": {
        push(cols("book"), { ...b, symbol: e.symbol, outcome: e.outcome, server_ts: e.serverTs, n_bids: e.bids.length, n_asks: e.asks.length });
        const lv = cols("book_level");
        for (const [side, l] of [["bid", e.bids], ["ask", e.asks]] as const) {
          for (let i = 0; i < l.length; i++) push(lv, { seq: e.seq, side, level: i, price: l.price(i), quantity: l.quantity(i) });
        }
        break;
      }
      case "trade":
        push(cols("trade"), { ...b, symbol: e.symbol, outcome: e.outcome, id: e.id, side: e.side, price: e.price, quantity: e.quantity, trade_ts: e.tradeTs });
        break;
      case "gap":
        push(cols("gap"), { ...b, symbol: e.symbol, from_ts: e.fromTs, to_ts: e.toTs, reason: e.reason });
        break;
      case "order":
        push(cols("order"), {
          ...b,
          action: e.action ?? "place",
          wallet: e.wallet,
          symbol: e.symbol,
          outcome: e.outcome,
          client_order_id: e.clientOrderId,
          order_id: e.orderId ?? "",
          side: e.side,
          price: e.price,
          quantity: e.quantity,
          post_only: e.postOnly,
        });
        break;
      case "ack":
        push(cols("ack"), { ...b, action: e.action ?? "place", wallet: e.wallet, client_order_id: e.clientOrderId, order_id: e.orderId, status: e.status, code: e.code });
        break;
      case "fill":
        push(cols("fill"), {
          ...b,
          wallet: e.wallet,
          symbol: e.symbol,
          outcome: e.outcome,
          order_id: e.orderId,
          client_order_id: e.clientOrderId ?? "",
          trade_id: e.tradeId,
          side: e.side,
          role: e.role,
          price: e.price,
          quantity: e.quantity,
          fee: e.fee,
          trade_ts: e.tradeTs,
        });
        break;
      case "latency":
        push(cols("latency"), { ...b, method: e.method, route: e.route, route_class: e.routeClass ?? "", status: e.status, latency_ms: e.latencyMs, server_ts: e.serverTs });
        break;
    }
  }
  return out;
}

export type Decoded = ReadonlyMap<string, ColumnData>;

function col<T extends ColumnData>(d: Decoded, table: TableName, name: string, file: string): T {
  const v = d.get(name);
  if (v === undefined) throw new Error(`${file}: ${table} table has no column ${name}`);
  return v as T;
}

const sideOf = (s: string, file: string): "BUY" | "SELL" => {
  if (s === "BUY" || s === "SELL") return s;
  throw new Error(`${file}: side must be BUY or SELL (got ${JSON.stringify(s)})`);
};

const actionOf = (s: string, file: string): "place" | "cancel" => {
  if (s === "place" || s === "cancel") return s;
  throw new Error(`${file}: action must be place or cancel (got ${JSON.stringify(s)})`);
};

/** A decoded table: its rows' seqs, and the event of a row, made when asked for. */
export interface EventSource {
  seq: Float64Array;
  make(row: number): DataEvent;
}

/**
 * The events of one decoded table. `levels` (the book_level table's price and quantity
 * columns) is needed for books only.
 */
export function sourceOf(
  table: EventKind,
  d: Decoded,
  file: string,
  levels?: { price: BigInt64Array; quantity: BigInt64Array },
): EventSource {
  const seq = col<Float64Array>(d, table, "seq", file);
  const ts = col<Float64Array>(d, table, "ts", file);
  const n = seq.length;
  const str = (name: string) => col<string[]>(d, table, name, file);
  const i32 = (name: string) => col<Int32Array>(d, table, name, file);
  const num = (name: string) => col<Float64Array>(d, table, name, file);
  const money = (name: string) => col<BigInt64Array>(d, table, name, file);
  const none = (): never => {
    throw new Error(`${file}: ${table}: no such table`);
  };
  switch (table) {
    case "market": {
      const [symbol, status, row] = [str("symbol"), str("status"), str("row")];
      return { seq, make: (i) => ({ kind: "market", seq: seq[i]!, ts: ts[i]!, symbol: symbol[i]!, status: status[i]!, row: row[i]! }) };
    }
    case "book": {
      if (levels === undefined) throw new Error(`${file}: books without their book_level table`);
      const [symbol, outcome, serverTs, nb, na] = [str("symbol"), i32("outcome"), num("server_ts"), i32("n_bids"), i32("n_asks")];
      const start = new Int32Array(n);
      let at = 0;
      for (let i = 0; i < n; i++) {
        start[i] = at;
        at += nb[i]! + na[i]!;
      }
      if (at !== levels.price.length) throw new Error(`${file}: books count ${at} levels, the book_level table holds ${levels.price.length}`);
      const { price, quantity } = levels;
      return {
        seq,
        make: (i) => {
          const b = nb[i]!;
          const a = na[i]!;
          const s0 = start[i]!;
          return {
            kind: "book",
            seq: seq[i]!,
            ts: ts[i]!,
            symbol: symbol[i]!,
            outcome: outcome[i]!,
            serverTs: serverTs[i]!,
            bids: b === 0 ? Levels.EMPTY : new Levels(price, quantity, s0, b),
            asks: a === 0 ? Levels.EMPTY : new Levels(price, quantity, s0 + b, a),
          };
        },
      };
    }
    case "trade": {
      const [symbol, outcome, id, side, price, qty, tradeTs] = [str("symbol"), i32("outcome"), str("id"), str("side"), money("price"), money("quantity"), num("trade_ts")];
      return {
        seq,
        make: (i) => ({
          kind: "trade",
          seq: seq[i]!,
          ts: ts[i]!,
          id: id[i]!,
          symbol: symbol[i]!,
          outcome: outcome[i]!,
          side: sideOf(side[i]!, file),
          price: price[i]!,
          quantity: qty[i]!,
          tradeTs: tradeTs[i]!,
        }),
      };
    }
    case "gap": {
      const [symbol, from, to, reason] = [str("symbol"), num("from_ts"), num("to_ts"), str("reason")];
      return { seq, make: (i) => ({ kind: "gap", seq: seq[i]!, ts: ts[i]!, symbol: symbol[i]!, fromTs: from[i]!, toTs: to[i]!, reason: reason[i]! }) };
    }
    case "order": {
      const postOnly = col<Uint8Array>(d, table, "post_only", file);
      const [action, wallet, symbol, outcome, coid, oid, side, price, qty] = [str("action"), str("wallet"), str("symbol"), i32("outcome"), str("client_order_id"), str("order_id"), str("side"), money("price"), money("quantity")];
      return {
        seq,
        make: (i) => ({
          kind: "order",
          seq: seq[i]!,
          ts: ts[i]!,
          action: actionOf(action[i]!, file),
          wallet: wallet[i]!,
          symbol: symbol[i]!,
          outcome: outcome[i]!,
          clientOrderId: coid[i]!,
          orderId: oid[i]!,
          side: side[i] === "" ? "" : sideOf(side[i]!, file),
          price: price[i]!,
          quantity: qty[i]!,
          postOnly: postOnly[i] === 1,
        }),
      };
    }
    case "ack": {
      const [action, wallet, coid, oid, status, code] = [str("action"), str("wallet"), str("client_order_id"), str("order_id"), str("status"), str("code")];
      return {
        seq,
        make: (i) => ({ kind: "ack", seq: seq[i]!, ts: ts[i]!, action: actionOf(action[i]!, file), wallet: wallet[i]!, clientOrderId: coid[i]!, orderId: oid[i]!, status: status[i]!, code: code[i]! }),
      };
    }
    case "fill": {
      const [wallet, symbol, outcome, oid, coid, tid, side, role] = [str("wallet"), str("symbol"), i32("outcome"), str("order_id"), str("client_order_id"), str("trade_id"), str("side"), str("role")];
      const [price, qty, fee, tradeTs] = [money("price"), money("quantity"), money("fee"), num("trade_ts")];
      return {
        seq,
        make: (i) => {
          const r = role[i]!;
          if (r !== "maker" && r !== "taker" && r !== "unknown") throw new Error(`${file}: role must be maker, taker or unknown (got ${JSON.stringify(r)})`);
          return {
            kind: "fill",
            seq: seq[i]!,
            ts: ts[i]!,
            wallet: wallet[i]!,
            symbol: symbol[i]!,
            outcome: outcome[i]!,
            orderId: oid[i]!,
            clientOrderId: coid[i]!,
            tradeId: tid[i]!,
            side: sideOf(side[i]!, file),
            role: r,
            price: price[i]!,
            quantity: qty[i]!,
            fee: fee[i]!,
            tradeTs: tradeTs[i]!,
          };
        },
      };
    }
    case "latency": {
      const [method, route, routeClass, status, lat, serverTs] = [str("method"), str("route"), str("route_class"), i32("status"), i32("latency_ms"), num("server_ts")];
      return {
        seq,
        make: (i) => ({ kind: "latency", seq: seq[i]!, ts: ts[i]!, method: method[i]!, route: route[i]!, routeClass: routeClass[i]!, status: status[i]!, latencyMs: lat[i]!, serverTs: serverTs[i]! }),
      };
    }
  }
  return none();
}
