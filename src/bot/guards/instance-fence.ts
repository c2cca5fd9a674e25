/**
 * One owner per `instance.id` (issue 10). Ownership of an order is decided by its clientOrderId
 * prefix (ids.ts), so a second daemon with the same id would adopt and cancel the first one's
 * orders. The session tag in every id tells this process's orders from the others of the prefix;
 * what is left to decide is whether another session is a previous run (crashed: adopt its orders)
 * or a daemon alive now (refuse, or halt).
 *
 * The rule (server times throughout; `ref` = the server time of this process's start-up walk):
 *   - our session: ours;
 *   - another session, order created after `ref + lateWindowMs`: a live daemon placed it (a dead
 *     run's last sends are recorded within the late window: the request timeout, the platform's
 *     own re-sends of spec 7.3 and a margin);
 *   - another session whose tag says it started at least TAG_NEWER_MS after us, order created
 *     after `ref`: a newer daemon (a previous run cannot have started after us);
 *   - anything else of our prefix: a previous run's order, adopted as before.
 *
 * Start-up (watchAtStartup): when a wallet holds orders of our prefix from another session, open
 * or created in the last RECENT_MS, the daemon waits `lateWindowMs + watchMs` before it adopts
 * anything, then reads every wallet's order history down to `ref`: an order the rule calls live
 * refuses the start (InstanceConflictError; nothing adopted, nothing cancelled). While running,
 * the same rule runs wherever an order of our prefix we do not track is met (open-order walks,
 * frames for unknown ids): a conflict raises the global `instance_conflict` halt (quotes pulled,
 * operator-cleared), the other daemon's order is neither adopted nor cancelled, and a shutdown then
 * cancels only orders this process tracks (no cancel-all).
 *
 * Known limit: a live daemon that places nothing during the watch looks like a dead one; the new
 * daemon adopts its resting orders and quotes, and the older one halts on the first order of the
 * newcomer it sees (the newer daemon keeps the wallets).
 */
