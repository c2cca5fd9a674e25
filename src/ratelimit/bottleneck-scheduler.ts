/**
 * Admission order for live mode, through Bottleneck: a Bottleneck.Group keyed by `${bucket}|${subject}`
 * (one limiter per wallet and bucket, one per shared ip bucket), each limiter `maxConcurrent: 1` so that its
 * priority queue hands out the bucket's "turn" one job at a time, cancels (priority 1) before places (3)
 * before reads (7), FIFO within a priority.
 *
 * A request walks its buckets most specific first (wallet/partner, then ip). For each bucket it takes that
 * limiter's turn only when it must wait there (the limiter is busy, or the bucket has no room); inside the
 * turn it sleeps on the gate's Clock until the ledger shows room in that bucket, then moves on while still
 * holding the turn. At the end it waits until every bucket has room and reserves them all at one
 * synchronous instant: correctness (never over budget) comes from the ledger, Bottleneck only orders.
 * Waiting for room per bucket (not for all at once) keeps one wallet's exhausted bucket from holding the
 * shared ip turn that other wallets need. Buckets are always entered in the same order, so turns cannot
 * deadlock.
 *
 * Known difference from the virtual-time queue: a job already holding a turn is not pre-empted, so a cancel
 * that arrives while a place holds the turn goes right after that place, not before it.
 */
import Bottleneck from "bottleneck";
import type { AdmissionScheduler, SchedulerHooks, Waiter } from "./scheduler.js";
import { abortReason } from "./scheduler.js";
import type { LedgerEntry, WindowLedger } from "./window-ledger.js";

const SCOPE_RANK = { wallet: 0, partner: 1, ip: 2 } as const;

export class BottleneckScheduler implements AdmissionScheduler {
  private readonly group: Bottleneck.Group;
  private inFlight = 0;
  private closed: Error | undefined;
  /** Aborted on close, so that jobs sleeping on the clock stop at once instead of at their wake-up time. */
  private readonly closing = new AbortController();

  constructor(
    private readonly ledger: WindowLedger,
    private readonly hooks: SchedulerHooks,
  ) {
    // timeout: idle limiters are dropped after 10 minutes (Bottleneck's own cleanup, real time: live only).
    this.group = new Bottleneck.Group({ maxConcurrent: 1, timeout: 10 * 60_000 });
  }

  async admit(w: Waiter): Promise<void> {
    if (this.closed) throw this.closed;
    if (w.signal?.aborted) throw abortReason(w.signal);
    const order = [...w.entries].sort((a, b) => SCOPE_RANK[a.rule.scope] - SCOPE_RANK[b.rule.scope]);
    if (this.tryReserve(w, order, 0)) return;
    const signal = w.signal ? AbortSignal.any([w.signal, this.closing.signal]) : this.closing.signal;
    this.inFlight += 1;
    this.hooks.queued(w);
    try {
      await this.walk(w, order, 0, signal);
    } catch (e) {
      // Closed while waiting: the reason itself, as the virtual-time queue answers (Bottleneck
      // drops a waiting job with its own error type, an aborted sleep with the abort reason).
      const closed = this.closedReason();
      if (closed !== undefined && !(w.signal?.aborted ?? false)) throw closed;
      throw e;
    } finally {
      this.inFlight -= 1;
      this.hooks.unqueued(w);
    }
  }

  /** Read through a call: the check at the top of `admit` would narrow the field for the whole function. */
  private closedReason(): Error | undefined {
    return this.closed;
  }

  wake(): void {
    // Jobs sleep until the ledger's next-room instant and re-check on waking. Most observations only push
    // that instant later (counts, blocks); a learned higher limit or a phase shift may open room earlier,
    // and then sleepers wake at their old instant: a little late, never early.
  }

  waiting(): number {
    return this.inFlight;
  }

  close(reason: Error): void {
    this.closed = reason;
    this.closing.abort(reason);
    for (const { limiter } of this.group.limiters()) {
      void limiter.stop({ dropWaitingJobs: true, dropErrorMessage: reason.message }).catch(() => undefined);
    }
  }

  /** Fast path: every remaining bucket's limiter is idle and every bucket has room: reserve now. */
  private tryReserve(w: Waiter, order: readonly LedgerEntry[], from: number): boolean {
    const now = this.ledger.now();
    for (let i = from; i < order.length; i++) if (!this.idle(order[i]!.key)) return false;
    if (!this.ledger.hasRoomAll(w.entries, now)) return false;
    this.ledger.reserveAll(w.entries, now);
    this.hooks.admitted(w, now);
    return true;
  }

  private idle(key: string): boolean {
    const c = this.group.key(key).counts();
    return c.RECEIVED + c.QUEUED + c.RUNNING + c.EXECUTING === 0;
  }

  private async walk(w: Waiter, order: readonly LedgerEntry[], from: number, signal: AbortSignal): Promise<void> {
    for (let i = from; i < order.length; i++) {
      const e = order[i]!;
      if (this.idle(e.key) && this.ledger.hasRoom(e, this.ledger.now())) continue;
      // Take this bucket's turn and keep it while the rest of the walk runs inside the job.
      await this.group.key(e.key).schedule({ priority: w.priority }, async () => {
        await this.sleepUntilRoom([e], signal);
        await this.walk(w, order, i + 1, signal);
      });
      return;
    }
    await this.sleepUntilRoom(w.entries, signal);
    this.ledger.reserveAll(w.entries, this.ledger.now());
    this.hooks.admitted(w, this.ledger.now());
  }

  private async sleepUntilRoom(es: readonly LedgerEntry[], signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) throw abortReason(signal);
      const now = this.ledger.now();
      if (this.ledger.hasRoomAll(es, now)) return;
      await this.ledger.clock.sleep(this.ledger.nextRoomAtAll(es, now) - now, signal);
    }
  }
}
