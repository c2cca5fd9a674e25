/**
 * Circuit breaker of spec 7.4 rule 4: "when the error rate exceeds 50% over 30 seconds, pause new
 * requests for 60 seconds".
 *
 * Choices (the spec leaves them open):
 * - One breaker per client instance (the platform's health is shared by every wallet).
 * - Every attempt counts (a retried GET is several requests).
 * - An error is a 5xx answer other than 501 (disabled feature, not a health signal) or a
 *   transport failure (no answer). 4xx answers, 429 included, are answers from a live platform and
 *   count as successes: a 429 already has its own wait. So do the 5xx answers that say "busy,
 *   nothing recorded" (handling `resend_same`: `trading_temporarily_unavailable`,
 *   `shard_owner_unavailable`) and "cancel recorded, no answer yet" (`cancel_unanswered`,
 *   `cancel_pending`): a burst of them means a loaded exchange, not a dead platform (the caller
 *   decides; see `ApiCore`).
 * - Risk-reducing requests (cancel, cancel-batch, cancel-all) are never refused: pulling quotes
 *   matters most exactly when the platform looks unhealthy. They are admitted in every state as
 *   ordinary (non-probe) requests: while closed their outcomes count in the window like any
 *   other; while open or half-open their outcomes are ignored (they never decide a probe) and
 *   `stats().bypassed` counts them.
 * - The rate is only judged once the window holds at least `minRequests` (default 10) attempts,
 *   so two failures out of three do not stop the client.
 * - After `openMs` the breaker is half-open: `halfOpenProbes` (default 1) requests go through;
 *   the first probe answer closes it (success) or opens it again for another `openMs` (failure).
 *   Other requests are refused while the probe is in flight.
 * - Outcomes of requests admitted before the circuit opened are ignored once it is open.
 */
import type { Clock } from "../core/clock.js";

export type BreakerState = "closed" | "open" | "half_open";

export interface BreakerOptions {
  windowMs: number;
  minRequests: number;
  /** Opens when failures / total is strictly above this. */
  errorRateThreshold: number;
  openMs: number;
  halfOpenProbes: number;
}

export const DEFAULT_BREAKER: BreakerOptions = {
  windowMs: 30_000,
  minRequests: 10,
  errorRateThreshold: 0.5,
  openMs: 60_000,
  halfOpenProbes: 1,
};

export interface BreakerStats {
  state: BreakerState;
  /** Attempts and failures in the current window (closed state). */
  windowTotal: number;
  windowFailures: number;
  /** Times the circuit opened. */
  opened: number;
  /** Requests refused locally. */
  refused: number;
  /** Risk-reducing requests (cancels) let through while the circuit was open or half-open. */
  bypassed: number;
  /** Epoch ms when an open circuit turns half-open. */
  openUntil: number | undefined;
}

export interface BreakerChange {
  from: BreakerState;
  to: BreakerState;
  at: number;
  /** Failures and total of the window that tripped it (to open from closed). */
  windowTotal?: number;
  windowFailures?: number;
}

export type Permit = { ok: true; probe: boolean } | { ok: false; retryAfterMs: number };

export interface AcquireOptions {
  /** A cancel (single, batch, all): never refused, never a probe. */
  riskReducing?: boolean;
}

interface Sample {
  at: number;
  failed: boolean;
}

export class CircuitBreaker {
  private readonly opts: BreakerOptions;
  private current: BreakerState = "closed";
  private samples: Sample[] = [];
  private head = 0;
  private failures = 0;
  private openUntil: number | undefined;
  private probesInFlight = 0;
  private openedCount = 0;
  private refusedCount = 0;
  private bypassedCount = 0;
  private readonly listeners = new Set<(c: BreakerChange) => void>();

  constructor(
    private readonly clock: Clock,
    opts: Partial<BreakerOptions> = {},
  ) {
    this.opts = { ...DEFAULT_BREAKER, ...opts };
  }

  state(): BreakerState {
    this.tick();
    return this.current;
  }

  stats(): BreakerStats {
    this.tick();
    this.prune();
    return {
      state: this.current,
      windowTotal: this.samples.length - this.head,
      windowFailures: this.failures,
      opened: this.openedCount,
      refused: this.refusedCount,
      bypassed: this.bypassedCount,
      openUntil: this.current === "open" ? this.openUntil : undefined,
    };
  }

  /** Listen to state changes; returns the unsubscribe function. */
  onChange(listener: (c: BreakerChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ask to send one request. A permit must be settled with `record` or `release`. */
  tryAcquire(opts: AcquireOptions = {}): Permit {
    this.tick();
    if (this.current === "closed") return { ok: true, probe: false };
    if (opts.riskReducing === true) {
      this.bypassedCount += 1;
      return { ok: true, probe: false };
    }
    if (this.current === "half_open" && this.probesInFlight < this.opts.halfOpenProbes) {
      this.probesInFlight += 1;
      return { ok: true, probe: true };
    }
    this.refusedCount += 1;
    const now = this.clock.now();
    const retryAfterMs = this.current === "open" && this.openUntil !== undefined ? Math.max(0, this.openUntil - now) : 1000;
    return { ok: false, retryAfterMs };
  }

  /** The permit was not used (aborted before sending). */
  release(probe: boolean): void {
    if (probe) this.probesInFlight = Math.max(0, this.probesInFlight - 1);
  }

  /** Outcome of a request sent under a permit. */
  record(failed: boolean, probe: boolean): void {
    this.tick();
    const now = this.clock.now();
    if (probe) {
      this.probesInFlight = Math.max(0, this.probesInFlight - 1);
      if (this.current !== "half_open") return;
      if (failed) this.open(now);
      else this.transition("closed", now);
      return;
    }
    if (this.current !== "closed") return;
    this.samples.push({ at: now, failed });
    if (failed) this.failures += 1;
    this.prune();
    const total = this.samples.length - this.head;
    if (total >= this.opts.minRequests && this.failures / total > this.opts.errorRateThreshold) {
      this.open(now, { windowTotal: total, windowFailures: this.failures });
    }
  }

  /** Back to closed with an empty window (operator action, tests). */
  reset(): void {
    this.transition("closed", this.clock.now());
  }

  private open(now: number, window?: { windowTotal: number; windowFailures: number }): void {
    this.openUntil = now + this.opts.openMs;
    this.openedCount += 1;
    this.transition("open", now, window);
  }

  private transition(to: BreakerState, at: number, window?: { windowTotal: number; windowFailures: number }): void {
    const from = this.current;
    this.current = to;
    if (to !== "open") this.openUntil = undefined;
    if (to === "closed" || to === "open") {
      this.samples = [];
      this.head = 0;
      this.failures = 0;
    }
    if (to !== "half_open") this.probesInFlight = 0;
    if (from === to) return;
    const change: BreakerChange = { from, to, at, ...window };
    for (const l of this.listeners) l(change);
  }

  /** Open turns half-open once its time is up (checked lazily, on every use). */
  private tick(): void {
    if (this.current === "open" && this.openUntil !== undefined && this.clock.now() >= this.openUntil) {
      this.transition("half_open", this.clock.now());
    }
  }

  private prune(): void {
    const cutoff = this.clock.now() - this.opts.windowMs;
    while (this.head < this.samples.length && this.samples[this.head]!.at <= cutoff) {
      if (this.samples[this.head]!.failed) this.failures -= 1;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.samples.length) {
      this.samples = this.samples.slice(this.head);
      this.head = 0;
    }
  }
}
