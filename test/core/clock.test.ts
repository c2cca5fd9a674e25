import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RealClock, VirtualClock } from "../../src/core/clock.js";

const RUNS = { seed: 7, numRuns: 100 } as const;
const START = Date.UTC(2026, 0, 1);

describe("VirtualClock", () => {
  it("keeps time in whole milliseconds: fractional delays round up, targets down", async () => {
    const clock = new VirtualClock(1_000);
    const at: number[] = [];
    clock.setTimeout(() => at.push(clock.now()), 138.889);
    clock.setInterval(() => at.push(clock.now()), 333.3);
    await clock.advance(700.5);
    expect(at).toEqual([1_139, 1_334, 1_668]);
    expect(clock.now()).toBe(1_700);
    expect(Number.isInteger(clock.now())).toBe(true);
  });
  it("starts where told and only moves when advanced", async () => {
    const clock = new VirtualClock(START);
    expect(clock.now()).toBe(START);
    await clock.advance(1_500);
    expect(clock.now()).toBe(START + 1_500);
    await clock.advance(-10);
    expect(clock.now()).toBe(START + 1_500);
    await clock.advanceTo(START);
    expect(clock.now()).toBe(START + 1_500);
  });

  it("fires timers in due order, ties in scheduling order, each at its due time", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 30 }), async (delays) => {
        const clock = new VirtualClock(START);
        const fired: { index: number; at: number }[] = [];
        delays.forEach((d, index) => clock.setTimeout(() => fired.push({ index, at: clock.now() }), d));
        expect(clock.pending()).toBe(delays.length);
        await clock.advance(100);
        const expected = delays
          .map((d, index) => ({ index, at: START + d }))
          .sort((a, b) => a.at - b.at || a.index - b.index);
        expect(fired).toEqual(expected);
        expect(clock.pending()).toBe(0);
      }),
      RUNS,
    );
  });

  it("fires nothing past the target and keeps later timers pending", async () => {
    const clock = new VirtualClock(START);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(10), 10);
    clock.setTimeout(() => fired.push(30), 30);
    await clock.advance(20);
    expect(fired).toEqual([10]);
    expect(clock.nextDue()).toBe(START + 30);
    await clock.advance(10);
    expect(fired).toEqual([10, 30]);
    expect(clock.nextDue()).toBeUndefined();
  });

  it("clearTimeout cancels, including from another timer's callback", async () => {
    const clock = new VirtualClock(START);
    const fired: string[] = [];
    const b = clock.setTimeout(() => fired.push("b"), 20);
    clock.setTimeout(() => {
      fired.push("a");
      clock.clearTimeout(b);
    }, 10);
    clock.clearTimeout(undefined);
    await clock.advance(50);
    expect(fired).toEqual(["a"]);
  });

  it("repeats intervals until cleared", async () => {
    const clock = new VirtualClock(START);
    const ticks: number[] = [];
    const h = clock.setInterval(() => ticks.push(clock.now() - START), 10);
    await clock.advance(35);
    expect(ticks).toEqual([10, 20, 30]);
    await clock.advance(25);
    expect(ticks).toEqual([10, 20, 30, 40, 50, 60]);
    clock.clearInterval(h);
    await clock.advance(100);
    expect(ticks).toHaveLength(6);
    expect(clock.pending()).toBe(0);
  });

  it("orders a re-armed interval after timers scheduled before it re-armed", async () => {
    const clock = new VirtualClock(START);
    const fired: string[] = [];
    clock.setInterval(() => fired.push(`i${clock.now() - START}`), 10);
    clock.setTimeout(() => fired.push("t20"), 20);
    await clock.advance(20);
    expect(fired).toEqual(["i10", "t20", "i20"]);
  });

  it("runs a zero-delay timer scheduled inside a callback within the same advance", async () => {
    const clock = new VirtualClock(START);
    const fired: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now() - START), 0), 10);
    await clock.advance(10);
    expect(fired).toEqual([10]);
  });

  it("sleep resolves at its due time", async () => {
    const clock = new VirtualClock(START);
    let woke: number | undefined;
    void clock.sleep(25).then(() => (woke = clock.now()));
    await clock.advance(24);
    expect(woke).toBeUndefined();
    await clock.advance(1);
    expect(woke).toBe(START + 25);
  });

  it("sleep rejects with the signal's reason when aborted, and leaves no timer behind", async () => {
    const clock = new VirtualClock(START);
    const controller = new AbortController();
    const slept = clock.sleep(1_000, controller.signal);
    const reason = new Error("shutting down");
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(clock.pending()).toBe(0);
  });

  it("sleep on an already aborted signal rejects at once (non-Error reason wrapped)", async () => {
    const clock = new VirtualClock(START);
    const controller = new AbortController();
    controller.abort("stop");
    await expect(clock.sleep(10, controller.signal)).rejects.toThrow("aborted");
    expect(clock.pending()).toBe(0);
  });

  it("lets promise continuations of a timer schedule the next timer before time moves on", async () => {
    const clock = new VirtualClock(START);
    const seen: number[] = [];
    const loop = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) {
        await clock.sleep(10);
        await Promise.resolve(); // a continuation chain between timers
        await Promise.resolve();
        seen.push(clock.now() - START);
      }
    };
    const done = loop();
    await clock.advance(50);
    await done;
    expect(seen).toEqual([10, 20, 30, 40, 50]);
  });

  it("runs an async callback's follow-up timer at its own due time, before a later timer", async () => {
    const clock = new VirtualClock(START);
    const order: string[] = [];
    clock.setTimeout(() => {
      void Promise.resolve().then(() => clock.setTimeout(() => order.push(`follow-up@${clock.now() - START}`), 5));
    }, 10);
    clock.setTimeout(() => order.push(`late@${clock.now() - START}`), 20);
    await clock.advance(30);
    expect(order).toEqual(["follow-up@15", "late@20"]);
  });

  it("runAll drains timers up to the limit", async () => {
    const clock = new VirtualClock(START);
    let n = 0;
    clock.setInterval(() => n++, 1_000);
    await clock.runAll(10_500);
    expect(n).toBe(10);
    expect(clock.now()).toBe(START + 10_000);
  });
});

