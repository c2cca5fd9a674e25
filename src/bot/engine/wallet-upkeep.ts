/**
 * The background work of one wallet, off the quote path: repeating cancels whose Retry-After has
 * passed, looking up orders whose outcome is unknown, claiming frames buffered for order ids we do
 * not track (adopting ours, applying the foreign-order policy to others), and checking inventory
 * against the platform's positions and balances.
 *
 * Memory (the daemon runs for weeks): what is remembered per orderId is bounded. A claim mark lives
 * only while its id still holds buffered frames (the buffer itself is capped); a claim whose read
 * failed is tried again with a growing delay, and an id no read could claim within FORGET_MS has
 * its frames dropped. Frames of a foreign order are dropped once it is known to be foreign (they
 * can never apply to our tracker). Foreign orders are remembered for FORGET_MS after last seen.
 */
import type { WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { OrderRecord } from "../../wire/index.js";
import type { DriftReport, Inventory } from "../fills/inventory.js";
import { RETIRED_KEEP_MS, type OrderTracker } from "../orders/order-tracker.js";
import { errorText } from "./errors.js";
import { cancelUntracked, resolveReads, type SyncContext } from "./fill-sync.js";
import { isOwnClientOrderId } from "../orders/ids.js";
import { fencedRecord } from "../guards/instance-fence.js";
import type { EngineObserver } from "../observer.js";
import type { ForeignOrderPolicy } from "./shutdown.js";
import { formatMicros } from "../../core/money.js";
import type { Position } from "../../wire/index.js";
import type { Fill } from "../fills/fill-ledger.js";
import { readPositions } from "./startup.js";

export interface UpkeepContext {
  wallet: string;
  api: WalletClient;
  tracker: OrderTracker;
  sync: SyncContext;
  inventory: Inventory;
  observer: EngineObserver;
  log: Logger;
  clock: Clock;
  instanceId: string;
  foreignOrders: ForeignOrderPolicy;
  unknownGraceMs: number;
  unknownSince: ReadonlyMap<string, number>;
  /** Market id (or symbol) of a positions row -> the symbol fills carry. */
  symbolOf(marketId: string): string;
  cancel(orders: { clientOrderId: string; orderId: string }[], symbol: string): Promise<unknown>;
  /** Called at the end of each maintenance round (memory bounds). */
  prune(nowMs: number): void;
  /**
   * Re-read these markets' rows (a resolution or void seen there is settled in the inventory
   * before this resolves); absent: not done.
   */
  refreshMarkets?(symbols: readonly string[]): Promise<void>;
}

/** A foreign order seen again within this is not acted on twice. */
const FOREIGN_REPEAT_MS = 5_000;
/** A buffered orderId whose read failed is read again after this, doubling each time up to CLAIM_RETRY_MAX_MS. */
export const CLAIM_RETRY_MS = 5_000;
export const CLAIM_RETRY_MAX_MS = 300_000;
/**
 * How long a buffered orderId may stay unclaimed before its frames are dropped, and how long a
 * foreign order is remembered after it was last seen: the tracker's horizon for pruned orderIds
 * (TrackerOptions.retiredKeepMs, 1 h by default).
 */
export const FORGET_MS = RETIRED_KEEP_MS;

/** A buffered orderId looked at: since when, when it may be read again, failed reads in a row. */
interface ClaimMark {
  firstAtMs: number;
  nextAtMs: number;
  failures: number;
}

type ClaimResult = "adopted" | "foreign" | "failed";

export class WalletUpkeep {
  private running = false;
  private readonly claims = new Map<string, ClaimMark>();
  private readonly foreignSeen = new Map<string, number>();

  constructor(private readonly c: UpkeepContext) {}

  async maintain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const c = this.c;
    try {
      const now = c.clock.now();
      const retry = new Map<string, { clientOrderId: string; orderId: string }[]>();
      for (const need of c.tracker.ordersNeedingRead(now)) {
        if (need.reason !== "cancel_retry" || need.orderId === undefined) continue;
        const o = c.tracker.get(need.clientOrderId);
        if (o === undefined) continue;
        const list = retry.get(o.marketId) ?? [];
        list.push({ clientOrderId: need.clientOrderId, orderId: need.orderId });
        retry.set(o.marketId, list);
      }
      for (const [symbol, orders] of retry) await c.cancel(orders, symbol);
      await resolveReads(c.sync, { graceMs: c.unknownGraceMs, unknownSince: c.unknownSince });
      await this.claimAll(now);
      for (const [id, at] of this.foreignSeen) if (now - at >= FORGET_MS) this.foreignSeen.delete(id);
      c.observer.onEvent({ type: "unknown_orders", wallet: c.wallet, count: c.tracker.unknownOrders().length });
      c.prune(now);
    } catch (e) {
      c.log.warn({ err: errorText(e) }, "maintenance failed");
    } finally {
      this.running = false;
    }
  }

  /** Claim marks and remembered foreign orders (memory figures). */
  sizes(): { claims: number; foreignSeen: number } {
    return { claims: this.claims.size, foreignSeen: this.foreignSeen.size };
  }

  /** Every buffered orderId due for a look (see the header for the memory rules). */
  private async claimAll(now: number): Promise<void> {
    const c = this.c;
    const ids = c.tracker.bufferedOrderIds();
    const held = new Set(ids);
    // Claimed, replayed or evicted since the last round: nothing is left to look at.
    for (const id of this.claims.keys()) if (!held.has(id)) this.claims.delete(id);
    for (const id of ids) {
      const mark = this.claims.get(id);
      if (this.foreignSeen.has(id) || (mark !== undefined && now - mark.firstAtMs >= FORGET_MS)) {
        const n = c.tracker.discardBuffered(id);
        this.claims.delete(id);
        if (mark !== undefined && !this.foreignSeen.has(id)) c.log.warn({ orderId: id, frames: n, failures: mark.failures }, "buffered frames never claimed: dropped");
        continue;
      }
      if (mark !== undefined && now < mark.nextAtMs) continue;
      const r = await this.claimBuffered(id);
      if (r === "foreign") {
        c.tracker.discardBuffered(id);
        this.claims.delete(id);
        continue;
      }
      // Adopted: its frames were replayed (the mark goes next round); if they were not, it waits for FORGET_MS.
      const failures = r === "failed" ? (mark?.failures ?? 0) + 1 : 0;
      const nextAtMs = r === "failed" ? now + Math.min(CLAIM_RETRY_MAX_MS, CLAIM_RETRY_MS * 2 ** (failures - 1)) : Infinity;
      this.claims.set(id, { firstAtMs: mark?.firstAtMs ?? now, nextAtMs, failures });
    }
  }

  /** Frames arrived for an order id we do not track: read it; adopt ours, apply the policy to others. */
  private async claimBuffered(orderId: string): Promise<ClaimResult> {
    const c = this.c;
    try {
      const r = await c.api.orders.get(orderId);
      // Another daemon's order under our prefix: its frames are dropped, the order left alone (the fence halts).
      if (c.sync.fence?.check(fencedRecord(r.data), c.wallet, "the user stream") === "conflict") return "foreign";
      if (isOwnClientOrderId(r.data.clientOrderId, c.instanceId)) {
        c.sync.adopt(r.data, r.meta.serverTime ?? c.clock.now());
        c.log.info({ market: r.data.marketId, clientOrderId: r.data.clientOrderId, orderId }, "order adopted from its frames");
        return "adopted";
      }
      if (r.data.status === "OPEN" || r.data.status === "PARTIAL" || r.data.status === "PENDING") await this.onForeign(r.data);
      return "foreign";
    } catch (e) {
      c.log.debug({ orderId, err: errorText(e) }, "buffered order read failed");
      return "failed";
    }
  }

  /** The foreign-order policy: cancel (default; the daemon owns its wallets) or leave alone. */
  async onForeign(rec: OrderRecord): Promise<void> {
    const c = this.c;
    const now = c.clock.now();
    const last = this.foreignSeen.get(rec.id);
    if (last !== undefined && now - last < FOREIGN_REPEAT_MS) return;
    this.foreignSeen.set(rec.id, now);
    const fields = { market: rec.marketId, clientOrderId: rec.clientOrderId, orderId: rec.id };
    if (c.foreignOrders === "leave") {
      if (last === undefined) c.log.warn(fields, "foreign open order left alone (policy leave)");
      return;
    }
    c.log.warn(fields, "foreign open order: cancelling (policy cancel)");
    await cancelUntracked(c.sync, rec.id, rec.marketId);
  }

  /**
   * Inventory against the platform, reported as a `reconciliation` event. A difference is looked
   * at once more after `sync` (a fill still in flight explains most of them): what survives counts.
   */
  async reconcileInventory(sync: () => Promise<unknown>): Promise<void> {
    let r = await this.checkDrift(false);
    if (r === undefined) return;
    if (!r.clean) {
      // A market that resolved since its row was last read: the platform has settled it, we
      // have not yet. Read those rows first, so a settlement is not reported as drift.
      const markets = [...new Set(r.positions.map((d) => d.marketId))];
      if (markets.length > 0) await this.c.refreshMarkets?.(markets).catch(() => undefined);
      r = await this.checkDrift(true, sync);
      if (r === undefined) return;
    }
    const at = this.c.clock.now();
    this.c.observer.onEvent({ type: "reconciliation", wallet: this.c.wallet, positions: r.positions.length, cash: r.cash === undefined ? 0 : 1, at });
  }

  /**
   * Inventory against /api/me/positions and /api/me/balances. `confirmed`: a second look after a
   * sync (only then are differences counted and logged as warnings). Undefined when a read failed.
   */
  async checkDrift(confirmed: boolean, syncAfterRead?: () => Promise<unknown>): Promise<DriftReport | undefined> {
    const c = this.c;
    try {
      const read = await readPositions(c.api, (id) => c.symbolOf(id));
      const balances = (await c.api.portfolio.balances()).data;
      let positions = read.positions;
      if (syncAfterRead !== undefined) {
        // The platform's figures are as of the read's server time T; ours move on with every fill.
        // A sync after the read brings in every fill stamped at or before T (a lost frame, a pull
        // not yet made); the fills stamped after T are then added to the platform's side, so a
        // fill landing between the reads and the comparison is not taken for drift.
        await syncAfterRead();
        if (read.serverTimeMs !== undefined) positions = [...positions, ...fillsAfter(c.sync.ledger.fills(c.wallet), read.serverTimeMs)];
      }
      const r = c.inventory.checkAgainst(c.wallet, positions, balances);
      if (!confirmed) return r;
      if (r.positions.length > 0) c.observer.onEvent({ type: "drift", wallet: c.wallet, kind: "positions", count: r.positions.length });
      if (r.cash !== undefined) c.observer.onEvent({ type: "drift", wallet: c.wallet, kind: "cash", count: 1 });
      if (!r.clean) {
        c.log.warn(
          {
            positions: r.positions.map((d) => ({ market: d.marketId, outcome: d.outcome, ours: d.ours.toString(), theirs: d.theirs.toString() })),
            cash: r.cash ? { ours: r.cash.ours.toString(), theirs: r.cash.theirs.toString() } : undefined,
          },
          "inventory drift",
        );
      }
      return r;
    } catch (e) {
      c.log.warn({ err: errorText(e) }, "drift check failed");
      return undefined;
    }
  }
}

/** Position rows (signed quantities) for the fills stamped after `afterMs`: the moves the platform's read did not see yet. */
export function fillsAfter(fills: readonly Fill[], afterMs: number): Position[] {
  const moves = new Map<string, { marketId: string; outcome: number; qty: bigint }>();
  for (const f of fills) {
    if (f.ts <= afterMs) continue;
    const k = `${f.marketId}|${f.outcome}`;
    const m = moves.get(k) ?? { marketId: f.marketId, outcome: f.outcome, qty: 0n };
    m.qty += f.side === "BUY" ? f.qty : -f.qty;
    moves.set(k, m);
  }
  return [...moves.values()].filter((m) => m.qty !== 0n).map((m): Position => ({ marketId: m.marketId, tokenId: "", outcome: m.outcome, quantity: formatMicros(m.qty), locked: "0", avgPrice: null }));
}
