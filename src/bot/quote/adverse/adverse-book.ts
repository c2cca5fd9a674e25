/**
 * The adverse-selection trackers of one wallet's signals (composed in SignalBook, signals.ts): the
 * live markout tracker (markout-tracker.ts), the toxicity estimator it feeds (toxicity.ts) and the
 * jump detector (jump.ts), with the options built from `adverse:` (src/config/adverse-section.ts).
 *
 * Fed like the SignalBook: each new own fill (`onFill`, no time: it is scheduled at the next call
 * that brings one, which is when the shell next reads a mid, so "learnt late" is judged against the
 * mids seen until then), each mid (`onMid`), and read per (wallet, market) with `view`.
 * Pure: no clock, no I/O; the markouts measured go to `onMarkout` (the shell's metrics).
 */
import type { AdverseSettings } from "../../../config/adverse-section.js";
import type { Micros } from "../../../core/money.js";
import type { EngineObserver } from "../../observer.js";
import { JumpDetector, NO_JUMP, type JumpParams, type JumpView } from "./jump.js";
import { MarkoutTracker, type Markout, type OwnFill } from "./markout-tracker.js";
import { ToxicityBook, type ToxicSideView, type ToxicityParams } from "./toxicity.js";

export interface AdverseOptions {
  /** Report every markout measured to `onMarkout` (metrics). */
  markouts: boolean;
  maxPending: number;
  toxicity?: ToxicityParams | undefined;
  jump?: JumpParams | undefined;
  onMarkout?: ((m: Markout) => void) | undefined;
  /** A (wallet, market)'s toxicity levels or jump cooling changed, as a `view` saw them (metrics, status). */
  onState?: ((wallet: string, market: string, view: AdverseView) => void) | undefined;
}

/** The options `adverse:` asks for; undefined when nothing is on (no markouts, no toxicity, no jump). */
export function adverseOptionsOf(a: AdverseSettings | undefined): AdverseOptions | undefined {
  if (a === undefined || (!a.markouts && a.toxicity === undefined && a.jump === undefined)) return undefined;
  const t = a.toxicity;
  const j = a.jump;
  return {
    markouts: a.markouts,
    maxPending: a.maxPendingMarkouts,
    toxicity:
      t === undefined
        ? undefined
        : {
            horizonMs: t.horizonSec * 1000,
            fills: t.fills,
            windowMs: t.windowSec * 1000,
            minFills: t.minFills,
            widenEnterMicros: t.widenEnterTicks,
            widenExitMicros: t.widenExitTicks,
            pullEnterMicros: t.pullEnterTicks,
            coolingMs: t.coolingSec * 1000,
          },
    jump: j === undefined ? undefined : { thresholdMicros: j.thresholdTicks, windowMs: Math.round(j.windowSec * 1000), coolingMs: Math.round(j.coolingSec * 1000) },
  };
}

/** The options with sinks that tell the engine's observer (events `markout` and `adverse_state`: metrics, status). */
export function observedAdverse(opts: AdverseOptions | undefined, observer: EngineObserver): AdverseOptions | undefined {
  if (opts === undefined) return undefined;
  return {
    ...opts,
    onMarkout: (m) => observer.onEvent({ type: "markout", wallet: m.wallet, marketId: m.market, side: m.side, horizonMs: m.horizonMs, perShare: m.perShare }),
    onState: (wallet, market, v) =>
      observer.onEvent({
        type: "adverse_state",
        wallet,
        marketId: market,
        sides: v.toxicity.flatMap((t) => (t.level === "normal" ? [] : [{ outcome: t.outcome, side: t.side, level: t.level }])),
        jumpCoolingUntilMs: v.jump.coolingUntilMs,
      }),
  };
}

/** What the cycle reads of one (wallet, market). */
export interface AdverseView {
  /** Sides with toxicity state (any level), by outcome then BUY before SELL. */
  toxicity: readonly ToxicSideView[];
  jump: JumpView;
}

const NO_SIDES: readonly ToxicSideView[] = Object.freeze([]);

export class AdverseBook {
  readonly tracker: MarkoutTracker;
  readonly toxicity: ToxicityBook | undefined;
  readonly jump: JumpDetector | undefined;
  private readonly onMarkout: ((m: Markout) => void) | undefined;
  private incoming: OwnFill[] = [];
  /** The state each (wallet, market) was last reported in (onState), by key. */
  private readonly reported = new Map<string, string>();

