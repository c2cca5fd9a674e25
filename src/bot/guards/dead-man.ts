/**
 * The dead-man switch (issue 10). A wallet whose state we can no longer vouch for stops quoting,
 * and its quotes are pulled with one cancel-all as soon as the platform answers again:
 *
 *   trip      the daemon's own loop stalled for risk.deadManSec or more (one late tick of the loop
 *             monitor: every ready wallet), or a wallet's user stream is down AND its REST requests
 *             fail (rest-health.ts) at the same time for risk.deadManSec (that wallet);
 *   halt      `dead_man` on the wallet (CoreRisk.condition): it places nothing from then on;
 *   pull      cancel-all (through the client, so the rate gate's 1/s cancel-all bucket holds it),
 *             tried at once and again with a growing pause until the platform answers it; ids it
 *             names `cancel_pending` are repeated after its Retry-After with single cancels /
 *             cancel-batches of exactly those ids (cancelUntilFinal, spec 4.6), never another
 *             cancel-all. Under the `foreignOrders: leave` policy a cancel-batch of our own open
 *             ids instead, so other systems' orders survive (as at shutdown);
 *   reconcile a full sync (open-order walk, reads, trade pull) completed after the pull;
 *   clear     the halt clears (its rule in halts.ts), the cycles quote again.
 *
 * Everything is driven by the loop monitor's ticks (no timer of its own) and the engine's events
 * (stream state, completed syncs, wallets stopping); the pull and the sync run in the background,
 * one at a time per wallet.
 */
import { DEFAULT_CANCEL_RETRY_SEC, type WalletClient } from "../../api/index.js";
import type { Config } from "../../config/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { LoopMetrics } from "../../metrics/loop-metrics.js";
import { isTerminal, type CancelOutcome, type OrderTracker, type TrackerEvent, type Transition } from "../orders/order-tracker.js";
import { endedByRefusal, trackCancelAnswer } from "../engine/cancel-sender.js";
import { errorText } from "../engine/errors.js";
import { LoopMonitor, type LagSample, type LoopLag } from "./loop-monitor.js";
import type { EngineEvent, EngineObserver } from "../observer.js";
import { RestHealth } from "./rest-health.js";
import type { ForeignOrderPolicy } from "../engine/shutdown.js";

export type DeadManCause = "loop_stall" | "outage";

/** What the switch needs of a wallet (a WalletRunner fits). */
export interface DeadManWallet {
  readonly name: string;
  /** Address, lower-cased. */
  readonly wallet: string;
  readonly isReady: boolean;
  readonly syncCtx: { api: WalletClient; tracker: OrderTracker; track(ev: TrackerEvent): Transition };
  /** A full sync; a completed one is reported as a `synced` event. */
  sync(reason: string): Promise<unknown>;
}

export interface DeadManOptions {
  /** risk.deadManSec in ms. */
  deadManMs: number;
  clock: Clock;
  log: Logger;
  loop: LoopLag;
  rest: RestHealth;
  /** The daemon's wallets (read at each tick: the list may fill after construction). */
  wallets: readonly DeadManWallet[];
  foreignOrders: ForeignOrderPolicy;
  /** True while another daemon runs with our instance id (instance-fence.ts): only our own ids are cancelled. */
  ownOnly?: () => boolean;
  /** Raise (detail) or clear (null) the wallet's `dead_man` halt. */
  condition(walletName: string, detail: string | null): void;
  /** Each trip (metrics). */
  onTrip?(cause: DeadManCause): void;
  /** First pause between two pulls the platform did not answer; doubles up to maxRetryMs. Default 1 s, 5 s. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Time given to repeating cancel_pending ids before the tracker's own retries take over. Default 30 s. */
  pendingDeadlineMs?: number;
}

interface Trip {
  cause: DeadManCause;
  sinceMs: number;
  phase: "pull" | "reconcile";
  busy: boolean;
  nextAtMs: number;
  failures: number;
  /** When the last step ended unanswered. */
  lastTryMs: number;
  /** When the pull was answered: a sync completed after this clears the halt. */
  pulledAtMs?: number;
  synced?: boolean;
}

