/**
 * The order tracker's vocabulary (src/bot/orders/order-tracker-types.ts): fresh counters, the
 * "never recorded" window docs/spec-gaps.md gives (request timeout + 6 s of platform re-sends +
 * 4 s, read from the doc) and its 2 s lookup retry, the tracker's other defaults, and the reading
 * of a wire cancel answer (200 or 202).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  LOOKUP_RETRY_MS,
  NOT_RECORDED_AFTER_MS,
  NOT_RECORDED_MARGIN_MS,
  PLATFORM_RESEND_MS,
  RETIRED_KEEP_MS,
  cancelOutcomeOf,
  emptyCounters,
  notRecordedWindowMs,
} from "../../../src/bot/orders/order-tracker-types.js";

describe("emptyCounters", () => {
  it("has every outcome and every extra counter at 0", () => {
    const c = emptyCounters();
    expect(Object.keys(c).sort()).toEqual(
      [
        ...["applied", "same", "stale", "late", "impossible", "buffered", "duplicate", "unmatched", "wrong_wallet", "conflict"],
        ...["overfill", "replayed", "bufferDropped", "resurrected", "unreadableTrades", "notFoundTooSoon"],
      ].sort(),
    );
    expect(Object.values(c).every((v) => v === 0)).toBe(true);
  });

  it("gives a new object each time (one tracker's counts never leak into another's)", () => {
    const a = emptyCounters();
    a.conflict += 1;
    expect(emptyCounters().conflict).toBe(0);
  });
});

describe("the not-recorded window", () => {
  it("is what docs/spec-gaps.md gives: the request timeout + N s of re-sends + M s, lookups retried every K s before it", () => {
    const doc = readFileSync(new URL("../../../docs/spec-gaps.md", import.meta.url), "utf8");
    const window = /a lookup sent `platform\.requestTimeoutMs` \+ (\d+) s \(the re-sends of 7\.3\) \+ (\d+) s after the placement's last send/.exec(doc);
    expect(window).not.toBeNull();
    expect(PLATFORM_RESEND_MS).toBe(Number(window![1]) * 1_000);
    expect(NOT_RECORDED_MARGIN_MS).toBe(Number(window![2]) * 1_000);
    const retry = /^\| An unknown placement \|.*\(earlier: retried every (\d+) s\)/m.exec(doc);
    expect(retry).not.toBeNull();
    expect(LOOKUP_RETRY_MS).toBe(Number(retry![1]) * 1_000);
  });

  it("is the request timeout plus 6 s of platform re-sends plus a 4 s margin", () => {
    expect(PLATFORM_RESEND_MS).toBe(6_000);
    expect(NOT_RECORDED_MARGIN_MS).toBe(4_000);
    expect(notRecordedWindowMs(10_000)).toBe(20_000);
    expect(notRecordedWindowMs(300_000)).toBe(310_000);
    expect(notRecordedWindowMs(0)).toBe(10_000);
  });

  it("defaults to the window at the default 10 s request timeout; lookups retried every 2 s; retired ids kept an hour", () => {
    expect(NOT_RECORDED_AFTER_MS).toBe(20_000);
    expect(LOOKUP_RETRY_MS).toBe(2_000);
    expect(RETIRED_KEEP_MS).toBe(3_600_000);
  });
});

describe("cancelOutcomeOf", () => {
  it("a 200 CANCELLED or FILLED is done, with the filled quantity in micro-shares", () => {
    expect(cancelOutcomeOf({ orderId: "o1", status: "CANCELLED", filledQty: "2.5", remainingQty: "7.5" })).toEqual({ kind: "done", status: "CANCELLED", filledQty: 2_500_000n });
    expect(cancelOutcomeOf({ orderId: "o2", status: "FILLED", filledQty: "10", remainingQty: "0" })).toEqual({ kind: "done", status: "FILLED", filledQty: 10_000_000n });
  });

  it("a 202 cancel_pending is pending, retried after retryAfterSec in whole ms", () => {
    const pending = { status: "cancel_pending", code: "cancel_pending", orderId: "o3", message: "recorded" } as const;
    expect(cancelOutcomeOf({ ...pending, retryAfterSec: 5 })).toEqual({ kind: "pending", retryAfterMs: 5_000 });
    expect(cancelOutcomeOf({ ...pending, retryAfterSec: 0.0004 })).toEqual({ kind: "pending", retryAfterMs: 0 });
    expect(cancelOutcomeOf({ ...pending, retryAfterSec: 1.5 })).toEqual({ kind: "pending", retryAfterMs: 1_500 });
  });

  it("refuses a filled quantity that is not a decimal amount", () => {
    expect(() => cancelOutcomeOf({ orderId: "o4", status: "CANCELLED", filledQty: "lots", remainingQty: "0" })).toThrow(/lots/);
  });
});
