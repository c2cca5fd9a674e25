/**
 * Shutdown of one wallet: quoting has already stopped; now end every order and make sure of it
 * before the deadline. The report (shutdown-report.ts) never says more than the platform confirmed.
 *
 * The orders to end are the union of
 *   - what the tracker knows: every order not terminal (resting, being cancelled, outcome unknown),
 *   - the cancel-all answer (sent once, never repeated: spec 4.6), and
 *   - every open-orders walk (ours only under the "leave" foreign-order policy, which also replaces
 *     the cancel-all by cancels of exactly our ids).
 *
 * Rounds, until everything is confirmed ended or the deadline passes:
 *   1. look up every placement whose outcome is unknown; one found resting joins the orders to end;
 *   2. walk the open orders: what is listed joins; an order absent from a complete walk has ended;
 *   3. cancel what is still to end with `cancelUntilFinal` (a single cancel or a cancel-batch of
 *      exactly the pending ids after each Retry-After).
 * A round always ends with a walk, so the last walk is the final word; if it failed, the stop is
 * not clean. A lookup 404 made during shutdown never ends a placement in the report: the platform may
 * still record it, so it is named "lookup inconclusive" (quoting.orderExpirySec bounds its life).
 */
import { DEFAULT_CANCEL_RETRY_SEC, type WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { CancelOutcome, OrderTracker, TrackedOrder, TrackerEvent, Transition } from "../orders/order-tracker.js";
import { NOT_RECORDED, isTerminal } from "../orders/order-tracker.js";
import { endedByRefusal, trackCancelAnswer } from "./cancel-sender.js";
import { isOwnClientOrderId } from "../orders/ids.js";
import { problemOf, type FinalWalk, type Problem, type UnconfirmedOrder, type WalletShutdownReport } from "./shutdown-report.js";

export { UNCONFIRMED_REASONS, describeUnconfirmed, isClean, shutdownExitCode, type UnconfirmedOrder, type UnconfirmedReason, type WalletShutdownReport } from "./shutdown-report.js";

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
  /**
   * Orders of this instance's prefix that `owns` leaves alone are still named in the report, with
   * this detail (shutdown before the start-up watch could tell a previous run's orders from a live
   * daemon's). Undefined: they belong to someone else and are not ours to report.
   */
  reportLeftAlone?: string | undefined;
  /** Absolute local time after which no new round starts. */
  deadlineAtMs: number;
  /** quoting.orderExpirySec: orders were signed GTD with this lifetime (reported for what is left). */
  orderExpirySec?: number | undefined;
  track(ev: TrackerEvent): Transition;
}

const ROUND_PAUSE_MS = 1_000;
/** After the deadline, the last lookups and walk get this long; then every request is aborted. */
const FINAL_WORD_MS = 5_000;

/** An order the shutdown must see ended. */
interface Target {
  orderId: string;
  clientOrderId?: string;
  ended: boolean;
  /** Why its end is not confirmed yet (the latest thing that went wrong). */
  problem: Problem;
}

/** A placement whose outcome was unknown when shutdown began: it has no order id yet. */
interface Placement {
  order: TrackedOrder;
  problem: Problem;
  /**
   * Ended "never recorded" while running, by a lookup sent after the window (request timeout +
   * the platform's re-sends + margin): final by that rule, looked up again only in case it shows
   * up after all (then it is cancelled like any order), never counted against the stop.
   */
  concluded: boolean;
}

class WalletStop {
  readonly targets = new Map<string, Target>();
  readonly placements = new Map<string, Placement>();
  readonly report: WalletShutdownReport;
  /** Cancels the cancel-all left pending are repeated only after its Retry-After (spec 4.6). */
  repeatAtMs = 0;
  private lastWalk: FinalWalk = { ok: false, error: "no walk made" };
  /** Aborts every request still waiting FINAL_WORD_MS after the deadline (a slow platform cannot hold the stop). */
  readonly hardStop = new AbortController();
  /** Orders of our prefix the last walk listed but `owns` left alone (see ShutdownContext.reportLeftAlone). */
  private leftAlone = new Map<string, string>();

  constructor(private readonly ctx: ShutdownContext) {
    this.report = { wallet: ctx.wallet, name: ctx.name, cancelled: 0, unconfirmed: [], leftover: [], unresolved: [], notRecorded: [], finalWalk: this.lastWalk, rounds: 0, errors: [] };
  }

