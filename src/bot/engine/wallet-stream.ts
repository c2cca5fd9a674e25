/**
 * A wallet's user stream (spec 6) wired to the runner: frames in, stream states out as
 * EngineEvents, and a REST reconciliation of the gap whenever a lost subscription comes back.
 */
import type { SecretLike, SocketConnector } from "../../api/index.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Logger } from "../../log/index.js";
import type { HeartbeatOptions, UserOrderFrame } from "../../stream/index.js";
import { UserStream, WsConnector } from "../../stream/index.js";
import type { Config } from "../../config/index.js";
import type { EngineObserver, StreamState } from "../observer.js";

export interface StreamWiring {
  connector: SocketConnector;
  apiKey: string | SecretLike;
  /** As configured (checksummed); events carry the lower-cased form. */
  address: string;
  clock: Clock;
  rng: Rng;
  path?: string | undefined;
  heartbeat?: Partial<HeartbeatOptions> | undefined;
  log: Logger;
  observer: EngineObserver;
  onFrame(frame: UserOrderFrame): void;
  /** The subscription is back after a loss: frames of [gapStartedAt, now] may be missing. */
  onResumed(gapMs: number): void;
  onUp(): void;
  onDown(at: number): void;
}

/** Unreadable frames are warned about at most this often per wallet. */
const INVALID_FRAME_WARN_MS = 60_000;

export function startUserStream(w: StreamWiring): UserStream {
  const wallet = w.address.toLowerCase();
  const s = new UserStream({
    connector: w.connector,
    apiKey: w.apiKey,
    wallet: w.address,
    clock: w.clock,
    rng: w.rng,
    ...(w.path !== undefined ? { path: w.path } : {}),
    ...(w.heartbeat !== undefined ? { heartbeat: w.heartbeat } : {}),
  });
  const state = (st: StreamState, at: number): void => w.observer.onEvent({ type: "stream_state", wallet, state: st, at });
  s.on("frame", (f) => {
    w.observer.onEvent({ type: "stream_frame", wallet, serverTs: f.serverTs, at: w.clock.now() });
    w.onFrame(f);
  });
  s.on("connected", (e) => state("connected", e.at));
  s.on("subscribed", (e) => {
    w.onUp();
    state("subscribed", e.at);
    if (e.resumed) {
      w.log.info({ gapMs: e.at - e.gapStartedAt }, "stream resumed: reconciling the gap");
      w.onResumed(e.at - e.gapStartedAt);
    }
  });
  s.on("disconnected", (e) => {
    w.onDown(e.at);
    state("disconnected", e.at);
    // Our own close at shutdown (1000) is routine; anything else is worth seeing.
    if (e.code === 1000) w.log.debug({ code: e.code, reason: e.reason }, "stream disconnected");
    else w.log.info({ code: e.code, reason: e.reason }, "stream disconnected");
  });
  s.on("reconnecting", (e) => state("reconnecting", e.at));
  s.on("error", (e) => w.log.warn({ kind: e.kind, code: e.code, message: e.message }, "stream error"));
  // A frame we cannot read is a frame lost (REST reconciliation covers it): never silent, but at
  // most one warning a minute per wallet, with the count since the last one.
  let unread = 0;
  let warnedAt = Number.NEGATIVE_INFINITY;
  s.on("invalid_frame", (e) => {
    unread += 1;
    if (e.at - warnedAt < INVALID_FRAME_WARN_MS) return;
    w.log.warn({ frames: unread, message: e.message.slice(0, 300) }, "stream frames unreadable: left to REST reconciliation");
    warnedAt = e.at;
    unread = 0;
  });
  s.start();
  return s;
}

/** Wait for the first subscription, at most `waitMs` (REST reconciliation covers what it misses). */
export async function waitForSubscription(s: UserStream, clock: Clock, waitMs: number, signal: AbortSignal, log: Logger): Promise<void> {
  let timer: TimerHandle | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = clock.setTimeout(resolve, waitMs);
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await Promise.race([s.ready().catch(() => undefined), timeout]);
  clock.clearTimeout(timer);
  if (!s.stats().subscribed) log.warn("stream not subscribed yet: starting without it (REST reconciliation covers the gap)");
}

/** The user-stream connector and path: given, or derived from the live config. */
export function connectorFor(config: Config, given: SocketConnector | undefined): { connector: SocketConnector; streamPath: string | undefined } {
  if (given !== undefined) return { connector: given, streamPath: undefined };
  if (config.mode !== "live") throw new TypeError("createDaemon: give deps.connector in simulator mode");
  const ws = config.platform.wsUrl;
  const localAddress = config.platform.localAddress;
  if (ws === undefined) return { connector: new WsConnector({ baseUrl: config.platform.baseUrl, localAddress }), streamPath: undefined };
  const u = new URL(ws);
  return { connector: new WsConnector({ baseUrl: `${u.protocol}//${u.host}`, localAddress }), streamPath: `${u.pathname}${u.search}` };
}
