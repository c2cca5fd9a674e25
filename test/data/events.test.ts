/**
 * A data set's events in their line form (data/events.ts): every kind to a line and back exactly
 * (money as decimal strings, never floats; a book's levels as [price, quantity] pairs; the market
 * row as an object), the optional fields filled with their documented defaults, and the line
 * schema refusing what is not an event (unknown keys, a seventh decimal, a float where a count
 * belongs, a seq of 0), naming the field.
 */
import { describe, expect, it } from "vitest";
import { Levels } from "../../src/data/levels.js";
import { EVENT_KINDS, fromLine, lineSchema, toLine, withDefaults, type DataEvent, type NewEvent } from "../../src/data/events.js";

const TS = 1_800_000_000_000;

/** One event of every kind, optional fields left out. */
const EVENTS: DataEvent[] = [
  { kind: "market", seq: 1, ts: TS, symbol: "A-B", status: "OPEN", row: '{"symbol":"A-B","status":"OPEN","é":"ü"}' },
  { kind: "book", seq: 2, ts: TS, symbol: "A-B", outcome: 1, serverTs: TS - 3, bids: Levels.of([[500_000n, 10_000_000n], [499_000n, 1n]]), asks: Levels.of([[510_000n, 123_456_789n]]) },
  { kind: "trade", seq: 3, ts: TS, id: "t1", symbol: "A-B", outcome: 0, side: "SELL", price: 505_000n, quantity: 2_500_001n, tradeTs: TS - 100 },
  { kind: "gap", seq: 4, ts: TS, symbol: "A-B", fromTs: TS - 1_000, toTs: TS - 10, reason: "page_full" },
  { kind: "order", seq: 5, ts: TS, wallet: "quoter", symbol: "A-B", outcome: 0, clientOrderId: "c1", side: "BUY", price: 400_000n, quantity: 5_000_000n, postOnly: true },
  { kind: "ack", seq: 6, ts: TS, wallet: "quoter", clientOrderId: "c1", orderId: "o1", status: "OPEN", code: "" },
  { kind: "fill", seq: 7, ts: TS, wallet: "quoter", symbol: "A-B", outcome: 0, orderId: "o1", tradeId: "t2", side: "BUY", role: "maker", price: 400_000n, quantity: 1_000_000n, fee: 0n, tradeTs: TS },
  { kind: "latency", seq: 8, ts: TS, method: "POST", route: "/api/orders/place", status: 201, latencyMs: 12, serverTs: TS - 6 },
];

/** Comparable form: levels as arrays. */
const plain = (e: DataEvent) => (e.kind === "book" ? { ...e, bids: e.bids.toArray(), asks: e.asks.toArray() } : e);

describe("the line form", () => {
  it("covers the eight kinds", () => {
    expect([...EVENT_KINDS]).toEqual(["market", "book", "trade", "gap", "order", "ack", "fill", "latency"]);
    expect(EVENTS.map((e) => e.kind)).toEqual([...EVENT_KINDS]);
  });

  it("writes money as decimal strings, levels as pairs and the row as an object", () => {
    const lines = EVENTS.map(toLine);
    expect(lines[0]).toEqual({ kind: "market", seq: 1, ts: TS, symbol: "A-B", status: "OPEN", row: { symbol: "A-B", status: "OPEN", é: "ü" } });
    expect(lines[1]).toMatchObject({ bids: [["0.5", "10"], ["0.499", "0.000001"]], asks: [["0.51", "123.456789"]] });
    expect(lines[2]).toMatchObject({ price: "0.505", quantity: "2.500001" });
    expect(lines[6]).toMatchObject({ price: "0.4", quantity: "1", fee: "0" });
    expect(JSON.stringify(lines)).not.toMatch(/\d\.\d+e|"price":\d/);
  });

  it("fills the optional fields with their defaults", () => {
    const [order, ack, fill, latency] = [EVENTS[4]!, EVENTS[5]!, EVENTS[6]!, EVENTS[7]!].map(toLine);
    expect(order).toMatchObject({ action: "place", orderId: "" });
    expect(ack).toMatchObject({ action: "place" });
    expect(fill).toMatchObject({ clientOrderId: "" });
    expect(latency).toMatchObject({ routeClass: "" });
    const cancel: NewEvent = { kind: "order", action: "cancel", ts: TS, wallet: "w", symbol: "M", outcome: 0, clientOrderId: "", orderId: "o9", side: "", price: 0n, quantity: 0n, postOnly: false };
    expect(withDefaults(cancel)).toEqual(cancel);
    expect(withDefaults({ kind: "latency", ts: TS, method: "GET", route: "/r", status: 200, latencyMs: 1, serverTs: 0 })).toEqual({ kind: "latency", ts: TS, method: "GET", route: "/r", routeClass: "", status: 200, latencyMs: 1, serverTs: 0 });
    expect(withDefaults(EVENTS[2]!)).toBe(EVENTS[2]);
  });

  it("reads every kind back exactly, through JSON text", () => {
    for (const e of EVENTS) {
      const back = fromLine(lineSchema.parse(JSON.parse(JSON.stringify(toLine(e)))));
      expect(plain(back), e.kind).toEqual(plain(withDefaults(e)));
    }
  });

  it("reads a line without its optional fields with the defaults, and an empty book side as no levels", () => {
    const order = lineSchema.parse({ kind: "order", seq: 1, ts: 0, wallet: "w", symbol: "M", outcome: 0, clientOrderId: "c", side: "BUY", price: "0.4", quantity: "1", postOnly: false });
    expect(order).toMatchObject({ action: "place", orderId: "" });
    const book = fromLine(lineSchema.parse({ kind: "book", seq: 1, ts: 0, symbol: "M", outcome: 0, serverTs: 0, bids: [], asks: [["0.6", "-1.5"]] }));
    expect(book.kind === "book" && [book.bids.length, book.asks.toArray()]).toEqual([0, [[600_000n, -1_500_000n]]]);
  });

  it("gives a market row back as compact JSON text", () => {
    const back = fromLine(lineSchema.parse(toLine({ ...(EVENTS[0] as Extract<DataEvent, { kind: "market" }>), row: '{ "b": 1,  "a": [1, 2] }' })));
    expect(back).toMatchObject({ row: '{"b":1,"a":[1,2]}' });
  });
});

describe("the line schema", () => {
  const trade = toLine(EVENTS[2]!) as Record<string, unknown>;
  const problem = (v: unknown): string[] => {
    const r = lineSchema.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}:${i.code}`);
  };

  it("takes a whole line", () => {
    expect(problem(trade)).toEqual([]);
  });

  it.each([
    [{ price: "0.1234567" }, "price:invalid_format"],
    [{ price: 0.5 }, "price:invalid_type"],
    [{ quantity: "1e3" }, "quantity:invalid_format"],
    [{ seq: 0 }, "seq:too_small"],
    [{ ts: -1 }, "ts:too_small"],
    [{ outcome: 1.5 }, "outcome:invalid_type"],
    [{ side: "buy" }, "side:invalid_value"],
    [{ extra: 1 }, ":unrecognized_keys"],
  ] as [Record<string, unknown>, string][])("refuses %o (%s)", (change, issue) => {
    expect(problem({ ...trade, ...change })).toEqual([issue]);
  });

  it("refuses an unknown kind", () => {
    expect(problem({ ...trade, kind: "quote" })).toEqual(["kind:invalid_union"]);
  });
});