  /**
   * Everything the tracker knows to be live or unsure, and the placements it ended "never recorded"
   * while running and still remembers (looked up again: a platform slower than the window may
   * still record one, and the shutdown would rather cancel it than leave it).
   */
  seedFromTracker(): void {
    for (const o of this.ctx.tracker.all()) {
      if (o.orderId === undefined && o.state === "rejected" && o.rejectCode === NOT_RECORDED) {
        this.placements.set(o.clientOrderId, { order: o, problem: { reason: "lookup_inconclusive", detail: "ended never recorded while running" }, concluded: true });
        continue;
      }
      if (isTerminal(o.state)) continue;
      if (o.orderId !== undefined) this.target(o.orderId, o.clientOrderId, { reason: "still_open", detail: `tracked ${o.state}` });
      else this.placements.set(o.clientOrderId, { order: o, problem: { reason: "lookup_inconclusive", detail: `outcome unknown (${o.state}); not looked up yet` }, concluded: false });
    }
  }

  target(orderId: string, clientOrderId: string | undefined, problem: Problem): Target {
    let t = this.targets.get(orderId);
    if (t === undefined) {
      t = { orderId, ended: false, problem };
      if (clientOrderId !== undefined) t.clientOrderId = clientOrderId;
      this.targets.set(orderId, t);
    } else if (!t.ended) t.problem = problem;
    return t;
  }

  /** The platform said the order ended: recorded in the tracker (which takes a cancel answer only after a cancel). */
  ended(orderId: string, result: CancelOutcome | undefined, byCancel: boolean): void {
    const t = this.targets.get(orderId) ?? this.target(orderId, undefined, { reason: "still_open", detail: "" });
    if (!t.ended && byCancel) this.report.cancelled += 1;
    t.ended = true;
    if (result !== undefined) trackCancelAnswer(this.ctx.tracker, (ev) => this.ctx.track(ev), orderId, result, this.ctx.clock.now());
  }

  pending(): string[] {
    return [...this.targets.values()].filter((t) => !t.ended && !this.trackerSaysEnded(t.orderId)).map((t) => t.orderId);
  }

  /** Frames keep arriving on the user stream during shutdown: a terminal state there is platform evidence. */
  private trackerSaysEnded(orderId: string): boolean {
    const o = this.ctx.tracker.getByOrderId(orderId);
    return o !== undefined && isTerminal(o.state) && o.rejectCode !== "not_recorded";
  }

  problemForAll(p: Problem): void {
    for (const t of this.targets.values()) if (!t.ended) t.problem = p;
  }

  error(what: string, e: unknown): Problem {
    let p = problemOf(e);
    if (this.hardStop.signal.aborted) p = { reason: "platform_unreachable", detail: `no answer before the shutdown deadline (${p.detail})` };
    this.report.errors.push(`${what}: ${p.detail}`);
    return p;
  }

  /** 1. One cancel-all (or, under "leave", nothing extra: our own ids are cancelled in the rounds). */
  async cancelAllOnce(): Promise<void> {
    if (this.ctx.foreignOrders !== "cancel") return;
    try {
      const r = await this.ctx.api.orders.cancelAll({}, { signal: this.hardStop.signal });
      if (r.status === "answered") {
        for (const id of r.cancelled) this.ended(id, { kind: "done", status: "CANCELLED" }, true);
        for (const p of r.pending) this.target(p.orderId, undefined, { reason: "cancel_pending", detail: `${p.code} from cancel-all` });
        if (r.pending.length > 0) this.repeatAtMs = this.ctx.clock.now() + (r.retryAfterSec ?? DEFAULT_CANCEL_RETRY_SEC) * 1000;
        for (const f of r.failed) this.onRefusal(f.orderId, f.code);
      } else if (r.status === "rejected") {
        const p: Problem = { reason: r.handling === "auth" ? "key_refused" : "cancel_refused", detail: `${r.code} (HTTP ${r.httpStatus})` };
        this.report.errors.push(`cancel-all: ${p.detail}`);
        this.problemForAll(p);
      } else this.problemForAll(this.error("cancel-all", r.lastError));
    } catch (e) {
      this.problemForAll(this.error("cancel-all", e));
    }
  }

