/**
 * News: jumps of a market's fair value at Poisson times (`news.ratePerMin`) while the market
 * trades (OPEN or PRE_MARKET), which informed flow learns of first.
 *
 * At a jump the TRUE fair value moves at once (a random outcome, a random sign, a size from
 * `news.size`), while the PUBLIC fair value, which the resting liquidity and the other makers
 * price off, keeps the old value for `news.headStartMs` (FlowMarket.hide). The agent is told of
 * each jump twice: when it happens (informed flow reacts) and when it becomes public (the
 * resting liquidity and the makers reprice at that instant). Every jump draws the same number of
 * variates, so the jump times and sizes replay exactly for a seed.
 */
import type { TimerHandle } from "../../core/clock.js";
import type { Micros } from "../../core/money.js";
import type { Rng } from "../../core/rng.js";
import type { NewsParams } from "../platform/scenario.js";
import type { FlowMarket } from "./market.js";

export interface NewsJump {
  atMs: number;
  /** When the makers' book reprices to it. */
  revealMs: number;
  /** The outcome the news is about (binary markets: 0 = YES, 1 = NO). */
  outcome: number;
  /** Drawn size with its sign, probability units (the change applied can be smaller at the bounds). */
  size: number;
  /** Change of each outcome's true fair value (micros). */
  change: Micros[];
}

export interface NewsListener {
  onJump(jump: NewsJump): void;
  onReveal(jump: NewsJump): void;
}

/** One jump size: always three draws (size, sign, outcome) whatever the distribution. */
export function drawJump(rng: Rng, size: NewsParams["size"], outcomeCount: number): { outcome: number; size: number } {
  const u = rng.float();
  const e = rng.exponential(1);
  const up = rng.float() < 0.5;
  const outcome = rng.int(outcomeCount);
  let s: number;
  switch (size.dist) {
    case "fixed":
      s = size.mean;
      break;
    case "uniform":
      s = size.min + u * (size.max - size.min);
      break;
    case "exponential":
      s = Math.min(size.max, Math.max(size.min, e * size.mean));
      break;
  }
  return { outcome, size: up ? s : -s };
}

export class NewsFeed {
  /** Every jump so far, oldest first. */
  readonly jumps: NewsJump[] = [];
  private timer: TimerHandle | undefined;
  private readonly reveals = new Set<TimerHandle>();

  constructor(
    private readonly m: FlowMarket,
    private readonly params: NewsParams,
    private readonly rng: Rng,
    private readonly listener: NewsListener,
  ) {}

  get enabled(): boolean {
    return this.params.ratePerMin > 0;
  }

  start(): void {
    this.stop();
    if (this.enabled) this.schedule();
  }

  stop(): void {
    this.m.clock.clearTimeout(this.timer);
    this.timer = undefined;
    for (const t of this.reveals) this.m.clock.clearTimeout(t);
    this.reveals.clear();
  }

  private schedule(): void {
    const gapMs = Math.max(1, Math.round(this.rng.exponential(this.params.ratePerMin) * 60_000));
    this.timer = this.m.clock.setTimeout(() => {
      this.timer = undefined;
      if (this.m.settled()) return;
      const s = this.m.status();
      // News moves the value only while the market trades (OPEN, PRE_MARKET): after the close the
      // simulator does not model the outcome, and a value drifting on would only distort the
      // report's hidden fair value. The draws are made either way so the stream stays aligned.
      if (s === "OPEN" || s === "PRE_MARKET") this.jump();
      else drawJump(this.rng, this.params.size, this.m.outcomeCount);
      this.schedule();
    }, gapMs);
  }

  /** One jump now (the timer's, or a test's). */
  jump(): NewsJump {
    const m = this.m;
    m.look();
    const drawn = drawJump(this.rng, this.params.size, m.outcomeCount);
    const before = m.fair.current();
    m.fair.shift(drawn.outcome, drawn.size);
    const after = m.fair.current();
    const now = m.clock.now();
    const jump: NewsJump = {
      atMs: now,
      revealMs: now + this.params.headStartMs,
      outcome: drawn.outcome,
      size: drawn.size,
      change: after.map((v, i) => v - before[i]!),
    };
    this.jumps.push(jump);
    m.hide(jump.change, jump.revealMs);
    this.listener.onJump(jump);
    if (jump.revealMs > now) {
      const t = m.clock.setTimeout(() => {
        this.reveals.delete(t);
        this.listener.onReveal(jump);
      }, this.params.headStartMs);
      this.reveals.add(t);
    } else this.listener.onReveal(jump);
    return jump;
  }
}