import type { WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import { notRecordedWindowMs } from "../orders/order-tracker.js";
import { errorText } from "../engine/errors.js";
import { parseClientOrderId } from "../orders/ids.js";
import { AUTH_RETRY, isAuthRefusal, isTransient } from "../engine/startup.js";

/** A session tag this much newer than ours (tags are the starting host's clock, to the second) is a newer daemon. */
export const TAG_NEWER_MS = 2_000;
/** History rows this recent at start-up make the watch necessary even when nothing of ours rests. */
export const RECENT_MS = 60_000;
/** Tries of each look, and the pause before the next (times the attempt), when the platform has a moment. */
const LOOK_ATTEMPTS = 3;
const LOOK_RETRY_MS = 1_000;
/** Pages of history read per wallet at the end of the watch (a busy other daemon shows in the first). */
const MAX_HISTORY_PAGES = 10;

/**
 * How long after a send the platform may still record the order: the tracker's "never recorded"
 * window (request timeout + the platform's re-sends + a margin), one formula for both.
 */
export const lateWindowMs = notRecordedWindowMs;

export type FenceVerdict = "ours" | "inherited" | "conflict" | "other";

/** The fields of an order record or frame the rule reads. */
export interface FencedOrder {
  clientOrderId: string | null | undefined;
  /** Server time the platform recorded the order (record `createdAt`, `order_placed` serverTs). */
  createdAtMs: number | undefined;
  orderId?: string | undefined;
  marketId?: string | undefined;
}

export interface FenceOptions {
  instanceId: string;
  /** This process's session tag (ids.ts). */
  session: string;
  /** Local time this process started (its session tag's time). */
  sessionStartMs: number;
  lateWindowMs: number;
  /** instance.startupWatchSec in ms: 0 skips the start-up watch. */
  watchMs: number;
  clock: Clock;
  log: Logger;
  /** Raise the global instance_conflict halt with this detail. */
  onConflict(detail: string): void;
}

export class InstanceConflictError extends Error {
  readonly code = "instance_conflict";
}

export class InstanceFence {
  private refMs: number | undefined;
  private firstConflict: string | undefined;
  private watched = false;
  /** Sessions already reported (one error log and one raise each; a handful at most). */
  private readonly reported = new Set<string>();

  constructor(readonly o: FenceOptions) {}

  /** The server time of the start-up walk (the earliest one given wins). */
  noteStartupServerTime(ms: number): void {
    if (this.refMs === undefined || ms < this.refMs) this.refMs = ms;
  }

  /** The reference the rule counts from: the start-up walk's server time, else our local start. */
  get referenceMs(): number {
    return this.refMs ?? this.o.sessionStartMs;
  }

  /**
   * True once the start-up watch has decided (no other daemon seen, or nothing to watch for).
   * Until then this process cannot tell a previous run's orders from a live daemon's.
   */
  get settled(): boolean {
    return this.watched;
  }

  markSettled(): void {
    this.watched = true;
  }

  /** The first conflict seen (its detail), undefined while none. */
  get conflict(): string | undefined {
    return this.firstConflict;
  }

  /** True when the clientOrderId was made by this process (this instance, this session). */
  isOurSession(clientOrderId: string | null | undefined): boolean {
    if (clientOrderId === null || clientOrderId === undefined) return false;
    const p = parseClientOrderId(clientOrderId);
    return p !== undefined && p.instance === this.o.instanceId && p.session === this.o.session;
  }

  /** The header's rule, without side effects. */
  verdict(o: FencedOrder): FenceVerdict {
    if (o.clientOrderId === null || o.clientOrderId === undefined) return "other";
    const p = parseClientOrderId(o.clientOrderId);
    if (p === undefined || p.instance !== this.o.instanceId) return "other";
    if (p.session === this.o.session) return "ours";
    // A session already seen placing live is another daemon: none of its orders is a previous run's.
    if (this.reported.has(p.session)) return "conflict";
    if (o.createdAtMs === undefined || !Number.isFinite(o.createdAtMs)) return "inherited";
    const ref = this.referenceMs;
    if (o.createdAtMs > ref + this.o.lateWindowMs) return "conflict";
    const tagMs = sessionStartOf(p.session);
    if (tagMs !== undefined && tagMs >= Math.floor(this.o.sessionStartMs / 1000) * 1000 + TAG_NEWER_MS && o.createdAtMs > ref) return "conflict";
    return "inherited";
  }

  /** The verdict; a conflict is raised (and logged once per other session). */
  check(o: FencedOrder, wallet: string, where: string): FenceVerdict {
    const v = this.verdict(o);
    if (v !== "conflict") return v;
    const session = parseClientOrderId(o.clientOrderId!)!.session;
    const created = new Date(o.createdAtMs!).toISOString();
    const detail =
      `another daemon with instance.id "${this.o.instanceId}" is running: order ${o.clientOrderId} (session ${session}, created ${created}, ` +
      `seen in ${where} on wallet ${wallet}) was not sent by this process (session ${this.o.session})`;
    this.firstConflict ??= detail;
    // Raised at every sighting (a no-op while raised): after an operator resume, a daemon still
    // running shows itself again at the next walk.
    this.o.onConflict(detail);
    if (this.reported.has(session)) return v;
    this.reported.add(session);
    this.o.log.error(
      { instance: this.o.instanceId, session: this.o.session, otherSession: session, wallet, clientOrderId: o.clientOrderId, orderId: o.orderId ?? null, market: o.marketId ?? null, createdAt: created, where },
      "instance conflict: another daemon runs with this instance.id; quoting halted, its orders are left alone",
    );
    return v;
  }
}

/** The start time (ms) a session tag carries: base36 seconds, then three random characters. */
export function sessionStartOf(session: string): number | undefined {
  if (session.length < 4) return undefined;
  const s = parseInt(session.slice(0, -3), 36);
  return Number.isSafeInteger(s) ? s * 1000 : undefined;
}

/** A record's createdAt as ms, undefined when unreadable. */
export function createdAtMsOf(createdAt: string | undefined): number | undefined {
  if (createdAt === undefined) return undefined;
  const t = Date.parse(createdAt);
  return Number.isFinite(t) ? t : undefined;
}

export interface WatchedWallet {
  /** Lower-cased address. */
  wallet: string;
  api: WalletClient;
}

export interface StartupWatchReport {
  /** Orders of our prefix from other sessions found at the first look (what a start would adopt). */
  inherited: number;
  /** Time waited (0: nothing to watch for). */
  waitedMs: number;
  /** Wallets whose reads failed (left to the running checks). */
  unread: string[];
}

/**
 * The start-up watch of the header. Resolves when no other daemon showed itself (or the signal
 * aborted the wait); throws InstanceConflictError when one did (the halt is raised too).
 */
export async function watchAtStartup(fence: InstanceFence, wallets: readonly WatchedWallet[], signal: AbortSignal): Promise<StartupWatchReport> {
  const { clock, log } = fence.o;
  const report: StartupWatchReport = { inherited: 0, waitedMs: 0, unread: [] };
  const first = await Promise.all(wallets.map((w) => withRetries(fence, signal, () => firstLook(fence, w)).catch((e: unknown) => ({ failed: errorText(e) ?? "error" }))));
  let recent = 0;
  for (const [i, r] of first.entries()) {
    if ("failed" in r) {
      log.warn({ wallet: wallets[i]!.wallet, err: r.failed }, "instance fence: first look failed; this wallet is left to the running checks");
      report.unread.push(wallets[i]!.wallet);
      continue;
    }
    fence.noteStartupServerTime(r.serverTimeMs);
    report.inherited += r.inherited;
    recent += r.recent;
  }
  if (fence.o.watchMs === 0 || report.inherited + recent === 0) {
    fence.markSettled();
    return report;
  }
  const waitMs = fence.o.lateWindowMs + fence.o.watchMs;
  log.info(
    { instance: fence.o.instanceId, inheritedOrders: report.inherited, recentOrders: recent, waitMs },
    "orders of this instance.id from another session: watching for a live daemon before adopting them",
  );
  const startedAt = clock.now();
  try {
    await clock.sleep(waitMs, signal);
  } catch (e) {
    if (signal.aborted) return report;
    throw e;
  }
  report.waitedMs = clock.now() - startedAt;
  for (const w of wallets) {
    if (report.unread.includes(w.wallet)) continue;
    try {
      await withRetries(fence, signal, () => lastLook(fence, w));
    } catch (e) {
      log.warn({ wallet: w.wallet, err: errorText(e) }, "instance fence: last look failed; this wallet is left to the running checks");
      report.unread.push(w.wallet);
    }
    if (fence.conflict !== undefined) throw new InstanceConflictError(`refusing to start: ${fence.conflict}`);
  }
  fence.markSettled();
  return report;
}

/**
 * A look failing on a transient error (spec 7.3 retry codes, network) is tried again, LOOK_ATTEMPTS
 * in all. A refused key (401) is waited out without end, as the wallets' own start-up does: it may
 * be a new key not propagated yet (spec 5.6), and a wallet left unread would skip the watch and
 * adopt a live daemon's orders the moment the key works.
 */
async function withRetries<T>(fence: InstanceFence, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1, refusals = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (signal.aborted) throw e;
      if (isAuthRefusal(e)) {
        attempt -= 1;
        await fence.o.clock.sleep(Math.min(AUTH_RETRY.maxMs, AUTH_RETRY.initialMs * 2 ** Math.min(refusals++, 30)), signal);
        continue;
      }
      if (attempt >= LOOK_ATTEMPTS || !isTransient(e)) throw e;
      await fence.o.clock.sleep(LOOK_RETRY_MS * attempt, signal);
    }
  }
}