  /** A cancel refused: some codes say the order has ended, others do not. */
  private onRefusal(orderId: string, code: string | undefined): void {
    const ended = endedByRefusal(code);
    if (ended !== undefined) this.ended(orderId, ended, false);
    else this.target(orderId, undefined, { reason: "cancel_refused", detail: code ?? "refused" });
  }

  /** 2a. Placements of unknown outcome: a lookup hit makes them targets (or ends them). */
  async lookUpPlacements(): Promise<void> {
    const lastChance = this.ctx.clock.now() + ROUND_PAUSE_MS > this.ctx.deadlineAtMs;
    for (const [cid, p] of this.placements) {
      const o = this.ctx.tracker.get(cid);
      if (o !== undefined && o.orderId !== undefined) {
        // Evidence (a frame, a late answer) taught us its id meanwhile.
        this.placements.delete(cid);
        if (isTerminal(o.state)) this.ended(o.orderId, undefined, false);
        else this.target(o.orderId, cid, { reason: "still_open", detail: `tracked ${o.state}` });
        continue;
      }
      const sentAt = this.ctx.clock.now();
      // The tracker's own retry time after an early 404, unless no later round fits.
      if (!lastChance && o?.nextReadAtMs !== undefined && sentAt < o.nextReadAtMs) continue;
      try {
        const r = await this.ctx.api.orders.lookup({ clientOrderId: cid }, { signal: this.hardStop.signal });
        if (r.data === null) {
          if (p.concluded) continue;
          // The tracker concludes by its own window; the report never does (see the file comment).
          this.ctx.track({ kind: "lookup_not_found", clientOrderId: cid, nowMs: sentAt });
          p.problem = { reason: "lookup_inconclusive", detail: `not found ${Math.round((sentAt - p.order.lastSentAtMs) / 1000)} s after its send; the platform may still record it` };
          continue;
        }
        this.ctx.track({ kind: "read", record: r.data, serverTimeMs: r.meta.serverTime ?? this.ctx.clock.now() });
        this.placements.delete(cid);
        const live = r.data.status === "OPEN" || r.data.status === "PARTIAL" || r.data.status === "PENDING";
        const t = this.target(r.data.id, cid, { reason: "still_open", detail: `found ${r.data.status} by lookup` });
        if (!live) this.ended(t.orderId, undefined, false);
      } catch (e) {
        if (p.concluded) continue;
        p.problem = this.error(`lookup ${cid}`, e);
      }
    }
  }

  /** 2b. The open-orders walk: listed orders join; a complete walk ends what it does not list. */
  async walk(): Promise<void> {
    const listed = new Map<string, string | null>();
    const leftAlone = new Map<string, string>();
    try {
      for await (const rec of this.ctx.api.orders.open({ limit: 500 }, { signal: this.hardStop.signal })) {
        if (this.ctx.foreignOrders === "leave" && !(this.ctx.owns?.(rec.clientOrderId) ?? isOwnClientOrderId(rec.clientOrderId, this.ctx.instanceId))) {
          if (this.ctx.reportLeftAlone !== undefined && isOwnClientOrderId(rec.clientOrderId, this.ctx.instanceId)) leftAlone.set(rec.id, rec.clientOrderId!);
          continue;
        }
        listed.set(rec.id, rec.clientOrderId ?? null);
      }
    } catch (e) {
      const p = this.error("open walk", e);
      this.lastWalk = { ok: false, error: p.detail };
      this.problemForAll(p);
      return;
    }
    this.lastWalk = { ok: true, open: listed.size };
    this.leftAlone = leftAlone;
    for (const [id, cid] of listed) this.target(id, cid ?? undefined, { reason: "still_open", detail: "listed open by the last walk" });
    for (const t of this.targets.values()) if (!t.ended && !listed.has(t.orderId)) this.ended(t.orderId, undefined, false);
  }

