/**
 * The user WebSocket stream (spec 6, `/ws/user`, channel `user_orders`), one per wallet.
 *
 * Connects with the key in `X-Api-Key` and the wallet in `X-User-Wallet` (spec 5.1, 5.3), sends
 * the subscribe, waits for `subscribed`, then turns every message into an event: a typed order
 * frame, an unknown frame kind (surfaced, counted), or an invalid one (counted, never a crash).
 *
 * Liveness: the client pings every `pingIntervalMs`; a connection on which nothing at all has
 * arrived for `deadAfterMs` (the server pings every 15 s, docs/spec-gaps.md) is dropped. Every
 * loss is followed by a reconnect after an exponential, jittered wait (src/stream/backoff.ts).
 *
 * Gaps: every `connected` is followed by exactly one `disconnected`, which carries the local time
 * since when frames may have been lost; the next `subscribed` says `resumed` and repeats the gap,
 * so the caller knows when to reconcile (read open orders / fills) and over which window.
 *
 * Duplicates are delivered as received; see `frameKey` for consumers that drop them.
 */
import type { Clock, TimerHandle } from "../core/clock.js";
import type { Rng } from "../core/rng.js";
import type { SocketConnector, SocketLike } from "../wire/transport.js";
import { redactSecrets } from "../log/redact.js";
import type { ServerFrame } from "../wire/frames.js";
import { parseServerFrame, subscribeMessage } from "../wire/frames.js";
import type { BackoffOptions } from "./backoff.js";
import { reconnectDelay } from "./backoff.js";
import { TypedEmitter } from "./emitter.js";
import type { Listener } from "./emitter.js";
import type { StreamErrorKind, UserOrderFrame, UserStreamEvents, UserStreamStats } from "./events.js";
import type { HeartbeatOptions, UserStreamOptions } from "./options.js";
import { CLOSE_CODES, resolveStreamOptions } from "./options.js";
import type { SocketEnding } from "./socket-util.js";
import { endSocket, messageOf, stringField } from "./socket-util.js";

/** One socket and what we know about it; events of a socket that is no longer current are ignored. */
interface Connection {
  socket: SocketLike | undefined;
  opened: boolean;
  subscribed: boolean;
  subscribedAt: number | undefined;
  /** Local time of the last message (or of the open, before any message). */
  lastMessageAt: number;
  walletWarned: boolean;
  subscribeTimer: TimerHandle | undefined;
  pingTimer: TimerHandle | undefined;
  deadTimer: TimerHandle | undefined;
}


export class UserStream {
  private readonly emitter: TypedEmitter<UserStreamEvents>;
  private readonly connector: SocketConnector;
  private readonly clock: Clock;
  private readonly rng: Rng;
  /** ES-private: not an own enumerable property, so logging the stream object cannot leak it. */
  readonly #apiKey: string;
  readonly wallet: string;
  readonly channel: string;
  private readonly path: string;
  private readonly backoff: BackoffOptions;
  private readonly heartbeat: HeartbeatOptions;
  private readonly subscribeTimeoutMs: number;

  private running = false;
  private conn: Connection | undefined;
  private reconnectTimer: TimerHandle | undefined;
  /** Attempts in the current streak (reset when an open connection is lost). */
  private attempt = 0;
  /** Consecutive reconnects since the last stable connection: drives the backoff cap. */
  private backoffLevel = 0;
  private everSubscribed = false;
  /** Local time since when we are not covered by a subscription; undefined while subscribed. */
  private gapStartedAt: number | undefined;
  private readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  private reconnects = 0;
  private framesReceived = 0;
  private unknownFrames = 0;
  private invalidFrames = 0;
  private lastServerTs: number | undefined;
  private lastFrameAtMs: number | undefined;

  constructor(opts: UserStreamOptions) {
    const o = resolveStreamOptions(opts);
    this.#apiKey = o.apiKey;
    this.wallet = o.wallet;
    this.channel = o.channel;
    this.path = o.path;
    this.backoff = o.backoff;
    this.heartbeat = o.heartbeat;
    this.subscribeTimeoutMs = o.subscribeTimeoutMs;
    this.connector = opts.connector;
    this.clock = opts.clock;
    this.rng = opts.rng;
    this.emitter = new TypedEmitter<UserStreamEvents>((event, e) => {
      // A throwing error listener is not reported again: that could loop.
      if (event !== "error") this.emitError("listener", `${String(event)} listener threw: ${messageOf(e)}`);
    });
  }

  on<K extends keyof UserStreamEvents>(event: K, listener: Listener<UserStreamEvents[K]>): () => void {
    return this.emitter.on(event, listener);
  }
  once<K extends keyof UserStreamEvents>(event: K, listener: Listener<UserStreamEvents[K]>): () => void {
    return this.emitter.once(event, listener);
  }
  off<K extends keyof UserStreamEvents>(event: K, listener: Listener<UserStreamEvents[K]>): void {
    this.emitter.off(event, listener);
  }

