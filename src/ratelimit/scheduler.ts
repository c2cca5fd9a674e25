/**
 * What an admission scheduler is: it decides in which ORDER waiting requests get the room the ledger has.
 * Whether a request fits is never its call: it asks the shared WindowLedger, and reserves through it, at one
 * synchronous instant, so both implementations (queue-scheduler.ts for virtual time, bottleneck-scheduler.ts
 * for live) share the same accounting.
 */
import type { LedgerEntry } from "./window-ledger.js";

export interface Waiter {
  readonly entries: readonly LedgerEntry[];
  /** 0..9, lower first (Bottleneck's convention); FIFO within a priority. */
  readonly priority: number;
  readonly seq: number;
  readonly signal?: AbortSignal;
  /** Gate time when the request asked (for wait statistics). */
  readonly createdAt: number;
}

export interface SchedulerHooks {
  /** The waiter could not pass at once and now waits. */
  queued(w: Waiter): void;
  /** The waiter stopped waiting (admitted, aborted or dropped); only after queued(). */
  unqueued(w: Waiter): void;
  /** Room was reserved for the waiter at `now` (gate time). */
  admitted(w: Waiter, now: number): void;
}

export interface AdmissionScheduler {
  /** Resolves once room was reserved in every entry of the waiter; rejects on abort or close. */
  admit(w: Waiter): Promise<void>;
  /** Ledger state changed outside admissions (a response was observed): re-check the waiters. */
  wake(): void;
  /** Number of waiters not yet admitted. */
  waiting(): number;
  /** Reject every waiter and release timers. */
  close(reason: Error): void;
}

export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new Error("aborted", { cause: r });
}
