/**
 * What a wallet's shutdown reports (src/bot/engine/shutdown-report.ts): the reason given for a
 * failed request (a refused key is not an unreachable platform), "clean" meaning confirmed by the
 * platform (nothing unconfirmed AND the last open-orders walk succeeded), the exit code over every
 * wallet, and the one line per unconfirmed order the logs and CLI print.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../src/api/index.js";
import {
  UNCONFIRMED_REASONS,
  describeUnconfirmed,
  isClean,
  problemOf,
  shutdownExitCode,
  type WalletShutdownReport,
} from "../../../src/bot/engine/shutdown-report.js";

function apiError(status: number, code: string, source: "http" | "transport" | "circuit" = "http"): ApiError {
  return new ApiError({ source, status, code, message: "secret-free text", method: "POST", path: "/api/orders/cancel-all" });
}

function report(over: Partial<WalletShutdownReport> = {}): WalletShutdownReport {
  return {
    wallet: "0x1111111111111111111111111111111111111111",
    name: "maker-1",
    cancelled: 3,
    unconfirmed: [],
    leftover: [],
    unresolved: [],
    notRecorded: [],
    finalWalk: { ok: true, open: 0 },
    rounds: 1,
    errors: [],
    ...over,
  };
}

describe("problemOf", () => {
  it("a refused key (401 codes) is key_refused, with the code and status only", () => {
    expect(problemOf(apiError(401, "api_key_revoked"))).toEqual({ reason: "key_refused", detail: "api_key_revoked (HTTP 401)" });
  });

  it("a 5xx, a transport failure or an open circuit is platform_unreachable; no status is shown without one", () => {
    expect(problemOf(apiError(503, "exchange_unavailable"))).toEqual({ reason: "platform_unreachable", detail: "exchange_unavailable (HTTP 503)" });
    expect(problemOf(apiError(0, "transport_timeout", "transport"))).toEqual({ reason: "platform_unreachable", detail: "transport_timeout" });
    expect(problemOf(apiError(0, "circuit_open", "circuit"))).toEqual({ reason: "platform_unreachable", detail: "circuit_open" });
  });

  it("anything else thrown is platform_unreachable with its message", () => {
    expect(problemOf(new Error("socket hang up"))).toEqual({ reason: "platform_unreachable", detail: "socket hang up" });
    expect(problemOf("weird")).toEqual({ reason: "platform_unreachable", detail: "weird" });
  });
});

describe("isClean and the exit code", () => {
  it("clean only with nothing unconfirmed and a successful final walk", () => {
    expect(isClean(report())).toBe(true);
    expect(isClean(report({ unconfirmed: [{ reason: "still_open", detail: "listed open", orderId: "o1" }] }))).toBe(false);
    expect(isClean(report({ finalWalk: { ok: false, error: "exchange_unavailable (HTTP 503)" } }))).toBe(false);
  });

  it("orders ended 'never recorded' and errors along the way do not make a stop unclean by themselves", () => {
    expect(isClean(report({ notRecorded: ["c9"], errors: ["cancel-all: exchange_unavailable"], rounds: 3 }))).toBe(true);
  });

  it("exits 0 only when every wallet stopped clean (and with no wallet at all)", () => {
    expect(shutdownExitCode([])).toBe(0);
    expect(shutdownExitCode([report(), report({ name: "maker-2" })])).toBe(0);
    expect(shutdownExitCode([report(), report({ finalWalk: { ok: false, error: "x" } })])).toBe(1);
  });
});

describe("describeUnconfirmed", () => {
  it("names the order and our id, the reason in words, the detail", () => {
    expect(describeUnconfirmed({ reason: "cancel_pending", detail: "no final answer after 3 tries", orderId: "o1", clientOrderId: "c1" })).toBe(
      "order o1 (c1): cancel pending: no final answer after 3 tries",
    );
  });

  it("a placement without an order id is named by its clientOrderId, or '?'", () => {
    expect(describeUnconfirmed({ reason: "lookup_inconclusive", detail: "404 during shutdown", clientOrderId: "c2" })).toBe(
      "placement c2: lookup inconclusive: 404 during shutdown",
    );
    expect(describeUnconfirmed({ reason: "platform_unreachable", detail: "timeout" })).toBe("placement ?: platform unreachable: timeout");
  });

  it("a GTD order says when it ends by itself", () => {
    const at = Date.UTC(2026, 5, 1, 12, 30);
    expect(describeUnconfirmed({ reason: "key_refused", detail: "api_key_revoked (HTTP 401)", orderId: "o3", expiresAtMs: at })).toBe(
      "order o3: key refused: api_key_revoked (HTTP 401); expires by itself at 2026-06-01T12:30:00.000Z",
    );
  });

  it("every reason reads as words", () => {
    for (const reason of UNCONFIRMED_REASONS) expect(describeUnconfirmed({ reason, detail: "d", orderId: "o" })).not.toContain("_");
  });
});
