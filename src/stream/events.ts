/**
 * What a UserStream tells its caller. Every payload is plain data with no secret in it: the API
 * key never appears in an event, an error message or the stats.
 */
import type { OrderCancelledFrame, OrderExpiredFrame, OrderPlacedFrame, UserFillFrame } from "../wire/frames.js";

/** The order-lifecycle frames of `user_orders` (spec 6), validated and typed. */
export type UserOrderFrame = OrderPlacedFrame | OrderCancelledFrame | OrderExpiredFrame | UserFillFrame;
export type UserOrderFrameType = UserOrderFrame["type"];
export const USER_ORDER_FRAME_TYPES: readonly UserOrderFrameType[] = [
  "order_placed",
  "order_cancelled",
  "order_expired",
  "user_fill",
];

export interface ConnectedEvent {
  /** 1-based attempt within the current streak (a streak starts at start() or when an open connection is lost). */
  attempt: number;
  /** Local clock, ms. */
  at: number;
}

export interface SubscribedEvent {
  channel: string;
  /** The `subscribed` frame's serverTs. */
  serverTs: number;
  at: number;
  /** True when an earlier subscription of this stream was lost: the caller should reconcile the gap. */
  resumed: boolean;
  /**
   * Local time since when frames may have been missed: the last message of the lost connection
   * (TCP keeps order, so everything sent before it arrived), or start() for the first subscription.
   * The gap to reconcile is [gapStartedAt, at].
   */
  gapStartedAt: number;
  /** Highest serverTs seen before this subscription (undefined if none): a server-clock bound of the gap. */
  lastServerTs: number | undefined;
}

export interface UnknownFrameEvent {
  /** The frame kind we have no schema for (spec 6: the full list is not shown). */
  type: string;
  /** The frame as received (parsed JSON). */
  data: Record<string, unknown>;
  at: number;
}

export interface InvalidFrameEvent {
  /** What was wrong (not JSON, not an object, or the bad field of a known frame kind). */
  message: string;
  at: number;
}

export interface DisconnectedEvent {
  /** The close code (server's, or the one we closed with: see CLOSE_CODES). */
  code: number;
  reason: string;
  at: number;
  /** Highest serverTs seen so far (server clock). */
  lastServerTs: number | undefined;
  /** Local time since when frames may have been lost (see SubscribedEvent.gapStartedAt). */
  gapStartedAt: number;
}

export interface ReconnectingEvent {
  /** The attempt about to be made, 1-based within the current streak. */
  attempt: number;
  delayMs: number;
  /** Upper bound the jittered delay was drawn under; grows while connections keep failing. */
  capMs: number;
  at: number;
}

export type StreamErrorKind =
  /** Opening the socket failed (refused, DNS, upgrade answered with 401/403/...). */
  | "connect"
  /** The socket failed after it opened. */
  | "socket"
  /** A send (subscribe, ping) threw. */
  | "send"
  /** The server answered the subscribe with an error frame. */
  | "subscribe"
  /** An error frame on a live subscription. */
  | "server"
  /** One of our listeners threw; the stream carried on. */
  | "listener";

export interface StreamErrorEvent {
  kind: StreamErrorKind;
  /** Scrubbed of the API key and anything shaped like a secret. */
  message: string;
  /** Platform code (error frame or refused upgrade body) or a system code such as ECONNREFUSED. */
  code?: string;
  /** HTTP status of a refused upgrade. */
  httpStatus?: number;
  at: number;
}

/**
 * Frames arrive for a wallet other than the one asked for. Spec 5.3: when a multi_wallet partner
 * has an associated wallet, the gateway binds every connection to it and ignores X-User-Wallet.
 * The frames are still delivered (they are real); this says once per connection that they are
 * not for `expected`.
 */
export interface WalletMismatchEvent {
  expected: string;
  actual: string;
  at: number;
}

export interface UserStreamEvents {
  connected: ConnectedEvent;
  subscribed: SubscribedEvent;
  frame: UserOrderFrame;
  unknown_frame: UnknownFrameEvent;
  invalid_frame: InvalidFrameEvent;
  disconnected: DisconnectedEvent;
  reconnecting: ReconnectingEvent;
  error: StreamErrorEvent;
  wallet_mismatch: WalletMismatchEvent;
}

export interface UserStreamStats {
  /** The socket is open. */
  connected: boolean;
  /** The subscription is confirmed on the open socket. */
  subscribed: boolean;
  /** Reconnects scheduled since construction. */
  reconnects: number;
  /** Every message received, whatever it parsed to (pings, unknown and invalid ones included). */
  framesReceived: number;
  unknownFrames: number;
  invalidFrames: number;
  /** Highest serverTs seen (never decreases). Frame lag = clock.now() - lastServerTs, computed by the caller. */
  lastServerTs: number | undefined;
  /** Local time of the last message received. */
  lastFrameAtMs: number | undefined;
}

/**
 * A key naming what a frame reports, for consumers that drop duplicates (a reconnecting server
 * may replay). The stream itself delivers every frame as received: deduplication belongs to the
 * order tracker, which knows whether a repeated state is news. A self-trade fills two of the
 * wallet's orders with one trade, hence the order id in a fill's key.
 */
export function frameKey(frame: UserOrderFrame): string {
  if (frame.type === "user_fill") return `user_fill:${frame.tradeId}:${frame.orderId}`;
  return `${frame.type}:${frame.orderId}`;
}