/** The open orders and the newest history page: how many of our prefix from other sessions. */
async function firstLook(fence: InstanceFence, w: WatchedWallet): Promise<{ serverTimeMs: number; inherited: number; recent: number }> {
  const now = fence.o.clock.now();
  let serverTimeMs: number | undefined;
  let inherited = 0;
  for await (const page of w.api.orders.openPages({ limit: 500 })) {
    serverTimeMs ??= page.meta.serverTime;
    for (const r of page.data.orders) if (fence.verdict(fencedRecord(r)) === "inherited") inherited += 1;
  }
  const hist = await w.api.orders.historyPage({ limit: 200 });
  const at = serverTimeMs ?? hist.meta.serverTime ?? now;
  let recent = 0;
  for (const r of hist.data.orders) {
    const f = fencedRecord(r);
    if (f.createdAtMs !== undefined && f.createdAtMs >= at - RECENT_MS && fence.verdict(f) === "inherited") recent += 1;
  }
  return { serverTimeMs: at, inherited, recent };
}

/** History newest first down to the reference, then the open orders: every order the rule calls live. */
async function lastLook(fence: InstanceFence, w: WatchedWallet): Promise<void> {
  let pages = 0;
  outer: for await (const page of w.api.orders.historyPages({ limit: 200 })) {
    for (const r of page.data.orders) {
      const f = fencedRecord(r);
      if (f.createdAtMs !== undefined && f.createdAtMs <= fence.referenceMs) break outer;
      if (fence.check(f, w.wallet, "the order history") === "conflict") return;
    }
    if (++pages >= MAX_HISTORY_PAGES) break;
  }
  // History rows of live orders are not shown by the spec (4.6): the open orders are read too.
  for await (const page of w.api.orders.openPages({ limit: 500 })) {
    for (const r of page.data.orders) if (fence.check(fencedRecord(r), w.wallet, "the open orders") === "conflict") return;
  }
}

/** What the rule reads of an order record. */
export function fencedRecord(r: { id: string; clientOrderId: string | null; createdAt: string; marketId: string }): FencedOrder {
  return { clientOrderId: r.clientOrderId, createdAtMs: createdAtMsOf(r.createdAt), orderId: r.id, marketId: r.marketId };
}
