/**
 * Event-loop lag and the dead-man switch as metrics (src/metrics/loop-metrics.ts): both dead-man
 * causes at 0 from the first scrape; the followed monitor's samples feed the lag histogram (in
 * seconds) and the stall counter; its p99 is read at scrape time; a new monitor replaces the old
 * one (whose samples no longer count) and close() unsubscribes.
 */
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { DEAD_MAN_CAUSES, LoopMetrics, type LoopLagSource } from "../../src/metrics/loop-metrics.js";
import { sample } from "./samples.js";

/** A stand-in monitor: the test emits samples and sets the p99. */
function monitor(p99Ms = 0) {
  const listeners = new Set<(s: { lagMs: number; stalled: boolean }) => void>();
  const src: LoopLagSource & { p99: number; emit: (lagMs: number, stalled?: boolean) => void; listeners: () => number } = {
    p99: p99Ms,
    lagP99Ms: () => src.p99,
    onSample: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    emit: (lagMs, stalled = false) => {
      for (const l of listeners) l({ lagMs, stalled });
    },
    listeners: () => listeners.size,
  };
  return src;
}

describe("LoopMetrics", () => {
  it("before a monitor: p99 0, no samples, no stalls, both dead-man causes at 0", async () => {
    const registry = new Registry();
    new LoopMetrics(registry);
    const text = await registry.metrics();
    expect(sample(text, "mm_event_loop_lag_p99_seconds")).toBe(0);
    expect(sample(text, "mm_event_loop_lag_seconds_count")).toBe(0);
    expect(sample(text, "mm_event_loop_stalls_total")).toBe(0);
    expect([...DEAD_MAN_CAUSES]).toEqual(["loop_stall", "outage"]);
    expect(sample(text, 'mm_dead_man_trips_total{cause="loop_stall"}')).toBe(0);
    expect(sample(text, 'mm_dead_man_trips_total{cause="outage"}')).toBe(0);
  });

  it("samples go to the histogram in seconds, stalled ones to the counter too; p99 read at scrape time", async () => {
    const registry = new Registry();
    const l = new LoopMetrics(registry);
    const src = monitor(40);
    l.follow(src);
    src.emit(3);
    src.emit(30);
    src.emit(1_200, true);
    let text = await registry.metrics();
    expect(sample(text, "mm_event_loop_lag_seconds_count")).toBe(3);
    expect(sample(text, "mm_event_loop_lag_seconds_sum")).toBeCloseTo(1.233, 9);
    expect(sample(text, 'mm_event_loop_lag_seconds_bucket{le="0.005"}')).toBe(1);
    expect(sample(text, 'mm_event_loop_lag_seconds_bucket{le="0.05"}')).toBe(2);
    expect(sample(text, 'mm_event_loop_lag_seconds_bucket{le="1"}')).toBe(2);
    expect(sample(text, 'mm_event_loop_lag_seconds_bucket{le="2.5"}')).toBe(3);
    expect(sample(text, "mm_event_loop_stalls_total")).toBe(1);
    expect(sample(text, "mm_event_loop_lag_p99_seconds")).toBe(0.04);
    src.p99 = 250;
    text = await registry.metrics();
    expect(sample(text, "mm_event_loop_lag_p99_seconds")).toBe(0.25);
  });

  it("trip counts per cause", async () => {
    const registry = new Registry();
    const l = new LoopMetrics(registry);
    l.trip("outage");
    l.trip("outage");
    l.trip("loop_stall");
    const text = await registry.metrics();
    expect(sample(text, 'mm_dead_man_trips_total{cause="outage"}')).toBe(2);
    expect(sample(text, 'mm_dead_man_trips_total{cause="loop_stall"}')).toBe(1);
  });

  it("a second monitor replaces the first (unsubscribed), and close() stops the samples", async () => {
    const registry = new Registry();
    const l = new LoopMetrics(registry);
    const a = monitor(10);
    const b = monitor(20);
    l.follow(a);
    l.follow(b);
    expect(a.listeners()).toBe(0);
    expect(b.listeners()).toBe(1);
    a.emit(5_000, true);
    b.emit(10);
    let text = await registry.metrics();
    expect(sample(text, "mm_event_loop_lag_seconds_count")).toBe(1);
    expect(sample(text, "mm_event_loop_stalls_total")).toBe(0);
    expect(sample(text, "mm_event_loop_lag_p99_seconds")).toBe(0.02);
    l.close();
    expect(b.listeners()).toBe(0);
    b.emit(10);
    text = await registry.metrics();
    expect(sample(text, "mm_event_loop_lag_seconds_count")).toBe(1);
  });
});
