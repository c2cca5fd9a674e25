/**
 * Pure halt evaluators: one observation (plus whether the halt is already active) in, a verdict
 * out. They read no clock and keep no state; the facade (risk.ts) applies the verdicts to the
 * HaltBook. Each function's doc states its raise condition; the clear condition is the one in
 * CLEAR_RULES (halts.ts).
 */
import type { BreakerState } from "../../api/breaker.js";
import { formatFixed, type Micros } from "../../core/money.js";
import type { MarketDataObs, ReconciliationObs, StreamObs } from "./types.js";

/** raise: the condition holds (a no-op when already raised); clear: it is over; hold: no change. */
export type Verdict = { action: "raise"; detail: string } | { action: "clear" } | { action: "hold" };

const HOLD: Verdict = { action: "hold" };
const CLEAR: Verdict = { action: "clear" };

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** circuit_open: raised while the breaker is open or half-open (a probe may still fail). */
export function breakerVerdict(state: BreakerState): Verdict {
  return state === "closed" ? CLEAR : { action: "raise", detail: `circuit breaker ${state}` };
}

/** stale_market_data: raised when the last book update is older than staleMs (or never came). */
export function staleDataVerdict(obs: MarketDataObs, nowMs: number, staleMs: number): Verdict {
  if (obs.lastUpdateMs === undefined) return { action: "raise", detail: "no market data yet" };
  const age = nowMs - obs.lastUpdateMs;
  return age > staleMs ? { action: "raise", detail: `market data ${seconds(age)} old (limit ${seconds(staleMs)})` } : CLEAR;
}

/**
 * stream_down: raised when the stream has been down for downMs or more. Clears only once it is
 * subscribed again AND a reconciliation completed at or after that subscription: frames lost
 * while down are only recovered by reading the platform.
 */
export function streamVerdict(obs: StreamObs, nowMs: number, downMs: number, active: boolean): Verdict {
  if (!obs.connected) {
    if (obs.downSinceMs === undefined) return HOLD;
    const down = nowMs - obs.downSinceMs;
    return down >= downMs ? { action: "raise", detail: `user stream down for ${seconds(down)}` } : HOLD;
  }
  if (!active) return HOLD;
  const { connectedSinceMs, reconciledAtMs } = obs;
  if (connectedSinceMs !== undefined && reconciledAtMs !== undefined && reconciledAtMs >= connectedSinceMs) return CLEAR;
  return HOLD;
}

/** reconciliation_drift: raised when one reconciliation finds more drifted records than tolerated. */
export function driftVerdict(obs: ReconciliationObs, tolerance: number): Verdict {
  if (obs.drifted > tolerance) {
    return { action: "raise", detail: `${obs.drifted} drifted record(s) at reconciliation (tolerance ${tolerance})` };
  }
  return CLEAR;
}

export interface RejectWindowView {
  /** Times of unexplained rejects, any order (those older than the window may be pruned). */
  times: readonly number[];
  /** The latest unexplained reject ever seen, kept when `times` is pruned. */
  last?: number | undefined;
}

/**
 * reject_storm: raised when more than maxPerWindow unexplained rejects fall within the last
 * windowMs. Clears after quietMs without any unexplained reject, whatever the window still holds
 * (the facade then forgets those rejects: a storm is judged on rejects after it).
 */
export function rejectStormVerdict(
  view: RejectWindowView,
  nowMs: number,
  opts: { maxPerWindow: number; windowMs: number; quietMs: number },
  active: boolean,
): Verdict {
  let inWindow = 0;
  let last = view.last;
  for (const t of view.times) {
    if (t > nowMs - opts.windowMs && t <= nowMs) inWindow += 1;
    if (last === undefined || t > last) last = t;
  }
  if (active) return last === undefined || nowMs - last >= opts.quietMs ? CLEAR : HOLD;
  if (inWindow > opts.maxPerWindow) {
    return {
      action: "raise",
      detail: `${inWindow} unexplained rejects in ${seconds(opts.windowMs)} (limit ${opts.maxPerWindow})`,
    };
  }
  return HOLD;
}

/**
 * daily_loss: raised when the day's loss reaches limit + acknowledged (what an operator resume
 * accepted). Never clears by itself.
 */
export function dailyLossVerdict(pnl: Micros, limit: Micros, acknowledged: Micros): Verdict {
  const loss = -pnl;
  if (loss >= limit + acknowledged) {
    const ack = acknowledged > 0n ? ` beyond ${formatFixed(acknowledged)} acknowledged` : "";
    return { action: "raise", detail: `daily loss ${formatFixed(loss)}${ack} reached limit ${formatFixed(limit)}` };
  }
  return HOLD;
}
