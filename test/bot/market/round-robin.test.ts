/**
 * The pollers' shared schedule (round-robin.ts): one read at a time, spread over the budget, new
 * keys next in line, a skipped turn when the bucket has no room, and one timer chain whatever
 * start/stop does during a read.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { RoundRobin } from "../../../src/bot/market/round-robin.js";

function setup(opts: { budgetPerMin?: number; minKeyIntervalMs?: number; room?: () => number } = {}) {
  const clock = new VirtualClock(0);
  const reads: [number, string][] = [];
  let skips = 0;
  let release: (() => void) | undefined;
  let hold = false;
  const rr = new RoundRobin({
    clock,
    budgetPerMin: opts.budgetPerMin ?? 60,
    minKeyIntervalMs: opts.minKeyIntervalMs ?? 0,
    ...(opts.room ? { room: opts.room } : {}),
    read: (k) => {
      reads.push([clock.now(), k]);
      return hold ? new Promise<void>((r) => (release = r)) : Promise.resolve();
    },
    onSkip: () => (skips += 1),
  });
  return { clock, rr, reads, skips: () => skips, hold: (h: boolean) => (hold = h), release: () => release?.() };
}

describe("RoundRobin", () => {
  it("reads one key per turn, in rotation, spaced by the budget", async () => {
    const t = setup({ budgetPerMin: 60 });
    t.rr.add(["a", "b"]);
    t.rr.start();
    await t.clock.advance(3_500);
    expect(t.reads).toEqual([[0, "a"], [1_000, "b"], [2_000, "a"], [3_000, "b"]]);
  });

  it("spreads the per-key minimum interval over the keys", () => {
    const t = setup({ budgetPerMin: 6_000, minKeyIntervalMs: 2_000 });
    t.rr.add(["a", "b", "c", "d"]);
    expect(t.rr.tickMs).toBe(500);
  });

  it("reads a key added while polling next, and wakes up when it was idle", async () => {
    const t = setup({ budgetPerMin: 60 });
    t.rr.start();
    await t.clock.advance(5_000);
    expect(t.reads).toEqual([]);
    t.rr.add(["a"]);
    await t.clock.advance(0);
    t.rr.add(["b"]);
    await t.clock.advance(1_000);
    expect(t.reads.map((r) => r[1])).toEqual(["a", "b"]);
  });

  it("skips a turn when the bucket has no room", async () => {
    let room = 0;
    const t = setup({ budgetPerMin: 60, room: () => room });
    t.rr.add(["a"]);
    t.rr.start();
    await t.clock.advance(1_500);
    expect(t.skips()).toBe(2);
    room = 1;
    await t.clock.advance(1_000);
    expect(t.reads).toEqual([[2_000, "a"]]);
  });

  it("keeps one timer chain when stopped and started during a read", async () => {
    const t = setup({ budgetPerMin: 60 });
    t.rr.add(["a"]);
    t.hold(true);
    t.rr.start();
    await t.clock.advance(0);
    t.rr.stop();
    t.rr.start();
    t.hold(false);
    t.release();
    await t.clock.advance(10_500);
    // Ten seconds at one read a second: never two reads in one turn.
    const times = t.reads.map((r) => r[0]);
    expect(new Set(times).size).toBe(times.length);
    expect(times.length).toBeLessThanOrEqual(12);
  });
});
