/**
 * Fill and order reconciliation of one wallet against the platform (issue item 6). Runs after
 * every stream gap and on a timer:
 *
 *   1. walk `/api/orders/open` page by page until `nextCursor` is null and compare with the
 *      tracker: orders we think rest but are not listed are read by id (their final fill total),
 *      orders listed but unknown to us are adopted (ours: this instance's clientOrderId prefix) or
 *      handed to the foreign-order policy, orders listed but terminal here are read and cancelled;
 *   2. read every order the tracker flags (unknown outcomes by lookup, missing ones by id);
 *   3. pull `/api/me/trades` newest first down to the last trade already pulled (the first pull
 *      goes down to the session start), adding every row to the fill ledger;
 *   4. orders whose reported fill total still exceeds the trades seen get their fills read by id;
 *   5. the ledger and inventory compact what is older than the reconciliation horizon (`compact`,
 *      fill-compaction.ts).
 *
 * The ledger is idempotent by (wallet, trade id, order id), so overlapping sources never double a
 * fill: after a sync the ledger equals the platform's trade list of the session.
 */
import type { WalletClient } from "../../api/index.js";
import { isApiError } from "../../api/errors.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { OrderRecord } from "../../wire/index.js";
import { fillFromMyTrade, readOrderTrades, type Fill, type FillLedger } from "../fills/fill-ledger.js";
import type { OrderTracker, ReadNeed, TrackerEvent, Transition } from "../orders/order-tracker.js";
import { isOwnClientOrderId } from "../orders/ids.js";
import { fencedRecord, type InstanceFence } from "../guards/instance-fence.js";
import type { EngineObserver } from "../observer.js";

export interface SyncContext {
  /** Lower-cased wallet. */
  wallet: string;
  api: WalletClient;
  tracker: OrderTracker;
  ledger: FillLedger;
  clock: Clock;
  log: Logger;
  observer: EngineObserver;
  instanceId: string;
  /** Local time the daemon started: the first trade pull goes down to it. */
  sessionStartMs: number;
  /** Rows this much older than the pull cursor are still read (clock skew, same-ms ordering). */
  tradePullMarginMs: number;
  track(ev: TrackerEvent): Transition;
  /** tracker.adopt, plus whatever the owner does with transitions. */
  adopt(rec: OrderRecord, serverTimeMs: number): Transition;
  applyFill(fill: Fill): void;
  /** An open order on the wallet that is not this instance's. */
  onForeign(rec: OrderRecord): Promise<void>;
  /** One owner per instance id (instance-fence.ts): absent, every order of our prefix is adopted. */
  fence?: InstanceFence | undefined;
  /** Step 5: fold old fills into the ledger's checkpoint (fill-compaction.ts); absent: never. */
  compact?(): void;
}

export interface OpenWalk {
  records: Map<string, OrderRecord>;
  startedAtMs: number;
  serverTimeMs: number | undefined;
}

export interface SyncReport {
  open: number;
  adopted: number;
  foreign: number;
  missing: number;
  contradictions: number;
  reads: number;
  trades: number;
  gapReads: number;
}

export async function walkOpenOrders(ctx: Pick<SyncContext, "api" | "clock">): Promise<OpenWalk> {
  const startedAtMs = ctx.clock.now();
  const records = new Map<string, OrderRecord>();
  let serverTimeMs: number | undefined;
  for await (const page of ctx.api.orders.openPages({ limit: 500 })) {
    serverTimeMs ??= page.meta.serverTime;
    for (const r of page.data.orders) records.set(r.id, r);
  }
  return { records, startedAtMs, serverTimeMs };
}

