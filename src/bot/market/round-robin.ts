/**
 * The schedule shared by the REST market-data pollers (order books, public trades): one request
 * at a time over a rotating list of keys, spread evenly inside a request budget. The next turn
 * comes max(60 s / budgetPerMin, minKeyIntervalMs / keys) after the previous one started; with a
 * `room` check it skips a turn when its rate bucket has no room rather than queueing behind other
 * readers. A key added while polling is read next (a market just selected should not wait a full
 * rotation), and a poller with nothing to read sleeps until a key arrives.
 *
 * There is never more than one timer chain: every (re)schedule replaces the pending timer, and a
 * turn that falls due while a read is out is dropped (the read schedules the next turn when it
 * lands), so stop() then start() during a read cannot double the request rate.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";

export interface RoundRobinOptions {
  clock: Clock;
  /** Requests per minute (this poller's share of its bucket); 0 never reads. */
  budgetPerMin: number;
  /** Never read one key more often than this. */
  minKeyIntervalMs: number;
  /** Room left in the rate bucket now (a RateGate's remainingFor); absent: always room. */
  room?: () => number;
  /** Read one key; must not throw (a failure is the reader's to count and log). */
  read(key: string): Promise<void>;
  /** A turn skipped for want of room. */
  onSkip?(): void;
}

export class RoundRobin {
  private order: string[] = [];
  private cursor = 0;
  private running = false;
  private busy = false;
  private idle = false;
  private timer: TimerHandle | undefined;

  constructor(private readonly o: RoundRobinOptions) {
    if (!(o.budgetPerMin >= 0)) throw new RangeError("budgetPerMin must be >= 0");
  }

  /** Keys in rotation order. */
  get keys(): readonly string[] {
    return this.order;
  }

  /** Time between two requests. */
  get tickMs(): number {
    const n = Math.max(1, this.order.length);
    return Math.max(60_000 / this.o.budgetPerMin, this.o.minKeyIntervalMs / n);
  }

  /** Put keys next in line (those already in rotation stay where they are). */
  add(keys: readonly string[]): void {
    const fresh = keys.filter((k) => !this.order.includes(k));
    if (fresh.length === 0) return;
    this.order.splice(this.cursor, 0, ...fresh);
    if (this.running && this.idle && !this.busy) {
      this.idle = false;
      this.schedule(0);
    }
  }

  remove(key: string): void {
    const i = this.order.indexOf(key);
    if (i < 0) return;
    this.order.splice(i, 1);
    if (i < this.cursor) this.cursor -= 1;
  }

  start(): void {
    if (this.running || this.o.budgetPerMin === 0) return;
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    this.o.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.o.clock.clearTimeout(this.timer);
    this.timer = this.o.clock.setTimeout(() => void this.tick(), Math.max(0, ms));
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    if (!this.running || this.busy) return;
    if (this.order.length === 0) {
      this.idle = true;
      return;
    }
    const started = this.o.clock.now();
    this.busy = true;
    try {
      if (this.cursor >= this.order.length) this.cursor = 0;
      const key = this.order[this.cursor]!;
      this.cursor += 1;
      if (this.o.room !== undefined && this.o.room() < 1) this.o.onSkip?.();
      else await this.o.read(key);
    } finally {
      this.busy = false;
    }
    this.schedule(started + this.tickMs - this.o.clock.now());
  }
}
