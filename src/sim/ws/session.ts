/**
 * One `/ws/user` connection on the simulator side (spec 6; protocol in docs/spec-gaps.md),
 * independent of how the bytes travel (a real `ws` socket or an in-process pair).
 *
 * - The wallet is fixed at the upgrade (auth: a multi_wallet partner with an associated wallet
 *   is bound to it, whatever X-User-Wallet said).
 * - `{"type":"subscribe","channel":"user_orders"}` -> `subscribed`; from then on the wallet's
 *   frames from `sim.bus` are forwarded. Frames published before the subscribe are not
 *   replayed (a real gateway has no backlog either). A second subscribe is answered again
 *   without doubling the feed. Unknown channel, unknown frame type or invalid JSON -> an
 *   `error` frame; the connection stays open.
 * - `{"type":"ping"}` -> `pong`; the server pings every 15 s of sim-clock time.
 * - WS faults (route `WS /ws/user`, decided once per forwarded frame): `ws_disconnect` drops the
 *   connection without a close frame (the peer sees 1006) and the frame is lost;
 *   `ws_duplicate_frames` sends it `copies` times; `ws_reorder_frames` holds it and the next
 *   frames until `window` are held, then sends them in reverse order (a held group that does
 *   not fill is flushed in order after `reorderFlushMs`); latency delays it on the sim clock
 *   without letting later frames overtake it. Other kinds do not apply to frames.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import { KNOWN_CHANNELS, parseClientFrame, USER_ORDERS_CHANNEL } from "../../wire/frames.js";
import type { UserFrame } from "../bus.js";
import type { AuthorizeSuccess } from "../platform/platform.js";
import type { Simulator } from "../simulator.js";

/** The transport under a session. */
export interface WsSink {
  send(text: string): void;
  /** Close with a close frame. */
  close(code: number, reason: string): void;
  /** Drop the connection without a close frame (the peer reports 1006). */
  terminate(): void;
}

export interface WsSessionOptions {
  sim: Simulator;
  logger: Logger;
  /** Server ping period on the sim clock. Default 15 s. */
  pingIntervalMs: number;
  /** A reorder group that does not fill is sent in order after this long. */
  reorderFlushMs: number;
  /** Hub-assigned connection number. */
  id: number;
  /** Called once when the session ends (either side). */
  onEnd?: (s: WsSession) => void;
}

export const WS_FAULT_ROUTE = "WS /ws/user";
export const DEFAULT_PING_INTERVAL_MS = 15_000;
export const DEFAULT_REORDER_FLUSH_MS = 1_000;

export class WsSession {
  readonly id: number;
  readonly wallet: string;
  readonly partnerId: string;
  private readonly sim: Simulator;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly reorderFlushMs: number;
  private readonly onEnd: ((s: WsSession) => void) | undefined;
  private readonly channels = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private pingTimer: TimerHandle | undefined;
  private ended = false;
  /** Frames held by a reorder fault, and how many the group waits for. */
  private held: string[] = [];
  private holdWindow = 0;
  private holdTimer: TimerHandle | undefined;
  /** Delayed sends in flight; a later frame is never sent before this instant. */
  private notBeforeMs = 0;
  private readonly delayTimers = new Set<TimerHandle>();
  /** Order frames sent (copies counted), for tests and stats. */
  framesSent = 0;

  constructor(
    auth: AuthorizeSuccess,
    private readonly sink: WsSink,
    opts: WsSessionOptions,
  ) {
    if (auth.wallet === null) throw new Error("a /ws/user session needs a wallet");
    this.id = opts.id;
    this.wallet = auth.wallet;
    this.partnerId = auth.partner.id;
    this.sim = opts.sim;
    this.clock = opts.sim.clock;
    this.logger = opts.logger;
    this.reorderFlushMs = opts.reorderFlushMs;
    this.onEnd = opts.onEnd;
    this.pingTimer = this.clock.setInterval(() => this.sendControl({ type: "ping", serverTs: this.clock.now() }), opts.pingIntervalMs);
  }

  get isOpen(): boolean {
    return !this.ended;
  }

  get subscribedChannels(): readonly string[] {
    return [...this.channels];
  }

