/**
 * User WebSocket frames (spec 6; payloads and subscribe protocol in docs/spec-gaps.md).
 *
 * `parseServerFrame` never throws: a frame is known (validated), of an unknown kind (surfaced
 * with its raw data: the spec says the full list of kinds is not shown), or invalid (with a
 * message naming the bad field).
 */
import { z } from "zod";
import { describeZodError } from "../core/validation.js";
import { fillRole, orderStatus, side } from "./enums.js";
import { address, amountString, epochMillis, nonNegativeInt, priceString, uint256String } from "./primitives.js";

export const USER_ORDERS_CHANNEL = "user_orders";
export const KNOWN_CHANNELS = [USER_ORDERS_CHANNEL] as const;

const orderFrameBase = {
  channel: z.string(),
  serverTs: epochMillis,
  walletAddress: address,
  orderId: z.string(),
  clientOrderId: z.string().nullable(),
  marketId: z.string(),
};

export const orderPlacedFrame = z.looseObject({
  type: z.literal("order_placed"),
  ...orderFrameBase,
  tokenId: uint256String,
  outcome: nonNegativeInt,
  side,
  price: priceString,
  originalQuantity: amountString,
  remainingQty: amountString,
  status: orderStatus,
});
export type OrderPlacedFrame = z.infer<typeof orderPlacedFrame>;

/** `originalQuantity - remainingQty` is what had filled by then, not a final total (spec 6). */
const orderEndedFields = {
  ...orderFrameBase,
  originalQuantity: amountString,
  remainingQty: amountString,
  status: orderStatus,
};

export const orderCancelledFrame = z.looseObject({ type: z.literal("order_cancelled"), ...orderEndedFields });
export type OrderCancelledFrame = z.infer<typeof orderCancelledFrame>;

export const orderExpiredFrame = z.looseObject({ type: z.literal("order_expired"), ...orderEndedFields });
export type OrderExpiredFrame = z.infer<typeof orderExpiredFrame>;

/**
 * `role` is missing on fills recorded before 2026-10-09: missing (or null) means UNKNOWN, never
 * taker. Normalised to undefined so readers have one "unknown" value to test.
 */
export const userFillFrame = z.looseObject({
  type: z.literal("user_fill"),
  ...orderFrameBase,
  tradeId: z.string(),
  tokenId: uint256String,
  outcome: nonNegativeInt,
  side,
  price: priceString,
  quantity: amountString,
  fee: amountString,
  role: fillRole
    .nullish()
    .transform((r) => r ?? undefined)
    .optional(),
  orderStatus,
  filledQty: amountString,
  remainingQty: amountString,
});
export type UserFillFrame = z.infer<typeof userFillFrame>;

export const subscribedFrame = z.looseObject({
  type: z.literal("subscribed"),
  channel: z.string(),
  serverTs: epochMillis,
});
export type SubscribedFrame = z.infer<typeof subscribedFrame>;

export const pingFrame = z.looseObject({ type: z.literal("ping"), serverTs: epochMillis });
export type PingFrame = z.infer<typeof pingFrame>;

export const pongFrame = z.looseObject({ type: z.literal("pong"), serverTs: epochMillis });
export type PongFrame = z.infer<typeof pongFrame>;

export const errorFrame = z.looseObject({
  type: z.literal("error"),
  code: z.string(),
  message: z.string(),
  serverTs: epochMillis.optional(),
  channel: z.string().optional(),
});
export type ErrorFrame = z.infer<typeof errorFrame>;

export const SERVER_FRAME_SCHEMAS = {
  order_placed: orderPlacedFrame,
  order_cancelled: orderCancelledFrame,
  order_expired: orderExpiredFrame,
  user_fill: userFillFrame,
  subscribed: subscribedFrame,
  ping: pingFrame,
  pong: pongFrame,
  error: errorFrame,
} as const;

export type ServerFrameType = keyof typeof SERVER_FRAME_SCHEMAS;
export const SERVER_FRAME_TYPES = Object.keys(SERVER_FRAME_SCHEMAS) as ServerFrameType[];

export const serverFrame = z.discriminatedUnion("type", [
  orderPlacedFrame,
  orderCancelledFrame,
  orderExpiredFrame,
  userFillFrame,
  subscribedFrame,
  pingFrame,
  pongFrame,
  errorFrame,
]);
export type ServerFrame = z.infer<typeof serverFrame>;
/** What a server builds and sends (before normalisation, e.g. `role: null` allowed). */
export type ServerFrameInput = z.input<typeof serverFrame>;

export type ParsedFrame<F> =
  | { kind: "frame"; frame: F }
  | { kind: "unknown"; type: string; data: Record<string, unknown> }
  | { kind: "invalid"; message: string; raw: unknown };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseFrame<F>(
  input: unknown,
  schemas: Readonly<Record<string, z.ZodType<F>>>,
): ParsedFrame<F> {
  let raw = input;
  if (typeof input === "string") {
    try {
      raw = JSON.parse(input) as unknown;
    } catch {
      return { kind: "invalid", message: "frame is not valid JSON", raw: input };
    }
  }
  if (!isRecord(raw)) return { kind: "invalid", message: "frame is not a JSON object", raw };
  const type = raw.type;
  if (typeof type !== "string") return { kind: "invalid", message: "type: expected a string frame type", raw };
  const schema = Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (schema === undefined) return { kind: "unknown", type, data: raw };
  const result = schema.safeParse(raw);
  if (!result.success) return { kind: "invalid", message: `${type}: ${describeZodError(result.error)}`, raw };
  return { kind: "frame", frame: result.data };
}

/** Parse a frame from the server (text as received, or an already-parsed object). */
export function parseServerFrame(input: unknown): ParsedFrame<ServerFrame> {
  return parseFrame<ServerFrame>(input, SERVER_FRAME_SCHEMAS);
}

// ---- client -> server ------------------------------------------------------------------------

/** The channel is any string here so the server can answer an unknown one with an error frame. */
export const subscribeFrame = z.strictObject({ type: z.literal("subscribe"), channel: z.string().min(1) });
export type SubscribeFrame = z.infer<typeof subscribeFrame>;

export const clientPingFrame = z.strictObject({ type: z.literal("ping") });
export type ClientPingFrame = z.infer<typeof clientPingFrame>;

export const CLIENT_FRAME_SCHEMAS = { subscribe: subscribeFrame, ping: clientPingFrame } as const;
export const clientFrame = z.discriminatedUnion("type", [subscribeFrame, clientPingFrame]);
export type ClientFrame = z.infer<typeof clientFrame>;

/** Parse a frame from a client (simulator side); same three outcomes. */
export function parseClientFrame(input: unknown): ParsedFrame<ClientFrame> {
  return parseFrame<ClientFrame>(input, CLIENT_FRAME_SCHEMAS);
}

export function subscribeMessage(channel: string = USER_ORDERS_CHANNEL): SubscribeFrame {
  return { type: "subscribe", channel };
}
