/**
 * The seams between the client and whatever answers it: `Transport` for REST, `SocketConnector`
 * for the user stream. They sit here, beside the wire schemas, because both sides are built on
 * them: the client (src/api, src/stream) sends through them and the simulator (src/sim/http)
 * implements them.
 *
 * The REST seam. Live: `FetchTransport` over HTTP(S).
 * Tests and backtests: the simulator's router called in-process (`src/sim/http`), which
 * implements the same interface, so the client code is identical in both worlds.
 *
 * Bodies travel as JSON text in both cases: the in-process path serialises exactly like the
 * network path does, so nothing (a bigint, a Date, an undefined) can leak across the seam
 * in simulation that would break against the real platform.
 */

export interface HttpRequest {
  method: "GET" | "POST" | "DELETE" | "PUT" | "PATCH";
  /** Path with query string, e.g. `/api/orders/open?limit=100`. */
  path: string;
  /** Header names in any case; the transport lower-cases them. */
  headers: Record<string, string>;
  /** JSON text, when there is a body. */
  body?: string;
  /** Abort (timeout or shutdown). */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Raw body text (usually JSON). */
  body: string;
}

export interface Transport {
  request(req: HttpRequest): Promise<HttpResponse>;
}

/** Raised by a transport when no HTTP answer arrived (connection refused, reset, timeout). */
export class TransportError extends Error {
  override readonly name = "TransportError";
  constructor(
    message: string,
    /** True when the request may have reached the server (sent, then the connection died or timed out). */
    readonly maybeDelivered: boolean,
    readonly kind: "timeout" | "connect" | "reset" | "aborted" | "other",
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function lowerCaseHeaders(headers: Record<string, string> | Headers): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, key) => {
      out[key.toLowerCase()] = value;
    });
  } else {
    for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  }
  return out;
}

/**
 * A WebSocket as the stream client sees it: the `ws` package's socket satisfies it, and so does
 * the simulator's in-process socket pair.
 */
export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: "open", listener: () => void): unknown;
  on(event: "message", listener: (data: string) => void): unknown;
  on(event: "close", listener: (code: number, reason: string) => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
}

export interface SocketConnector {
  /** Open a socket to `path` (e.g. `/ws/user?key=...`) with upgrade headers. */
  connect(path: string, headers: Record<string, string>): SocketLike;
}

export type HttpMethod = HttpRequest["method"];

/** Raised (as the socket's error) when the server answers the upgrade with a non-101 status. */
export class UpgradeRefusedError extends Error {
  override readonly name = "UpgradeRefusedError";
  constructor(
    readonly httpStatus: number,
    /** The platform's error code from the body, else `http_<status>`. */
    readonly code: string,
    detail: string,
  ) {
    super(`upgrade refused: HTTP ${httpStatus} ${code}${detail === "" ? "" : `: ${detail}`}`);
  }
}
