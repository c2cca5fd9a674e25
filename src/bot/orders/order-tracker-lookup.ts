/**
 * When a lookup that did not find an order may conclude "never recorded" (see the header of
 * order-states.ts): only when sent `notRecordedAfterMs` after the order's last send. The platform
 * re-sends a place itself for up to ~6 s (shard_owner_unavailable) and a request under the same
 * clientOrderId may still be in flight (idempotency_race), so an earlier 404 proves nothing: the
 * order stays unknown (its slot held) and is looked up again, never later than the time a 404
 * becomes conclusive.
 */
import type { OrderRef, TrackerCounters, Transition } from "./order-tracker-types.js";
import type { Rec } from "./order-tracker-step.js";

export interface LookupTiming {
  notRecordedAfterMs: number;
  lookupRetryMs: number;
}

/**
 * The answer to a 404 too soon to conclude anything (the record is set to be looked up again), or
 * undefined when the 404 may end the order: no `nowMs` (the caller vouches), an order that is not
 * unknown (the table decides), or late enough.
 */
export function notFoundTooSoon(
  r: Rec,
  ev: OrderRef & { nowMs?: number },
  timing: LookupTiming,
  counters: Pick<TrackerCounters, "notFoundTooSoon">,
): Transition | undefined {
  if (ev.nowMs === undefined || r.state !== "unknown") return undefined;
  const conclusiveAt = r.lastSentAtMs + timing.notRecordedAfterMs;
  if (ev.nowMs >= conclusiveAt) return undefined;
  r.needsRead = "unknown";
  r.nextReadAtMs = Math.min(ev.nowMs + timing.lookupRetryMs, conclusiveAt);
  counters.notFoundTooSoon++;
  const t: Transition = { event: "lookup_not_found", outcome: "same", clientOrderId: r.clientOrderId, from: r.state, to: r.state };
  if (r.orderId !== undefined) t.orderId = r.orderId;
  t.message = `not found ${ev.nowMs - r.lastSentAtMs} ms after the send: looked up again at ${r.nextReadAtMs}`;
  return t;
}