/** Steps 1-4 of the header. */
export async function syncWallet(ctx: SyncContext, opts: { unknownGraceMs: number; unknownSince: ReadonlyMap<string, number> }): Promise<SyncReport> {
  const report: SyncReport = { open: 0, adopted: 0, foreign: 0, missing: 0, contradictions: 0, reads: 0, trades: 0, gapReads: 0 };
  const walk = await walkOpenOrders(ctx);
  report.open = walk.records.size;
  const openRes = await reconcileOpen(ctx, walk);
  report.adopted = openRes.adopted;
  report.foreign = openRes.foreign;
  report.missing = openRes.missing;
  report.contradictions = openRes.contradictions.length;
  report.reads = await resolveReads(ctx, { graceMs: opts.unknownGraceMs, unknownSince: opts.unknownSince });
  // Still listed open while we hold it terminal: cancel it (it would otherwise rest unseen).
  for (const c of openRes.contradictions) {
    const o = ctx.tracker.get(c.clientOrderId);
    const rec = walk.records.get(c.orderId);
    if (o === undefined || rec === undefined) continue;
    ctx.log.warn({ market: rec.marketId, clientOrderId: c.clientOrderId, orderId: c.orderId, state: o.state }, "order listed open but ended here: cancelling");
    await cancelUntracked(ctx, c.orderId, rec.marketId);
  }
  report.trades = await pullTrades(ctx);
  report.gapReads = await readFillGaps(ctx);
  ctx.compact?.();
  return report;
}

/** Compare a complete walk with the tracker, adopt our own strays, hand foreign ones to the policy. */
export async function reconcileOpen(
  ctx: SyncContext,
  walk: OpenWalk,
): Promise<{ adopted: number; foreign: number; missing: number; contradictions: { clientOrderId: string; orderId: string }[] }> {
  const diff = ctx.tracker.reconcileOpenWalk(walk.records.keys(), walk.startedAtMs);
  let adopted = 0;
  let foreign = 0;
  const serverTime = walk.serverTimeMs ?? ctx.clock.now();
  for (const id of diff.foreign) {
    const rec = walk.records.get(id);
    if (rec === undefined) continue;
    if (isOwnClientOrderId(rec.clientOrderId, ctx.instanceId)) {
      // Another daemon's order under our prefix: neither adopted nor cancelled (the fence halts).
      if (ctx.fence?.check(fencedRecord(rec), ctx.wallet, "an open-order walk") === "conflict") continue;
      const t = ctx.adopt(rec, serverTime);
      if (t.outcome === "applied") {
        adopted += 1;
        ctx.log.info({ market: rec.marketId, clientOrderId: rec.clientOrderId, orderId: rec.id, status: rec.status }, "order adopted");
      }
    } else {
      foreign += 1;
      await ctx.onForeign(rec);
    }
  }
  const drift = diff.missing.length + diff.terminalButOpen.length;
  if (drift > 0) {
    ctx.observer.onEvent({ type: "drift", wallet: ctx.wallet, kind: "orders", count: drift });
    ctx.log.info({ missing: diff.missing.length, terminalButOpen: diff.terminalButOpen.length }, "open orders differ from the tracker: reading them");
  }
  const contradictions = diff.terminalButOpen.filter((o) => o.orderId !== undefined).map((o) => ({ clientOrderId: o.clientOrderId, orderId: o.orderId! }));
  return { adopted, foreign, missing: diff.missing.length, contradictions };
}

/**
 * Read what the tracker asks for (except cancel retries, which the executor sends): by id when we
 * have one, else by lookup. Unknown outcomes younger than `graceMs` wait (the platform may still
 * be recording them). A lookup answering 404 too soon after the send leaves the order unknown;
 * the tracker offers it again at `nextReadDueMs()` until a 404 may conclude (its `conclusiveAtMs`).
 * Returns the number of reads.
 */
export async function resolveReads(ctx: SyncContext, opts: { graceMs: number; unknownSince: ReadonlyMap<string, number> }): Promise<number> {
  const now = ctx.clock.now();
  let reads = 0;
  for (const need of ctx.tracker.ordersNeedingRead(now)) {
    if (need.reason === "cancel_retry") continue;
    if (need.reason === "unknown") {
      const since = opts.unknownSince.get(need.clientOrderId);
      if (since !== undefined && now - since < opts.graceMs) continue;
    }
    reads += 1;
    await readOne(ctx, need);
  }
  return reads;
}

