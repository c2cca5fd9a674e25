/**
 * The events of a recorded data set (docs/backtest.md, "Recording"): what the platform published
 * (market rows, order books, public trades, gaps in the trades) and, later, what a daemon did
 * (its orders, the platform's acknowledgements, its fills, its request latencies).
 *
 * Every event has `seq` (1, 2, 3... in the order written, across the whole data set: the replay
 * order) and `ts` (the local clock when it was recorded, ms since the epoch: the receive time of
 * what the platform sent). Money is bigint micro-units here, decimal strings in the line log and
 * DECIMAL(18,6) in Parquet; never a float.
 *
 * `lineSchema` is the zod schema of one line of the hot segment (JSON text, one event per line);
 * `toLine` / `fromLine` convert between the two forms.
 */
import { z } from "zod";
import { formatMicros, parseMicros, type Micros } from "../core/money.js";
import { Levels } from "./levels.js";

interface Base {
  seq: number;
  /** Local time when recorded, ms. */
  ts: number;
}

/** A market row, on first sight and whenever its status, lifecycle or trading window changed. */
export interface MarketEvent extends Base {
  kind: "market";
  symbol: string;
  status: string;
  /** The whole row (spec 2.6 MarketSummary) as JSON text. */
  row: string;
}

/** One outcome's book as served, with the answer's X-Server-Time (0 when it carried none). */
export interface BookEvent extends Base {
  kind: "book";
  symbol: string;
  outcome: number;
  serverTs: number;
  bids: Levels;
  asks: Levels;
}

/** A public trade (price and side are the taker's). */
export interface TradeEvent extends Base {
  kind: "trade";
  id: string;
  symbol: string;
  outcome: number;
  side: "BUY" | "SELL";
  price: Micros;
  quantity: Micros;
  /** The platform's createdAt, ms. */
  tradeTs: number;
}

/** Trades of `symbol` stamped in (fromTs, toTs) may be missing from the data set. */
export interface GapEvent extends Base {
  kind: "gap";
  symbol: string;
  fromTs: number;
  toTs: number;
  reason: string;
}

/** What an own-order request asked: a placement or a cancel. */
export type OrderAction = "place" | "cancel";

/**
 * A request the daemon sent about one of its orders (`record:` in the daemon config), at the time
 * it left: a placement (every field from the request body) or a cancel (by `orderId`; the order's
 * client id, side, price and size when the recording saw it placed, else "", "", 0, 0). `wallet`
 * is the wallet's name in the config. Fields marked optional default on write (`withDefaults`).
 */
export interface OrderEvent extends Base {
  kind: "order";
  /** Default "place". */
  action?: OrderAction;
  wallet: string;
  symbol: string;
  outcome: number;
  clientOrderId: string;
  /** The platform's order id (cancels); "" for placements. Default "". */
  orderId?: string;
  /** "" on a cancel of an order the recording did not see placed. */
  side: "BUY" | "SELL" | "";
  price: Micros;
  quantity: Micros;
  postOnly: boolean;
}

/**
 * The platform's answer to a placement or cancel: the status (OPEN/PARTIAL/FILLED, REJECTED,
 * UNKNOWN while the outcome is not known; CANCELLED/FILLED/pending for cancels) and `code`, empty
 * unless refused.
 */
export interface AckEvent extends Base {
  kind: "ack";
  /** Default "place". */
  action?: OrderAction;
  wallet: string;
  clientOrderId: string;
  orderId: string;
  status: string;
  code: string;
}

/** A fill of one of the daemon's orders. */
export interface FillEvent extends Base {
  kind: "fill";
  wallet: string;
  symbol: string;
  outcome: number;
  orderId: string;
  /** The order's client id when known; default "". */
  clientOrderId?: string;
  tradeId: string;
  side: "BUY" | "SELL";
  role: "maker" | "taker" | "unknown";
  price: Micros;
  quantity: Micros;
  fee: Micros;
  tradeTs: number;
}

/** One REST request of the daemon: sent at `ts - latencyMs`, answered at `ts`. */
export interface LatencyEvent extends Base {
  kind: "latency";
  method: string;
  /** The route (`/api/orders/place`), not the full path. */
  route: string;
  /** The rate table's request class (cancel, place, vault, withdrawal, read); default "". */
  routeClass?: string;
  status: number;
  latencyMs: number;
  serverTs: number;
}

export type DataEvent = MarketEvent | BookEvent | TradeEvent | GapEvent | OrderEvent | AckEvent | FillEvent | LatencyEvent;
export type EventKind = DataEvent["kind"];
export const EVENT_KINDS = ["market", "book", "trade", "gap", "order", "ack", "fill", "latency"] as const satisfies readonly EventKind[];

/** An event before the writer gives it its `seq`. */
export type NewEvent = DataEvent extends infer E ? (E extends DataEvent ? Omit<E, "seq"> : never) : never;

// ---- the line form --------------------------------------------------------------------------

