/**
 * What the synthetic traders of one market know about it: the engine book, its lifecycle status,
 * and two fair values.
 *
 * - The TRUE fair value: the latent walk (fair-value.ts) with every news jump in it. Informed
 *   takers trade on it, and it is what the simulator reports as the hidden fair value.
 * - The PUBLIC fair value: the same walk without the news jumps that have not become public yet
 *   (each jump stays hidden for the news `headStartMs`). The resting liquidity, the other makers
 *   and the fair-anchored takers price off it, so during a head start the book is stale and only
 *   informed flow knows by how much. With no news pending both values are the walk itself.
 */
import type { Clock } from "../../core/clock.js";
import { SCALE, type Micros } from "../../core/money.js";
import type { MatchingEngine } from "../engine/index.js";
import type { LifecycleStatus } from "../platform/lifecycle.js";
import { FAIR_MAX, FAIR_MIN, type FairValue } from "./fair-value.js";

export interface FlowMarketOptions {
  clock: Clock;
  engine: MatchingEngine;
  /** Engine market id (the symbol). */
  marketId: string;
  outcomeCount: number;
  fair: FairValue;
  /** The market's lifecycle status now. */
  status: () => LifecycleStatus;
}

/** Best prices of one outcome's book, in that outcome's own token. */
export interface Touch {
  bid: Micros | null;
  ask: Micros | null;
}

interface Hidden {
  revealMs: number;
  /** Change of each outcome's value the public has not seen yet. */
  change: Micros[];
}

export class FlowMarket {
  readonly clock: Clock;
  readonly engine: MatchingEngine;
  readonly marketId: string;
  readonly outcomeCount: number;
  readonly binary: boolean;
  /** The books liquidity is posted on: YES only on a binary market (NO is its complement), every outcome otherwise. */
  readonly books: readonly number[];
  readonly fair: FairValue;
  private readonly statusOf: () => LifecycleStatus;
  private hidden: Hidden[] = [];

  constructor(o: FlowMarketOptions) {
    this.clock = o.clock;
    this.engine = o.engine;
    this.marketId = o.marketId;
    this.outcomeCount = o.outcomeCount;
    this.binary = o.outcomeCount === 2;
    this.books = this.binary ? [0] : Array.from({ length: o.outcomeCount }, (_, i) => i);
    this.fair = o.fair;
    this.statusOf = o.status;
  }

  status(): LifecycleStatus {
    return this.statusOf();
  }

  settled(): boolean {
    const s = this.statusOf();
    return s === "RESOLVED" || s === "VOIDED";
  }

  /** Bring the walk to now (every trader looks before it acts). */
  look(): void {
    this.fair.advanceTo(this.clock.now());
  }

  trueValue(outcome: number): Micros {
    return this.fair.value(outcome);
  }

  publicValue(outcome: number): Micros {
    if (this.hidden.length === 0) return this.fair.value(outcome);
    const now = this.clock.now();
    this.hidden = this.hidden.filter((h) => h.revealMs > now);
    if (this.hidden.length === 0) return this.fair.value(outcome);
    const book = this.binary ? 0 : outcome;
    let v = this.fair.value(book);
    for (const h of this.hidden) v -= h.change[book]!;
    if (this.binary) {
      v = v < FAIR_MIN ? FAIR_MIN : v > FAIR_MAX ? FAIR_MAX : v;
      return outcome === 0 ? v : SCALE - v;
    }
    return v < FAIR_MIN / 2n ? FAIR_MIN / 2n : v > FAIR_MAX ? FAIR_MAX : v;
  }

  /** Keep a change of the true values out of the public ones until `revealMs`. */
  hide(change: readonly Micros[], revealMs: number): void {
    if (revealMs <= this.clock.now()) return;
    this.hidden.push({ revealMs, change: [...change] });
  }

  /** News still hidden from the public now. */
  hiddenCount(): number {
    const now = this.clock.now();
    return this.hidden.filter((h) => h.revealMs > now).length;
  }

  touch(outcome: number): Touch {
    const b = this.engine.book(this.marketId, outcome, 1);
    return { bid: b.bestBid, ask: b.bestAsk };
  }
}