describe("RealClock", () => {
  it("sleeps and can be aborted", async () => {
    const clock = new RealClock();
    const t0 = clock.now();
    await clock.sleep(5);
    expect(clock.now()).toBeGreaterThanOrEqual(t0);
    const controller = new AbortController();
    const slept = clock.sleep(60_000, controller.signal);
    controller.abort(new Error("stop"));
    await expect(slept).rejects.toThrow("stop");
  });
});

describe("RealClock far timers", () => {
  it("a timer beyond Node's 2^31-1 ms limit fires when due, not after 1 ms", async () => {
    const { vi } = await import("vitest");
    vi.useFakeTimers();
    try {
      const clock = new RealClock();
      let fired = 0;
      const thirtyDays = 30 * 24 * 3600_000;
      clock.setTimeout(() => fired++, thirtyDays);
      vi.advanceTimersByTime(1_000);
      expect(fired).toBe(0);
      vi.advanceTimersByTime(thirtyDays - 2_000);
      expect(fired).toBe(0);
      vi.advanceTimersByTime(1_000);
      expect(fired).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a far timer can still be cleared after it was re-armed", async () => {
    const { vi } = await import("vitest");
    vi.useFakeTimers();
    try {
      const clock = new RealClock();
      let fired = 0;
      const h = clock.setTimeout(() => fired++, 40 * 24 * 3600_000);
      vi.advanceTimersByTime(30 * 24 * 3600_000);
      clock.clearTimeout(h);
      vi.advanceTimersByTime(20 * 24 * 3600_000);
      expect(fired).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
