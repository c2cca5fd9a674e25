/**
 * One clock timer for GTD expirations: armed at the earliest pending expiration, it calls back
 * with the current time (the desk runs `engine.expireDue`, which ends the orders and so emits
 * `order_expired`), then re-arms for the next. Stale entries (orders cancelled or filled first)
 * cost one harmless callback.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";

export class ExpiryTimer {
  /** Min-heap of due times (ms). */
  private readonly heap: number[] = [];
  private timer: TimerHandle | undefined;
  private armedAt: number | undefined;
  private running = false;

  constructor(
    private readonly clock: Clock,
    private readonly fire: (nowMs: number) => void,
  ) {}

  get pending(): number {
    return this.heap.length;
  }

  add(dueMs: number): void {
    const h = this.heap;
    h.push(dueMs);
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (h[p]! <= h[i]!) break;
      [h[p], h[i]] = [h[i]!, h[p]!];
      i = p;
    }
    if (this.running && (this.armedAt === undefined || dueMs < this.armedAt)) this.arm();
  }

  start(): void {
    this.running = true;
    this.arm();
  }

  stop(): void {
    this.running = false;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = undefined;
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
      if (l < h.length && h[l]! < h[m]!) m = l;
      if (r < h.length && h[r]! < h[m]!) m = r;
      if (m === i) break;
      [h[m], h[i]] = [h[i]!, h[m]!];
      i = m;
    }
  }

  private arm(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = undefined;
    if (!this.running || this.heap.length === 0) return;
    const due = this.heap[0]!;
    this.armedAt = due;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.armedAt = undefined;
      const now = this.clock.now();
      let fired = false;
      while (this.heap.length > 0 && this.heap[0]! <= now) {
        this.pop();
        fired = true;
      }
      if (fired) this.fire(now);
      this.arm();
    }, Math.max(0, due - this.clock.now()));
  }
}
