/**
 * A synchronous virtual clock for the synthetic market-data source (sources.ts): VirtualClock's
 * order of timers (due time, then scheduling; an interval rescheduled before it runs; delays in
 * whole ms, rounded up) without its promise flushes between timers, so a caller can move time
 * from synchronous code. Only for code whose timers do not await (the simulator's flow,
 * lifecycle and expiry); a daemon needs VirtualClock.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";

interface Timer {
  id: number;
  due: number;
  seq: number;
  fn: () => void;
  interval: number | undefined;
  live: boolean;
}

const wholeMs = (ms: number, min: number): number => (Number.isNaN(ms) ? min : Math.max(min, Math.ceil(ms)));
const earlier = (a: Timer, b: Timer): boolean => a.due < b.due || (a.due === b.due && a.seq < b.seq);

/**
 * Virtual time moved by `advanceTo`, timers fired in order of due time, then of scheduling (an
 * interval is rescheduled before it runs), as VirtualClock does; synchronously, on a binary heap.
 */
export class StepClock implements Clock {
  private current: number;
  private nextId = 1;
  private seq = 0;
  private readonly heap: Timer[] = [];
  private readonly byId = new Map<number, Timer>();

  constructor(startMs: number) {
    this.current = Math.floor(startMs);
  }

  now(): number {
    return this.current;
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, this.current + wholeMs(ms, 0), undefined);
  }
  setInterval(fn: () => void, ms: number): TimerHandle {
    const every = wholeMs(ms, 1);
    return this.add(fn, this.current + every, every);
  }
  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle === undefined) return;
    const t = this.byId.get(handle.id);
    if (t === undefined) return;
    t.live = false;
    this.byId.delete(handle.id);
  }
  clearInterval(handle: TimerHandle | undefined): void {
    this.clearTimeout(handle);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      const h = this.setTimeout(() => resolve(), ms);
      signal?.addEventListener("abort", () => {
        this.clearTimeout(h);
        reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      }, { once: true });
    });
  }

  /** Timers still scheduled. */
  pending(): number {
    return this.byId.size;
  }

  /** Fire every timer due by `targetMs` in order, then stand at `targetMs` (time never goes back). */
  advanceTo(targetMs: number): void {
    const target = Math.floor(targetMs);
    for (;;) {
      const t = this.heap[0];
      if (t === undefined || t.due > target) break;
      this.pop();
      if (!t.live) continue;
      this.current = Math.max(this.current, t.due);
      if (t.interval !== undefined) {
        t.due += t.interval;
        t.seq = this.seq++;
        this.push(t);
      } else {
        t.live = false;
        this.byId.delete(t.id);
      }
      t.fn();
    }
    this.current = Math.max(this.current, target);
  }

  private add(fn: () => void, due: number, interval: number | undefined): TimerHandle {
    const t: Timer = { id: this.nextId++, due, seq: this.seq++, fn, interval, live: true };
    this.byId.set(t.id, t);
    this.push(t);
    return { id: t.id };
  }

  private push(t: Timer): void {
    const h = this.heap;
    let i = h.push(t) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!earlier(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && earlier(h[l]!, h[m]!)) m = l;
      if (r < h.length && earlier(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}
