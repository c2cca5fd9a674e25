/**
 * One clock for everything that cares about time: now, timers, sleep.
 *
 * RealClock wraps the process clock. VirtualClock only moves when told to (tests,
 * backtests, the simulator's virtual mode): `advance(ms)` fires every timer due in
 * order of due time, then of scheduling, and lets promise continuations run between
 * timers so that async code chained on a timer schedules its next timer before the
 * clock moves on. Same inputs, same order of events: deterministic.
 */

export type TimerHandle = { readonly id: number };

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
  setInterval(fn: () => void, ms: number): TimerHandle;
  clearInterval(handle: TimerHandle | undefined): void;
  /** Resolves after `ms`; rejects with the signal's reason if aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * A turn of the event loop, for long runs of work that should let I/O and timers in between
   * (live: a macrotask; undefined when there is nothing to yield to, as on a VirtualClock, where
   * the caller goes straight on and the order of events stays what it was).
   */
  turn?(): Promise<void> | undefined;
}

/** Let the event loop take a turn when the clock has one to give (see Clock.turn). */
export function takeTurn(clock: Clock): Promise<void> | undefined {
  return clock.turn?.();
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error("aborted", { cause: reason });
}

function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(abortError(signal!));
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The longest delay Node's timers honour (2^31 - 1 ms). */
export const MAX_TIMER_DELAY_MS = 2_147_483_647;

export class RealClock implements Clock {
  private nextId = 1;
  private readonly timers = new Map<number, NodeJS.Timeout>();

  turn(): Promise<void> {
    return new Promise<void>((resolve) => setImmediate(resolve));
  }

  now(): number {
    return Date.now();
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.arm(id, Date.now() + Math.max(0, ms), fn);
    return { id };
  }

  /**
   * Node fires any delay above 2^31 - 1 ms (about 24.8 days) after 1 ms instead. A far timer
   * (a market closing in 30 days, a long GTD) is armed in steps and re-armed until it is due.
   */
  private arm(id: number, dueAt: number, fn: () => void): void {
    const wait = Math.max(0, dueAt - Date.now());
    const step = Math.min(wait, MAX_TIMER_DELAY_MS);
    const t = setTimeout(() => {
      if (Date.now() < dueAt) {
        this.arm(id, dueAt, fn);
        return;
      }
      this.timers.delete(id);
      fn();
    }, step);
    this.timers.set(id, t);
  }
  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.timers.get(handle.id);
    if (t) clearTimeout(t);
    this.timers.delete(handle.id);
  }
  setInterval(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, setInterval(fn, Math.min(MAX_TIMER_DELAY_MS, Math.max(1, ms))));
    return { id };
  }
  clearInterval(handle: TimerHandle | undefined): void {
    if (!handle) return;
    const t = this.timers.get(handle.id);
    if (t) clearInterval(t);
    this.timers.delete(handle.id);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }
}

/** A delay in whole ms, rounded up, at least `min` (NaN counts as `min`; Infinity stays). */
function wholeMs(ms: number, min: number): number {
  return Number.isNaN(ms) ? min : Math.max(min, Math.ceil(ms));
}

interface VirtualTimer {
  id: number;
  due: number;
  seq: number;
  fn: () => void;
  interval?: number;
}

/** Let pending promise continuations (and their continuations) run. */
export async function flushMicrotasks(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r));
}

export class VirtualClock implements Clock {
  private current: number;
  private nextId = 1;
  private seq = 0;
  private readonly timers = new Map<number, VirtualTimer>();

  /**
   * Time is whole milliseconds, as Date.now() is: delays round up and targets down, so nothing
   * stamped with now() (serverTs, X-Server-Time) ever carries a fraction the wire contract refuses.
   */
  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = Math.floor(startMs);
  }

  now(): number {
    return this.current;
  }
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, due: this.current + wholeMs(ms, 0), seq: this.seq++, fn });
    return { id };
  }
  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.timers.delete(handle.id);
  }
  setInterval(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    const interval = wholeMs(ms, 1);
    this.timers.set(id, { id, due: this.current + interval, seq: this.seq++, fn, interval });
    return { id };
  }
  clearInterval(handle: TimerHandle | undefined): void {
    this.clearTimeout(handle);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  /** Number of timers still scheduled. */
  pending(): number {
    return this.timers.size;
  }

  /** Due time of the earliest timer, or undefined. */
  nextDue(): number | undefined {
    let best: VirtualTimer | undefined;
    for (const t of this.timers.values()) if (!best || before(t, best)) best = t;
    return best?.due;
  }

  /**
   * Move time forward by `ms`, firing every timer that falls due on the way (in due order),
   * flushing promise continuations after each. Time never moves backwards.
   */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.current + Math.max(0, ms));
  }

  async advanceTo(targetMs: number): Promise<void> {
    const target = Math.floor(targetMs);
    await flushMicrotasks();
    for (;;) {
      const t = this.earliestDueBy(target);
      if (!t) break;
      this.current = Math.max(this.current, t.due);
      if (t.interval !== undefined) {
        t.due += t.interval;
        t.seq = this.seq++;
      } else {
        this.timers.delete(t.id);
      }
      t.fn();
      await flushMicrotasks();
    }
    this.current = Math.max(this.current, target);
  }

  /** Fire timers until none is left or `limitMs` of virtual time has passed. */
  async runAll(limitMs = 24 * 3600_000): Promise<void> {
    const stop = this.current + limitMs;
    for (;;) {
      const due = this.nextDue();
      if (due === undefined || due > stop) break;
      await this.advanceTo(due);
    }
  }

  private earliestDueBy(target: number): VirtualTimer | undefined {
    let best: VirtualTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.due <= target && (!best || before(t, best))) best = t;
    }
    return best;
  }
}

function before(a: VirtualTimer, b: VirtualTimer): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}
