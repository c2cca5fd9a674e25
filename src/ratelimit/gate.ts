/**
 * The client side of spec 8: pace requests so that the platform never answers 429 under normal conditions.
 *
 * Design (why two schedulers):
 * - The window accounting is ours (WindowLedger): per (bucket, subject) fixed windows cut at the platform's
 *   instants (multiples of the window length on the gate's Clock, corrected by a clock offset and by
 *   `X-RateLimit-Reset`), a budget of floor(limit * (1 - safetyMargin)) per window (at least 1), blocks from
 *   Retry-After. Admission is a synchronous check-and-reserve on every bucket that applies, so the gate
 *   can never put more than the budget into one window whatever the scheduler does.
 * - The ORDER in which waiting requests get room comes from a scheduler. Bottleneck's local datastore
 *   advances through the global setTimeout and Date.now() on every operation, so it cannot run on a
 *   VirtualClock; under virtual time (tests, backtests) the gate uses its own priority queue woken by the
 *   Clock (queue-scheduler.ts, exact and deterministic). Under a RealClock it uses a Bottleneck.Group keyed
 *   by bucket and subject (bottleneck-scheduler.ts) whose jobs wait on the same ledger through the same Clock.
 *   `scheduler: "auto"` picks by the clock.
 * - Subjects: wallet buckets by wallet (lower-cased), ip buckets shared by every wallet of this process
 *   (one egress IP), partner buckets shared by the partner.
 * - Priorities: cancels before places before vault/withdrawal writes before reads; FIFO within a class.
 *
 * Header resync (observe): `X-RateLimit-*` describe one bucket of the request (the platform does not say
 * which); it is the applicable bucket whose limit equals `X-RateLimit-Limit`, or the only bucket when a
 * single one applies (then a differing limit is adopted as the platform's). Headers that match no bucket are
 * ignored, except that a 429 then blocks every bucket of the request until Retry-After (spec 7.4 rule 2).
 */
import type { Clock } from "../core/clock.js";
import { RealClock } from "../core/clock.js";
import { BottleneckScheduler } from "./bottleneck-scheduler.js";
import { walletKey } from "./keys.js";
import { QueueScheduler } from "./queue-scheduler.js";
import type { AdmissionScheduler, SchedulerHooks, Waiter } from "./scheduler.js";
import type { BucketRule, BucketScope, RateTable, RequestClass } from "./table.js";
import { CLASS_PRIORITY, DEFAULT_RATE_LIMIT_PER_MIN, DEFAULT_RATE_TABLE } from "./table.js";
import type { LedgerEntry } from "./window-ledger.js";
import { WindowLedger } from "./window-ledger.js";
import type { HeaderSource } from "./windows.js";
import { HEADER_RETRY_AFTER, intHeader, parseRateLimitHeaders } from "./windows.js";

export interface RateGateOptions {
  readonly clock: Clock;
  /** Partner tier (8.1), default 600. */
  readonly rateLimitPerMin?: number;
  /** Fraction of every window left unused, in [0, 1); default 0.1. */
  readonly safetyMargin?: number;
  readonly table?: RateTable;
  /** Wallet for wallet buckets when a request names none (single_wallet partners). */
  readonly defaultWallet?: string;
  /** Subject of the ip buckets (all wallets of this process share it). Default "self". */
  readonly ipSubject?: string;
  /** Subject of the per-partner buckets. Default "partner". */
  readonly partnerSubject?: string;
  /** Pace the buckets whose numbers the spec does not state (events list, partner feeds). Default true. */
  readonly paceUnstated?: boolean;
  /** "auto" (default): Bottleneck under a RealClock, the virtual-time queue otherwise. */
  readonly scheduler?: "auto" | "queue" | "bottleneck";
  /** Called on every admission, once per bucket, with the time waited (for a histogram). */
  readonly onWait?: (bucketId: string, waitMs: number) => void;
  /** Called on every 429 observed, with the bucket it was charged to. */
  readonly on429?: (bucketId: string) => void;
}

export interface AcquireRequest {
  readonly method: string;
  /** Path, query included (the leaderboard search row depends on it). */
  readonly path: string;
  readonly wallet?: string;
  /** A class, or a Bottleneck-style number 0..9 (lower first). Default: the request's class. */
  readonly priority?: RequestClass | number;
  readonly signal?: AbortSignal;
}

export interface Admission {
  readonly class: RequestClass;
  /** Bucket ids reserved (empty when no bucket applies). */
  readonly buckets: readonly string[];
  /** Gate time of admission: pass it back as `sentAtMs` to observe(). */
  readonly admittedAtMs: number;
  readonly waitedMs: number;
}

export interface ObservedResponse {
  readonly method: string;
  readonly path: string;
  readonly wallet?: string;
  readonly status: number;
  readonly headers?: HeaderSource;
  /** When the request was admitted (Admission.admittedAtMs). */
  readonly sentAtMs?: number;
}

