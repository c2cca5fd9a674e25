/**
 * The virtual-time admission scheduler alone: who gets the room when a window opens (priority,
 * then arrival), a waiter blocked on another bucket holding nobody back, aborts and close, and the
 * hooks balanced, on a WindowLedger driven by a VirtualClock.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { QueueScheduler } from "../../src/ratelimit/queue-scheduler.js";
import type { Waiter } from "../../src/ratelimit/scheduler.js";
import type { BucketRule } from "../../src/ratelimit/table.js";
import { WindowLedger, type LedgerEntry } from "../../src/ratelimit/window-ledger.js";

const T0 = 1_800_000_000_000;

function rule(id: string, limit: number, windowSec = 1): BucketRule {
  return { id, method: "POST", paths: [`/${id}`], scope: "wallet", limit, windowSec, class: "place", stated: true };
}

function world() {
  const clock = new VirtualClock(T0);
  const ledger = new WindowLedger({ clock, rateLimitPerMin: 600, safetyMargin: 0, paceUnstated: false });
  const log: string[] = [];
  let queued = 0;
  const s = new QueueScheduler(ledger, {
    queued: () => (queued += 1),
    unqueued: () => (queued -= 1),
    admitted: (w, now) => log.push(`${(w as Named).name}@${now - T0}`),
  });
  let seq = 0;
  const waiter = (name: string, entries: LedgerEntry[], priority: number, signal?: AbortSignal): Named => ({ name, entries, priority, seq: seq++, createdAt: clock.now(), ...(signal ? { signal } : {}) });
  return { clock, ledger, s, log, waiter, queued: () => queued };
}

type Named = Waiter & { name: string };

describe("QueueScheduler", () => {
  it("admits at once while the bucket has room, then queues", async () => {
    const { ledger, s, log, waiter, queued } = world();
    const e = ledger.entry(rule("a", 2), "w");
    await s.admit(waiter("1", [e], 1));
    await s.admit(waiter("2", [e], 1));
    const third = s.admit(waiter("3", [e], 1));
    expect(log).toEqual(["1@0", "2@0"]);
    expect([s.waiting(), queued()]).toEqual([1, 1]);
    void third;
  });

  it("gives an opening window to cancels before places before reads, first come first served within each", async () => {
    const { clock, ledger, s, log, waiter } = world();
    const e = ledger.entry(rule("a", 3), "w");
    for (let i = 0; i < 3; i++) await s.admit(waiter(`fill${i}`, [e], 1));
    const order = [waiter("read1", [e], 4), waiter("place1", [e], 1), waiter("cancel1", [e], 0), waiter("place2", [e], 1), waiter("cancel2", [e], 0)];
    const done = order.map((w) => s.admit(w));
    await clock.advance(1_000);
    expect(log.slice(3)).toEqual(["cancel1@1000", "cancel2@1000", "place1@1000"]);
    await clock.advance(1_000);
    expect(log.slice(6)).toEqual(["place2@2000", "read1@2000"]);
    await Promise.all(done);
    expect(s.waiting()).toBe(0);
  });

  it("lets a waiter through whose buckets have room while an earlier one waits on another bucket", async () => {
    const { clock, ledger, s, log, waiter } = world();
    const slow = ledger.entry(rule("slow", 1, 60), "w");
    const fast = ledger.entry(rule("fast", 1), "w");
    await s.admit(waiter("s0", [slow], 1));
    await s.admit(waiter("f0", [fast], 1));
    const blocked = s.admit(waiter("both", [slow, fast], 0));
    const behind = s.admit(waiter("f1", [fast], 1));
    await clock.advance(1_000);
    expect(log).toEqual(["s0@0", "f0@0", "f1@1000"]);
    await behind;
    await clock.advance(59_000);
    await blocked;
    expect(log.at(-1)).toBe("both@60000");
  });

  it("drops an aborted waiter with the signal's reason, and its room goes to the next", async () => {
    const { clock, ledger, s, log, waiter, queued } = world();
    const e = ledger.entry(rule("a", 1), "w");
    await s.admit(waiter("0", [e], 1));
    const ac = new AbortController();
    const first = s.admit(waiter("aborted", [e], 0, ac.signal));
    const second = s.admit(waiter("next", [e], 1));
    ac.abort(new Error("gone"));
    await expect(first).rejects.toThrow("gone");
    expect(queued()).toBe(1);
    await clock.advance(1_000);
    await second;
    expect(log).toEqual(["0@0", "next@1000"]);
    expect(queued()).toBe(0);
  });

  it("refuses a waiter whose signal is already aborted", async () => {
    const { ledger, s, waiter } = world();
    const e = ledger.entry(rule("a", 1), "w");
    await expect(s.admit(waiter("x", [e], 1, AbortSignal.abort(new Error("too late"))))).rejects.toThrow("too late");
  });

  it("on close rejects every waiter and every later admission, hooks balanced", async () => {
    const { clock, ledger, s, log, waiter, queued } = world();
    const e = ledger.entry(rule("a", 1), "w");
    await s.admit(waiter("0", [e], 1));
    const waiting = [s.admit(waiter("1", [e], 1)), s.admit(waiter("2", [e], 0))];
    s.close(new Error("closed"));
    for (const w of waiting) await expect(w).rejects.toThrow("closed");
    await expect(s.admit(waiter("3", [e], 1))).rejects.toThrow("closed");
    await clock.advance(5_000);
    expect(log).toEqual(["0@0"]);
    expect([s.waiting(), queued()]).toEqual([0, 0]);
  });

  it("re-checks its waiters when the ledger changes from outside (wake)", async () => {
    const { ledger, s, log, waiter } = world();
    const e = ledger.entry(rule("a", 1, 60), "w");
    await s.admit(waiter("0", [e], 1));
    const next = s.admit(waiter("1", [e], 1));
    ledger.learnLimit(e, 2);
    s.wake();
    await next;
    expect(log).toEqual(["0@0", "1@0"]);
  });
});
