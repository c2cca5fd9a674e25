/**
 * The live SocketConnector: the `ws` package behind the small SocketLike surface the stream uses
 * (the simulator's in-process sockets implement the same surface).
 *
 * What the adapter does for the stream:
 * - text frames always arrive as strings (ws hands out Buffer, ArrayBuffer or Buffer[]);
 * - close reasons arrive as strings (ws hands out a Buffer);
 * - headers (X-Api-Key, X-User-Wallet) go on the upgrade request, never in the URL;
 * - an upgrade refused with an HTTP status (401 api_key_revoked, 403 ...) becomes one error whose
 *   message names the status and the platform's error code read from the body, instead of ws's
 *   bare "Unexpected server response: 401";
 * - `terminate()` drops a dead connection without waiting for a close handshake.
 */
import type { ClientRequest, IncomingMessage } from "node:http";
import WebSocket from "ws";
import { UpgradeRefusedError, type SocketConnector, type SocketLike } from "../wire/transport.js";
import { readErrorBody } from "../wire/errors.js";

export { UpgradeRefusedError };

export interface WsConnectorOptions {
  /** The platform's base URL: `https://api.example.com` (http(s) is mapped to ws(s); a path prefix is kept). */
  baseUrl: string;
  /** Time allowed for the TCP + TLS + upgrade exchange. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** Largest message accepted. Default 1 MiB (order frames are far smaller). */
  maxPayloadBytes?: number;
  /** Bind the connection to this local IP address (config `platform.localAddress`). */
  localAddress?: string | undefined;
}

export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_PAYLOAD = 1 << 20;
/** How much of a refused upgrade's body is read for its error code. */
const MAX_REFUSAL_BODY = 4096;

/** Join the base URL and a path (with its query), mapping the scheme to ws/wss. */
export function toWebSocketUrl(baseUrl: string, path: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError("baseUrl: expected an absolute http(s) or ws(s) URL");
  }
  const schemes: Record<string, string> = { "http:": "ws:", "https:": "wss:", "ws:": "ws:", "wss:": "wss:" };
  const scheme = schemes[url.protocol];
  if (scheme === undefined) throw new TypeError(`baseUrl: unsupported scheme ${url.protocol}`);
  const prefix = url.pathname.replace(/\/+$/, "");
  const rel = path.startsWith("/") ? path : `/${path}`;
  return `${scheme}//${url.host}${prefix}${rel}`;
}

export function wsDataToString(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}

/** A `ws` client socket seen through SocketLike. */
export class WsSocket implements SocketLike {
  private refused = false;
  private readonly errorListeners: ((err: Error) => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on("error", (err: Error) => {
      // After a refusal we terminate the handshake ourselves; ws then reports that abort too.
      if (this.refused) return;
      this.emitError(err);
    });
    ws.on("unexpected-response", (_req: ClientRequest, res: IncomingMessage) => this.onRefused(res));
  }

  send(data: string): void {
    // The callback swallows a send on a closing socket: the close event reports that loss.
    this.ws.send(data, () => undefined);
  }

  close(code?: number, reason?: string): void {
    this.ws.close(code, reason);
  }

  terminate(): void {
    this.ws.terminate();
  }

  on(event: "open", listener: () => void): this;
  on(event: "message", listener: (data: string) => void): this;
  on(event: "close", listener: (code: number, reason: string) => void): this;
  on(event: "error", listener: (err: Error) => void): this;
  on(event: "open" | "message" | "close" | "error", listener: (...args: never[]) => void): this {
    switch (event) {
      case "open":
        this.ws.on("open", listener);
        break;
      case "message": {
        const l = listener as (data: string) => void;
        this.ws.on("message", (data: WebSocket.RawData) => l(wsDataToString(data)));
        break;
      }
      case "close": {
        const l = listener as (code: number, reason: string) => void;
        this.ws.on("close", (code: number, reason: Buffer) => l(code, reason.toString("utf8")));
        break;
      }
      case "error":
        this.errorListeners.push(listener as (err: Error) => void);
        break;
    }
    return this;
  }

  private emitError(err: Error): void {
    for (const l of [...this.errorListeners]) l(err);
  }

  private onRefused(res: IncomingMessage): void {
    this.refused = true;
    const status = res.statusCode ?? 0;
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      const body = Buffer.concat(chunks).toString("utf8").slice(0, MAX_REFUSAL_BODY);
      const err = readErrorBody(status, body);
      const code = err?.code ?? `http_${status}`;
      const detail = err !== undefined && err.shape !== "unstructured" ? err.message : "";
      this.emitError(new UpgradeRefusedError(status, code, detail.slice(0, 200)));
      // Aborts the upgrade request and destroys its socket; ws then emits close (code 1006).
      this.ws.terminate();
    };
    res.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_REFUSAL_BODY) finish();
    });
    res.on("end", finish);
    res.on("error", finish);
    res.on("close", finish);
  }
}

export class WsConnector implements SocketConnector {
  private readonly baseUrl: string;
  private readonly handshakeTimeoutMs: number;
  private readonly maxPayload: number;
  private readonly localAddress: string | undefined;

  constructor(opts: WsConnectorOptions) {
    toWebSocketUrl(opts.baseUrl, "/"); // fail at construction, not at the first connect
    this.baseUrl = opts.baseUrl;
    this.handshakeTimeoutMs = opts.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
    this.maxPayload = opts.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD;
    this.localAddress = opts.localAddress;
  }

  connect(path: string, headers: Record<string, string>): WsSocket {
    const ws = new WebSocket(toWebSocketUrl(this.baseUrl, path), {
      headers,
      handshakeTimeout: this.handshakeTimeoutMs,
      maxPayload: this.maxPayload,
      // A redirect would carry X-Api-Key to wherever it points (same policy as FetchTransport).
      followRedirects: false,
      ...(this.localAddress !== undefined ? { localAddress: this.localAddress } : {}),
    });
    return new WsSocket(ws);
  }
}
