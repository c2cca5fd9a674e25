/**
 * Signals: what the shell keeps about one (wallet, market) between quote cycles and hands to the
 * pure cycle as `CycleSnapshot.signals` (frozen values, read once per cycle). The controls
 * (controls/*.ts) read them.
 *
 * `SignalBook` is pure bookkeeping: no clock (every call that needs the time takes `nowMs`), no
 * I/O. The shell feeds it each NEW own fill (`onFill`) and the mid of each book it reads
 * (`onMid`), and asks for the `view` of one (wallet, market) when it builds a snapshot. Memory is
 * bounded: the newest fill per (wallet, market, outcome, side), and what the longest window of a
 * tracker needs; `forget(market)` drops a market the shell no longer follows.
 */
import type { Side } from "../../core/amounts.js";
import type { Micros } from "../../core/money.js";
import { sortSmall } from "../../core/small-sort.js";
import { AdverseBook, type AdverseOptions } from "./adverse/adverse-book.js";
import type { JumpView } from "./adverse/jump.js";
import type { ToxicSideView } from "./adverse/toxicity.js";

/** One own fill as the signals keep it, in our order's terms (outcome, side, price). */
export interface SignalFill {
  outcome: number;
  side: Side;
  /** Micros per share. */
  price: Micros;
  /** Micro-shares. */
  size: Micros;
  role: "maker" | "taker" | "unknown";
  /** Epoch ms of the fill (the fill's own time). */
  ts: number;
}

/** The values about one (wallet, market) one cycle reads. */
export interface MarketSignals {
  /** The newest own fill per (outcome, side), newest first. */
  readonly lastFills: readonly SignalFill[];
  /** Adverse selection (adverse/, `adverse.toxicity`): the state of each side with toxic fills; absent when off. */
  readonly toxicity?: readonly ToxicSideView[];
  /** Adverse selection (adverse/, `adverse.jump`): the market's jump cooling; absent when off. */
  readonly jump?: JumpView;
}

export const NO_SIGNALS: MarketSignals = Object.freeze({ lastFills: Object.freeze([]) });

/** The newest fill of `outcome`/`side` in `signals`, if any. */
export function lastFillOf(signals: MarketSignals | undefined, outcome: number, side: Side): SignalFill | undefined {
  return signals?.lastFills.find((f) => f.outcome === outcome && f.side === side);
}

interface MarketEntry {
  /** By `${outcome}:${side}`. */
  lastFills: Map<string, SignalFill>;
  view: MarketSignals | undefined;
}

export interface SignalBookOptions {
  /** The adverse-selection trackers (adverse/adverse-book.ts, from `adverse:`); absent: none. */
  adverse?: AdverseOptions | undefined;
}

export class SignalBook {
  /** Markouts, toxicity and jumps (adverse/adverse-book.ts), when `adverse:` turns any on. */
  readonly adverse: AdverseBook | undefined;

  constructor(opts: SignalBookOptions = {}) {
    this.adverse = opts.adverse === undefined ? undefined : new AdverseBook(opts.adverse);
  }

  /** By wallet, then market. */
  private readonly byWallet = new Map<string, Map<string, MarketEntry>>();

  /** A NEW own fill (the ledger added it; duplicates must not be fed again). */
  onFill(wallet: string, market: string, fill: SignalFill): void {
    this.adverse?.onFill({ wallet, market, outcome: fill.outcome, side: fill.side, price: fill.price, qty: fill.size, role: fill.role, ts: fill.ts });
    const e = this.entry(wallet, market);
    const key = `${fill.outcome}:${fill.side}`;
    const prev = e.lastFills.get(key);
    if (prev !== undefined && prev.ts > fill.ts) return;
    e.lastFills.set(key, { ...fill });
    e.view = undefined;
  }

  /** The mid of one outcome's book as read at `nowMs` (kept for the trackers that need a mid history). */
  onMid(market: string, outcome: number, midMicros: Micros, nowMs: number): void {
    this.adverse?.onMid(market, outcome, midMicros, nowMs);
  }

  /** The frozen signals of one (wallet, market) at `nowMs`. */
  view(wallet: string, market: string, nowMs: number): MarketSignals {
    const base = this.baseView(wallet, market);
    if (this.adverse === undefined) return base;
    const a = this.adverse.view(wallet, market, nowMs);
    return Object.freeze({ ...base, toxicity: a.toxicity, jump: a.jump });
  }

  private baseView(wallet: string, market: string): MarketSignals {
    const e = this.byWallet.get(wallet)?.get(market);
    if (e === undefined) return NO_SIGNALS;
    if (e.view === undefined) {
      const lastFills = sortSmall([...e.lastFills.values()], (a, b) => b.ts - a.ts);
      e.view = Object.freeze({ lastFills: Object.freeze(lastFills) });
    }
    return e.view;
  }

  /** Drop everything kept about `market` (all wallets). */
  forget(market: string): void {
    this.adverse?.forget(market);
    for (const m of this.byWallet.values()) m.delete(market);
  }

  /** Markets holding signals, of any wallet, the adverse trackers' included (a market quoted but never filled has mids there). */
  markets(): string[] {
    const out = new Set<string>(this.adverse?.markets());
    for (const m of this.byWallet.values()) for (const k of m.keys()) out.add(k);
    return [...out];
  }

  /** Markets holding signals (memory figures). */
  get size(): number {
    let n = 0;
    for (const m of this.byWallet.values()) n += m.size;
    return n;
  }

  private entry(wallet: string, market: string): MarketEntry {
    let w = this.byWallet.get(wallet);
    if (w === undefined) this.byWallet.set(wallet, (w = new Map<string, MarketEntry>()));
    let e = w.get(market);
    if (e === undefined) w.set(market, (e = { lastFills: new Map<string, SignalFill>(), view: undefined }));
    return e;
  }
}
