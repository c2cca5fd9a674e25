/**
 * The platform side of spec 8.1 (used by the simulator): fixed windows aligned to multiples of the window
 * length on the clock, one counter per (bucket id, subject).
 *
 * Choices (spec silent):
 * - A refused request consumes nothing, in any bucket: the check is all-or-nothing, so a client that waits
 *   `Retry-After` finds every other bucket as it left it.
 * - When several buckets apply, the headers describe the most constrained one: the lowest remaining after
 *   this request, ties to the one that refills last, then to checking order. On a 429 they describe the
 *   refusing bucket (remaining 0, reset = Retry-After).
 * - `retryAfterSec` is the refusing bucket's wait in whole seconds, rounded up, at least 1.
 * - A wallet bucket on a request with no wallet (and a partner bucket with no partner) does not apply.
 * - Memory: a counter whose window has ended is dropped by a sweep that runs at most once per second of
 *   clock time, so the map holds only subjects active in their current window.
 */
import type { Clock } from "../core/clock.js";
import { ipKey, walletKey } from "./keys.js";
import type { BucketRule, BucketScope } from "./table.js";
import { DEFAULT_RATE_LIMIT_PER_MIN, scaledLimit } from "./table.js";
import { deltaSeconds, formatRateLimitHeaders, windowStart } from "./windows.js";
import type { RateLimitHeaderValues } from "./windows.js";

export interface BucketSubjects {
  /** Client IP or its key (see keys.ts clientIpFrom / ipKey); keyed again here, idempotently. */
  readonly ip?: string;
  /** Effective wallet (5.2 step 7); lower-cased here. */
  readonly wallet?: string;
  /** Partner id, for the per-partner buckets. */
  readonly partner?: string;
}

export interface CheckOptions {
  /** The partner's tier (8.1); scales wallet and partner buckets. Default 600. */
  readonly rateLimitPerMin?: number;
}

export type RateDecision =
  | {
      readonly allowed: true;
      /** The bucket the headers describe; undefined when no bucket applied (then no headers). */
      readonly bucket?: BucketRule;
      readonly headers?: RateLimitHeaderValues;
    }
  | {
      readonly allowed: false;
      readonly bucket: BucketRule;
      readonly retryAfterSec: number;
      readonly headers: RateLimitHeaderValues;
    };

interface Counter {
  windowStart: number;
  windowEnd: number;
  count: number;
}

interface Applied {
  rule: BucketRule;
  key: string;
  limit: number;
  start: number;
  end: number;
  count: number;
}

function subjectFor(scope: BucketScope, s: BucketSubjects): string | undefined {
  switch (scope) {
    case "ip":
      return ipKey(s.ip ?? "unknown");
    case "wallet":
      return s.wallet === undefined || s.wallet === "" ? undefined : walletKey(s.wallet);
    case "partner":
      return s.partner === undefined || s.partner === "" ? undefined : s.partner;
  }
}

export class FixedWindowLimiter {
  private readonly counters = new Map<string, Counter>();
  private nextSweepAt = 0;

  constructor(private readonly clock?: Clock) {}

  /**
   * Pass only if every applicable bucket has room; then consume one from each. Otherwise refuse with the
   * first exhausted bucket (in `rules` order: bucketsFor returns the platform's checking order).
   */
  check(
    rules: readonly BucketRule[],
    subjects: BucketSubjects,
    nowMs: number = this.now(),
    opts: CheckOptions = {},
  ): RateDecision {
    this.maybeSweep(nowMs);
    const tier = opts.rateLimitPerMin ?? DEFAULT_RATE_LIMIT_PER_MIN;
    const applied: Applied[] = [];
    for (const rule of rules) {
      const subject = subjectFor(rule.scope, subjects);
      if (subject === undefined) continue;
      const key = `${rule.id}|${subject}`;
      const windowMs = rule.windowSec * 1000;
      const start = windowStart(nowMs, windowMs);
      const c = this.counters.get(key);
      const count = c && c.windowStart === start ? c.count : 0;
      const limit = scaledLimit(rule, tier);
      const a: Applied = { rule, key, limit, start, end: start + windowMs, count };
      if (count >= limit) {
        const retryAfterSec = deltaSeconds(a.end, nowMs);
        return {
          allowed: false,
          bucket: rule,
          retryAfterSec,
          headers: { limit, remaining: 0, resetSec: retryAfterSec },
        };
      }
      applied.push(a);
    }
    let shown: Applied | undefined;
    for (const a of applied) {
      a.count += 1;
      this.counters.set(a.key, { windowStart: a.start, windowEnd: a.end, count: a.count });
      if (!shown || constrainedBefore(a, shown)) shown = a;
    }
    if (!shown) return { allowed: true };
    return {
      allowed: true,
      bucket: shown.rule,
      headers: { limit: shown.limit, remaining: shown.limit - shown.count, resetSec: deltaSeconds(shown.end, nowMs) },
    };
  }

  /** Used count of one bucket for one subject in the window containing `nowMs` (tests, diagnostics). */
  used(rule: BucketRule, subjects: BucketSubjects, nowMs: number = this.now()): number {
    const subject = subjectFor(rule.scope, subjects);
    if (subject === undefined) return 0;
    const c = this.counters.get(`${rule.id}|${subject}`);
    return c && c.windowStart === windowStart(nowMs, rule.windowSec * 1000) ? c.count : 0;
  }

  /** Number of live counters (bounded: ended windows are swept). */
  size(): number {
    return this.counters.size;
  }

  /** Drop every counter whose window ended at or before `nowMs`. */
  sweep(nowMs: number = this.now()): void {
    for (const [k, c] of this.counters) if (c.windowEnd <= nowMs) this.counters.delete(k);
    this.nextSweepAt = nowMs + 1000;
  }

  private maybeSweep(nowMs: number): void {
    if (nowMs >= this.nextSweepAt) this.sweep(nowMs);
  }

  private now(): number {
    if (!this.clock) throw new Error("FixedWindowLimiter: pass nowMs or construct with a Clock");
    return this.clock.now();
  }
}

function constrainedBefore(a: Applied, b: Applied): boolean {
  const ra = a.limit - a.count;
  const rb = b.limit - b.count;
  if (ra !== rb) return ra < rb;
  return a.end > b.end;
}

/** Response headers for a decision (none when no bucket applied); 429 answers also carry Retry-After. */
export function decisionHeaders(d: RateDecision): Record<string, string> {
  if (!d.headers) return {};
  return formatRateLimitHeaders(d.headers, d.allowed ? undefined : d.retryAfterSec);
}
