/**
 * A scripted SocketConnector: each connect() returns a FakeSocket that the test drives
 * (open it, push frames, close or fail it) and inspects (what the client sent, how it ended).
 */
import type { SocketConnector, SocketLike } from "../../src/wire/transport.js";

type Listeners = {
  open: (() => void)[];
  message: ((data: string) => void)[];
  close: ((code: number, reason: string) => void)[];
  error: ((err: Error) => void)[];
};

export class FakeSocket implements SocketLike {
  readonly sent: string[] = [];
  /** How the client ended it: close(code, reason) or terminate(). */
  endedBy: { how: "close"; code?: number; reason?: string } | { how: "terminate" } | undefined;
  readyState: "connecting" | "open" | "closed" = "connecting";
  private readonly listeners: Listeners = { open: [], message: [], close: [], error: [] };

  constructor(
    readonly path: string,
    readonly headers: Record<string, string>,
  ) {}

  send(data: string): void {
    if (this.readyState !== "open") throw new Error(`send on a ${this.readyState} socket`);
    this.sent.push(data);
  }
  close(code?: number, reason?: string): void {
    this.endedBy ??= { how: "close", code, reason };
    this.readyState = "closed";
  }
  terminate(): void {
    this.endedBy ??= { how: "terminate" };
    this.readyState = "closed";
  }
  on(event: "open", listener: () => void): this;
  on(event: "message", listener: (data: string) => void): this;
  on(event: "close", listener: (code: number, reason: string) => void): this;
  on(event: "error", listener: (err: Error) => void): this;
  on(event: keyof Listeners, listener: (...args: never[]) => void): this {
    (this.listeners[event] as unknown[]).push(listener);
    return this;
  }

  // ---- the server side, driven by the test ----

  open(): void {
    this.readyState = "open";
    for (const l of this.listeners.open) l();
  }
  push(frame: unknown): void {
    const text = typeof frame === "string" ? frame : JSON.stringify(frame);
    for (const l of this.listeners.message) l(text);
  }
  serverClose(code = 1001, reason = "going away"): void {
    this.readyState = "closed";
    for (const l of this.listeners.close) l(code, reason);
  }
  fail(err: Error): void {
    for (const l of this.listeners.error) l(err);
  }
  /** Parsed client messages. */
  sentFrames(): Record<string, unknown>[] {
    return this.sent.map((s) => JSON.parse(s) as Record<string, unknown>);
  }
  get isClosedByClient(): boolean {
    return this.endedBy !== undefined;
  }
}

export class FakeConnector implements SocketConnector {
  readonly sockets: FakeSocket[] = [];
  /** When set, the next connect() throws it (once). */
  throwNext: Error | undefined;

  connect(path: string, headers: Record<string, string>): FakeSocket {
    if (this.throwNext !== undefined) {
      const e = this.throwNext;
      this.throwNext = undefined;
      throw e;
    }
    const s = new FakeSocket(path, { ...headers });
    this.sockets.push(s);
    return s;
  }

  get last(): FakeSocket {
    const s = this.sockets.at(-1);
    if (s === undefined) throw new Error("no socket yet");
    return s;
  }
}
