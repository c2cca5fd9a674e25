/**
 * The pieces of src/sim/http/malformed.ts on their own (the socket-level behaviour is in
 * malformed.test.ts): each parser code's status, code and message, the CONNECT answer, the raw
 * HTTP/1.1 response bytes (own Content-Length and `Connection: close`, whatever the headers
 * said), and the per-connection wait for responses still owed before a parse error's answer.
 */
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { clientErrorAnswer, connectAnswer, OwedResponses, rawHttpResponse, type ParserError } from "../../../src/sim/http/malformed.js";

const err = (code: string | undefined, reason?: string): ParserError => Object.assign(new Error("parse error"), code === undefined ? {} : { code }, reason === undefined ? {} : { reason });

describe("clientErrorAnswer", () => {
  it("an unknown method is 501 not_implemented", () => {
    expect(clientErrorAnswer(err("HPE_INVALID_METHOD", "Invalid method encountered"), 8192)).toEqual({
      status: 501,
      code: "not_implemented",
      message: "malformed HTTP request: unknown method",
      details: { parserCode: "HPE_INVALID_METHOD" },
    });
  });

  it("headers over the limit are 431, naming the limit it was given", () => {
    expect(clientErrorAnswer(err("HPE_HEADER_OVERFLOW"), 8192)).toEqual({
      status: 431,
      code: "bad_request",
      message: "malformed HTTP request: the request line and headers exceed 8192 bytes",
      details: { parserCode: "HPE_HEADER_OVERFLOW", maxHeaderBytes: 8192 },
    });
  });

  it("any other parse error is 400 with the parser's reason, else its code, else `unknown`", () => {
    expect(clientErrorAnswer(err("HPE_INVALID_VERSION", "Invalid HTTP version"), 1)).toEqual({
      status: 400,
      code: "bad_request",
      message: "malformed HTTP request: Invalid HTTP version",
      details: { parserCode: "HPE_INVALID_VERSION" },
    });
    expect(clientErrorAnswer(err("HPE_X", ""), 1).message).toBe("malformed HTTP request: HPE_X");
    expect(clientErrorAnswer(err(undefined), 1)).toMatchObject({ status: 400, message: "malformed HTTP request: unknown", details: { parserCode: "unknown" } });
  });
});

describe("connectAnswer", () => {
  it("is 501 not_implemented naming the method", () => {
    expect(connectAnswer()).toEqual({
      status: 501,
      code: "not_implemented",
      message: "CONNECT is not implemented: the simulator is not a proxy",
      details: { method: "CONNECT" },
    });
  });
});

describe("rawHttpResponse", () => {
  it("writes the status line, the headers, its own Content-Length in bytes and Connection: close, then the body", () => {
    const bytes = rawHttpResponse({ status: 431, headers: { "Content-Type": "application/json", "X-Request-Id": "req-1" }, bodyText: '{"m":"é"}' });
    expect(bytes.toString("utf8")).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json\r\nX-Request-Id: req-1\r\nContent-Length: 10\r\nConnection: close\r\n\r\n{"m":"é"}',
    );
  });

  it("drops Content-Length and Connection headers it was given, in any case", () => {
    const text = rawHttpResponse({ status: 400, headers: { "content-length": "999", CONNECTION: "keep-alive", "X-A": "1" }, bodyText: "" }).toString("latin1");
    expect(text).toBe("HTTP/1.1 400 Bad Request\r\nX-A: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  });

  it("leaves the reason empty for a status node has no phrase for", () => {
    expect(rawHttpResponse({ status: 599, headers: {}, bodyText: "" }).toString("latin1").split("\r\n")[0]).toBe("HTTP/1.1 599 ");
  });
});

/** Enough of a ServerResponse for OwedResponses: its request's socket and completeness, headersSent, `close`. */
function response(socket: object, complete: boolean, headersSent = false): ServerResponse & { finish(): void } {
  const r = Object.assign(new EventEmitter(), { req: { socket, complete }, headersSent, finish: () => r.emit("close") });
  return r as unknown as ServerResponse & { finish(): void };
}

describe("OwedResponses", () => {
  it("answers at once when nothing is owed on the socket", () => {
    const owed = new OwedResponses();
    const calls: boolean[] = [];
    owed.afterOwed({}, (a) => calls.push(a));
    expect(calls).toEqual([false]);
  });

  it("waits for every response owed to a complete request on that socket, and only that socket", () => {
    const owed = new OwedResponses();
    const socket = {};
    const other = {};
    const first = response(socket, true);
    const second = response(socket, true);
    const elsewhere = response(other, true);
    for (const r of [first, second, elsewhere]) owed.track(r);
    const calls: boolean[] = [];
    owed.afterOwed(socket, (a) => calls.push(a));
    first.finish();
    expect(calls).toEqual([]);
    second.finish();
    expect(calls).toEqual([false]);
  });

  it("a response that has closed is no longer owed", () => {
    const owed = new OwedResponses();
    const socket = {};
    const done = response(socket, true);
    owed.track(done);
    done.finish();
    const calls: boolean[] = [];
    owed.afterOwed(socket, (a) => calls.push(a));
    expect(calls).toEqual([false]);
  });

  it("reports `answered` when the request being parsed already has its answer on the wire", () => {
    const owed = new OwedResponses();
    const socket = {};
    owed.track(response(socket, false, true)); // a 413 sent before the body ended
    const calls: boolean[] = [];
    owed.afterOwed(socket, (a) => calls.push(a));
    expect(calls).toEqual([true]);
  });
});
