/**
 * The sealed form's tables (data/tables.ts): snake_case columns, seq and ts first in every event
 * table; a segment's events split into the columns of the tables that have rows (a book's levels
 * in book_level, bids then asks, best first; optional fields at their defaults); and decoded
 * columns made back into events, with a file's bad side, role or action, a missing column, or
 * books whose level counts disagree with book_level refused naming the file.
 */
import { describe, expect, it } from "vitest";
import { Levels } from "../../src/data/levels.js";
import type { DataEvent } from "../../src/data/events.js";
import { TABLES, sourceOf, tablesOf, type ColumnData, type Decoded } from "../../src/data/tables.js";

const TS = 1_800_000_000_000;
const FILE = "seg-000001.x.parquet";

describe("the tables", () => {
  it("name their columns in snake_case, event tables starting with seq and ts", () => {
    for (const [name, cols] of Object.entries(TABLES)) {
      for (const c of cols) expect(c.name, `${name}.${c.name}`).toMatch(/^[a-z]+(_[a-z]+)*$/);
      if (name !== "book_level") expect(cols.slice(0, 2), name).toEqual([{ name: "seq", type: "i64" }, { name: "ts", type: "ts" }]);
    }
    expect(TABLES.book_level.map((c) => `${c.name}:${c.type}${c.delta === true ? "+delta" : ""}`)).toEqual(["seq:i64+delta", "side:str", "level:i32+delta", "price:money", "quantity:money"]);
  });
});

describe("a segment's events as columns", () => {
  it("fill only the tables with rows, a book's levels bids first, best first, in seq order", () => {
    const events: DataEvent[] = [
      { kind: "book", seq: 1, ts: TS, symbol: "M", outcome: 0, serverTs: TS - 5, bids: Levels.of([[500_000n, 1n], [490_000n, 2n]]), asks: Levels.of([[510_000n, 3n]]) },
      { kind: "trade", seq: 2, ts: TS + 1, id: "t1", symbol: "M", outcome: 1, side: "SELL", price: 505_000n, quantity: 7n, tradeTs: TS - 9 },
      { kind: "book", seq: 3, ts: TS + 2, symbol: "M", outcome: 1, serverTs: 0, bids: Levels.EMPTY, asks: Levels.of([[600_000n, 4n]]) },
    ];
    const t = tablesOf(events);
    expect([...t.keys()]).toEqual(["book", "book_level", "trade"]);
    expect(Object.fromEntries(t.get("book")!)).toEqual({ seq: [1, 3], ts: [TS, TS + 2], symbol: ["M", "M"], outcome: [0, 1], server_ts: [TS - 5, 0], n_bids: [2, 0], n_asks: [1, 1] });
    expect(Object.fromEntries(t.get("book_level")!)).toEqual({
      seq: [1, 1, 1, 3],
      side: ["bid", "bid", "ask", "ask"],
      level: [0, 1, 0, 0],
      price: [500_000n, 490_000n, 510_000n, 600_000n],
      quantity: [1n, 2n, 3n, 4n],
    });
    expect(Object.fromEntries(t.get("trade")!)).toEqual({ seq: [2], ts: [TS + 1], symbol: ["M"], outcome: [1], id: ["t1"], side: ["SELL"], price: [505_000n], quantity: [7n], trade_ts: [TS - 9] });
  });

  it("store the optional fields at their defaults", () => {
    const t = tablesOf([
      { kind: "order", seq: 1, ts: TS, wallet: "w", symbol: "M", outcome: 0, clientOrderId: "c", side: "BUY", price: 1n, quantity: 2n, postOnly: true },
      { kind: "ack", seq: 2, ts: TS, wallet: "w", clientOrderId: "c", orderId: "o", status: "OPEN", code: "" },
      { kind: "fill", seq: 3, ts: TS, wallet: "w", symbol: "M", outcome: 0, orderId: "o", tradeId: "t", side: "BUY", role: "maker", price: 1n, quantity: 2n, fee: 0n, tradeTs: TS },
      { kind: "latency", seq: 4, ts: TS, method: "POST", route: "/api/orders/place", status: 201, latencyMs: 9, serverTs: TS },
    ]);
    expect(t.get("order")!.get("action")).toEqual(["place"]);
    expect(t.get("order")!.get("order_id")).toEqual([""]);
    expect(t.get("order")!.get("post_only")).toEqual([true]);
    expect(t.get("ack")!.get("action")).toEqual(["place"]);
    expect(t.get("fill")!.get("client_order_id")).toEqual([""]);
    expect(t.get("latency")!.get("route_class")).toEqual([""]);
    expect(t.has("book_level")).toBe(false);
  });
});

/** Decoded columns of one table: i64 and ts as numbers, money as bigints, strings, i32, bools. */
function decoded(cols: Record<string, ColumnData>): Decoded {
  return new Map(Object.entries(cols));
}
const f64 = (...v: number[]) => Float64Array.from(v);
const i32 = (...v: number[]) => Int32Array.from(v);
const big = (...v: bigint[]) => BigInt64Array.from(v);

