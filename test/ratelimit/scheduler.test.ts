/**
 * The admission-scheduler contract (scheduler.ts), held by both implementations: admit at once
 * while the ledger has room (one `admitted` hook, no queueing), refuse an already-aborted waiter
 * with the signal's reason (abortReason: an Error as it is, anything else wrapped), and after
 * close() reject the waiters and every later admit with the close reason itself. Virtual clock only.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { BottleneckScheduler } from "../../src/ratelimit/bottleneck-scheduler.js";
import { QueueScheduler } from "../../src/ratelimit/queue-scheduler.js";
import { abortReason, type AdmissionScheduler, type SchedulerHooks, type Waiter } from "../../src/ratelimit/scheduler.js";
import type { BucketRule } from "../../src/ratelimit/table.js";
import { WindowLedger } from "../../src/ratelimit/window-ledger.js";

describe("abortReason", () => {
  it("returns an Error reason itself", () => {
    const reason = new Error("shutdown");
    expect(abortReason(AbortSignal.abort(reason))).toBe(reason);
  });

  it("wraps a reason that is not an Error as 'aborted', keeping it as the cause", () => {
    for (const reason of ["stop", 42, null, { why: "x" }]) {
      const error = abortReason(AbortSignal.abort(reason));
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toBe("aborted");
      expect(error.cause).toBe(reason);
    }
  });

  it("abort() with no reason gives the platform's AbortError, an Error", () => {
    const error = abortReason(AbortSignal.abort());
    expect(error.name).toBe("AbortError");
  });
});

const T0 = 1_800_000_000_000;
const RULE: BucketRule = { id: "place", method: "POST", paths: ["/place"], scope: "wallet", limit: 1, windowSec: 1, class: "place", stated: true };

type Make = (ledger: WindowLedger, hooks: SchedulerHooks) => AdmissionScheduler;
const IMPLEMENTATIONS: [string, Make][] = [
  ["QueueScheduler", (l, h) => new QueueScheduler(l, h)],
  ["BottleneckScheduler", (l, h) => new BottleneckScheduler(l, h)],
];

function world(make: Make) {
  const clock = new VirtualClock(T0);
  const ledger = new WindowLedger({ clock, rateLimitPerMin: 600, safetyMargin: 0, paceUnstated: false });
  const log: string[] = [];
  const name = (w: Waiter): string => String(w.seq);
  const s = make(ledger, {
    queued: (w) => log.push(`queued ${name(w)}`),
    unqueued: (w) => log.push(`unqueued ${name(w)}`),
    admitted: (w, now) => log.push(`admitted ${name(w)}@${now - T0}`),
  });
  const entry = ledger.entry(RULE, "0xw");
  let seq = 0;
  const waiter = (signal?: AbortSignal): Waiter => ({ entries: [entry], priority: 3, seq: seq++, createdAt: clock.now(), ...(signal ? { signal } : {}) });
  return { s, log, waiter };
}

describe.each(IMPLEMENTATIONS)("%s keeps the AdmissionScheduler contract", (_, make) => {
  it("admits at once while the bucket has room, with only the admitted hook", async () => {
    const { s, log, waiter } = world(make);
    await s.admit(waiter());
    expect(log).toEqual(["admitted 0@0"]);
    expect(s.waiting()).toBe(0);
    s.close(new Error("end"));
  });

  it("refuses an already-aborted waiter with the signal's reason, reserving nothing", async () => {
    const { s, log, waiter } = world(make);
    await expect(s.admit(waiter(AbortSignal.abort(new Error("too late"))))).rejects.toThrow("too late");
    await expect(s.admit(waiter(AbortSignal.abort("gone")))).rejects.toThrow("aborted");
    expect(log).toEqual([]);
    await s.admit(waiter()); // the room is still there
    expect(log).toEqual(["admitted 2@0"]);
    s.close(new Error("end"));
  });

  it("close() rejects a waiting request and every later one with the close reason", async () => {
    const { s, log, waiter } = world(make);
    await s.admit(waiter());
    const blocked = s.admit(waiter());
    expect(s.waiting()).toBe(1);
    const reason = new Error("gate closed");
    s.close(reason);
    await expect(blocked).rejects.toBe(reason);
    expect(s.waiting()).toBe(0);
    await expect(s.admit(waiter())).rejects.toBe(reason);
    expect(log).toEqual(["admitted 0@0", "queued 1", "unqueued 1"]);
  });
});
