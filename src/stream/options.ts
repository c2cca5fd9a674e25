/**
 * UserStream options, their defaults, and the close codes the stream reports.
 */
import type { Clock } from "../core/clock.js";
import type { Rng } from "../core/rng.js";
import type { SocketConnector } from "../wire/transport.js";
import { USER_ORDERS_CHANNEL } from "../wire/frames.js";
import type { BackoffOptions } from "./backoff.js";
import { DEFAULT_BACKOFF, validateBackoff } from "./backoff.js";

export const USER_STREAM_PATH = "/ws/user";

/** Codes we close with (4000-4999 are the application's) and report in `disconnected`. */
export const CLOSE_CODES = {
  /** stop(). */
  normal: 1000,
  /** The socket errored; no close frame was exchanged. */
  abnormal: 1006,
  /** Nothing arrived for deadAfterMs. */
  dead: 4000,
  /** No `subscribed` within subscribeTimeoutMs of the connect attempt. */
  subscribeTimeout: 4001,
  /** The server answered the subscribe with an error frame. */
  subscribeRejected: 4002,
} as const;

export interface HeartbeatOptions {
  /** Client `{"type":"ping"}` period. Default 15 s. */
  pingIntervalMs: number;
  /** Drop the connection when no message at all has arrived for this long. Default 45 s. */
  deadAfterMs: number;
}

export const DEFAULT_HEARTBEAT: HeartbeatOptions = { pingIntervalMs: 15_000, deadAfterMs: 45_000 };
export const DEFAULT_SUBSCRIBE_TIMEOUT_MS = 15_000;

export interface UserStreamOptions {
  connector: SocketConnector;
  /** The partner API key (a string or a Secret-like holder). Sent only in the X-Api-Key header. */
  apiKey: string | { reveal(): string };
  /** 0x + 40 hex, sent as X-User-Wallet (ignored by the platform for single_wallet partners). */
  wallet: string;
  clock: Clock;
  /** Jitter source of the reconnect waits. */
  rng: Rng;
  backoff?: Partial<BackoffOptions>;
  heartbeat?: Partial<HeartbeatOptions>;
  /** From each connect attempt to the `subscribed` frame. Default 15 s. */
  subscribeTimeoutMs?: number;
  /** Default `user_orders`. */
  channel?: string;
  /** Default `/ws/user`. */
  path?: string;
}

export interface ResolvedStreamOptions {
  apiKey: string;
  wallet: string;
  channel: string;
  path: string;
  backoff: BackoffOptions;
  heartbeat: HeartbeatOptions;
  subscribeTimeoutMs: number;
}

const WALLET_RE = /^0x[0-9a-fA-F]{40}$/;

/** Defaults applied and every number checked; errors name the field, never the key's value. */
export function resolveStreamOptions(opts: UserStreamOptions): ResolvedStreamOptions {
  const apiKey = typeof opts.apiKey === "string" ? opts.apiKey : opts.apiKey.reveal();
  if (apiKey.trim() === "") throw new RangeError("apiKey: expected a non-empty API key");
  if (!WALLET_RE.test(opts.wallet)) throw new RangeError("wallet: expected 0x followed by 40 hex characters");
  const backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
  validateBackoff(backoff);
  const heartbeat = { ...DEFAULT_HEARTBEAT, ...opts.heartbeat };
  for (const [field, v] of Object.entries(heartbeat)) {
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`heartbeat.${field}: expected a positive number`);
  }
  const subscribeTimeoutMs = opts.subscribeTimeoutMs ?? DEFAULT_SUBSCRIBE_TIMEOUT_MS;
  if (!(Number.isFinite(subscribeTimeoutMs) && subscribeTimeoutMs > 0)) {
    throw new RangeError("subscribeTimeoutMs: expected a positive number");
  }
  return {
    apiKey,
    wallet: opts.wallet,
    channel: opts.channel ?? USER_ORDERS_CHANNEL,
    path: opts.path ?? USER_STREAM_PATH,
    backoff,
    heartbeat,
    subscribeTimeoutMs,
  };
}