export class DeadManSwitch implements EngineObserver {
  private readonly streamDownSince = new Map<string, number>();
  private readonly trips = new Map<string, Trip>();
  private unsubscribe: (() => void) | undefined;
  private unsubscribeRest: (() => void) | undefined;
  private abort = new AbortController();

  constructor(private readonly o: DeadManOptions) {
    if (!(o.deadManMs > 0)) throw new Error(`dead-man switch: deadManMs must be positive, got ${o.deadManMs}`);
  }

  /** Follow the loop monitor's ticks (start the monitor separately). */
  start(): void {
    if (this.unsubscribe !== undefined) return;
    if (this.abort.signal.aborted) this.abort = new AbortController();
    this.unsubscribe = this.o.loop.onSample((s) => this.tick(s));
    // The platform answers again: pull at once, not at the end of the pause.
    this.unsubscribeRest = this.o.rest.onRecovered((key) => queueMicrotask(() => this.wake(key)));
  }

  /** No new trips, no new attempts; a pull or sync under way ends on its own. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.unsubscribeRest?.();
    this.unsubscribeRest = undefined;
    this.abort.abort(new Error("dead-man switch stopped"));
    this.trips.clear();
  }

  /** Wallets (names) halted by the switch now, with their cause. */
  tripped(): { wallet: string; cause: DeadManCause; sinceMs: number; phase: Trip["phase"] }[] {
    return [...this.trips].map(([wallet, t]) => ({ wallet, cause: t.cause, sinceMs: t.sinceMs, phase: t.phase }));
  }

  onEvent(e: EngineEvent): void {
    switch (e.type) {
      case "stream_state":
        if (e.state === "subscribed") this.streamDownSince.delete(e.wallet);
        else if (e.state === "disconnected" || e.state === "reconnecting") {
          if (!this.streamDownSince.has(e.wallet)) this.streamDownSince.set(e.wallet, e.at);
        }
        return;
      case "synced": {
        const w = this.o.wallets.find((x) => x.wallet === e.wallet);
        const t = w === undefined ? undefined : this.trips.get(w.name);
        if (t !== undefined && t.phase === "reconcile" && t.pulledAtMs !== undefined && e.at >= t.pulledAtMs) t.synced = true;
        return;
      }
      case "wallet_state":
        if (e.state === "stopping" || e.state === "stopped" || e.state === "abandoned") {
          const w = this.o.wallets.find((x) => x.wallet === e.wallet);
          if (w !== undefined) this.trips.delete(w.name);
        }
        return;
      default:
        return;
    }
  }

  /** One loop-monitor tick (exposed for tests). */
  tick(sample: Pick<LagSample, "lagMs">): void {
    const now = this.o.clock.now();
    const ready = this.o.wallets.filter((w) => w.isReady);
    if (sample.lagMs >= this.o.deadManMs) {
      const detail = `event loop stalled ${seconds(sample.lagMs)} s (deadManSec ${seconds(this.o.deadManMs)})`;
      for (const w of ready) this.trip(w, "loop_stall", detail, now);
    }
    for (const w of ready) {
      if (this.trips.has(w.name)) continue;
      const streamDown = this.streamDownSince.get(w.wallet);
      const restDown = this.o.rest.failingSince(w.wallet);
      if (streamDown === undefined || restDown === undefined) continue;
      const both = now - Math.max(streamDown, restDown);
      if (both >= this.o.deadManMs) this.trip(w, "outage", `user stream down and REST failing for ${seconds(both)} s`, now);
    }
    for (const w of ready) {
      const t = this.trips.get(w.name);
      if (t !== undefined) this.advance(w, t, now);
    }
  }

  /** REST answers again for `key` (a wallet, or "" for requests of no wallet): every trip it concerns tries now. */
  private wake(key: string): void {
    if (this.unsubscribe === undefined) return;
    const now = this.o.clock.now();
    for (const w of this.o.wallets) {
      const t = this.trips.get(w.name);
      if (t === undefined || t.busy || !w.isReady || (key !== "" && key !== w.wallet)) continue;
      t.nextAtMs = Math.min(t.nextAtMs, now);
      this.advance(w, t, now);
    }
  }

