/**
 * The client's window accounting: one entry per (bucket, subject) with the count used in the current fixed
 * window, the per-window budget (scaled limit less the safety margin), and a block from Retry-After. It is
 * the single source of truth for both admission schedulers (the virtual-time queue and Bottleneck for live
 * mode): they only decide ORDER; whether a request fits is always decided here, synchronously, on the
 * gate's clock, with windows cut at the same instants as the platform's (windows.ts).
 */
import type { Clock } from "../core/clock.js";
import type { BucketRule } from "./table.js";
import { scaledLimit } from "./table.js";
import { windowStart } from "./windows.js";

export interface LedgerEntry {
  readonly rule: BucketRule;
  readonly subject: string;
  /** `${rule.id}|${subject}`. */
  readonly key: string;
  readonly windowMs: number;
  /** Effective limit: the tier-scaled table value, or the platform's own value once learned from headers. */
  limit: number;
  /** Admissions allowed per window: floor(limit * (1 - margin)), at least 1; Infinity when not paced. */
  budget: number;
  paced: boolean;
  windowStart: number;
  windowEnd: number;
  used: number;
  /** No admission before this instant (gate time, ms): from Retry-After on a 429. */
  blockedUntil: number;
  // Counters for metrics.
  queueDepth: number;
  admitted: number;
  waited: number;
  waitMsSum: number;
  waitMsMax: number;
  rejected429: number;
}

export interface LedgerOptions {
  readonly clock: Clock;
  readonly rateLimitPerMin: number;
  /** Fraction of each window left unused, in [0, 1). */
  readonly safetyMargin: number;
  /** Pace buckets whose numbers the spec does not state (our choices, table.ts). */
  readonly paceUnstated: boolean;
}

export function budgetFor(limit: number, margin: number): number {
  // The epsilon keeps 20 * (1 - 0.1) = 17.999... (float) from losing a whole request.
  return Math.max(1, Math.floor(limit * (1 - margin) + 1e-9));
}

export class WindowLedger {
  private readonly entries = new Map<string, LedgerEntry>();
  /** Learned phase of the platform's windows, per window length (ms); 0 = aligned to epoch multiples. */
  private readonly phases = new Map<number, number>();
  private offsetMs = 0;

  constructor(private readonly opts: LedgerOptions) {
    if (!(opts.safetyMargin >= 0 && opts.safetyMargin < 1)) {
      throw new RangeError(`safetyMargin must be in [0, 1), got ${opts.safetyMargin}`);
    }
  }

  get clock(): Clock {
    return this.opts.clock;
  }

  /** Gate time: the clock corrected by the platform clock offset (setClockOffset). */
  now(): number {
    return this.opts.clock.now() + this.offsetMs;
  }

  /** Platform clock minus local clock, in ms (e.g. from `X-Server-Time`); shifts every window boundary. */
  setClockOffset(ms: number): void {
    this.offsetMs = ms;
  }

  phase(windowMs: number): number {
    return this.phases.get(windowMs) ?? 0;
  }

  setPhase(windowMs: number, phaseMs: number): void {
    this.phases.set(windowMs, ((phaseMs % windowMs) + windowMs) % windowMs);
  }

  entry(rule: BucketRule, subject: string): LedgerEntry {
    const key = `${rule.id}|${subject}`;
    let e = this.entries.get(key);
    if (!e) {
      const limit = scaledLimit(rule, this.opts.rateLimitPerMin);
      const paced = rule.stated || this.opts.paceUnstated;
      const windowMs = rule.windowSec * 1000;
      const start = windowStart(this.now(), windowMs, this.phase(windowMs));
      e = {
        rule,
        subject,
        key,
        windowMs,
        limit,
        budget: paced ? budgetFor(limit, this.opts.safetyMargin) : Infinity,
        paced,
        windowStart: start,
        windowEnd: start + windowMs,
        used: 0,
        blockedUntil: 0,
        queueDepth: 0,
        admitted: 0,
        waited: 0,
        waitMsSum: 0,
        waitMsMax: 0,
        rejected429: 0,
      };
      this.entries.set(key, e);
    }
    return e;
  }