  /** Connect (and keep reconnecting) until stop(). Calling it while running does nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    this.backoffLevel = 0;
    // A restart after stop() keeps the gap that stop() opened.
    this.gapStartedAt ??= this.clock.now();
    this.connect();
  }

  /**
   * Close the socket and stop reconnecting. Leaves no timer behind. Emits `disconnected` if a
   * socket was open, and rejects pending ready() promises.
   */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.clock.clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    if (this.conn !== undefined) this.lose(this.conn, CLOSE_CODES.normal, "client stop", "close");
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of waiters) w.reject(new Error("user stream stopped"));
  }

  /** Resolves once the subscription is confirmed (at once if it is); rejects if stop() comes first. */
  ready(): Promise<void> {
    if (this.conn?.subscribed === true) return Promise.resolve();
    if (!this.running) return Promise.reject(new Error("user stream is not running"));
    return new Promise<void>((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  get isRunning(): boolean {
    return this.running;
  }

  stats(): UserStreamStats {
    return {
      connected: this.conn?.opened === true,
      subscribed: this.conn?.subscribed === true,
      reconnects: this.reconnects,
      framesReceived: this.framesReceived,
      unknownFrames: this.unknownFrames,
      invalidFrames: this.invalidFrames,
      lastServerTs: this.lastServerTs,
      lastFrameAtMs: this.lastFrameAtMs,
    };
  }

  // ---- connection lifecycle ----------------------------------------------------------------

  private connect(): void {
    if (!this.running) return;
    this.attempt++;
    const conn: Connection = {
      socket: undefined,
      opened: false,
      subscribed: false,
      subscribedAt: undefined,
      lastMessageAt: this.clock.now(),
      walletWarned: false,
      subscribeTimer: undefined,
      pingTimer: undefined,
      deadTimer: undefined,
    };
    this.conn = conn;
    conn.subscribeTimer = this.clock.setTimeout(() => {
      conn.subscribeTimer = undefined;
      this.lose(conn, CLOSE_CODES.subscribeTimeout, `subscribe not confirmed within ${this.subscribeTimeoutMs} ms`, "close");
    }, this.subscribeTimeoutMs);

    let socket: SocketLike;
    try {
      // The key travels in a header only: a query-string key would end up in URLs and logs.
      socket = this.connector.connect(this.path, { "X-Api-Key": this.#apiKey, "X-User-Wallet": this.wallet });
    } catch (e) {
      this.emitError("connect", messageOf(e), e);
      this.lose(conn, CLOSE_CODES.abnormal, "connect failed", "none");
      return;
    }
    conn.socket = socket;
    socket.on("open", () => this.onOpen(conn));
    socket.on("message", (data) => this.onMessage(conn, data));
    socket.on("close", (code, reason) => this.lose(conn, code, reason, "none"));
    socket.on("error", (err) => this.onSocketError(conn, err));
  }

  private onOpen(conn: Connection): void {
    if (conn !== this.conn || conn.opened) return;
    conn.opened = true;
    const now = this.clock.now();
    conn.lastMessageAt = now;
    const attempt = this.attempt;
    this.attempt = 0;
    this.emitter.emit("connected", { attempt, at: now });
    if (conn !== this.conn) return; // a listener stopped us
    if (!this.send(conn, JSON.stringify(subscribeMessage(this.channel)))) return;
    conn.pingTimer = this.clock.setInterval(() => {
      this.send(conn, '{"type":"ping"}');
    }, this.heartbeat.pingIntervalMs);
    this.armDeadCheck(conn, this.heartbeat.deadAfterMs);
  }

  /** One timer per connection, re-armed lazily rather than reset on every message. */
  private armDeadCheck(conn: Connection, delayMs: number): void {
    conn.deadTimer = this.clock.setTimeout(() => {
      conn.deadTimer = undefined;
      if (conn !== this.conn) return;
      const idle = this.clock.now() - conn.lastMessageAt;
      if (idle >= this.heartbeat.deadAfterMs) {
        this.lose(conn, CLOSE_CODES.dead, `no frame for ${idle} ms`, "terminate");
      } else {
        this.armDeadCheck(conn, this.heartbeat.deadAfterMs - idle);
      }
    }, delayMs);
  }

  private onSocketError(conn: Connection, err: Error): void {
    if (conn !== this.conn) return;
    const message = this.scrub(messageOf(err));
    this.emitError(conn.opened ? "socket" : "connect", message, err);
    // Not every socket implementation follows an error with a close: end it here either way.
    this.lose(conn, CLOSE_CODES.abnormal, message, "terminate");
  }

  private send(conn: Connection, text: string): boolean {
    try {
      conn.socket?.send(text);
      return true;
    } catch (e) {
      if (conn !== this.conn) return false;
      const message = this.scrub(messageOf(e));
      this.emitError("send", message, e);
      this.lose(conn, CLOSE_CODES.abnormal, `send failed: ${message}`, "terminate");
      return false;
    }
  }

  /** End `conn` (if still current): clear its timers, report, and schedule the reconnect. */
  private lose(conn: Connection, code: number, reason: string, ending: SocketEnding): void {
    if (conn !== this.conn) return;
    this.conn = undefined;
    this.clock.clearTimeout(conn.subscribeTimer);
    this.clock.clearInterval(conn.pingTimer);
    this.clock.clearTimeout(conn.deadTimer);
    conn.subscribeTimer = conn.pingTimer = conn.deadTimer = undefined;
    endSocket(conn.socket, code, reason, ending);

    if (conn.subscribed) this.gapStartedAt = conn.lastMessageAt;
    // Stable means it worked for a while, measured to its last message (a silently dead
    // connection is not "stable" for the 45 s it took to notice).
    if (conn.subscribedAt !== undefined && conn.lastMessageAt - conn.subscribedAt >= this.backoff.resetAfterMs) {
      this.backoffLevel = 0;
    }
    const now = this.clock.now();
    if (conn.opened) {
      this.emitter.emit("disconnected", {
        code,
        reason: this.scrub(reason),
        at: now,
        lastServerTs: this.lastServerTs,
        gapStartedAt: this.gapStartedAt ?? now,
      });
    }
    if (this.running && this.conn === undefined && this.reconnectTimer === undefined) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.backoffLevel++;
    this.reconnects++;
    const { delayMs, capMs } = reconnectDelay(this.backoffLevel, this.backoff, this.rng);
    this.emitter.emit("reconnecting", { attempt: this.attempt + 1, delayMs, capMs, at: this.clock.now() });
    if (!this.running || this.conn !== undefined || this.reconnectTimer !== undefined) return;
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect();
    }, delayMs);
  }

  // ---- frames ------------------------------------------------------------------------------

  private onMessage(conn: Connection, data: string): void {
    if (conn !== this.conn) return;
    const now = this.clock.now();
    conn.lastMessageAt = now;
    this.lastFrameAtMs = now;
    this.framesReceived++;
    const parsed = parseServerFrame(data);
    switch (parsed.kind) {
      case "invalid":
        this.invalidFrames++;
        this.emitter.emit("invalid_frame", { message: this.scrub(parsed.message), at: now });
        return;
      case "unknown":
        this.unknownFrames++;
        this.noteServerTs(parsed.data.serverTs);
        this.emitter.emit("unknown_frame", { type: parsed.type, data: parsed.data, at: now });
        return;
      case "frame": {
        const before = this.lastServerTs;
        this.noteServerTs(parsed.frame.serverTs);
        this.onFrame(conn, parsed.frame, now, before);
        return;
      }
    }
  }

  private onFrame(conn: Connection, frame: ServerFrame, now: number, serverTsBefore: number | undefined): void {
    switch (frame.type) {
      case "ping":
      case "pong":
        return;
      case "subscribed":
        if (frame.channel === this.channel && !conn.subscribed) this.onSubscribed(conn, frame.serverTs, now, serverTsBefore);
        return;
      case "error": {
        const before = !conn.subscribed;
        this.emitError(before ? "subscribe" : "server", `${frame.code}: ${frame.message}`, undefined, frame.code);
        if (before) this.lose(conn, CLOSE_CODES.subscribeRejected, `subscribe rejected: ${frame.code}`, "close");
        return;
      }
      default:
        this.onOrderFrame(conn, frame, now);
    }
  }

  private onSubscribed(conn: Connection, serverTs: number, now: number, lastServerTs: number | undefined): void {
    conn.subscribed = true;
    conn.subscribedAt = now;
    this.clock.clearTimeout(conn.subscribeTimer);
    conn.subscribeTimer = undefined;
    const resumed = this.everSubscribed;
    this.everSubscribed = true;
    const gapStartedAt = this.gapStartedAt ?? now;
    this.gapStartedAt = undefined;
    this.emitter.emit("subscribed", { channel: this.channel, serverTs, at: now, resumed, gapStartedAt, lastServerTs });
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of waiters) w.resolve();
  }

  private onOrderFrame(conn: Connection, frame: UserOrderFrame, now: number): void {
    if (!conn.walletWarned && frame.walletAddress.toLowerCase() !== this.wallet.toLowerCase()) {
      conn.walletWarned = true;
      this.emitter.emit("wallet_mismatch", { expected: this.wallet, actual: frame.walletAddress, at: now });
      if (conn !== this.conn) return;
    }
    this.emitter.emit("frame", frame);
  }

  private noteServerTs(ts: unknown): void {
    if (typeof ts !== "number" || !Number.isFinite(ts)) return;
    if (this.lastServerTs === undefined || ts > this.lastServerTs) this.lastServerTs = ts;
  }

  // ---- errors and secrets ------------------------------------------------------------------

  private emitError(kind: StreamErrorKind, message: string, cause?: unknown, code?: string): void {
    const event: UserStreamEvents["error"] = { kind, message: this.scrub(message), at: this.clock.now() };
    const c = code ?? stringField(cause, "code");
    if (c !== undefined) event.code = this.scrub(c);
    const status = (cause as { httpStatus?: unknown } | undefined)?.httpStatus;
    if (typeof status === "number") event.httpStatus = status;
    this.emitter.emit("error", event);
  }

  /** Our key by value, then anything shaped like a secret. */
  private scrub(text: string): string {
    return redactSecrets(text.split(this.#apiKey).join("[REDACTED]"));
  }
}
