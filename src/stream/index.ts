/** The user WebSocket stream client (spec 6): see user-stream.ts. */
export { UserStream } from "./user-stream.js";
export {
  CLOSE_CODES,
  DEFAULT_HEARTBEAT,
  DEFAULT_SUBSCRIBE_TIMEOUT_MS,
  USER_STREAM_PATH,
  type HeartbeatOptions,
  type UserStreamOptions,
} from "./options.js";
export {
  USER_ORDER_FRAME_TYPES,
  frameKey,
  type ConnectedEvent,
  type DisconnectedEvent,
  type InvalidFrameEvent,
  type ReconnectingEvent,
  type StreamErrorEvent,
  type StreamErrorKind,
  type SubscribedEvent,
  type UnknownFrameEvent,
  type UserOrderFrame,
  type UserOrderFrameType,
  type UserStreamEvents,
  type UserStreamStats,
  type WalletMismatchEvent,
} from "./events.js";
export { DEFAULT_BACKOFF, reconnectDelay, type BackoffOptions, type JitterMode, type ReconnectDelay } from "./backoff.js";
export { TypedEmitter, type Listener } from "./emitter.js";
export {
  WsConnector,
  WsSocket,
  UpgradeRefusedError,
  DEFAULT_HANDSHAKE_TIMEOUT_MS,
  toWebSocketUrl,
  wsDataToString,
  type WsConnectorOptions,
} from "./ws-connector.js";