describe("decoded columns as events", () => {
  it("make each row's event when asked, books as windows over the level columns", () => {
    const books = sourceOf(
      "book",
      decoded({ seq: f64(4, 9), ts: f64(TS, TS + 1), symbol: ["M", "M"], outcome: i32(0, 1), server_ts: f64(TS - 1, 0), n_bids: i32(1, 0), n_asks: i32(2, 0) }),
      FILE,
      { price: big(500_000n, 510_000n, 520_000n), quantity: big(1n, 2n, 3n) },
    );
    expect([...books.seq]).toEqual([4, 9]);
    const b0 = books.make(0);
    expect(b0.kind === "book" && { ...b0, bids: b0.bids.toArray(), asks: b0.asks.toArray() }).toEqual({
      kind: "book",
      seq: 4,
      ts: TS,
      symbol: "M",
      outcome: 0,
      serverTs: TS - 1,
      bids: [[500_000n, 1n]],
      asks: [[510_000n, 2n], [520_000n, 3n]],
    });
    const b1 = books.make(1);
    expect(b1.kind === "book" && [b1.bids, b1.asks]).toEqual([Levels.EMPTY, Levels.EMPTY]);
  });

  it("make orders, fills and latencies with every field", () => {
    const order = sourceOf(
      "order",
      decoded({ seq: f64(1, 2), ts: f64(TS, TS), action: ["place", "cancel"], wallet: ["w", "w"], symbol: ["M", "M"], outcome: i32(0, 0), client_order_id: ["c", ""], order_id: ["", "o9"], side: ["BUY", ""], price: big(1n, 0n), quantity: big(2n, 0n), post_only: Uint8Array.from([1, 0]) }),
      FILE,
    );
    expect(order.make(0)).toEqual({ kind: "order", seq: 1, ts: TS, action: "place", wallet: "w", symbol: "M", outcome: 0, clientOrderId: "c", orderId: "", side: "BUY", price: 1n, quantity: 2n, postOnly: true });
    expect(order.make(1)).toMatchObject({ action: "cancel", orderId: "o9", side: "", postOnly: false });
    const fill = sourceOf(
      "fill",
      decoded({ seq: f64(3), ts: f64(TS), wallet: ["w"], symbol: ["M"], outcome: i32(1), order_id: ["o"], client_order_id: ["c"], trade_id: ["t"], side: ["SELL"], role: ["taker"], price: big(3n), quantity: big(4n), fee: big(5n), trade_ts: f64(TS - 2) }),
      FILE,
    );
    expect(fill.make(0)).toEqual({ kind: "fill", seq: 3, ts: TS, wallet: "w", symbol: "M", outcome: 1, orderId: "o", clientOrderId: "c", tradeId: "t", side: "SELL", role: "taker", price: 3n, quantity: 4n, fee: 5n, tradeTs: TS - 2 });
    const latency = sourceOf("latency", decoded({ seq: f64(5), ts: f64(TS), method: ["POST"], route: ["/r"], route_class: ["place"], status: i32(201), latency_ms: i32(12), server_ts: f64(TS - 6) }), FILE);
    expect(latency.make(0)).toEqual({ kind: "latency", seq: 5, ts: TS, method: "POST", route: "/r", routeClass: "place", status: 201, latencyMs: 12, serverTs: TS - 6 });
  });

  it("refuse what a file cannot hold, naming it", () => {
    const trade = (side: string) => decoded({ seq: f64(1), ts: f64(TS), symbol: ["M"], outcome: i32(0), id: ["t"], side: [side], price: big(1n), quantity: big(1n), trade_ts: f64(TS) });
    expect(() => sourceOf("trade", trade("HOLD"), FILE).make(0)).toThrow(`${FILE}: side must be BUY or SELL (got "HOLD")`);
    const noPrice = decoded({ seq: f64(1), ts: f64(TS), symbol: ["M"], outcome: i32(0), id: ["t"], side: ["BUY"], quantity: big(1n), trade_ts: f64(TS) });
    expect(() => sourceOf("trade", noPrice, FILE)).toThrow(`${FILE}: trade table has no column price`);
    const ack = decoded({ seq: f64(1), ts: f64(TS), action: ["amend"], wallet: ["w"], client_order_id: ["c"], order_id: ["o"], status: ["OPEN"], code: [""] });
    expect(() => sourceOf("ack", ack, FILE).make(0)).toThrow(`${FILE}: action must be place or cancel (got "amend")`);
    const fill = decoded({ seq: f64(1), ts: f64(TS), wallet: ["w"], symbol: ["M"], outcome: i32(0), order_id: ["o"], client_order_id: [""], trade_id: ["t"], side: ["BUY"], role: ["both"], price: big(1n), quantity: big(1n), fee: big(0n), trade_ts: f64(TS) });
    expect(() => sourceOf("fill", fill, FILE).make(0)).toThrow(`${FILE}: role must be maker, taker or unknown (got "both")`);
    const book = decoded({ seq: f64(1), ts: f64(TS), symbol: ["M"], outcome: i32(0), server_ts: f64(0), n_bids: i32(2), n_asks: i32(1) });
    expect(() => sourceOf("book", book, FILE)).toThrow(`${FILE}: books without their book_level table`);
    expect(() => sourceOf("book", book, FILE, { price: big(1n, 2n), quantity: big(1n, 2n) })).toThrow(`${FILE}: books count 3 levels, the book_level table holds 2`);
  });
});
