/**
 * Answers to HTTP requests node's parser refuses before any route sees them (node:http's
 * `clientError`), and to `CONNECT` (its `connect` event): the standard error envelope of spec 7.1
 * instead of a bare `400` or a silently closed socket. The choices of status and code are recorded
 * in docs/spec-gaps.md:
 *
 * - an unknown method: 501 `not_implemented` (RFC 9110 15.6.2: the method is not recognised);
 * - `CONNECT`: 501 `not_implemented` (the simulator is an origin server, not a proxy);
 * - headers over node's limit: 431 `bad_request`;
 * - headers not received in time (node's requestTimeout / headersTimeout): 408 `bad_request`;
 * - every other parse error (duplicate Content-Length, bad version, bad chunk...): 400 `bad_request`.
 *
 * The parser's fixed `reason` text names the fault; nothing the client sent is echoed.
 */
import { STATUS_CODES, type ServerResponse } from "node:http";
import type { RawResponse } from "./pipeline.js";

export interface MalformedAnswer {
  status: number;
  code: "bad_request" | "not_implemented";
  message: string;
  details: Record<string, unknown>;
}

/** What node's parser puts on a `clientError` (llhttp `HPE_*` codes, or a node `ERR_*` code). */
export interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/** The answer to a request node's HTTP parser refused. */
export function clientErrorAnswer(err: ParserError, maxHeaderBytes: number): MalformedAnswer {
  const parserCode = err.code ?? "unknown";
  const reason = typeof err.reason === "string" && err.reason !== "" ? err.reason : undefined;
  const details = { parserCode };
  switch (parserCode) {
    case "HPE_INVALID_METHOD":
      return { status: 501, code: "not_implemented", message: "malformed HTTP request: unknown method", details };
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        code: "bad_request",
        message: `malformed HTTP request: the request line and headers exceed ${maxHeaderBytes} bytes`,
        details: { ...details, maxHeaderBytes },
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, code: "bad_request", message: "the request was not received in time", details };
    default:
      return { status: 400, code: "bad_request", message: `malformed HTTP request: ${reason ?? parserCode}`, details };
  }
}

/** The answer to a `CONNECT` request. */
export function connectAnswer(): MalformedAnswer {
  return {
    status: 501,
    code: "not_implemented",
    message: "CONNECT is not implemented: the simulator is not a proxy",
    details: { method: "CONNECT" },
  };
}

/**
 * A whole HTTP/1.1 response as bytes, for a socket no ServerResponse owns (a refused upgrade, a
 * parse error, CONNECT). Always `Connection: close`: after a parse error the byte stream cannot be
 * trusted to find the next request.
 */
export function rawHttpResponse(out: RawResponse): Buffer {
  const body = Buffer.from(out.bodyText, "utf8");
  const lines = [`HTTP/1.1 ${out.status} ${STATUS_CODES[out.status] ?? ""}`];
  for (const [k, v] of Object.entries(out.headers)) {
    if (!/^(content-length|connection)$/i.test(k)) lines.push(`${k}: ${v}`);
  }
  lines.push(`Content-Length: ${body.length}`, "Connection: close");
  return Buffer.concat([Buffer.from(lines.join("\r\n") + "\r\n\r\n", "utf8"), body]);
}

/**
 * Per connection, the responses to requests received whole but not yet answered. A parse error's
 * answer must wait for them: the route pipeline is asynchronous, so on a pipelined connection the
 * raw answer to request 2 would otherwise reach the client before the response to request 1.
 */
export class OwedResponses {
  readonly #bySocket = new WeakMap<object, Set<ServerResponse>>();

  track(res: ServerResponse): void {
    const socket = res.req.socket;
    let set = this.#bySocket.get(socket);
    if (set === undefined) this.#bySocket.set(socket, (set = new Set()));
    const owed = set;
    owed.add(res);
    res.once("close", () => owed.delete(res));
  }

  /**
   * Calls `then(answered)` once every response owed on `socket` to a complete request has been
   * written (at once when none is). `answered`: the request being parsed already has its answer
   * on the wire (a 413 sent before its body ended), so no second answer should follow.
   */
  afterOwed(socket: object, then: (answered: boolean) => void): void {
    const all = [...(this.#bySocket.get(socket) ?? [])];
    const answered = all.some((r) => !r.req.complete && r.headersSent);
    const owed = all.filter((r) => r.req.complete);
    let left = owed.length;
    if (left === 0) return then(answered);
    for (const r of owed) r.once("close", () => --left === 0 && then(answered));
  }
}
