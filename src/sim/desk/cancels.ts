/**
 * Cancels (spec 4.6, 3.3; shapes in docs/spec-gaps.md).
 *
 * - 200 `{orderId, status: CANCELLED | FILLED, filledQty, remainingQty}`; 404 `order_not_found`
 *   (unknown, or an order of the synthetic flow); 403 `forbidden` (another wallet's order);
 *   409 `not_cancellable` (already terminal).
 * - With the `cancel_pending` fault the cancel is RECORDED and answered 202 (`Retry-After: 5`,
 *   no remainingQty); it executes `completeAfterMs` later on the clock. Until then the order can
 *   still fill. Repeating the cancel is safe: while pending it answers 202 again (no second timer),
 *   afterwards 200 with the final status, CANCELLED, or FILLED when the order filled first. It
 *   never cancels twice.
 * - cancel-batch `{orderIds}` and cancel-all `{marketId?}` answer `{cancelled, notCancelled}`;
 *   a pending id is in `notCancelled` with code `cancel_pending`, an id that filled before its
 *   pending cancel completed with code `not_cancellable`.
 * - Older nodes (faults): `cancel_unanswered` records the cancel like cancel_pending but answers a
 *   single cancel 503 with `Retry-After: 5` and `details.orderId` (batch entries carry that code);
 *   `lock_invariant` answers a batch's live ids as notCancelled entries with that code, untouched.
 * - A completed pending cancel sends `order_cancelled` carrying the final status (FILLED when it
 *   lost the race), so the stream always closes the story the 202 opened.
 */
import { cancelAllBody, cancelBatchBody, cancelBody, checkRequest, requestErrorEnvelope } from "../../wire/requests.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { UserFrame } from "../bus.js";
import type { MatchingEngine } from "../engine/index.js";
import type { Fault } from "../platform/faults.js";
import type { SimPlatform } from "../platform/platform.js";
import type { PlatformFailure } from "../platform/errors.js";
import { errorEnvelope } from "../../wire/errors.js";
import { errorAnswer, faultAnswer, faultTiming, type DeskAnswer } from "./answers.js";
import type { Caller } from "./caller.js";
import { amount } from "./format.js";
import { orderEndedFrame } from "./frames.js";
import { compareKeys } from "./cursor.js";
import { keyOf, TERMINAL, type DeskOrder, type OrderRecords } from "./records.js";

export const CANCEL_RETRY_AFTER_SEC = 5;

interface FaultMode {
  early?: DeskAnswer;
  completeAfterMs?: number;
  after?: DeskAnswer;
  /** cancel_unanswered: a pending single cancel is answered with this 503 instead of 202. */
  unanswered?: PlatformFailure;
  /** lock_invariant: live ids of a batch come back as lock_invariant entries, untouched. */
  lockInvariant?: boolean;
}

type One =
  | { kind: "done"; order: DeskOrder; status: "CANCELLED" | "FILLED" }
  | { kind: "pending"; order: DeskOrder }
  | { kind: "error"; status: number; code: string; message: string; details?: Record<string, unknown> };

function pendingBody(orderId: string): Record<string, unknown> {
  return {
    status: "cancel_pending",
    code: "cancel_pending",
    orderId,
    message: "cancel recorded, no answer yet; repeat the cancel after Retry-After",
    retryAfterSec: CANCEL_RETRY_AFTER_SEC,
  };
}

function doneBody(o: DeskOrder, status: "CANCELLED" | "FILLED"): Record<string, unknown> {
  return { orderId: o.id, status, filledQty: amount(o.filledQty), remainingQty: amount(o.remainingQty) };
}

/**
 * What cancelling works on, shared with placement: the order desk (desk.ts) holds these and
 * passes itself. The pending-cancel timers are the desk's, so its stop() clears them.
 */
export interface CancelDeskParts {
  readonly clock: Clock;
  readonly platform: SimPlatform;
  readonly engine: MatchingEngine;
  readonly records: OrderRecords;
  /** Timers of cancel_pending completions. */
  readonly cancelTimers: Set<TimerHandle>;
  /** Send a user frame to the wallet (built only when someone listens). */
  publish(wallet: string, build: () => UserFrame): void;
}

export class CancelDesk {
  constructor(private readonly desk: CancelDeskParts) {}

  private one(orderId: string, wallet: string, completeAfterMs: number | undefined): One {
    const o = this.desk.records.get(orderId);
    if (o === undefined) return { kind: "error", status: 404, code: "order_not_found", message: `order ${orderId} is unknown for this wallet` };
    if (o.wallet !== wallet) return { kind: "error", status: 403, code: "forbidden", message: `order ${orderId} belongs to another wallet` };
    if (o.cancel?.state === "pending") return { kind: "pending", order: o };
    if (o.cancel?.state === "done" && (o.status === "CANCELLED" || o.status === "FILLED")) return { kind: "done", order: o, status: o.status };
    if (TERMINAL.has(o.status)) {
      return { kind: "error", status: 409, code: "not_cancellable", message: `order ${orderId} is already ${o.status}`, details: { status: o.status } };
    }
    const now = this.desk.clock.now();
    if (completeAfterMs !== undefined) {
      o.cancel = { state: "pending", requestedAtMs: now, completeAtMs: now + completeAfterMs };
      const timer = this.desk.clock.setTimeout(() => {
        this.desk.cancelTimers.delete(timer);
        this.complete(o);
      }, completeAfterMs);
      this.desk.cancelTimers.add(timer);
      return { kind: "pending", order: o };
    }
    const r = this.desk.engine.cancel(o.id, wallet);
    if (!r.ok) return { kind: "error", status: 409, code: "not_cancellable", message: `order ${orderId} is no longer live`, details: { status: o.status } };
    return { kind: "done", order: o, status: "CANCELLED" };
  }