  /** A text message from the client. */
  receive(text: string): void {
    if (this.ended) return;
    const parsed = parseClientFrame(text);
    if (parsed.kind === "invalid") return this.sendError("invalid_request", parsed.message);
    if (parsed.kind === "unknown") return this.sendError("invalid_request", `unknown frame type ${JSON.stringify(parsed.type)}; expected subscribe or ping`);
    const frame = parsed.frame;
    if (frame.type === "ping") return this.sendControl({ type: "pong", serverTs: this.clock.now() });
    if (!(KNOWN_CHANNELS as readonly string[]).includes(frame.channel)) {
      return this.sendError("invalid_request", `unknown channel ${JSON.stringify(frame.channel)}; known: ${KNOWN_CHANNELS.join(", ")}`, frame.channel);
    }
    if (!this.channels.has(frame.channel)) {
      this.channels.add(frame.channel);
      if (frame.channel === USER_ORDERS_CHANNEL) this.unsubscribe = this.sim.bus.subscribe(this.wallet, (f) => this.onBusFrame(f));
    }
    this.sendControl({ type: "subscribed", channel: frame.channel, serverTs: this.clock.now() });
  }

  /** Server-side close with a close frame (shutdown: 1001). */
  close(code = 1001, reason = "server shutting down"): void {
    if (this.ended) return;
    this.end();
    this.safe(() => this.sink.close(code, reason));
  }

  /** The transport is gone (peer closed, socket error). Idempotent. */
  transportClosed(): void {
    this.end();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.clock.clearInterval(this.pingTimer);
    this.clock.clearTimeout(this.holdTimer);
    for (const t of this.delayTimers) this.clock.clearTimeout(t);
    this.delayTimers.clear();
    this.held = [];
    this.onEnd?.(this);
  }

  private drop(): void {
    if (this.ended) return;
    this.end();
    this.safe(() => this.sink.terminate());
  }

  private sendControl(frame: Record<string, unknown>): void {
    if (this.ended) return;
    this.safe(() => this.sink.send(JSON.stringify(frame)));
  }

  private sendError(code: string, message: string, channel?: string): void {
    this.sendControl({ type: "error", code, message, serverTs: this.clock.now(), ...(channel !== undefined ? { channel } : {}) });
  }

  /** Runs inside the publisher's call (bus delivery is synchronous): must never throw. */
  private onBusFrame(frame: UserFrame): void {
    if (this.ended) return;
    let text: string;
    try {
      text = JSON.stringify(frame.channel === undefined ? { ...frame, channel: USER_ORDERS_CHANNEL } : frame);
    } catch (err) {
      this.logger.error({ err, frameType: frame.type, wallet: this.wallet }, "user frame is not serialisable; dropped");
      return;
    }
    const now = this.clock.now();
    const fault = this.sim.platform.faults.decide(WS_FAULT_ROUTE, now);
    if (fault?.kind === "ws_disconnect") {
      this.logger.info({ wallet: this.wallet, rule: fault.ruleId }, "fault: dropping /ws/user connection");
      return this.drop();
    }
    const texts = fault?.kind === "ws_duplicate_frames" ? new Array<string>(fault.copies).fill(text) : [text];
    const latency = fault?.latencyMs ?? 0;
    if (fault?.kind === "ws_reorder_frames" && this.held.length === 0) this.holdWindow = fault.window;
    if (this.held.length > 0 || fault?.kind === "ws_reorder_frames") {
      this.held.push(...texts);
      if (this.held.length >= this.holdWindow) this.releaseHeld(true, latency);
      else if (this.holdTimer === undefined) {
        this.holdTimer = this.clock.setTimeout(() => {
          this.holdTimer = undefined;
          this.releaseHeld(false, 0);
        }, this.reorderFlushMs);
      }
      return;
    }
    this.emit(texts, latency);
  }

  private releaseHeld(reverse: boolean, latency: number): void {
    this.clock.clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    const group = this.held;
    this.held = [];
    this.emit(reverse ? group.reverse() : group, latency);
  }

  private emit(texts: readonly string[], latencyMs: number): void {
    const now = this.clock.now();
    if (latencyMs <= 0 && this.notBeforeMs <= now) {
      this.sendAll(texts);
      return;
    }
    const at = Math.max(now + latencyMs, this.notBeforeMs);
    this.notBeforeMs = at;
    const t = this.clock.setTimeout(() => {
      this.delayTimers.delete(t);
      this.sendAll(texts);
    }, at - now);
    this.delayTimers.add(t);
  }

  private sendAll(texts: readonly string[]): void {
    for (const t of texts) {
      if (this.ended) return;
      this.framesSent++;
      this.safe(() => this.sink.send(t));
    }
  }

  private safe(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.warn({ err, wallet: this.wallet }, "/ws/user send failed; closing the session");
      this.end();
    }
  }
}
