/**
 * Load shedding, the pure decision half (capacity-guard.ts does the I/O): when the event loop falls
 * behind, give up work in a fixed order instead of letting stale-data halts and unknown orders pile up.
 *
 *   level 0   normal
 *   level 1   the periodic quote refresh runs every `refreshFactor` x quoting.refreshMs
 *   level 2+  each step sheds another `shedFraction` of the quoted markets (at least one), lowest
 *             priority first: the `capacity` halt pulls their quotes (their orders are cancelled:
 *             cancels never stop) and they cost nothing more while nothing of ours rests there.
 *
 * Priority, lowest (shed first) to highest: markets with neither a position nor live orders (nothing
 * to cancel, nothing to unwind), then markets with live orders but no position, then markets where a
 * wallet holds shares (quoting them may be how the position gets reduced). Within a class, later in
 * the selection order goes first (the selection lists what was chosen first, first).
 *
 * "Behind": the 90th percentile of the lag samples seen in the last `stepMs` (and since the last
 * step, so a step is judged on its own effect) is over `maxLagMs`: one late tick (a GC pause) is not
 * enough, a loop late on more than a tenth of its ticks is (a stalled loop also ticks less, so a
 * few long stalls are caught too). One step at most every `stepMs`. "Keeping up": that percentile
 * at or under half of `maxLagMs` (the gap between the two is the hysteresis).
 *
 * After `recoveryMs` of keeping up, one step is undone (the markets shed last come back first),
 * then another `recoveryMs` is needed for the next. A step back up soon after a restore (within
 * twice the recovery period) means the restore did not fit: the recovery period doubles (up to 8x)
 * so quotes do not flap on and off; it returns to `recoveryMs` at level 0.
 */

const MAX_RECOVERY_SCALE = 8;

export interface LoadShedderOptions {
  maxLagMs: number;
  recoveryMs: number;
  stepMs: number;
  refreshFactor: number;
  /** Fraction of the quoted markets shed per step, (0, 1]. */
  shedFraction: number;
}

export interface ShedCandidate {
  market: string;
  /** Some wallet holds shares there. */
  hasPosition: boolean;
  /** Some wallet has live (or in-flight) orders there. */
  hasLiveOrders: boolean;
}

export type ShedStep =
  | { kind: "widen_refresh"; level: number; lagMs: number }
  | { kind: "shed"; level: number; lagMs: number; markets: string[] }
  | { kind: "restore"; level: number; lagMs: number; markets: string[] }
  | { kind: "restore_refresh"; level: number; lagMs: number };

export interface ShedDecision {
  /** The step taken now, if any. */
  step?: ShedStep;
  /** Shed markets no longer quoted (deselected, closed): forgotten without a step. */
  gone: string[];
}

/** Shed first = lower class; within a class, later in the selection order first. */
function shedClass(c: ShedCandidate): number {
  if (c.hasPosition) return 2;
  return c.hasLiveOrders ? 1 : 0;
}

/** The candidates in shedding order (see the header). `candidates` is in selection order. */
export function shedOrder(candidates: readonly ShedCandidate[]): ShedCandidate[] {
  const ranked = candidates.map((c, i) => ({ c, i, k: shedClass(c) }));
  ranked.sort((a, b) => a.k - b.k || b.i - a.i);
  return ranked.map((r) => r.c);
}

/** Nearest-rank 90th percentile (0 for no samples). */
function p90(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] ?? 0;
}

export function checkShedderOptions(o: LoadShedderOptions): LoadShedderOptions {
  const bad = (what: string): never => {
    throw new Error(`LoadShedder: ${what}`);
  };
  if (!(o.maxLagMs > 0)) bad(`maxLagMs must be positive, got ${o.maxLagMs}`);
  if (!(o.recoveryMs > 0)) bad(`recoveryMs must be positive, got ${o.recoveryMs}`);
  if (!(o.stepMs > 0)) bad(`stepMs must be positive, got ${o.stepMs}`);
  if (!Number.isInteger(o.refreshFactor) || o.refreshFactor < 1) bad(`refreshFactor must be an integer >= 1, got ${o.refreshFactor}`);
  if (!(o.shedFraction > 0 && o.shedFraction <= 1)) bad(`shedFraction must be in (0, 1], got ${o.shedFraction}`);
  return o;
}

export class LoadShedder {
  private samples: { atMs: number; lagMs: number }[] = [];
  private lastChangeMs = Number.NEGATIVE_INFINITY;
  private calmSinceMs: number | undefined;
  private lastRestoreMs = Number.NEGATIVE_INFINITY;
  /** The recovery period is recoveryMs x this (see the header). */
  private recoveryScale = 1;
  private widened = false;
  /** Shed batches, oldest first: restores pop the newest. */
  private readonly batches: string[][] = [];
  private readonly shedSet = new Set<string>();

