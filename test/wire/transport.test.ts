/**
 * The REST and socket seams (transport.ts): TransportError says whether a request may have been
 * delivered and how it failed, keeping the cause; UpgradeRefusedError names the HTTP status and the
 * platform's code; lowerCaseHeaders lower-cases names from a plain record or a fetch Headers,
 * keeping values as they are.
 */
import { describe, expect, it } from "vitest";
import { TransportError, UpgradeRefusedError, lowerCaseHeaders } from "../../src/wire/transport.js";

describe("TransportError", () => {
  it("carries the message, whether the request may have been delivered, the kind and the cause", () => {
    const cause = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    const error = new TransportError("connection reset after the body was sent", true, "reset", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("TransportError");
    expect(error.message).toBe("connection reset after the body was sent");
    expect(error.maybeDelivered).toBe(true);
    expect(error.kind).toBe("reset");
    expect(error.cause).toBe(cause);
  });

  it("a refused connection never reached the server, and has no cause unless given", () => {
    const error = new TransportError("connect ECONNREFUSED 127.0.0.1:1", false, "connect");
    expect([error.maybeDelivered, error.kind, error.cause]).toEqual([false, "connect", undefined]);
    expect(String(error)).toBe("TransportError: connect ECONNREFUSED 127.0.0.1:1");
  });
});

describe("UpgradeRefusedError", () => {
  it("names the status, the platform's code and the detail", () => {
    const error = new UpgradeRefusedError(401, "invalid_api_key", "API key revoked");
    expect(error.message).toBe("upgrade refused: HTTP 401 invalid_api_key: API key revoked");
    expect([error.name, error.httpStatus, error.code]).toEqual(["UpgradeRefusedError", 401, "invalid_api_key"]);
    expect(error).toBeInstanceOf(Error);
  });

  it("leaves out an empty detail", () => {
    expect(new UpgradeRefusedError(503, "http_503", "").message).toBe("upgrade refused: HTTP 503 http_503");
  });
});

describe("lowerCaseHeaders", () => {
  it("lower-cases the names of a record, keeping values and leaving the input alone", () => {
    const input = { "Content-Type": "application/json", "X-API-KEY": "pmk_Sim_AbC", "retry-after": "5" };
    expect(lowerCaseHeaders(input)).toEqual({ "content-type": "application/json", "x-api-key": "pmk_Sim_AbC", "retry-after": "5" });
    expect(Object.keys(input)).toEqual(["Content-Type", "X-API-KEY", "retry-after"]);
  });

  it("reads a fetch Headers object the same way", () => {
    const headers = new Headers({ "Retry-After": "2", "X-Request-Id": "Req-1" });
    expect(lowerCaseHeaders(headers)).toEqual({ "retry-after": "2", "x-request-id": "Req-1" });
  });

  it("an empty record gives an empty record", () => {
    expect(lowerCaseHeaders({})).toEqual({});
  });
});