  all(): IterableIterator<LedgerEntry> {
    return this.entries.values();
  }

  /** Bring the entry to the window containing `now`. A phase change mid-window keeps the count (safe side). */
  roll(e: LedgerEntry, now: number): void {
    const start = windowStart(now, e.windowMs, this.phase(e.windowMs));
    if (start === e.windowStart) return;
    if (now >= e.windowEnd) e.used = 0;
    e.windowStart = start;
    e.windowEnd = start + e.windowMs;
  }

  hasRoom(e: LedgerEntry, now: number): boolean {
    this.roll(e, now);
    return now >= e.blockedUntil && e.used < e.budget;
  }

  hasRoomAll(es: readonly LedgerEntry[], now: number): boolean {
    return es.every((e) => this.hasRoom(e, now));
  }

  /** Earliest instant >= now at which the entry has room, assuming nobody else reserves meanwhile. */
  nextRoomAt(e: LedgerEntry, now: number): number {
    this.roll(e, now);
    const t = Math.max(now, e.blockedUntil);
    if (t < e.windowEnd && e.used >= e.budget) return e.windowEnd;
    return t;
  }

  /** Room only grows with time absent reservations, so the latest single wait is when all have room. */
  nextRoomAtAll(es: readonly LedgerEntry[], now: number): number {
    let t = now;
    for (const e of es) t = Math.max(t, this.nextRoomAt(e, now));
    return t;
  }

  /** Consume one from each entry; the caller has checked hasRoomAll at this same instant. */
  reserveAll(es: readonly LedgerEntry[], now: number): void {
    for (const e of es) {
      this.roll(e, now);
      e.used += 1;
    }
  }

  /** Adopt a limit the platform reports for this bucket (environments may differ from the table, 8.1). */
  learnLimit(e: LedgerEntry, limit: number): void {
    if (limit < 1 || limit === e.limit) return;
    e.limit = limit;
    // A learned number is the platform's own, so even a bucket we did not pace is paced from now on.
    e.paced = true;
    e.budget = budgetFor(limit, this.opts.safetyMargin);
  }

  /**
   * Resynchronise from X-RateLimit-Remaining / -Reset of a response that counted against `e`.
   * `sentAt` is when the request was admitted; when it fell in an earlier window than `now`, the count it
   * reports belongs to that window and is ignored.
   */
  resync(e: LedgerEntry, limit: number, remaining: number, resetSec: number, now: number, sentAt?: number): void {
    this.realign(e, resetSec, now, sentAt);
    this.roll(e, now);
    if (sentAt !== undefined && windowStart(sentAt, e.windowMs, this.phase(e.windowMs)) !== e.windowStart) return;
    e.used = Math.max(e.used, limit - remaining);
  }

  /**
   * The platform's window ends within (t + (S-1) s, t + S s] of the instant t it answered, t in
   * [sentAt, now]. If our window end is outside that interval our boundaries are off: move them the least
   * that puts the end inside. Only windows of 2 s or more carry information here (for 1 s windows S is
   * always 1).
   */
  private realign(e: LedgerEntry, resetSec: number, now: number, sentAt?: number): void {
    if (e.windowMs < 2000 || resetSec < 1) return;
    this.roll(e, now);
    const lo = (sentAt ?? now) + (resetSec - 1) * 1000 + 1;
    const hi = now + resetSec * 1000;
    if (lo > hi) return;
    const end = e.windowEnd;
    if (end >= lo && end <= hi) return;
    const target = Math.min(Math.max(end, lo), hi);
    this.setPhase(e.windowMs, target);
    this.roll(e, now);
  }

  /** Refuse admissions on `e` until `untilMs` (Retry-After); counts the 429. */
  block(e: LedgerEntry, untilMs: number): void {
    e.blockedUntil = Math.max(e.blockedUntil, untilMs);
  }
}
