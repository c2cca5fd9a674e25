/**
 * Event-loop lag: a timer on the Clock every `intervalMs`; how late it fires, measured on the
 * monotonic clock (performance.now live, injectable in tests), is the lag. A timer cannot fire while
 * the loop is blocked, so a stall shows up as one late tick when the loop is free again: the
 * monotonic clock has moved by interval + stall between two ticks.
 *
 * Consumers: the metrics (mm_event_loop_lag_seconds, mm_event_loop_stalls_total), the dead-man
 * switch (dead-man.ts: a stall longer than risk.deadManSec pulls every wallet's quotes) and the
 * capacity guard (lag over its bound sheds load). They read the `LoopLag` interface only.
 *
 * On a VirtualClock the ticks fire back to back in real time: real lag means nothing there (and
 * would make virtual runs depend on the host's load), so `loopMonotonic` reads the virtual clock
 * itself (lag 0) unless a monotonic clock is injected; a test makes an injected one jump to
 * simulate a stall.
 */
import { performance } from "node:perf_hooks";
import { VirtualClock, type Clock, type TimerHandle } from "../../core/clock.js";

export interface LoopLag {
  /** 99th percentile of the lag samples in the recent window, ms (0 before the first sample). */
  lagP99Ms(): number;
  /** Median of the same window, ms. */
  lagP50Ms(): number;
  /** The most recent sample, ms (0 before the first). */
  lastLagMs(): number;
  /** Lag of the most recent stall (a sample of at least `stallMs`), or undefined if none yet. */
  lastStallMs(): number | undefined;
  /** Stalls counted since the monitor started. */
  readonly stalls: number;
  /** Called with every sample (after the counters moved); returns the unsubscribe function. */
  onSample(fn: (sample: LagSample) => void): () => void;
}

export interface LagSample {
  lagMs: number;
  /** lagMs >= the monitor's stallMs. */
  stalled: boolean;
  /** Monotonic ms at which the late tick fired (the loop was free again). */
  atMonotonicMs: number;
}

export interface LoopMonitorOptions {
  clock: Clock;
  /** Monotonic ms (performance.now live). */
  monotonic: () => number;
  /** Tick period. Default 250 ms. */
  intervalMs?: number;
  /** A sample at least this long counts as a stall. Default 1000 ms. */
  stallMs?: number;
  /** Samples kept for the percentiles. Default 240 (one minute at 250 ms). */
  window?: number;
}

/** The monitor's monotonic clock: the one given, else performance.now live and the clock's own time when virtual. */
export function loopMonotonic(clock: Clock, given?: () => number): () => number {
  if (given !== undefined) return given;
  return clock instanceof VirtualClock ? () => clock.now() : () => performance.now();
}

export const LOOP_MONITOR_DEFAULTS = { intervalMs: 250, stallMs: 1000, window: 240 } as const;

export class LoopMonitor implements LoopLag {
  readonly intervalMs: number;
  readonly stallMs: number;
  private readonly window: number;
  private readonly samples: number[] = [];
  private next = 0;
  private last: number | undefined;
  private lastStall: number | undefined;
  private stallCount = 0;
  private handle: TimerHandle | undefined;
  private readonly listeners = new Set<(s: LagSample) => void>();

  constructor(private readonly o: LoopMonitorOptions) {
    this.intervalMs = positive(o.intervalMs ?? LOOP_MONITOR_DEFAULTS.intervalMs, "intervalMs");
    this.stallMs = positive(o.stallMs ?? LOOP_MONITOR_DEFAULTS.stallMs, "stallMs");
    this.window = Math.floor(positive(o.window ?? LOOP_MONITOR_DEFAULTS.window, "window"));
  }

  get stalls(): number {
    return this.stallCount;
  }

  get running(): boolean {
    return this.handle !== undefined;
  }

  start(): void {
    if (this.handle !== undefined) return;
    this.last = this.o.monotonic();
    this.handle = this.o.clock.setInterval(() => this.tick(), this.intervalMs);
  }

  stop(): void {
    this.o.clock.clearInterval(this.handle);
    this.handle = undefined;
    this.last = undefined;
  }

  /** One tick: exposed so a test (or a caller with its own timer) can drive the monitor. */
  tick(): void {
    const now = this.o.monotonic();
    const prev = this.last ?? now;
    this.last = now;
    // A monotonic clock never runs backwards; guard anyway so a bad injection cannot go negative.
    const lag = Math.max(0, now - prev - this.intervalMs);
    this.record(lag);
    const stalled = lag >= this.stallMs;
    if (stalled) {
      this.stallCount++;
      this.lastStall = lag;
    }
    const sample: LagSample = { lagMs: lag, stalled, atMonotonicMs: now };
    for (const fn of [...this.listeners]) fn(sample);
  }

  onSample(fn: (sample: LagSample) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  lagP99Ms(): number {
    return this.quantile(0.99);
  }

  lagP50Ms(): number {
    return this.quantile(0.5);
  }

  lastLagMs(): number {
    if (this.samples.length === 0) return 0;
    return this.samples[(this.next - 1 + this.samples.length) % this.samples.length] ?? 0;
  }

  lastStallMs(): number | undefined {
    return this.lastStall;
  }

  private record(lag: number): void {
    if (this.samples.length < this.window) {
      this.samples.push(lag);
      this.next = this.samples.length % this.window;
      return;
    }
    this.samples[this.next] = lag;
    this.next = (this.next + 1) % this.window;
  }

  /** Nearest-rank quantile of the window (at most a few hundred samples: a sort is cheap). */
  private quantile(q: number): number {
    const n = this.samples.length;
    if (n === 0) return 0;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))] ?? 0;
  }
}

function positive(v: number, name: string): number {
  if (!Number.isFinite(v) || v <= 0) throw new Error(`LoopMonitor: ${name} must be a positive number, got ${v}`);
  return v;
}
