/**
 * The background work of one wallet, off the quote path: repeating cancels whose Retry-After has
 * passed, looking up orders whose outcome is unknown, claiming frames buffered for order ids we do
 * not track (adopting ours, applying the foreign-order policy to others), and checking inventory
 * against the platform's positions and balances.
 */
import type { WalletClient } from "../../api/index.js";
import type { Clock } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { OrderRecord } from "../../wire/index.js";
import type { DriftReport, Inventory } from "../inventory.js";
import type { OrderTracker } from "../order-tracker.js";
import { errorText } from "./errors.js";
import { cancelUntracked, resolveReads, type SyncContext } from "./fill-sync.js";
import { isOwnClientOrderId } from "./ids.js";
import type { EngineObserver } from "./observer.js";
import type { ForeignOrderPolicy } from "./shutdown.js";
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
}

/** A foreign order seen again within this is not acted on twice. */
const FOREIGN_REPEAT_MS = 5_000;

export class WalletUpkeep {
  private running = false;
  private readonly checkedBuffered = new Set<string>();
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
      for (const id of c.tracker.bufferedOrderIds()) {
        if (this.checkedBuffered.has(id)) continue;
        this.checkedBuffered.add(id);
        await this.claimBuffered(id);
      }
      c.observer.onEvent({ type: "unknown_orders", wallet: c.wallet, count: c.tracker.unknownOrders().length });
      c.prune(now);
    } catch (e) {
      c.log.warn({ err: errorText(e) }, "maintenance failed");
    } finally {
      this.running = false;
    }
  }

  /** Frames arrived for an order id we do not track: read it; adopt ours, apply the policy to others. */
  private async claimBuffered(orderId: string): Promise<void> {
    const c = this.c;
    try {
      const r = await c.api.orders.get(orderId);
      if (isOwnClientOrderId(r.data.clientOrderId, c.instanceId)) {
        c.sync.adopt(r.data, r.meta.serverTime ?? c.clock.now());
        c.log.info({ market: r.data.marketId, clientOrderId: r.data.clientOrderId, orderId }, "order adopted from its frames");
      } else if (r.data.status === "OPEN" || r.data.status === "PARTIAL" || r.data.status === "PENDING") await this.onForeign(r.data);
    } catch (e) {
      c.log.debug({ orderId, err: errorText(e) }, "buffered order read failed");
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
      await sync();
      r = await this.checkDrift(true);
      if (r === undefined) return;
    }
    const at = this.c.clock.now();
    this.c.observer.onEvent({ type: "reconciliation", wallet: this.c.wallet, positions: r.positions.length, cash: r.cash === undefined ? 0 : 1, at });
  }

  /**
   * Inventory against /api/me/positions and /api/me/balances. `confirmed`: a second look after a
   * sync (only then are differences counted and logged as warnings). Undefined when a read failed.
   */
  async checkDrift(confirmed: boolean): Promise<DriftReport | undefined> {
    const c = this.c;
    try {
      const positions = await readPositions(c.api, (id) => c.symbolOf(id));
      const balances = (await c.api.portfolio.balances()).data;
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