  /** Execute a recorded cancel. */
  private complete(o: DeskOrder): void {
    if (o.cancel === undefined || o.cancel.state !== "pending") return;
    o.cancel.state = "done";
    if (this.desk.engine.isLive(o.id)) {
      this.desk.engine.cancel(o.id, o.wallet);
      return;
    }
    // It ended while the cancel waited; a FILLED order still closes the cancel on the stream.
    if (o.status === "FILLED") this.desk.publish(o.wallet, () => orderEndedFrame("order_cancelled", o, this.desk.clock.now(), "FILLED", 0n));
  }

  private faultMode(fault: Fault | undefined): FaultMode {
    const timing = faultTiming(fault, false);
    if (timing === "before") return { early: faultAnswer(fault!)! };
    if (timing === "after") return { after: faultAnswer(fault!)! };
    if (timing === "cancel_pending" && fault?.kind === "cancel_pending") return { completeAfterMs: fault.completeAfterMs };
    if (timing === "cancel_pending" && fault?.kind === "cancel_unanswered") {
      return { completeAfterMs: fault.completeAfterMs, unanswered: fault.http };
    }
    if (fault?.kind === "lock_invariant") return { lockInvariant: true };
    return {};
  }

  cancel(raw: unknown, caller: Caller, fault?: Fault): DeskAnswer {
    const parsed = checkRequest(cancelBody, raw);
    if (!parsed.ok) return { status: 400, body: requestErrorEnvelope(parsed) };
    const mode = this.faultMode(fault);
    if (mode.early) return mode.early;
    const r = this.one(parsed.value.orderId, caller.wallet, mode.completeAfterMs);
    if (mode.after) return mode.after;
    switch (r.kind) {
      case "error":
        return errorAnswer(r.status, r.code, r.message, r.details);
      case "pending":
        if (mode.unanswered) {
          // Older exchange nodes: the same condition as 503 cancel_unanswered, the id in details.
          const f = mode.unanswered;
          const retryAfterSec = f.retryAfterSec ?? CANCEL_RETRY_AFTER_SEC;
          return {
            status: f.status,
            body: errorEnvelope(f.status, f.code, f.message, { details: { orderId: r.order.id }, retryAfterSec }),
            headers: { "Retry-After": String(retryAfterSec) },
          };
        }
        return { status: 202, body: pendingBody(r.order.id), headers: { "Retry-After": String(CANCEL_RETRY_AFTER_SEC) } };
      case "done":
        return { status: 200, body: doneBody(r.order, r.status) };
    }
  }

  private many(ids: readonly string[], caller: Caller, mode: FaultMode): Record<string, unknown> {
    const cancelled: string[] = [];
    const notCancelled: { orderId: string; code: string; message: string }[] = [];
    const pendingCode = mode.unanswered ? "cancel_unanswered" : "cancel_pending";
    for (const id of ids) {
      if (mode.lockInvariant && this.lockInvariantApplies(id, caller.wallet)) {
        // Older exchange nodes: the lock could not be taken; nothing was done for this id.
        notCancelled.push({ orderId: id, code: "lock_invariant", message: "lock invariant not met on the exchange node; repeat the cancel for this id" });
        continue;
      }
      const r = this.one(id, caller.wallet, mode.completeAfterMs);
      if (r.kind === "error") notCancelled.push({ orderId: id, code: r.code, message: r.message });
      else if (r.kind === "pending") notCancelled.push({ orderId: id, code: pendingCode, message: "cancel recorded, no answer yet; repeat it for this id" });
      else if (r.status === "CANCELLED") cancelled.push(id);
      else notCancelled.push({ orderId: id, code: "not_cancellable", message: "the order filled before the cancel completed" });
    }
    return { cancelled, notCancelled };
  }

  /** A live order of this wallet with no cancel recorded: the ids a lock_invariant entry stands for. */
  private lockInvariantApplies(orderId: string, wallet: string): boolean {
    const o = this.desk.records.get(orderId);
    return o !== undefined && o.wallet === wallet && o.cancel === undefined && !TERMINAL.has(o.status);
  }

  cancelBatch(raw: unknown, caller: Caller, fault?: Fault): DeskAnswer {
    const parsed = checkRequest(cancelBatchBody, raw);
    if (!parsed.ok) return { status: 400, body: requestErrorEnvelope(parsed) };
    const mode = this.faultMode(fault);
    if (mode.early) return mode.early;
    const body = this.many([...new Set(parsed.value.orderIds)], caller, mode);
    return mode.after ?? { status: 200, body };
  }

  cancelAll(raw: unknown, caller: Caller, fault?: Fault): DeskAnswer {
    const parsed = checkRequest(cancelAllBody, raw ?? {});
    if (!parsed.ok) return { status: 400, body: requestErrorEnvelope(parsed) };
    const marketId = parsed.value.marketId;
    if (marketId !== undefined && this.desk.platform.catalogue.marketBySymbol(marketId, true) === undefined) {
      return errorAnswer(404, "market_not_found", `unknown market ${marketId}`, { marketId });
    }
    const mode = this.faultMode(fault);
    if (mode.early) return mode.early;
    const live = this.desk.records.liveOf(caller.wallet).filter((o) => marketId === undefined || o.marketId === marketId);
    live.sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
    const body = this.many(live.map((o) => o.id), caller, mode);
    return mode.after ?? { status: 200, body };
  }
}