  /** 3. Cancel what is still to end, repeating pending cancels after their Retry-After. */
  async cancelPending(): Promise<void> {
    const ids = this.pending();
    if (ids.length === 0) return;
    try {
      const r = await this.ctx.api.orders.cancelUntilFinal(ids, { deadlineMs: Math.max(0, this.ctx.deadlineAtMs - this.ctx.clock.now()), signal: this.hardStop.signal });
      for (const f of r.final) {
        if (f.status !== undefined) this.ended(f.orderId, { kind: "done", status: f.status }, true);
        else this.onRefusal(f.orderId, f.code);
      }
      const why: Problem = r.lastError !== undefined ? problemOf(r.lastError) : { reason: "cancel_pending", detail: "cancel recorded, no final answer before the deadline" };
      for (const id of r.pending) this.target(id, undefined, why);
    } catch (e) {
      const p = this.error("cancel", e);
      for (const id of ids) this.target(id, undefined, p);
    }
  }

  /** Confirmed clean so far: nothing to end, nothing unsure, and the last walk succeeded. */
  get done(): boolean {
    return this.lastWalk.ok && this.unsure().length === 0 && this.pending().length === 0 && this.leftAlone.size === 0;
  }

  /** Placements whose outcome is still unknown (not those the window already ended). */
  private unsure(): [string, Placement][] {
    return [...this.placements].filter(([, p]) => !p.concluded);
  }

  finish(): WalletShutdownReport {
    const r = this.report;
    const expiry = (createdAtMs: number | undefined): Partial<UnconfirmedOrder> =>
      this.ctx.orderExpirySec === undefined || createdAtMs === undefined ? {} : { expiresAtMs: createdAtMs + this.ctx.orderExpirySec * 1000 };
    for (const id of this.pending()) {
      const t = this.targets.get(id)!;
      const o = this.ctx.tracker.getByOrderId(id);
      const cid = t.clientOrderId ?? o?.clientOrderId;
      r.unconfirmed.push({ orderId: id, ...(cid !== undefined ? { clientOrderId: cid } : {}), ...t.problem, ...expiry(o?.createdAtMs) });
      r.leftover.push(id);
    }
    for (const [cid, p] of this.placements) {
      if (p.concluded) {
        r.notRecorded.push(cid);
        continue;
      }
      r.unconfirmed.push({ clientOrderId: cid, ...p.problem, ...expiry(p.order.createdAtMs) });
      r.unresolved.push(cid);
    }
    for (const [orderId, clientOrderId] of this.leftAlone) {
      r.unconfirmed.push({ orderId, clientOrderId, reason: "still_open", detail: this.ctx.reportLeftAlone! });
      r.leftover.push(orderId);
    }
    r.finalWalk = this.lastWalk;
    return r;
  }
}

export async function shutdownWallet(ctx: ShutdownContext): Promise<WalletShutdownReport> {
  const stop = new WalletStop(ctx);
  const timer = ctx.clock.setTimeout(() => stop.hardStop.abort(new Error("shutdown deadline")), Math.max(0, ctx.deadlineAtMs + FINAL_WORD_MS - ctx.clock.now()));
  try {
    return await rounds(ctx, stop);
  } finally {
    ctx.clock.clearTimeout(timer);
  }
}

async function rounds(ctx: ShutdownContext, stop: WalletStop): Promise<WalletShutdownReport> {
  stop.seedFromTracker();
  await stop.cancelAllOnce();
  for (;;) {
    stop.report.rounds += 1;
    await stop.lookUpPlacements();
    await stop.walk();
    if (stop.done) break;
    const remaining = ctx.deadlineAtMs - ctx.clock.now();
    if (remaining <= 0) break;
    const before = stop.pending().length;
    if (before > 0) {
      const wait = Math.min(stop.repeatAtMs - ctx.clock.now(), remaining);
      if (wait > 0) await ctx.clock.sleep(wait);
      if (ctx.clock.now() >= ctx.deadlineAtMs) continue;
    }
    await stop.cancelPending();
    // Cancels answered: verify with a walk at once; otherwise pause before the next round.
    const answered = before > 0 && stop.pending().length < before;
    if (!answered) {
      if (ctx.clock.now() + ROUND_PAUSE_MS > ctx.deadlineAtMs) {
        // No further round fits: one last lookup and walk so the report is the latest word.
        stop.report.rounds += 1;
        await stop.lookUpPlacements();
        await stop.walk();
        break;
      }
      await ctx.clock.sleep(ROUND_PAUSE_MS);
    }
  }
  return stop.finish();
}
