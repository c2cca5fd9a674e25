import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { RealClock } from "../../../src/core/clock.js";
import { LoopMonitor, loopMonotonic, type LagSample } from "../../../src/bot/guards/loop-monitor.js";

/** A monotonic clock that follows the virtual clock plus whatever a test adds (a "stall"). */
function jumpy(clock: VirtualClock): { now: () => number; jump: (ms: number) => void } {
  let extra = 0;
  return { now: () => clock.now() + extra, jump: (ms) => (extra += ms) };
}

describe("LoopMonitor", () => {
  it("reads zero lag while ticks fire on time", async () => {
    const clock = new VirtualClock();
    const mono = jumpy(clock);
    const m = new LoopMonitor({ clock, monotonic: mono.now, intervalMs: 100 });
    m.start();
    await clock.advance(1000);
    expect(m.lagP99Ms()).toBe(0);
    expect(m.lastLagMs()).toBe(0);
    expect(m.stalls).toBe(0);
    expect(m.lastStallMs()).toBeUndefined();
    m.stop();
  });

  it("counts a monotonic jump between two ticks as a stall of that length", async () => {
    const clock = new VirtualClock();
    const mono = jumpy(clock);
    const m = new LoopMonitor({ clock, monotonic: mono.now, intervalMs: 100, stallMs: 500 });
    const seen: LagSample[] = [];
    m.onSample((s) => seen.push(s));
    m.start();
    await clock.advance(250);
    mono.jump(4000);
    await clock.advance(100);
    expect(m.stalls).toBe(1);
    expect(m.lastStallMs()).toBe(4000);
    expect(m.lastLagMs()).toBe(4000);
    expect(seen.filter((s) => s.stalled).map((s) => s.lagMs)).toEqual([4000]);
    // A short hiccup is lag, not a stall.
    mono.jump(200);
    await clock.advance(100);
    expect(m.stalls).toBe(1);
    expect(m.lastLagMs()).toBe(200);
    expect(m.lagP99Ms()).toBe(4000);
    expect(m.lagP50Ms()).toBe(0);
    m.stop();
  });

  it("forgets samples older than its window", async () => {
    const clock = new VirtualClock();
    const mono = jumpy(clock);
    const m = new LoopMonitor({ clock, monotonic: mono.now, intervalMs: 100, window: 10 });
    m.start();
    await clock.advance(100);
    mono.jump(2000);
    await clock.advance(100);
    expect(m.lagP99Ms()).toBe(2000);
    await clock.advance(100 * 10);
    expect(m.lagP99Ms()).toBe(0);
    expect(m.stalls).toBe(1);
    m.stop();
  });

  it("stops ticking when stopped and refuses a bad interval", () => {
    const clock = new VirtualClock();
    const m = new LoopMonitor({ clock, monotonic: () => clock.now(), intervalMs: 100 });
    m.start();
    m.stop();
    expect(clock.pending()).toBe(0);
    expect(() => new LoopMonitor({ clock, monotonic: () => 0, intervalMs: 0 })).toThrow(/intervalMs/);
  });

  it("reads the virtual clock's own time when virtual (host load cannot fake a stall), real time otherwise, an injected clock always", async () => {
    const clock = new VirtualClock();
    const mono = loopMonotonic(clock);
    const t = mono();
    await clock.advance(1234);
    expect(mono() - t).toBe(1234);
    const injected = (): number => 42;
    expect(loopMonotonic(clock, injected)).toBe(injected);
    const real = loopMonotonic(new RealClock());
    expect(Math.abs(real() - performance.now())).toBeLessThan(1_000);
  });
});
