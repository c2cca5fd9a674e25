/**
 * The simulator without a network: the client's `Transport` and `SocketConnector` seams
 * (src/api/transport.ts) implemented on top of the same pipeline and WS hub the HTTP server
 * uses. Bodies travel as JSON text both ways, exactly as over the network, so a bigint or a
 * Date cannot leak across the seam in tests that would break against the real platform.
 *
 * Determinism: a request runs the pipeline directly (its only waits are sim-clock waits, e.g.
 * a latency fault). Socket events (open, messages, close, errors) are delivered through
 * queueMicrotask in the order they happen: never re-entrantly inside the caller's own call
 * (a frame published while a place request is handled reaches the client after that call
 * returns), and in the same order on every run.
 */
import type { HttpRequest, HttpResponse, SocketConnector, SocketLike, Transport } from "../../wire/transport.js";
import { lowerCaseHeaders, TransportError, UpgradeRefusedError } from "../../wire/transport.js";
import { createLogger, type Logger } from "../../log/index.js";
import { readErrorBody } from "../../wire/errors.js";
import type { WsHub } from "../ws/hub.js";
import type { WsSession } from "../ws/session.js";
import type { Pipeline } from "./pipeline.js";

export interface InProcessOptions {
  /** The caller address the pipeline sees (before X-Forwarded-For). Default 127.0.0.1. */
  remoteAddress?: string;
  logger?: Logger;
}

export class InProcessTransport implements Transport {
  private readonly remoteAddress: string;

  constructor(
    readonly pipeline: Pipeline,
    opts: InProcessOptions = {},
  ) {
    this.remoteAddress = opts.remoteAddress ?? "127.0.0.1";
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const signal = req.signal;
    if (signal?.aborted) throw new TransportError("request aborted", false, "aborted");
    const pending = this.pipeline.handle({
      method: req.method,
      url: req.path,
      headers: req.headers,
      bodyText: req.body ?? "",
      remoteAddress: this.remoteAddress,
    });
    const out = signal ? await abortable(pending, signal) : await pending;
    return { status: out.status, headers: lowerCaseHeaders(out.headers), body: out.bodyText };
  }
}

/** The request keeps running when the caller gives up (as on a network): only the wait ends. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new TransportError("request aborted", true, "aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

type Listeners = {
  open: (() => void)[];
  message: ((data: string) => void)[];
  close: ((code: number, reason: string) => void)[];
  error: ((err: Error) => void)[];
};

/** The client end of an in-process `/ws/user` connection. */
export class InProcessSocket implements SocketLike {
  state: "connecting" | "open" | "closed" = "connecting";
  private session: WsSession | undefined;
  private closeEmitted = false;
  private readonly listeners: Listeners = { open: [], message: [], close: [], error: [] };

  constructor(
    private readonly hub: WsHub,
    readonly path: string,
    headers: Record<string, string>,
    remoteAddress: string,
    private readonly logger: Logger,
  ) {
    const check = hub.upgrade({ url: path, headers, remoteAddress });
    if (!check.ok) {
      const res = check.response;
      const err = readErrorBody(res.status, res.bodyText);
      this.state = "closed";
      this.later(() => {
        this.emitError(new UpgradeRefusedError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? ""));
        this.emitClose(1006, "");
      });
      return;
    }
    const auth = check.auth;
    this.later(() => {
      if (this.state !== "connecting") return;
      this.state = "open";
      this.session = this.hub.open(auth, {
        send: (text) => this.later(() => this.emitMessage(text)),
        close: (code, reason) => {
          this.state = "closed";
          this.later(() => this.emitClose(code, reason));
        },
        terminate: () => {
          this.state = "closed";
          this.later(() => this.emitClose(1006, ""));
        },
      });
      for (const l of [...this.listeners.open]) this.call(() => l());
    });
  }

  /** As `ws`: throws while connecting; a send on a closed socket is dropped. */
  send(data: string): void {
    if (this.state === "connecting") throw new Error("WebSocket is not open: readyState 0 (CONNECTING)");
    if (this.state === "closed") return;
    const session = this.session;
    this.later(() => session?.receive(data));
  }

  close(code?: number, reason?: string): void {
    if (this.state === "closed") return;
    const wasOpen = this.state === "open";
    this.state = "closed";
    this.session?.transportClosed();
    this.later(() => this.emitClose(wasOpen ? (code ?? 1005) : 1006, wasOpen ? (reason ?? "") : ""));
  }

  /** Drop without a close handshake (the stream client's dead-connection path). */
  terminate(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.session?.transportClosed();
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

  private later(fn: () => void): void {
    queueMicrotask(fn);
  }

  private emitMessage(text: string): void {
    if (this.closeEmitted) return;
    for (const l of [...this.listeners.message]) this.call(() => l(text));
  }

  private emitClose(code: number, reason: string): void {
    if (this.closeEmitted) return;
    this.closeEmitted = true;
    for (const l of [...this.listeners.close]) this.call(() => l(code, reason));
  }

  private emitError(err: Error): void {
    for (const l of [...this.listeners.error]) this.call(() => l(err));
  }

  /** A throwing listener is logged; it must not become an uncaught exception in a microtask. */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.error({ err, path: this.path }, "in-process socket listener threw");
    }
  }
}

/** Sockets a connector remembers (for tests and diagnostics); older ones are let go. */
export const MAX_KEPT_SOCKETS = 64;

export class InProcessSocketConnector implements SocketConnector {
  /** The latest sockets opened, newest last (at most MAX_KEPT_SOCKETS: a long demo reconnects). */
  readonly sockets: InProcessSocket[] = [];
  private readonly remoteAddress: string;
  private readonly logger: Logger;

  constructor(
    readonly hub: WsHub,
    opts: InProcessOptions = {},
  ) {
    this.remoteAddress = opts.remoteAddress ?? "127.0.0.1";
    this.logger = opts.logger ?? createLogger({ level: "silent" });
  }

  connect(path: string, headers: Record<string, string>): InProcessSocket {
    const s = new InProcessSocket(this.hub, path, headers, this.remoteAddress, this.logger);
    this.sockets.push(s);
    if (this.sockets.length > MAX_KEPT_SOCKETS) this.sockets.splice(0, this.sockets.length - MAX_KEPT_SOCKETS);
    return s;
  }
}