export interface BucketStats {
  readonly bucket: string;
  readonly scope: BucketScope;
  readonly subject: string;
  readonly limit: number;
  /** Admissions allowed per window (limit less the margin); Infinity when the bucket is not paced. */
  readonly budget: number;
  /** Used in the current window. */
  readonly used: number;
  readonly resetInMs: number;
  readonly blockedForMs: number;
  readonly queueDepth: number;
  readonly admitted: number;
  /** Admissions that had to wait, total and longest wait. */
  readonly waited: number;
  readonly waitMsSum: number;
  readonly waitMsMax: number;
  readonly rejected429: number;
}

/** The request whose buckets stand for a class in pressure(). */
const CLASS_PROBE: Readonly<Record<RequestClass, readonly [string, string]>> = {
  cancel: ["POST", "/api/orders/cancel"],
  place: ["POST", "/api/orders/place"],
  read: ["GET", "/api/orders/open"],
  vault: ["POST", "/api/vault/split-signature"],
  withdrawal: ["POST", "/api/withdrawals/request"],
};

export class RateGate {
  private readonly ledger: WindowLedger;
  private readonly scheduler: AdmissionScheduler;
  /** The buckets this gate paces (the 8.2 table, or a deployment's overrides of it). */
  readonly table: RateTable;
  private readonly admittedAt = new WeakMap<Waiter, number>();
  private readonly entryMemo = new WeakMap<readonly BucketRule[], Map<string, readonly LedgerEntry[]>>();
  private seq = 0;

  constructor(private readonly opts: RateGateOptions) {
    this.table = opts.table ?? DEFAULT_RATE_TABLE;
    this.ledger = new WindowLedger({
      clock: opts.clock,
      rateLimitPerMin: opts.rateLimitPerMin ?? DEFAULT_RATE_LIMIT_PER_MIN,
      safetyMargin: opts.safetyMargin ?? 0.1,
      paceUnstated: opts.paceUnstated ?? true,
    });
    const hooks: SchedulerHooks = {
      queued: (w) => w.entries.forEach((e) => (e.queueDepth += 1)),
      unqueued: (w) => w.entries.forEach((e) => (e.queueDepth -= 1)),
      admitted: (w, now) => this.recordAdmission(w, now),
    };
    const kind = opts.scheduler ?? "auto";
    const live = kind === "bottleneck" || (kind === "auto" && opts.clock instanceof RealClock);
    this.scheduler = live ? new BottleneckScheduler(this.ledger, hooks) : new QueueScheduler(this.ledger, hooks);
  }

  /** Which scheduler orders admissions ("queue" under virtual time, "bottleneck" live). */
  get schedulerKind(): "queue" | "bottleneck" {
    return this.scheduler instanceof BottleneckScheduler ? "bottleneck" : "queue";
  }

  /** Resolves once every bucket that applies has room in its current window, and reserves it. */
  async acquire(req: AcquireRequest): Promise<Admission> {
    const cls = this.table.classOf(req.method, req.path);
    const entries = this.entriesFor(this.table.bucketsFor(req.method, req.path), req.wallet);
    const createdAt = this.ledger.now();
    if (entries.length === 0) return { class: cls, buckets: [], admittedAtMs: createdAt, waitedMs: 0 };
    const w: Waiter = {
      entries,
      priority: priorityOf(req.priority ?? cls),
      seq: this.seq++,
      createdAt,
      ...(req.signal ? { signal: req.signal } : {}),
    };
    await this.scheduler.admit(w);
    const admittedAtMs = this.admittedAt.get(w) ?? this.ledger.now();
    return { class: cls, buckets: entries.map((e) => e.rule.id), admittedAtMs, waitedMs: admittedAtMs - createdAt };
  }

  /** Resynchronise from a response: X-RateLimit-Remaining/Reset always, Retry-After on a 429. */
  observe(res: ObservedResponse): void {
    const rules = this.table.bucketsFor(res.method, res.path);
    const entries = this.entriesFor(rules, res.wallet);
    if (entries.length === 0) return;
    const now = this.ledger.now();
    const h = parseRateLimitHeaders(res.headers);
    const target = h ? this.attribute(entries, h.limit) : undefined;
    if (h && target && h.limit !== target.limit) this.ledger.learnLimit(target, h.limit);
    if (res.status === 429) {
      const waitSec = intHeader(res.headers, HEADER_RETRY_AFTER) ?? h?.resetSec ?? 1;
      const until = now + Math.max(1, waitSec) * 1000;
      const blocked = target ? [target] : entries;
      for (const e of blocked) this.ledger.block(e, until);
      // An unattributed 429 is charged to the most specific bucket (wallet before ip).
      const charged = target ?? mostSpecific(entries);
      charged.rejected429 += 1;
      this.opts.on429?.(charged.rule.id);
      if (target && h) this.ledger.resync(target, h.limit, 0, waitSec, now, res.sentAtMs);
    } else if (h && target) {
      this.ledger.resync(target, h.limit, h.remaining, h.resetSec, now, res.sentAtMs);
    }
    this.scheduler.wake();
  }

