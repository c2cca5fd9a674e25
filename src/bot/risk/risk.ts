/**
 * The risk facade the engine calls every cycle:
 *
 *   risk.evaluate(observations, now)       raise / clear halts from what the engine saw
 *   snapshot = new RiskSnapshot(exposures)  once per cycle
 *   risk.filter(wallet, market, desired, snapshot)
 *                                           -> allowed quotes: EMPTY when the scope is halted, so
 *                                              the reconciler cancels everything live there
 *   risk.kill(note, now) / risk.resume(now) operator actions (signal, admin endpoint)
 *
 * Time is always passed in. Every raise and clear is returned, sent to `onChange` (metrics) and
 * logged with its scope, reason and detail.
 */
import type { Micros } from "../../core/money.js";
import type { DesiredQuote } from "../quote/quotes.js";
import {
  breakerVerdict,
  dailyLossVerdict,
  driftVerdict,
  rejectStormVerdict,
  staleDataVerdict,
  streamVerdict,
  type Verdict,
} from "./evaluators.js";
import type { RiskSnapshot } from "./exposure.js";
import { CLEAR_RULES, HaltBook } from "./halts.js";
import { gatedLimits, type LimitResult } from "./limits.js";
import {
  DEFAULT_TUNING,
  GLOBAL,
  scopeKey,
  scopeTarget,
  type GateVerdict,
  type Halt,
  type HaltChange,
  type HaltReason,
  type HaltScope,
  type RejectObs,
  type RiskLimits,
  type RiskObservations,
  type RiskTuning,
} from "./types.js";

/** What the facade logs through (a pino Logger fits). */
export interface RiskLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RiskOptions {
  limits: RiskLimits;
  tuning?: Partial<RiskTuning>;
  /** Called for every raise and clear, after the book changed (metrics observer). */
  onChange?: (change: HaltChange) => void;
  log?: RiskLog;
}

export interface FilterResult extends LimitResult {
  verdict: GateVerdict;
}

/** Halts only an operator clears. */
export const OPERATOR_REASONS: readonly HaltReason[] = (Object.keys(CLEAR_RULES) as HaltReason[]).filter(
  (r) => !CLEAR_RULES[r].automatic,
);

interface RejectTrack {
  times: number[];
  last: number | undefined;
}

interface LossTrack {
  dayStartMs: number;
  pnl: Micros;
  acknowledged: Micros;
}

export class Risk {
  private activeLimits: RiskLimits;
  private activeTuning: RiskTuning;
  private readonly book = new HaltBook();
  private explained: ReadonlySet<string>;
  private readonly rejects = new Map<string, RejectTrack>();
  private readonly losses = new Map<string, LossTrack>();

  constructor(private readonly opts: RiskOptions) {
    this.activeLimits = opts.limits;
    this.activeTuning = { ...DEFAULT_TUNING, ...opts.tuning };
    this.explained = new Set(this.activeTuning.explainedRejectCodes);
  }

  get limits(): RiskLimits {
    return this.activeLimits;
  }

  get tuning(): RiskTuning {
    return this.activeTuning;
  }

  /**
   * New limits and tuning (a config reload): the next evaluation and the next cycle use them.
   * Halts, reject counts and the day's loss tracks are kept as they are.
   */
  reconfigure(limits: RiskLimits, tuning: Partial<RiskTuning> = {}): void {
    this.activeLimits = limits;
    this.activeTuning = { ...DEFAULT_TUNING, ...tuning };
    this.explained = new Set(this.activeTuning.explainedRejectCodes);
  }

  /** Apply one batch of observations; returns the halts raised and cleared. */
  evaluate(obs: RiskObservations, nowMs: number): HaltChange[] {
    const out: HaltChange[] = [];
    const apply = (scope: HaltScope, reason: HaltReason, v: Verdict): void => {
      if (v.action === "raise") this.push(out, this.book.raise(scope, reason, v.detail, nowMs));
      else if (v.action === "clear") this.push(out, this.book.clear(scope, reason, nowMs, "rule"));
    };
    const l = this.limits;
    if (obs.breaker !== undefined) apply(GLOBAL, "circuit_open", breakerVerdict(obs.breaker));
    for (const m of obs.marketData ?? []) {
      apply({ kind: "market", market: m.market }, "stale_market_data", staleDataVerdict(m, nowMs, l.staleDataSec * 1000));
    }
    for (const s of obs.streams ?? []) {
      const scope: HaltScope = s.wallet === undefined ? GLOBAL : { kind: "wallet", wallet: s.wallet };
      apply(scope, "stream_down", streamVerdict(s, nowMs, l.streamDownSec * 1000, this.book.has(scope, "stream_down")));
    }
    for (const r of obs.reconciliations ?? []) {
      apply({ kind: "wallet", wallet: r.wallet }, "reconciliation_drift", driftVerdict(r, this.tuning.driftTolerance));
    }
    this.noteRejects(obs.rejects ?? []);
    for (const [wallet, track] of this.rejects) {
      const scope: HaltScope = { kind: "wallet", wallet };
      const v = rejectStormVerdict(
        track,
        nowMs,
        { maxPerWindow: l.maxRejectsPerMin, windowMs: this.tuning.rejectWindowMs, quietMs: this.tuning.rejectQuietMs },
        this.book.has(scope, "reject_storm"),
      );
      apply(scope, "reject_storm", v);
      // A storm that cleared is forgiven: only rejects after it can raise the next one.
      if (v.action === "clear") track.times = [];
      track.times = track.times.filter((t) => t > nowMs - this.tuning.rejectWindowMs);
      if (track.times.length === 0 && !this.book.has(scope, "reject_storm")) this.rejects.delete(wallet);
    }
    for (const p of obs.pnl ?? []) {
      const scope: HaltScope = p.wallet === undefined ? GLOBAL : { kind: "wallet", wallet: p.wallet };
      const k = scopeKey(scope);
      const prev = this.losses.get(k);
      const acknowledged = prev !== undefined && prev.dayStartMs === p.dayStartMs ? prev.acknowledged : 0n;
      this.losses.set(k, { dayStartMs: p.dayStartMs, pnl: p.pnl, acknowledged });
      apply(scope, "daily_loss", dailyLossVerdict(p.pnl, l.dailyLossLimit, acknowledged));
    }
    return out;
  }

