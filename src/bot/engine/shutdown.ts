/**
 * Shutdown of one wallet (issue item 1): quoting has already stopped; now cancel everything and
 * make sure of it before the deadline.
 *
 *   1. cancel-all once (never repeated, spec 4.6); with the "leave" foreign-order policy a
 *      cancel-batch of our own orders instead, so other systems' orders survive;
 *   2. repeat, until nothing is open or the deadline passes:
 *        look up every order whose placement outcome is still unknown,
 *        walk the open orders (ours only under "leave"),
 *        cancel what is listed plus every pending cancel, with `cancelUntilFinal` (a single cancel
 *        or a cancel-batch of exactly the pending ids after each Retry-After);
 *   3. report what is left: ids still open at the last walk, cancels still pending, and orders
 *      whose outcome never became known. Anything left makes the process exit non-zero.
 */
import type { WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { CancelOutcome, OrderTracker, TrackerEvent, Transition } from "../order-tracker.js";
import { isTerminal } from "../order-tracker.js";
import { isOwnClientOrderId } from "./ids.js";

export type ForeignOrderPolicy = "cancel" | "leave";

export interface ShutdownContext {
  wallet: string;
  name: string;
  api: WalletClient;
  tracker: OrderTracker;
  clock: Clock;
  log: Logger;
  instanceId: string;
  foreignOrders: ForeignOrderPolicy;
  /**
   * Under "leave": which listed orders are ours to end (default: this instance's prefix). Narrowed
   * to this process's own orders once another daemon runs with our id (instance-fence.ts).
   */
  owns?: ((clientOrderId: string | null) => boolean) | undefined;
  /** Absolute local time after which no new round starts. */
  deadlineAtMs: number;
  track(ev: TrackerEvent): Transition;
}

export interface WalletShutdownReport {
  wallet: string;
  name: string;
  /** Orders the platform confirmed cancelled (or filled) during shutdown. */
  cancelled: number;
  /** Order ids still open (or with a cancel still pending) at the end. */
  leftover: string[];
  /** clientOrderIds whose placement outcome stayed unknown. */
  unresolved: string[];
  rounds: number;
  errors: string[];
}

const ROUND_PAUSE_MS = 1_000;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export async function shutdownWallet(ctx: ShutdownContext): Promise<WalletShutdownReport> {
  const report: WalletShutdownReport = { wallet: ctx.wallet, name: ctx.name, cancelled: 0, leftover: [], unresolved: [], rounds: 0, errors: [] };
  const pending = new Set<string>();
  // The tracker only takes a cancel's answer after the cancel itself (open -> cancel_requested).
  const markFinal = (orderId: string, result: CancelOutcome): void => {
    const o = ctx.tracker.getByOrderId(orderId);
    if (o === undefined) return;
    const nowMs = ctx.clock.now();
    if (o.state === "open" || o.state === "partial") ctx.track({ kind: "cancel_requested", clientOrderId: o.clientOrderId, orderId, nowMs });
    ctx.track({ kind: "cancel_result", clientOrderId: o.clientOrderId, orderId, result, nowMs });
  };
  // A pending cancel is repeated only after its Retry-After (spec 4.6).
  let repeatAtMs = 0;

  // 1. one cancel-all (or our own ids under "leave").
  if (ctx.foreignOrders === "cancel") {
    try {
      const r = await ctx.api.orders.cancelAll();
      if (r.status === "answered") {
        for (const id of r.cancelled) markFinal(id, { kind: "done", status: "CANCELLED" });
        report.cancelled += r.cancelled.length;
        for (const p of r.pending) pending.add(p.orderId);
        if (r.pending.length > 0) repeatAtMs = ctx.clock.now() + (r.retryAfterSec ?? 5) * 1000;
      } else if (r.status === "rejected") report.errors.push(`cancel-all: ${r.code}`);
      else report.errors.push(`cancel-all: ${r.lastError.code}`);
    } catch (e) {
      report.errors.push(`cancel-all: ${message(e)}`);
    }
  } else {
    for (const o of ctx.tracker.all()) if (!isTerminal(o.state) && o.orderId !== undefined) pending.add(o.orderId);
  }

  // 2. rounds until nothing is left or time is up.
  let lastOpen: string[] = [];
  for (;;) {
    report.rounds += 1;
    const unresolved = await resolveUnknown(ctx, pending, report);
    try {
      lastOpen = await openIds(ctx);
    } catch (e) {
      report.errors.push(`open walk: ${message(e)}`);
    }
    for (const id of lastOpen) pending.add(id);
    const remaining = ctx.deadlineAtMs - ctx.clock.now();
    if (pending.size === 0 && unresolved.length === 0) break;
    if (remaining <= 0) break;
    if (pending.size > 0) {
      const wait = Math.min(repeatAtMs - ctx.clock.now(), remaining);
      if (wait > 0) await ctx.clock.sleep(wait);
      if (ctx.clock.now() >= ctx.deadlineAtMs) break;
      try {
        const r = await ctx.api.orders.cancelUntilFinal([...pending], { deadlineMs: ctx.deadlineAtMs - ctx.clock.now() });
        pending.clear();
        for (const f of r.final) {
          if (f.status !== undefined) {
            report.cancelled += 1;
            markFinal(f.orderId, { kind: "done", status: f.status });
          } else if (f.code === "not_cancellable") markFinal(f.orderId, { kind: "not_cancellable" });
          else if (f.code === "order_not_found") markFinal(f.orderId, { kind: "not_found" });
        }
        for (const id of r.pending) pending.add(id);
      } catch (e) {
        report.errors.push(`cancel: ${message(e)}`);
      }
    }
    // Either a verification walk right away (the cancels answered) or a pause before retrying.
    if (pending.size > 0 || unresolved.length > 0) {
      if (ctx.clock.now() + ROUND_PAUSE_MS > ctx.deadlineAtMs) {
        try {
          lastOpen = await openIds(ctx);
        } catch (e) {
          report.errors.push(`open walk: ${message(e)}`);
        }
        break;
      }
      await ctx.clock.sleep(ROUND_PAUSE_MS);
    }
  }
  report.leftover = [...new Set([...lastOpen, ...pending])];
  report.unresolved = ctx.tracker
    .all()
    .filter((o) => o.state === "unknown" || o.state === "sent")
    .map((o) => o.clientOrderId);
  return report;
}

/** Ids open on the platform now (ours only under the "leave" policy). */
async function openIds(ctx: ShutdownContext): Promise<string[]> {
  const out: string[] = [];
  for await (const rec of ctx.api.orders.open({ limit: 500 })) {
    if (ctx.foreignOrders === "leave" && !(ctx.owns?.(rec.clientOrderId) ?? isOwnClientOrderId(rec.clientOrderId, ctx.instanceId))) continue;
    out.push(rec.id);
  }
  return out;
}

/**
 * Look up orders still sent/unknown; resting ones join `pending`. Returns those still unresolved.
 * A 404 ends an unknown order only once the tracker allows it (10 s after its last send: the
 * platform may still record it); until then the order stays unresolved and the rounds go on. When
 * no later round fits before the deadline, the 404 concludes regardless (the last word we get).
 */
async function resolveUnknown(ctx: ShutdownContext, pending: Set<string>, report: WalletShutdownReport): Promise<string[]> {
  const left: string[] = [];
  for (const o of ctx.tracker.all()) {
    if (o.state !== "unknown" && o.state !== "sent") continue;
    const at = ctx.clock.now();
    const lastChance = at + ROUND_PAUSE_MS > ctx.deadlineAtMs;
    // Waiting after an early 404: not asked again before the tracker's retry time.
    if (!lastChance && o.nextReadAtMs !== undefined && at < o.nextReadAtMs && o.state === "unknown") {
      left.push(o.clientOrderId);
      continue;
    }
    try {
      const r = await ctx.api.orders.lookup({ clientOrderId: o.clientOrderId });
      if (r.data === null) {
        const t = ctx.track(lastChance ? { kind: "lookup_not_found", clientOrderId: o.clientOrderId } : { kind: "lookup_not_found", clientOrderId: o.clientOrderId, nowMs: at });
        if (t.to === "unknown" || t.to === "sent") left.push(o.clientOrderId);
        else if (t.to === "rejected") ctx.log.info({ clientOrderId: o.clientOrderId, orderId: null, early: lastChance }, "lookup: never recorded");
        continue;
      }
      ctx.track({ kind: "read", record: r.data, serverTimeMs: r.meta.serverTime ?? ctx.clock.now() });
      if (r.data.status === "OPEN" || r.data.status === "PARTIAL" || r.data.status === "PENDING") pending.add(r.data.id);
    } catch (e) {
      report.errors.push(`lookup ${o.clientOrderId}: ${message(e)}`);
      left.push(o.clientOrderId);
    }
  }
  return left;
}

/** Exit status of a shutdown: 0 when every wallet ended clean. */
export function shutdownExitCode(reports: readonly WalletShutdownReport[]): number {
  return reports.every((r) => r.leftover.length === 0 && r.unresolved.length === 0) ? 0 : 1;
}