  constructor(readonly options: AdverseOptions) {
    this.tracker = new MarkoutTracker({ maxPending: options.maxPending });
    this.toxicity = options.toxicity === undefined ? undefined : new ToxicityBook(options.toxicity);
    this.jump = options.jump === undefined ? undefined : new JumpDetector(options.jump);
    this.onMarkout = options.markouts ? options.onMarkout : undefined;
  }

  onFill(fill: OwnFill): void {
    // Held until the next call that brings the time (bounded like the tracker's queue).
    if (this.incoming.length >= this.options.maxPending) {
      this.tracker.noteDroppedFill();
      return;
    }
    this.incoming.push(fill);
  }

  onMid(market: string, outcome: number, mid: Micros, nowMs: number): void {
    this.schedule(nowMs);
    this.land(this.tracker.onMid(market, outcome, mid, nowMs), nowMs);
    this.jump?.onMid(market, outcome, mid, nowMs);
  }

  view(wallet: string, market: string, nowMs: number): AdverseView {
    this.schedule(nowMs);
    this.land(this.tracker.advance(nowMs), nowMs);
    const v: AdverseView = {
      toxicity: this.toxicity?.view(wallet, market, nowMs) ?? NO_SIDES,
      jump: this.jump?.view(market, nowMs) ?? NO_JUMP,
    };
    if (this.options.onState !== undefined) {
      const key = `${wallet}\u0000${market}`;
      const sig = stateSignature(v);
      if ((this.reported.get(key) ?? NORMAL_SIG) !== sig) {
        if (sig === NORMAL_SIG) this.reported.delete(key);
        else this.reported.set(key, sig);
        this.options.onState(wallet, market, v);
      }
    }
    return v;
  }

  /** Sides widened and pulled (every wallet and market of this book) and markets cooling after a jump, at `nowMs` (status line). */
  counts(nowMs: number): { widen: number; pull: number; cooling: number } {
    let widen = 0;
    let pull = 0;
    for (const t of this.toxicity?.all(nowMs) ?? []) {
      if (t.level === "widen") widen++;
      else if (t.level === "pull") pull++;
    }
    return { widen, pull, cooling: this.jump?.cooling(nowMs).length ?? 0 };
  }

  /** (wallet, market)s not in the normal state when last viewed (with onState). */
  get acting(): number {
    return this.reported.size;
  }

  /** Markets holding any state here (mids, markouts, toxicity, jumps, pending fills). */
  markets(): string[] {
    const out = new Set<string>(this.tracker.markets());
    for (const m of this.toxicity?.markets() ?? []) out.add(m);
    for (const m of this.jump?.markets() ?? []) out.add(m);
    for (const f of this.incoming) out.add(f.market);
    for (const k of this.reported.keys()) out.add(k.slice(k.indexOf("\u0000") + 1));
    return [...out];
  }

  forget(market: string): void {
    this.tracker.forget(market);
    this.toxicity?.forget(market);
    this.jump?.forget(market);
    this.incoming = this.incoming.filter((f) => f.market !== market);
    for (const k of this.reported.keys()) if (k.endsWith(`\u0000${market}`)) this.reported.delete(k);
  }

  private schedule(nowMs: number): void {
    if (this.incoming.length === 0) return;
    const fills = this.incoming;
    this.incoming = [];
    for (const f of fills) this.land(this.tracker.onFill(f, nowMs), nowMs);
  }

  private land(ms: readonly Markout[], nowMs: number): void {
    for (const m of ms) {
      this.toxicity?.onMarkout(m, nowMs);
      this.onMarkout?.(m);
    }
    if (ms.length > 0) this.toxicity?.prune(nowMs);
  }
}

const NORMAL_SIG = "";

/** "" when every side is normal and the market does not cool; else the levels and the cooling end. */
function stateSignature(v: AdverseView): string {
  let s = "";
  for (const t of v.toxicity) if (t.level !== "normal") s += `${t.outcome}${t.side}${t.level};`;
  if (v.jump.coolingUntilMs !== null) s += `j${v.jump.coolingUntilMs}`;
  return s;
}