  /** Per (bucket, subject) counters, ready for metrics. */
  stats(): BucketStats[] {
    const now = this.ledger.now();
    const out: BucketStats[] = [];
    for (const e of this.ledger.all()) {
      this.ledger.roll(e, now);
      out.push({
        bucket: e.rule.id,
        scope: e.rule.scope,
        subject: e.subject,
        limit: e.limit,
        budget: e.budget,
        used: e.used,
        resetInMs: e.windowEnd - now,
        blockedForMs: Math.max(0, e.blockedUntil - now),
        queueDepth: e.queueDepth,
        admitted: e.admitted,
        waited: e.waited,
        waitMsSum: e.waitMsSum,
        waitMsMax: e.waitMsMax,
        rejected429: e.rejected429,
      });
    }
    return out;
  }

  /** Requests waiting for admission. */
  queueDepth(): number {
    return this.scheduler.waiting();
  }

  /**
   * Share of the current window already used, 0..1, by the buckets a typical request of the class uses for
   * this wallet (place: the wallet place bucket and the shared orders ip bucket): the highest of them.
   * A blocked bucket counts as full.
   */
  pressure(wallet: string | undefined, cls: RequestClass): number {
    const [method, path] = CLASS_PROBE[cls];
    return this.pressureFor(method, path, wallet);
  }

  pressureFor(method: string, path: string, wallet?: string): number {
    const now = this.ledger.now();
    let p = 0;
    for (const e of this.entriesFor(this.table.bucketsFor(method, path), wallet)) {
      this.ledger.roll(e, now);
      if (now < e.blockedUntil) return 1;
      if (Number.isFinite(e.budget)) p = Math.max(p, Math.min(1, e.used / e.budget));
    }
    return p;
  }

  /** How many more such requests fit in the current windows right now (Infinity when none is paced). */
  remainingFor(method: string, path: string, wallet?: string): number {
    const now = this.ledger.now();
    let r = Infinity;
    for (const e of this.entriesFor(this.table.bucketsFor(method, path), wallet)) {
      this.ledger.roll(e, now);
      r = Math.min(r, now < e.blockedUntil ? 0 : Math.max(0, e.budget - e.used));
    }
    return r;
  }

  /** Platform clock minus local clock (ms), e.g. from `X-Server-Time`: windows follow the platform's. */
  setServerClockOffset(ms: number): void {
    this.ledger.setClockOffset(ms);
    this.scheduler.wake();
  }

  /** Reject every waiting request. */
  close(): void {
    this.scheduler.close(new Error("rate gate closed"));
  }

  /**
   * The ledger entries of these rules for this wallet. Remembered per rules list (the table hands
   * out one frozen list per path) and wallet: entries live as long as the ledger.
   */
  private entriesFor(rules: readonly BucketRule[], wallet: string | undefined): readonly LedgerEntry[] {
    let byWallet = this.entryMemo.get(rules);
    if (byWallet === undefined) this.entryMemo.set(rules, (byWallet = new Map<string, readonly LedgerEntry[]>()));
    const key = wallet ?? "";
    let out = byWallet.get(key);
    if (out === undefined) byWallet.set(key, (out = this.resolveEntries(rules, wallet)));
    return out;
  }

  private resolveEntries(rules: readonly BucketRule[], wallet: string | undefined): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    const w = wallet ?? this.opts.defaultWallet;
    for (const rule of rules) {
      let subject: string | undefined;
      if (rule.scope === "ip") subject = this.opts.ipSubject ?? "self";
      else if (rule.scope === "partner") subject = this.opts.partnerSubject ?? "partner";
      else subject = w === undefined || w === "" ? undefined : walletKey(w);
      if (subject !== undefined) out.push(this.ledger.entry(rule, subject));
    }
    return out;
  }

  private attribute(entries: readonly LedgerEntry[], limit: number): LedgerEntry | undefined {
    const same = entries.filter((e) => e.limit === limit);
    if (same.length > 0) return mostSpecific(same);
    return entries.length === 1 ? entries[0] : undefined;
  }

  private recordAdmission(w: Waiter, now: number): void {
    this.admittedAt.set(w, now);
    const waited = now - w.createdAt;
    for (const e of w.entries) {
      e.admitted += 1;
      if (waited > 0) {
        e.waited += 1;
        e.waitMsSum += waited;
        e.waitMsMax = Math.max(e.waitMsMax, waited);
      }
      this.opts.onWait?.(e.rule.id, waited);
    }
  }
}

const SPECIFIC_RANK: Readonly<Record<BucketScope, number>> = { wallet: 0, partner: 1, ip: 2 };

function mostSpecific(es: readonly LedgerEntry[]): LedgerEntry {
  let best = es[0]!;
  for (const e of es) if (SPECIFIC_RANK[e.rule.scope] < SPECIFIC_RANK[best.rule.scope]) best = e;
  return best;
}

function priorityOf(p: RequestClass | number): number {
  if (typeof p === "number") return Math.min(9, Math.max(0, Math.round(p)));
  return CLASS_PRIORITY[p];
}
