/**
 * The window ledger alone (the gate's tests drive it through the schedulers): budgets with the
 * safety margin, fixed windows cut at the platform's instants, Retry-After blocks, limits learned
 * from headers, and the resynchronisation from X-RateLimit-Remaining / -Reset, each on hand-worked
 * cases.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { WindowLedger, budgetFor, type LedgerEntry } from "../../src/ratelimit/window-ledger.js";
import type { BucketRule } from "../../src/ratelimit/table.js";

const T0 = 1_800_000_000_000; // a multiple of 60 s: windows of 1 s and 60 s start here

function rule(over: Partial<BucketRule> = {}): BucketRule {
  return { id: "orders.place", method: "POST", paths: ["/api/orders/place"], scope: "wallet", limit: 20, windowSec: 1, class: "place", stated: true, ...over };
}

function ledger(opts: { margin?: number; paceUnstated?: boolean; perMin?: number; at?: number } = {}): { clock: VirtualClock; l: WindowLedger } {
  const clock = new VirtualClock(opts.at ?? T0);
  return { clock, l: new WindowLedger({ clock, rateLimitPerMin: opts.perMin ?? 600, safetyMargin: opts.margin ?? 0, paceUnstated: opts.paceUnstated ?? false }) };
}

function fill(l: WindowLedger, e: LedgerEntry, now: number): number {
  let n = 0;
  while (l.hasRoom(e, now)) {
    l.reserveAll([e], now);
    n += 1;
  }
  return n;
}

describe("budgetFor", () => {
  it.each([
    [20, 0, 20],
    [20, 0.1, 18], // 20 * 0.9 is 17.999... in floating point: not 17
    [10, 0.25, 7],
    [1, 0.5, 1], // never below one
    [3, 0.99, 1],
  ])("limit %i, margin %f: %i a window", (limit, margin, budget) => {
    expect(budgetFor(limit, margin)).toBe(budget);
  });

  it("refuses a margin outside [0, 1)", () => {
    expect(() => ledger({ margin: 1 })).toThrow(RangeError);
    expect(() => ledger({ margin: -0.1 })).toThrow(RangeError);
  });
});

describe("WindowLedger", () => {
  it("opens one entry per bucket and subject, its window cut at epoch multiples", () => {
    const { l } = ledger({ at: T0 + 61_500 });
    const a = l.entry(rule({ windowSec: 60 }), "0xa");
    expect(l.entry(rule({ windowSec: 60 }), "0xa")).toBe(a);
    expect(l.entry(rule({ windowSec: 60 }), "0xb")).not.toBe(a);
    expect(a.key).toBe("orders.place|0xa");
    expect([a.windowStart, a.windowEnd]).toEqual([T0 + 60_000, T0 + 120_000]);
  });

  it("scales wallet buckets by the tier and leaves ip buckets as listed", () => {
    const { l } = ledger({ perMin: 300 });
    expect(l.entry(rule({ limit: 20, scope: "wallet" }), "w").limit).toBe(10);
    expect(l.entry(rule({ id: "ip", limit: 20, scope: "ip" }), "ip").limit).toBe(20);
  });

  it("admits the budget in a window, then has room again at the next window's start", () => {
    const { l } = ledger({ margin: 0.1 });
    const e = l.entry(rule(), "w");
    expect(fill(l, e, T0 + 100)).toBe(18);
    expect(l.nextRoomAt(e, T0 + 100)).toBe(T0 + 1000);
    expect(l.hasRoom(e, T0 + 999)).toBe(false);
    expect(l.hasRoom(e, T0 + 1000)).toBe(true);
    expect(e.used).toBe(0);
  });

  it("does not pace a bucket whose number is our choice unless asked to", () => {
    const unpaced = ledger().l.entry(rule({ stated: false }), "w");
    expect(unpaced.paced).toBe(false);
    expect(unpaced.budget).toBe(Infinity);
    const paced = ledger({ paceUnstated: true }).l.entry(rule({ stated: false }), "w");
    expect([paced.paced, paced.budget]).toEqual([true, 20]);
  });

  it("refuses admissions until a Retry-After block ends, and never shortens a block", () => {
    const { l } = ledger();
    const e = l.entry(rule(), "w");
    l.block(e, T0 + 3_000);
    l.block(e, T0 + 2_000);
    expect(l.hasRoom(e, T0 + 2_999)).toBe(false);
    expect(l.nextRoomAt(e, T0 + 500)).toBe(T0 + 3_000);
    expect(l.hasRoom(e, T0 + 3_000)).toBe(true);
  });

  it("waits for the latest of several buckets", () => {
    const { l } = ledger();
    const wallet = l.entry(rule({ limit: 1 }), "w");
    const ip = l.entry(rule({ id: "ip", scope: "ip", limit: 5, windowSec: 60 }), "ip");
    l.reserveAll([wallet, ip], T0 + 10);
    expect(l.hasRoomAll([wallet, ip], T0 + 10)).toBe(false);
    expect(l.nextRoomAtAll([wallet, ip], T0 + 10)).toBe(T0 + 1000);
    l.block(ip, T0 + 4_000);
    expect(l.nextRoomAtAll([wallet, ip], T0 + 10)).toBe(T0 + 4_000);
  });

  it("adopts a limit the platform reports (pacing from then on), ignoring nonsense", () => {
    const { l } = ledger({ margin: 0.5 });
    const e = l.entry(rule({ stated: false }), "w");
    l.learnLimit(e, 0);
    expect(e.paced).toBe(false);
    l.learnLimit(e, 8);
    expect([e.limit, e.paced, e.budget]).toEqual([8, true, 4]);
  });

  it("takes the platform's count when it is higher, never lower", () => {
    const { l } = ledger();
    const e = l.entry(rule({ windowSec: 60, limit: 100 }), "w");
    l.reserveAll([e], T0 + 1_000);
    l.resync(e, 100, 90, 59, T0 + 1_000, T0 + 1_000);
    expect(e.used).toBe(10);
    l.resync(e, 100, 95, 59, T0 + 1_000, T0 + 1_000);
    expect(e.used).toBe(10);
  });

  it("ignores the count of a response sent in an earlier window", () => {
    const { l } = ledger();
    const e = l.entry(rule({ windowSec: 60, limit: 100 }), "w");
    l.resync(e, 100, 40, 60, T0 + 60_100, T0 + 59_900);
    expect(e.windowStart).toBe(T0 + 60_000);
    expect(e.used).toBe(0);
  });

  it("moves its window boundaries the least that agrees with X-RateLimit-Reset", () => {
    const { l } = ledger();
    const e = l.entry(rule({ windowSec: 60, limit: 100 }), "w");
    // Answered at +10 s with 5 s left: the platform's window ends in (14.001 s, 15 s], not at 60 s.
    l.resync(e, 100, 99, 5, T0 + 10_000, T0 + 10_000);
    expect(e.windowEnd).toBe(T0 + 15_000);
    expect(l.phase(60_000)).toBe(15_000);
    // Every 60 s bucket follows the learnt phase; a boundary already inside the interval stays.
    const other = l.entry(rule({ id: "orders.cancel", windowSec: 60 }), "w");
    expect(other.windowEnd).toBe(T0 + 15_000);
    l.resync(e, 100, 98, 5, T0 + 10_500, T0 + 10_000);
    expect(e.windowEnd).toBe(T0 + 15_000);
  });

  it("leaves 1 s windows where they are (their reset is always 1 s)", () => {
    const { l } = ledger();
    const e = l.entry(rule(), "w");
    l.resync(e, 20, 19, 1, T0 + 300, T0 + 300);
    expect([e.windowStart, e.windowEnd]).toEqual([T0, T0 + 1000]);
  });

  it("cuts windows on the platform's clock once the offset is known", () => {
    const { l } = ledger();
    l.setClockOffset(700);
    expect(l.now()).toBe(T0 + 700);
    const e = l.entry(rule(), "w");
    expect(fill(l, e, l.now())).toBe(20);
    expect(l.nextRoomAt(e, l.now())).toBe(T0 + 1000);
  });
});