  /**
   * The quotes (wallet, market) may rest. Halted: none (every desired quote dropped "halted").
   * Commits the result into `snapshot` so later markets of the cycle see the headroom used.
   */
  filter(wallet: string, market: string, desired: readonly DesiredQuote[], snapshot: RiskSnapshot): FilterResult {
    const verdict = this.book.gate(wallet, market);
    const result = gatedLimits(verdict, wallet, market, desired, snapshot, this.limits, this.tuning);
    if (verdict.quote) snapshot.commit(wallet, market, result.restingBuyNotional);
    return { ...result, verdict };
  }

  /** The kill switch: halts everything until an operator resume (or a restart). */
  kill(note: string, nowMs: number): HaltChange[] {
    const out: HaltChange[] = [];
    this.push(out, this.book.raise(GLOBAL, "kill_switch", note === "" ? "kill switch" : note, nowMs));
    return out;
  }

  /** An operator halt of one scope (cleared by resume). */
  halt(scope: HaltScope, note: string, nowMs: number): HaltChange[] {
    const out: HaltChange[] = [];
    this.push(out, this.book.raise(scope, "manual", note === "" ? "manual halt" : note, nowMs));
    return out;
  }

  /**
   * A halt whose condition is observed outside the risk layer (key refusals, the dead-man switch,
   * capacity, a second instance): `detail` raises it (kept if already raised), null clears it by
   * its rule. Operator-only reasons raised here still clear only by resume.
   */
  condition(scope: HaltScope, reason: HaltReason, detail: string | null, nowMs: number): HaltChange[] {
    const out: HaltChange[] = [];
    if (detail !== null) this.push(out, this.book.raise(scope, reason, detail, nowMs));
    else if (CLEAR_RULES[reason].automatic) this.push(out, this.book.clear(scope, reason, nowMs, "rule"));
    return out;
  }

  /**
   * Operator resume: clears the operator-only halts (kill_switch, manual, daily_loss) of `scope`
   * (default: every scope). A cleared daily_loss acknowledges the loss so far. Automatic halts
   * stay: they clear on their own rule.
   */
  resume(nowMs: number, opts: { scope?: HaltScope; reasons?: readonly HaltReason[] } = {}): HaltChange[] {
    const reasons = (opts.reasons ?? OPERATOR_REASONS).filter((r) => OPERATOR_REASONS.includes(r));
    const out: HaltChange[] = [];
    for (const h of this.book.active()) {
      if (!reasons.includes(h.reason)) continue;
      if (opts.scope !== undefined && scopeKey(opts.scope) !== scopeKey(h.scope)) continue;
      if (h.reason === "daily_loss") {
        const track = this.losses.get(scopeKey(h.scope));
        if (track !== undefined && track.pnl < 0n) track.acknowledged = -track.pnl;
      }
      this.push(out, this.book.clear(h.scope, h.reason, nowMs, "operator"));
    }
    return out;
  }

  /**
   * A market (or wallet) no longer quoted: drop its automatic halts, whose condition nobody will
   * observe again. Operator halts stay.
   */
  forget(scope: HaltScope, nowMs: number): HaltChange[] {
    const out: HaltChange[] = [];
    for (const h of this.book.onScope(scope)) {
      if (CLEAR_RULES[h.reason].automatic) this.push(out, this.book.clear(h.scope, h.reason, nowMs, "rule"));
    }
    if (scope.kind === "wallet") this.rejects.delete(scope.wallet);
    return out;
  }

  gate(wallet: string, market?: string): GateVerdict {
    return this.book.gate(wallet, market);
  }

  /** Active halts, most serious first. */
  halts(): Halt[] {
    return this.book.active();
  }

  globallyHalted(): boolean {
    return this.book.globallyHalted();
  }

  private noteRejects(rejects: readonly RejectObs[]): void {
    for (const r of rejects) {
      if (this.explained.has(r.code)) continue;
      let track = this.rejects.get(r.wallet);
      if (track === undefined) this.rejects.set(r.wallet, (track = { times: [], last: undefined }));
      track.times.push(r.atMs);
      if (track.last === undefined || r.atMs > track.last) track.last = r.atMs;
    }
  }

  private push(out: HaltChange[], change: HaltChange | undefined): void {
    if (change === undefined) return;
    out.push(change);
    const h = change.halt;
    const fields = { haltScope: h.scope.kind, target: scopeTarget(h.scope), reason: h.reason, detail: h.detail };
    if (change.type === "raised") {
      this.opts.log?.warn({ ...fields, clearsBy: CLEAR_RULES[h.reason].rule }, "risk halt raised: quotes pulled");
    } else {
      this.opts.log?.info({ ...fields, by: change.by, haltedMs: change.atMs - h.sinceMs }, "risk halt cleared");
    }
    this.opts.onChange?.(change);
  }
}