  private trip(w: DeadManWallet, cause: DeadManCause, detail: string, now: number): void {
    const t = this.trips.get(w.name);
    if (t !== undefined) {
      // Tripped again while reconciling: what was pulled may be stale again; pull once more.
      if (t.phase === "reconcile" && !t.busy) Object.assign(t, { phase: "pull", nextAtMs: now, synced: false, pulledAtMs: undefined });
      return;
    }
    this.trips.set(w.name, { cause, sinceMs: now, phase: "pull", busy: false, nextAtMs: now, failures: 0, lastTryMs: now });
    this.o.log.warn({ walletName: w.name, wallet: w.wallet, cause, detail }, "dead-man switch: wallet halted, quotes pulled with cancel-all once the platform answers");
    this.o.onTrip?.(cause);
    this.o.condition(w.name, detail);
  }

  private advance(w: DeadManWallet, t: Trip, now: number): void {
    if (t.busy) return;
    if (t.phase === "reconcile" && t.synced === true) {
      this.trips.delete(w.name);
      this.o.log.info({ walletName: w.name, wallet: w.wallet, cause: t.cause, haltedMs: now - t.sinceMs }, "dead-man switch: quotes pulled and wallet reconciled: quoting again");
      this.o.condition(w.name, null);
      return;
    }
    // Waiting out a pause, unless the platform answered something since the last attempt (and at
    // least retryMs passed: a platform that answers books but not this wallet is not hammered).
    const answered = this.o.rest.lastAnswerMs(w.wallet);
    const early = answered !== undefined && answered > t.lastTryMs && now - t.lastTryMs >= (this.o.retryMs ?? 1_000);
    if (now < t.nextAtMs && !early) return;
    t.busy = true;
    const step = t.phase === "pull" ? this.pull(w) : this.reconcile(w, t);
    void step
      .catch((e: unknown) => {
        if (!this.abort.signal.aborted) this.o.log.warn({ walletName: w.name, phase: t.phase, err: errorText(e) }, "dead-man switch step failed");
        return false;
      })
      .then((ok) => {
        t.busy = false;
        if (this.trips.get(w.name) !== t) return;
        const at = this.o.clock.now();
        if (ok && t.phase === "pull") {
          Object.assign(t, { phase: "reconcile", pulledAtMs: at, failures: 0, nextAtMs: at, synced: false });
          // Reconcile at once rather than at the next tick.
          this.advance(w, t, at);
          return;
        }
        if (ok && t.synced === true) {
          this.advance(w, t, at);
          return;
        }
        t.failures += 1;
        t.lastTryMs = at;
        t.nextAtMs = at + this.pause(t.failures);
      });
  }

  private pause(failures: number): number {
    if (failures === 0) return 0;
    const base = this.o.retryMs ?? 1_000;
    return Math.min(this.o.maxRetryMs ?? 5_000, base * 2 ** (failures - 1));
  }

  /** Cancel-all (or our own ids under "leave"); true once the platform answered it. */
  private async pull(w: DeadManWallet): Promise<boolean> {
    const { api } = w.syncCtx;
    if (this.o.foreignOrders === "leave" || this.o.ownOnly?.() === true) return this.cancelOwn(w);
    let r: Awaited<ReturnType<WalletClient["orders"]["cancelAll"]>>;
    try {
      r = await api.orders.cancelAll();
    } catch (e) {
      this.o.log.debug({ walletName: w.name, err: errorText(e) }, "dead-man switch: cancel-all not answered");
      return false;
    }
    if (r.status !== "answered") {
      const code = r.status === "rejected" ? r.code : r.lastError.code;
      this.o.log.warn({ walletName: w.name, status: r.status, code }, "dead-man switch: cancel-all not done");
      return false;
    }
    for (const id of r.cancelled) this.markFinal(w, id, { kind: "done", status: "CANCELLED" });
    for (const f of r.failed) {
      const ended = endedByRefusal(f.code);
      if (ended !== undefined) this.markFinal(w, f.orderId, ended);
    }
    const pending = r.pending.map((p) => p.orderId);
    this.o.log.warn({ walletName: w.name, cancelled: r.cancelled.length, pending: pending.length, failed: r.failed.length }, "dead-man switch: cancel-all answered");
    if (pending.length > 0) {
      // Repeat only after the answer's Retry-After (spec 4.6), with exactly those ids.
      await this.o.clock.sleep((r.retryAfterSec ?? DEFAULT_CANCEL_RETRY_SEC) * 1000, this.abort.signal).catch(() => undefined);
      if (!this.abort.signal.aborted) await this.repeat(w, pending);
    }
    return true;
  }

