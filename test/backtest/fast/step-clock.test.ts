/**
 * StepClock against VirtualClock, whose order of timers it promises to keep: the same random
 * program of timeouts, intervals, clears and timers scheduled from inside callbacks, run on both,
 * fires the same timers at the same instants in the same order (40 seeded programs); plus the
 * hand-checked rules (whole ms rounded up, intervals of at least 1 ms, time never going back).
 */
import { describe, expect, it } from "vitest";
import { VirtualClock, type Clock, type TimerHandle } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { StepClock } from "../../../src/backtest/fast/step-clock.js";

const T0 = 1_700_000_000_000;

/** Schedules on `clock` from a seeded program; returns the log of fires ("name@ms"). */
function program(clock: Clock, seed: number): { log: string[]; steps: number[] } {
  const rng = new Rng(seed);
  const log: string[] = [];
  const handles: TimerHandle[] = [];
  let n = 0;
  const schedule = (depth: number): void => {
    const name = `t${n++}`;
    const ms = rng.bool(0.2) ? rng.int(3) : rng.float() * 500;
    if (rng.bool(0.25)) {
      let runs = 0;
      const h = clock.setInterval(() => {
        log.push(`${name}@${clock.now() - T0}`);
        if (++runs === 3) clock.clearInterval(h);
      }, ms);
      handles.push(h);
    } else {
      handles.push(
        clock.setTimeout(() => {
          log.push(`${name}@${clock.now() - T0}`);
          if (depth < 2 && rng.bool(0.3)) schedule(depth + 1);
          if (handles.length > 0 && rng.bool(0.1)) clock.clearTimeout(handles[rng.int(handles.length)]);
        }, ms),
      );
    }
  };
  for (let i = 0; i < 30; i++) schedule(0);
  for (let i = 0; i < 5; i++) clock.clearTimeout(handles[rng.int(handles.length)]);
  const steps = Array.from({ length: 12 }, () => rng.int(300));
  return { log, steps };
}

describe("StepClock", () => {
  it("fires the same timers at the same instants in the same order as VirtualClock (40 seeded programs)", async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const step = new StepClock(T0);
      const virtual = new VirtualClock(T0);
      const a = program(step, seed);
      const b = program(virtual, seed);
      let t = T0;
      for (const d of a.steps) {
        t += d;
        step.advanceTo(t);
        await virtual.advanceTo(t);
        expect(step.now()).toBe(virtual.now());
      }
      step.advanceTo(t + 10_000);
      await virtual.advanceTo(t + 10_000);
      expect(a.log, `seed ${seed}`).toEqual(b.log);
      expect(a.log.length).toBeGreaterThan(0);
    }
  });

  it("rounds delays up to whole ms, runs intervals at least 1 ms apart, and never goes back in time", () => {
    const c = new StepClock(T0 + 0.7);
    expect(c.now()).toBe(T0);
    const log: number[] = [];
    c.setTimeout(() => log.push(c.now() - T0), 2.1);
    const h = c.setInterval(() => log.push(c.now() - T0), 0);
    c.advanceTo(T0 + 4);
    c.clearInterval(h);
    expect(log).toEqual([1, 2, 3, 3, 4]);
    c.advanceTo(T0 + 1);
    expect(c.now()).toBe(T0 + 4);
    expect(c.pending()).toBe(0);
  });

  it("resolves sleep when its time comes and rejects it on abort", async () => {
    const c = new StepClock(T0);
    let slept = false;
    const s = c.sleep(10).then(() => (slept = true));
    c.advanceTo(T0 + 9);
    await Promise.resolve();
    expect(slept).toBe(false);
    c.advanceTo(T0 + 10);
    await s;
    expect(slept).toBe(true);
    const ac = new AbortController();
    const aborted = c.sleep(10, ac.signal);
    ac.abort(new Error("stop"));
    await expect(aborted).rejects.toThrow("stop");
    expect(c.pending()).toBe(0);
  });
});
