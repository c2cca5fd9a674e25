/**
 * Reconnect waits: exponential growth capped at `maxMs`, randomised from the injected Rng so that
 * many clients dropped by the same outage do not reconnect in lockstep, and a seeded run waits
 * the same every time.
 */
import type { Rng } from "../core/rng.js";

export type JitterMode = "full" | "equal" | "none";

export interface BackoffOptions {
  /** Cap of the first wait. Default 500 ms. */
  initialMs: number;
  /** Largest cap. Default 30 s. */
  maxMs: number;
  /** Growth of the cap per consecutive failure. Default 2. */
  factor: number;
  /**
   * `full`: wait uniform in [0, cap) (AWS "full jitter": the best spread for a crowd);
   * `equal`: uniform in [cap/2, cap); `none`: exactly the cap. Default full.
   */
  jitter: JitterMode;
  /**
   * A connection that delivered frames for at least this long after its subscription was
   * confirmed counts as stable: when it ends, the next wait starts again from `initialMs`.
   * Without it a stream that flaps every few seconds would reconnect at the smallest wait forever.
   * Default 30 s (two server pings).
   */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialMs: 500,
  maxMs: 30_000,
  factor: 2,
  jitter: "full",
  resetAfterMs: 30_000,
};

export interface ReconnectDelay {
  /** What to wait, whole milliseconds. */
  delayMs: number;
  /** The upper bound the wait was drawn under (grows with `level` up to maxMs). */
  capMs: number;
}

/** Wait before the `level`-th consecutive reconnect (1-based). Draws one float from `rng` unless jitter is none. */
export function reconnectDelay(level: number, opts: BackoffOptions, rng: Rng): ReconnectDelay {
  const capMs = Math.min(opts.maxMs, opts.initialMs * opts.factor ** Math.max(0, level - 1));
  switch (opts.jitter) {
    case "none":
      return { delayMs: Math.round(capMs), capMs };
    case "equal":
      return { delayMs: Math.round(capMs / 2 + (rng.float() * capMs) / 2), capMs };
    case "full":
      return { delayMs: Math.round(rng.float() * capMs), capMs };
  }
}

export function validateBackoff(o: BackoffOptions): void {
  const bad = (field: string, why: string): never => {
    throw new RangeError(`backoff.${field}: ${why}`);
  };
  if (!(Number.isFinite(o.initialMs) && o.initialMs >= 0)) bad("initialMs", "expected a finite number >= 0");
  if (!(Number.isFinite(o.maxMs) && o.maxMs >= o.initialMs)) bad("maxMs", "expected a finite number >= initialMs");
  if (!(Number.isFinite(o.factor) && o.factor >= 1)) bad("factor", "expected a finite number >= 1");
  if (!["full", "equal", "none"].includes(o.jitter)) bad("jitter", 'expected "full", "equal" or "none"');
  if (!(Number.isFinite(o.resetAfterMs) && o.resetAfterMs >= 0)) bad("resetAfterMs", "expected a finite number >= 0");
}
