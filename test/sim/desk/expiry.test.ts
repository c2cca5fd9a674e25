/**
 * The desk's GTD expiration timer (src/sim/desk/expiry.ts) on the virtual clock: one timer armed at
 * the earliest due time, one callback (with the time) per batch of due entries, re-armed for the
 * next; an earlier entry added while running re-arms sooner; nothing fires while stopped, and what
 * fell due meanwhile fires at once on start.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { ExpiryTimer } from "../../../src/sim/desk/expiry.js";

const T0 = Date.UTC(2026, 5, 1, 12);

function setup() {
  const clock = new VirtualClock(T0);
  const fired: number[] = [];
  const timer = new ExpiryTimer(clock, (now) => fired.push(now - T0));
  return { clock, fired, timer };
}

describe("ExpiryTimer", () => {
  it("fires once per due time with the current time, entries due together in one callback, then re-arms", async () => {
    const { clock, fired, timer } = setup();
    for (const d of [3_000, 1_000, 1_000, 2_000]) timer.add(T0 + d);
    timer.start();
    expect(clock.pending()).toBe(1);
    await clock.advance(999);
    expect(fired).toEqual([]);
    await clock.advance(1);
    expect(fired).toEqual([1_000]);
    expect(timer.pending).toBe(2);
    await clock.advance(5_000);
    expect(fired).toEqual([1_000, 2_000, 3_000]);
    expect(timer.pending).toBe(0);
    // Nothing left: no timer held.
    expect(clock.pending()).toBe(0);
  });

  it("an entry earlier than the armed one re-arms sooner; a later one waits its turn", async () => {
    const { clock, fired, timer } = setup();
    timer.start();
    timer.add(T0 + 5_000);
    timer.add(T0 + 8_000);
    timer.add(T0 + 2_000);
    expect(clock.pending()).toBe(1);
    await clock.advance(2_000);
    expect(fired).toEqual([2_000]);
    await clock.advance(10_000);
    expect(fired).toEqual([2_000, 5_000, 8_000]);
  });

  it("an entry already due fires on the next turn of the clock", async () => {
    const { clock, fired, timer } = setup();
    timer.start();
    timer.add(T0 - 10_000);
    await clock.advance(0);
    expect(fired).toEqual([0]);
  });

  it("does nothing before start or after stop; on start what fell due meanwhile fires together", async () => {
    const { clock, fired, timer } = setup();
    timer.add(T0 + 1_000);
    timer.add(T0 + 2_000);
    await clock.advance(5_000);
    expect(fired).toEqual([]);
    timer.start();
    await clock.advance(0);
    expect(fired).toEqual([5_000]);
    timer.add(T0 + 7_000);
    timer.stop();
    expect(clock.pending()).toBe(0);
    await clock.advance(10_000);
    expect(fired).toEqual([5_000]);
    expect(timer.pending).toBe(1);
  });

  it("keeps heap order: seeded random due times come out in time order, each batch once", async () => {
    const { clock, fired, timer } = setup();
    const rng = new Rng(42);
    const dues = Array.from({ length: 200 }, () => 1 + rng.int(500) * 10);
    for (const d of dues) timer.add(T0 + d);
    timer.start();
    await clock.advance(6_000);
    expect(fired).toEqual([...new Set(dues)].sort((a, b) => a - b));
    expect(timer.pending).toBe(0);
  });
});