async function readOne(ctx: SyncContext, need: ReadNeed): Promise<void> {
  try {
    if (need.via === "id" && need.orderId !== undefined) {
      const r = await ctx.api.orders.get(need.orderId);
      ctx.track({ kind: "read", record: r.data, serverTimeMs: r.meta.serverTime ?? ctx.clock.now() });
      return;
    }
    // The send time of the lookup decides whether a 404 may conclude (order-tracker-apply.ts, notFoundTooSoon).
    const at = ctx.clock.now();
    const r = await ctx.api.orders.lookup({ clientOrderId: need.clientOrderId });
    if (r.data === null) {
      const ev = { kind: "lookup_not_found" as const, clientOrderId: need.clientOrderId, nowMs: at };
      const t = ctx.track(r.meta.serverTime === undefined ? ev : { ...ev, serverTimeMs: r.meta.serverTime });
      const fields = { clientOrderId: need.clientOrderId, orderId: null, conclusiveAtMs: need.conclusiveAtMs ?? null };
      if (t.to === "rejected") ctx.log.info(fields, "lookup: never recorded");
      else if (t.outcome === "same") ctx.log.debug({ ...fields, message: t.message }, "lookup: not found yet, looking again");
    } else {
      ctx.track({ kind: "read", record: r.data, serverTimeMs: r.meta.serverTime ?? ctx.clock.now() });
    }
  } catch (e) {
    ctx.log.warn(
      { clientOrderId: need.clientOrderId, orderId: need.orderId ?? null, reason: need.reason, err: e instanceof Error ? e.message : String(e) },
      "order read failed",
    );
    if (isApiError(e) && e.code === "order_not_found" && need.via === "id") {
      ctx.observer.onEvent({ type: "tracker_anomaly", wallet: ctx.wallet, outcome: "not_found", event: "read", message: need.orderId });
    }
  }
}

/**
 * `/api/me/trades` newest first, down to the last pulled trade (or the session start). The cursor
 * moves only if the walk reaches its stop (FillLedger.beginPull / endPull): one that fails half-way
 * is walked again from the old cursor next time.
 */
export async function pullTrades(ctx: SyncContext): Promise<number> {
  const cursor = ctx.ledger.lastTradeCursor(ctx.wallet);
  const stopBefore = (cursor?.ts ?? ctx.sessionStartMs) - ctx.tradePullMarginMs;
  let added = 0;
  ctx.ledger.beginPull(ctx.wallet);
  for await (const row of ctx.api.portfolio.trades({ limit: 200 })) {
    const ts = Date.parse(row.createdAt);
    if (ts < stopBefore) break;
    const known = ctx.tracker.getByOrderId(row.orderId);
    const before = ctx.ledger.size;
    ctx.applyFill(fillFromMyTrade(ctx.wallet, row, known?.clientOrderId));
    if (ctx.ledger.size > before) added += 1;
  }
  ctx.ledger.endPull(ctx.wallet);
  return added;
}

/** Orders whose reported total exceeds their trades: read their fills by id. */
export async function readFillGaps(ctx: SyncContext): Promise<number> {
  let reads = 0;
  for (const { order } of ctx.tracker.fillGaps()) {
    if (order.orderId === undefined) continue;
    reads += 1;
    try {
      const r = await ctx.api.orders.fills(order.orderId);
      const ref = { orderId: order.orderId, clientOrderId: order.clientOrderId, outcome: order.outcome, side: order.side, marketId: order.marketId };
      const read = readOrderTrades(ctx.wallet, r.data.fills, ref, "order_read");
      for (const f of read.fills) ctx.applyFill(f);
      // Left to the trades pull, which reads the same trades from /api/me/trades.
      if (read.unreadable > 0) ctx.log.warn({ market: order.marketId, clientOrderId: order.clientOrderId, orderId: order.orderId, unreadable: read.unreadable }, "order fills rows unreadable: skipped");
    } catch (e) {
      ctx.log.warn({ market: order.marketId, clientOrderId: order.clientOrderId, orderId: order.orderId, err: e instanceof Error ? e.message : String(e) }, "order fills read failed");
    }
  }
  return reads;
}

/** One cancel of an order the tracker will not cancel (terminal here, or foreign). */
export async function cancelUntracked(ctx: Pick<SyncContext, "api" | "log">, orderId: string, marketId: string): Promise<void> {
  try {
    const r = await ctx.api.orders.cancel(orderId);
    ctx.log.info({ market: marketId, clientOrderId: null, orderId, result: r.status }, "stray order cancel");
  } catch (e) {
    ctx.log.warn({ market: marketId, clientOrderId: null, orderId, err: e instanceof Error ? e.message : String(e) }, "stray order cancel failed");
  }
}
