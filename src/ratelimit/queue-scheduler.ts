/**
 * Admission order for virtual time (tests, backtests, the in-process simulator): our own priority queue,
 * woken by ONE timer on the gate's Clock at the earliest instant any waiter could fit. Bottleneck cannot
 * serve here: every operation of its local datastore yields through the global setTimeout and reads
 * Date.now(), so its progress is tied to real time, not to a VirtualClock.
 *
 * Order: waiters sorted by (priority, arrival). A pump walks them in that order and admits each whose
 * buckets all have room now. So when a window opens, waiting cancels take the room first, then places,
 * then reads, FIFO within a class; a waiter blocked on a bucket another does not use does not hold that
 * other one back.
 */
import type { TimerHandle } from "../core/clock.js";
import type { AdmissionScheduler, SchedulerHooks, Waiter } from "./scheduler.js";
import { abortReason } from "./scheduler.js";
import type { WindowLedger } from "./window-ledger.js";

interface Pending {
  readonly w: Waiter;
  readonly resolve: () => void;
  readonly reject: (e: Error) => void;
  onAbort?: () => void;
}

export class QueueScheduler implements AdmissionScheduler {
  private readonly pending: Pending[] = [];
  private timer: { handle: TimerHandle; at: number } | undefined;
  private closed: Error | undefined;

  constructor(
    private readonly ledger: WindowLedger,
    private readonly hooks: SchedulerHooks,
  ) {}

  admit(w: Waiter): Promise<void> {
    if (this.closed) return Promise.reject(this.closed);
    if (w.signal?.aborted) return Promise.reject(abortReason(w.signal));
    // Let earlier waiters take room that opened at this instant before the newcomer looks.
    this.pump();
    const now = this.ledger.now();
    if (this.ledger.hasRoomAll(w.entries, now)) {
      this.ledger.reserveAll(w.entries, now);
      this.hooks.admitted(w, now);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const p: Pending = { w, resolve, reject };
      const signal = w.signal;
      if (signal) {
        p.onAbort = () => {
          if (this.remove(p)) reject(abortReason(signal));
        };
        signal.addEventListener("abort", p.onAbort, { once: true });
      }
      this.insert(p);
      this.hooks.queued(w);
      this.arm();
    });
  }

  wake(): void {
    this.pump();
  }

  waiting(): number {
    return this.pending.length;
  }

  close(reason: Error): void {
    this.closed = reason;
    this.disarm();
    for (const p of this.pending.splice(0)) {
      this.detach(p);
      this.hooks.unqueued(p.w);
      p.reject(reason);
    }
  }

  private insert(p: Pending): void {
    // Binary search for the first waiter that sorts after p; arrival seq breaks priority ties.
    let lo = 0;
    let hi = this.pending.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const q = this.pending[mid]!.w;
      if (q.priority < p.w.priority || (q.priority === p.w.priority && q.seq < p.w.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.pending.splice(lo, 0, p);
  }

  private remove(p: Pending): boolean {
    const i = this.pending.indexOf(p);
    if (i < 0) return false;
    this.pending.splice(i, 1);
    this.detach(p);
    this.hooks.unqueued(p.w);
    this.arm();
    return true;
  }

  private detach(p: Pending): void {
    if (p.onAbort) p.w.signal?.removeEventListener("abort", p.onAbort);
  }

  private pump(): void {
    if (this.pending.length === 0) return;
    const now = this.ledger.now();
    const admitted: Pending[] = [];
    let kept = 0;
    for (const p of this.pending) {
      if (this.ledger.hasRoomAll(p.w.entries, now)) {
        this.ledger.reserveAll(p.w.entries, now);
        admitted.push(p);
      } else {
        this.pending[kept++] = p;
      }
    }
    this.pending.length = kept;
    // Resolve in admission order so continuations run cancels first, then places, then reads.
    for (const p of admitted) {
      this.detach(p);
      this.hooks.unqueued(p.w);
      this.hooks.admitted(p.w, now);
      p.resolve();
    }
    this.arm();
  }

  /** One timer, at the earliest instant some waiter could fit. */
  private arm(): void {
    if (this.pending.length === 0) {
      this.disarm();
      return;
    }
    const now = this.ledger.now();
    let at = Infinity;
    for (const p of this.pending) at = Math.min(at, this.ledger.nextRoomAtAll(p.w.entries, now));
    // A waiter with room would have been admitted by the pump; never spin at `now`.
    at = Math.max(at, now + 1);
    if (this.timer && this.timer.at === at) return;
    this.disarm();
    const handle = this.ledger.clock.setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, at - now);
    this.timer = { handle, at };
  }

  private disarm(): void {
    if (this.timer) this.ledger.clock.clearTimeout(this.timer.handle);
    this.timer = undefined;
  }
}
