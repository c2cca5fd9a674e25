/**
 * The platform layer's failure shape (src/sim/platform/errors.ts): `failure` carries status,
 * code and message, and details / retryable / retryAfterSec only when given (so an envelope
 * built from it has no empty keys); OK is one frozen value; setup errors are named.
 */
import { describe, expect, it } from "vitest";
import { failure, OK, PlatformSetupError } from "../../../src/sim/platform/errors.js";

describe("failure", () => {
  it("has only status, code and message when nothing else is given", () => {
    const f = failure(404, "market_not_found", "no market");
    expect(f).toEqual({ ok: false, status: 404, code: "market_not_found", message: "no market" });
    expect(Object.keys(f)).toEqual(["ok", "status", "code", "message"]);
  });

  it("adds details, retryable and retryAfterSec when given, false and 0 included", () => {
    expect(failure(503, "exchange_unavailable", "later", { orderId: "o1" }, { retryable: true, retryAfterSec: 5 })).toEqual({
      ok: false,
      status: 503,
      code: "exchange_unavailable",
      message: "later",
      details: { orderId: "o1" },
      retryable: true,
      retryAfterSec: 5,
    });
    const f = failure(429, "rate_limited", "slow down", undefined, { retryable: false, retryAfterSec: 0 });
    expect(f).toEqual({ ok: false, status: 429, code: "rate_limited", message: "slow down", retryable: false, retryAfterSec: 0 });
    expect("details" in f).toBe(false);
  });

  it("leaves out extras that are not set", () => {
    expect(Object.keys(failure(400, "bad_request", "x", {}, {}))).toEqual(["ok", "status", "code", "message", "details"]);
  });
});

describe("OK and PlatformSetupError", () => {
  it("OK is a frozen { ok: true }", () => {
    expect(OK).toEqual({ ok: true });
    expect(Object.isFrozen(OK)).toBe(true);
  });

  it("PlatformSetupError is an Error named for what it is", () => {
    const e = new PlatformSetupError("duplicate partner id \"mm\"");
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("PlatformSetupError");
    expect(e.message).toBe('duplicate partner id "mm"');
  });
});
