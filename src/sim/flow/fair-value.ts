/**
 * The latent fair value of one market: what the synthetic traders believe each outcome is worth.
 *
 * A random walk on the simulator clock: between two looks `dt` apart the value moves by a normal
 * step with standard deviation `volPerSqrtMin * sqrt(dt in minutes)` and, with probability
 * `1 - exp(-jumpProbPerMin * dt)`, by a jump of random sign and exponential size with mean
 * `jumpSize`. It is advanced lazily (whenever a trader looks), which has exactly the same law as
 * stepping it on a fixed grid, and every look draws the same number of variates, so the path
 * depends only on the seed and the times of the looks.
 *
 * Binary markets walk the YES value (NO is 1 - YES). Multi-outcome markets walk each outcome and
 * renormalise so the values sum to 1. Values are kept as micros (bigint) and stay inside
 * [MIN, 1 - MIN] so that synthetic quotes around them stay on the price grid.
 */
import type { Rng } from "../../core/rng.js";
import { SCALE, type Micros } from "../../core/money.js";

export interface WalkParams {
  volPerSqrtMin: number;
  jumpProbPerMin: number;
  jumpSize: number;
}

/** Bounds of a fair value (micros): 0.02 .. 0.98. */
export const FAIR_MIN: Micros = 20_000n;
export const FAIR_MAX: Micros = SCALE - FAIR_MIN;

function clamp(v: Micros, lo: Micros, hi: Micros): Micros {
  return v < lo ? lo : v > hi ? hi : v;
}

function toMicros(x: number): Micros {
  return BigInt(Math.round(x * 1e6));
}

export class FairValue {
  private values: Micros[];
  private lastMs: number;

  constructor(
    initial: readonly Micros[],
    private readonly params: WalkParams,
    private readonly rng: Rng,
    startMs: number,
  ) {
    if (initial.length < 2) throw new Error("a fair value needs at least two outcomes");
    this.values = initial.length === 2 ? binary(initial[0]!) : normalise(initial.map((v) => clamp(v, FAIR_MIN, FAIR_MAX)));
    this.lastMs = startMs;
  }

  get outcomeCount(): number {
    return this.values.length;
  }

  /** Values per outcome at the last look (micros). */
  current(): Micros[] {
    return [...this.values];
  }

  value(outcome: number): Micros {
    const v = this.values[outcome];
    if (v === undefined) throw new RangeError(`outcome ${outcome} out of range`);
    return v;
  }

  /** Move the walk to `nowMs` (no-op when time has not advanced). */
  advanceTo(nowMs: number): void {
    const dt = nowMs - this.lastMs;
    if (dt <= 0) return;
    this.lastMs = nowMs;
    const dtMin = dt / 60_000;
    const sd = this.params.volPerSqrtMin * Math.sqrt(dtMin);
    const jumpP = 1 - Math.exp(-this.params.jumpProbPerMin * dtMin);
    if (this.values.length === 2) {
      const step = this.draw(sd, jumpP);
      this.values = binary(this.values[0]! + toMicros(step));
      return;
    }
    const moved = this.values.map((v) => clamp(v + toMicros(this.draw(sd, jumpP)), FAIR_MIN, FAIR_MAX));
    this.values = normalise(moved);
  }

  /** One step; the same draws every time, whether or not a jump happens. */
  private draw(sd: number, jumpP: number): number {
    const diffusion = this.rng.normal(0, 1) * sd;
    const u = this.rng.float();
    const size = this.rng.exponential(1) * this.params.jumpSize;
    const sign = this.rng.float() < 0.5 ? -1 : 1;
    return diffusion + (u < jumpP ? sign * size : 0);
  }

  /**
   * Move one outcome by `delta` (probability units, news): binary markets move YES (NO is its
   * complement, so +delta on NO is -delta on YES); multi-outcome markets renormalise.
   */
  shift(outcome: number, delta: number): void {
    const d = toMicros(delta);
    if (this.values.length === 2) {
      this.values = binary(this.values[0]! + (outcome === 0 ? d : -d));
      return;
    }
    const moved = this.values.map((v, i) => (i === outcome ? clamp(v + d, FAIR_MIN, FAIR_MAX) : v));
    this.values = normalise(moved);
  }

  /** Set the values (tests, operator moves). */
  set(values: readonly Micros[]): void {
    if (values.length !== this.values.length) throw new Error(`need ${this.values.length} values`);
    this.values = values.length === 2 ? binary(values[0]!) : normalise(values.map((v) => clamp(v, FAIR_MIN, FAIR_MAX)));
  }
}

function binary(yes: Micros): Micros[] {
  const y = clamp(yes, FAIR_MIN, FAIR_MAX);
  return [y, SCALE - y];
}

/** Scale to sum 1 (the rounding remainder goes to the largest); a value pushed below half the floor is lifted back to it. */
function normalise(values: readonly Micros[]): Micros[] {
  let sum = 0n;
  for (const v of values) sum += v;
  const out = values.map((v) => (v * SCALE) / sum);
  let total = 0n;
  for (const v of out) total += v;
  let big = 0;
  out.forEach((v, i) => {
    if (v > out[big]!) big = i;
  });
  out[big] = out[big]! + (SCALE - total);
  return out.map((v) => clamp(v, FAIR_MIN / 2n, FAIR_MAX));
}