const ms = z.number().int().nonnegative();
const count = z.number().int().nonnegative();
const money = z.string().regex(/^-?\d+(\.\d{1,6})?$/, "expected a decimal string with at most 6 decimals");
const text = z.string();
const side = z.enum(["BUY", "SELL"]);
const level = z.tuple([money, money]);
const base = { seq: z.number().int().positive(), ts: ms };
const action = z.enum(["place", "cancel"]).default("place");

export const lineSchemas = {
  market: z.strictObject({ kind: z.literal("market"), ...base, symbol: text, status: text, row: z.record(z.string(), z.unknown()) }),
  book: z.strictObject({ kind: z.literal("book"), ...base, symbol: text, outcome: count, serverTs: ms, bids: z.array(level), asks: z.array(level) }),
  trade: z.strictObject({ kind: z.literal("trade"), ...base, id: text, symbol: text, outcome: count, side, price: money, quantity: money, tradeTs: ms }),
  gap: z.strictObject({ kind: z.literal("gap"), ...base, symbol: text, fromTs: ms, toTs: ms, reason: text }),
  order: z.strictObject({
    kind: z.literal("order"),
    ...base,
    action,
    wallet: text,
    symbol: text,
    outcome: count,
    clientOrderId: text,
    orderId: text.default(""),
    side: z.enum(["BUY", "SELL", ""]),
    price: money,
    quantity: money,
    postOnly: z.boolean(),
  }),
  ack: z.strictObject({ kind: z.literal("ack"), ...base, action, wallet: text, clientOrderId: text, orderId: text, status: text, code: text }),
  fill: z.strictObject({
    kind: z.literal("fill"),
    ...base,
    wallet: text,
    symbol: text,
    outcome: count,
    orderId: text,
    clientOrderId: text.default(""),
    tradeId: text,
    side,
    role: z.enum(["maker", "taker", "unknown"]),
    price: money,
    quantity: money,
    fee: money,
    tradeTs: ms,
  }),
  latency: z.strictObject({ kind: z.literal("latency"), ...base, method: text, route: text, routeClass: text.default(""), status: count, latencyMs: count, serverTs: ms }),
} as const;

export const lineSchema = z.discriminatedUnion("kind", [
  lineSchemas.market,
  lineSchemas.book,
  lineSchemas.trade,
  lineSchemas.gap,
  lineSchemas.order,
  lineSchemas.ack,
  lineSchemas.fill,
  lineSchemas.latency,
]);
export type EventLine = z.infer<typeof lineSchema>;

/**
 * The event with every optional field filled in (what the writer stores and a reader gives back):
 * order and ack `action` "place", order `orderId` "", fill `clientOrderId` "", latency `routeClass` "".
 */
export function withDefaults<E extends DataEvent | NewEvent>(e: E): E {
  switch (e.kind) {
    case "order":
      return { ...e, action: e.action ?? "place", orderId: e.orderId ?? "" };
    case "ack":
      return { ...e, action: e.action ?? "place" };
    case "fill":
      return { ...e, clientOrderId: e.clientOrderId ?? "" };
    case "latency":
      return { ...e, routeClass: e.routeClass ?? "" };
    default:
      return e;
  }
}

const levelsOut = (l: Levels): [string, string][] => l.toArray().map(([p, q]) => [formatMicros(p), formatMicros(q)]);
const levelsIn = (l: readonly (readonly [string, string])[]): Levels =>
  l.length === 0 ? Levels.EMPTY : Levels.of(l.map(([p, q]) => [parseMicros(p), parseMicros(q)] as const));

/** The line-log form of an event (money as decimal strings, the market row as an object). */
export function toLine(e: DataEvent): EventLine {
  switch (e.kind) {
    case "market":
      return { ...e, row: JSON.parse(e.row) as Record<string, unknown> };
    case "book":
      return { ...e, bids: levelsOut(e.bids), asks: levelsOut(e.asks) };
    case "trade":
      return { ...e, price: formatMicros(e.price), quantity: formatMicros(e.quantity) };
    case "order":
      return { ...e, action: e.action ?? "place", orderId: e.orderId ?? "", price: formatMicros(e.price), quantity: formatMicros(e.quantity) };
    case "fill":
      return { ...e, clientOrderId: e.clientOrderId ?? "", price: formatMicros(e.price), quantity: formatMicros(e.quantity), fee: formatMicros(e.fee) };
    case "ack":
      return { ...e, action: e.action ?? "place" };
    case "latency":
      return { ...e, routeClass: e.routeClass ?? "" };
    default:
      return e;
  }
}

/** The event of a line already checked by `lineSchema`. */
export function fromLine(l: EventLine): DataEvent {
  switch (l.kind) {
    case "market":
      return { ...l, row: JSON.stringify(l.row) };
    case "book":
      return { ...l, bids: levelsIn(l.bids), asks: levelsIn(l.asks) };
    case "trade":
    case "order":
      return { ...l, price: parseMicros(l.price), quantity: parseMicros(l.quantity) };
    case "fill":
      return { ...l, price: parseMicros(l.price), quantity: parseMicros(l.quantity), fee: parseMicros(l.fee) };
    default:
      return l;
  }
}
