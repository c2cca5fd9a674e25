/**
 * `PaperConnector`: the daemon's `/ws/user` seam in paper mode. Nothing connects to the platform:
 * each socket is answered here as the platform's user stream would answer it (spec 6, protocol in
 * docs/spec-gaps.md): `subscribe` -> `subscribed`, `ping` -> `pong`, a server `ping` every 15 s,
 * and, once subscribed to `user_orders`, the paper account's frames for the socket's wallet
 * (`order_placed`, `user_fill`, `order_cancelled`), each delivered the response latency after the
 * modelled exchange made it. Socket events are delivered on the clock (a 0 ms timer), never
 * re-entrantly inside the caller's own call, in the order they happen.
 */
import type { Clock, TimerHandle } from "../core/clock.js";
import type { Rng } from "../core/rng.js";
import type { LatencyModel } from "../backtest/models/latency.js";
import { parseClientFrame, USER_ORDERS_CHANNEL } from "../wire/frames.js";
import type { SocketConnector, SocketLike } from "../wire/transport.js";
import type { PaperAccount } from "./account.js";

type Listeners = {
  open: (() => void)[];
  message: ((data: string) => void)[];
  close: ((code: number, reason: string) => void)[];
  error: ((err: Error) => void)[];
};

const PING_EVERY_MS = 15_000;

export class PaperSocket implements SocketLike {
  state: "connecting" | "open" | "closed" = "connecting";
  subscribed = false;
  private readonly listeners: Listeners = { open: [], message: [], close: [], error: [] };
  private ping: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    readonly wallet: string,
    private readonly onClosed: (s: PaperSocket) => void,
  ) {
    this.later(() => {
      if (this.state !== "connecting") return;
      this.state = "open";
      this.ping = clock.setInterval(() => this.push({ type: "ping", serverTs: clock.now() }), PING_EVERY_MS);
      for (const l of [...this.listeners.open]) l();
    });
  }

  send(data: string): void {
    if (this.state === "connecting") throw new Error("WebSocket is not open: readyState 0 (CONNECTING)");
    if (this.state === "closed") return;
    const f = parseClientFrame(data);
    const now = this.clock.now();
    if (f.kind !== "frame") {
      this.push({ type: "error", code: "invalid_request", message: f.kind === "unknown" ? `unknown frame type ${JSON.stringify(f.type)}` : f.message, serverTs: now });
      return;
    }
    if (f.frame.type === "ping") {
      this.push({ type: "pong", serverTs: now });
      return;
    }
    if (f.frame.channel !== USER_ORDERS_CHANNEL) {
      this.push({ type: "error", code: "invalid_channel", message: `unknown channel ${f.frame.channel}`, channel: f.frame.channel, serverTs: now });
      return;
    }
    this.subscribed = true;
    this.push({ type: "subscribed", channel: USER_ORDERS_CHANNEL, serverTs: now });
  }

  close(code?: number, reason?: string): void {
    if (this.state === "closed") return;
    const wasOpen = this.state === "open";
    this.shut();
    this.later(() => this.emitClose(wasOpen ? (code ?? 1005) : 1006, wasOpen ? (reason ?? "") : ""));
  }

  terminate(): void {
    if (this.state === "closed") return;
    this.shut();
    this.later(() => this.emitClose(1006, ""));
  }

  on(event: "open", listener: () => void): this;
  on(event: "message", listener: (data: string) => void): this;
  on(event: "close", listener: (code: number, reason: string) => void): this;
  on(event: "error", listener: (err: Error) => void): this;
  on(event: keyof Listeners, listener: (...args: never[]) => void): this {
    (this.listeners[event] as unknown[]).push(listener);
    return this;
  }

  /** A frame of the account for this wallet (already delayed by the caller). */
  deliver(frame: Record<string, unknown>): void {
    if (this.state === "open" && this.subscribed) this.push(frame);
  }

  private push(frame: Record<string, unknown>): void {
    const text = JSON.stringify(frame);
    this.later(() => {
      if (this.state !== "open") return;
      for (const l of [...this.listeners.message]) l(text);
    });
  }

  private shut(): void {
    this.state = "closed";
    this.clock.clearInterval(this.ping);
    this.onClosed(this);
  }

  private closeEmitted = false;

  private emitClose(code: number, reason: string): void {
    if (this.closeEmitted) return;
    this.closeEmitted = true;
    for (const l of [...this.listeners.close]) l(code, reason);
  }

  private later(fn: () => void): void {
    this.clock.setTimeout(fn, 0);
  }
}

export class PaperConnector implements SocketConnector {
  private readonly sockets = new Set<PaperSocket>();

  constructor(
    private readonly o: { account: PaperAccount; clock: Clock; latency: LatencyModel; rng: Rng },
  ) {
    o.account.onFrame = (wallet, frame) => {
      const delay = o.latency.response(o.clock.now(), o.rng);
      o.clock.setTimeout(() => {
        for (const s of this.sockets) if (s.wallet === wallet) s.deliver(frame);
      }, delay);
    };
  }

  connect(_path: string, headers: Record<string, string>): PaperSocket {
    let wallet = "";
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === "x-user-wallet") wallet = v.toLowerCase();
    const s = new PaperSocket(this.o.clock, wallet, (x) => this.sockets.delete(x));
    this.sockets.add(s);
    return s;
  }

  /** Sockets open now (tests). */
  get openSockets(): number {
    return this.sockets.size;
  }
}