  constructor(private readonly o: LoadShedderOptions) {
    checkShedderOptions(o);
  }

  /** 0 normal, 1 refresh widened, 1 + n with n batches of markets shed. */
  get level(): number {
    return (this.widened ? 1 : 0) + this.batches.length;
  }

  /** Keeping up this long undoes one step (recoveryMs, longer after restores that did not fit). */
  get recoveryMs(): number {
    return this.o.recoveryMs * this.recoveryScale;
  }

  /** The quote refresh runs every this many quoting.refreshMs. */
  get refreshFactor(): number {
    return this.widened ? this.o.refreshFactor : 1;
  }

  isShed(market: string): boolean {
    return this.shedSet.has(market);
  }

  get shed(): readonly string[] {
    return [...this.shedSet];
  }

  /** One lag sample of the event-loop monitor, taken at `atMs` (the daemon's clock). */
  sample(lagMs: number, atMs: number): void {
    if (!Number.isFinite(lagMs) || lagMs < 0) return;
    this.samples.push({ atMs, lagMs });
  }

  /** The lag figure the decisions use now (see the header). */
  windowLagMs(nowMs: number): number {
    this.trim(nowMs);
    return p90(this.samples.map((s) => s.lagMs));
  }

  /**
   * Decide at `nowMs` over the markets quoted now (`candidates`, in selection order): at most one
   * step. The caller applies it (halts, timers, logs).
   */
  evaluate(nowMs: number, candidates: readonly ShedCandidate[]): ShedDecision {
    const gone = this.forgetGone(candidates);
    const lag = this.windowLagMs(nowMs);
    if (lag > this.o.maxLagMs) {
      this.calmSinceMs = undefined;
      if (nowMs - this.lastChangeMs < this.o.stepMs) return { gone };
      const step = this.escalate(lag, candidates);
      if (step !== undefined) {
        if (nowMs - this.lastRestoreMs < 2 * this.recoveryMs) this.recoveryScale = Math.min(MAX_RECOVERY_SCALE, this.recoveryScale * 2);
        this.changed(nowMs);
      }
      return step === undefined ? { gone } : { step, gone };
    }
    if (lag > this.o.maxLagMs / 2) {
      this.calmSinceMs = undefined;
      return { gone };
    }
    this.calmSinceMs ??= nowMs;
    const recovery = this.recoveryMs;
    if (this.level === 0 || nowMs - this.calmSinceMs < recovery || nowMs - this.lastChangeMs < recovery) return { gone };
    const step = this.restore(lag);
    this.changed(nowMs);
    this.calmSinceMs = nowMs;
    this.lastRestoreMs = nowMs;
    if (this.level === 0) this.recoveryScale = 1;
    return { step, gone };
  }

  private escalate(lagMs: number, candidates: readonly ShedCandidate[]): ShedStep | undefined {
    if (!this.widened) {
      this.widened = true;
      return { kind: "widen_refresh", level: this.level, lagMs };
    }
    const open = shedOrder(candidates.filter((c) => !this.shedSet.has(c.market)));
    if (open.length === 0) return undefined;
    const n = Math.min(open.length, Math.max(1, Math.ceil(this.o.shedFraction * candidates.length)));
    const markets = open.slice(0, n).map((c) => c.market);
    this.batches.push(markets);
    for (const m of markets) this.shedSet.add(m);
    return { kind: "shed", level: this.level, lagMs, markets };
  }

  private restore(lagMs: number): ShedStep {
    const batch = this.batches.pop();
    if (batch !== undefined) {
      for (const m of batch) this.shedSet.delete(m);
      return { kind: "restore", level: this.level, lagMs, markets: batch };
    }
    this.widened = false;
    return { kind: "restore_refresh", level: this.level, lagMs };
  }

  /** A step was taken: judge the next one on samples taken after it. */
  private changed(nowMs: number): void {
    this.lastChangeMs = nowMs;
    this.samples = [];
  }

  private trim(nowMs: number): void {
    const from = nowMs - this.o.stepMs;
    let i = 0;
    while (i < this.samples.length && this.samples[i]!.atMs < from) i++;
    if (i > 0) this.samples.splice(0, i);
  }

  private forgetGone(candidates: readonly ShedCandidate[]): string[] {
    if (this.shedSet.size === 0) return [];
    const quoted = new Set(candidates.map((c) => c.market));
    const gone = [...this.shedSet].filter((m) => !quoted.has(m));
    if (gone.length === 0) return gone;
    for (const m of gone) this.shedSet.delete(m);
    for (let i = this.batches.length - 1; i >= 0; i--) {
      const left = this.batches[i]!.filter((m) => !gone.includes(m));
      // An emptied batch goes: a restore step always brings something back.
      if (left.length === 0) this.batches.splice(i, 1);
      else this.batches[i] = left;
    }
    return gone;
  }
}