  /** The "leave" policy: a cancel-batch of our own open orders (others' orders survive). */
  private async cancelOwn(w: DeadManWallet): Promise<boolean> {
    const ids = w.syncCtx.tracker
      .all()
      .filter((o) => !isTerminal(o.state) && o.orderId !== undefined)
      .map((o) => o.orderId!);
    // Nothing of ours is known open: the sync that follows is what asks the platform.
    if (ids.length === 0) return true;
    return this.repeat(w, ids);
  }

  /** cancelUntilFinal over these ids; true when the platform answered for any of them. */
  private async repeat(w: DeadManWallet, ids: string[]): Promise<boolean> {
    const r = await w.syncCtx.api.orders.cancelUntilFinal(ids, { deadlineMs: this.o.pendingDeadlineMs ?? 30_000, signal: this.abort.signal });
    for (const f of r.final) {
      if (f.status !== undefined) this.markFinal(w, f.orderId, { kind: "done", status: f.status });
      else {
        const ended = endedByRefusal(f.code);
        if (ended !== undefined) this.markFinal(w, f.orderId, ended);
      }
    }
    // Still pending: the tracker repeats them after their Retry-After (maintenance).
    for (const id of r.pending) this.markFinal(w, id, { kind: "pending", retryAfterMs: DEFAULT_CANCEL_RETRY_SEC * 1000 });
    if (r.pending.length > 0) this.o.log.warn({ walletName: w.name, pending: r.pending.length, err: r.lastError?.code }, "dead-man switch: cancels still pending");
    return r.final.length > 0 || r.pending.length === 0;
  }

  /** The tracker takes a cancel's answer only after the cancel itself (open -> cancel_requested). */
  private markFinal(w: DeadManWallet, orderId: string, result: CancelOutcome): void {
    trackCancelAnswer(w.syncCtx.tracker, (ev) => w.syncCtx.track(ev), orderId, result, this.o.clock.now());
  }

  /** Ask for a full sync; done when a `synced` event after the pull arrived (onEvent). */
  private async reconcile(w: DeadManWallet, t: Trip): Promise<boolean> {
    await w.sync("dead_man");
    return t.synced === true;
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

export interface DeadManParts {
  config: Config;
  clock: Clock;
  log: Logger;
  /** Monotonic ms (the daemon's deps.monotonic, performance.now live). */
  monotonic: () => number;
  foreignOrders: ForeignOrderPolicy;
  ownOnly?: () => boolean;
  /** The daemon's loop metrics (DaemonMetrics.loop). */
  metrics: LoopMetrics;
  wallets: readonly DeadManWallet[];
  condition: DeadManOptions["condition"];
}

/**
 * The event-loop monitor, the REST health seam (wrap the daemon's transport with `rest.wrap`), the
 * switch over both, and their metrics. The caller starts and stops `loop` and `deadMan`.
 */
export function buildDeadMan(p: DeadManParts): { loop: LoopMonitor; rest: RestHealth; deadMan: DeadManSwitch } {
  const loop = new LoopMonitor({ clock: p.clock, monotonic: p.monotonic });
  const rest = new RestHealth(() => p.clock.now());
  const metrics = p.metrics;
  metrics.follow(loop);
  const deadMan = new DeadManSwitch({
    deadManMs: p.config.risk.deadManSec * 1000,
    clock: p.clock,
    log: p.log.child({ component: "dead-man" }),
    loop,
    rest,
    wallets: p.wallets,
    foreignOrders: p.foreignOrders,
    ...(p.ownOnly !== undefined ? { ownOnly: p.ownOnly } : {}),
    condition: p.condition,
    onTrip: (cause) => metrics.trip(cause),
  });
  return { loop, rest, deadMan };
}
