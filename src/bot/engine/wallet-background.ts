/**
 * When a wallet's background work runs (wallet-upkeep.ts and fill-sync.ts say what it does): the
 * REST sync is serialised (a request during a run repeats it once, then every market cycles
 * again), and maintenance is woken early when the tracker has a read due before the next period.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { OrderTracker } from "../orders/order-tracker.js";
import { syncWallet, type SyncContext, type SyncReport } from "./fill-sync.js";
import type { EngineObserver } from "../observer.js";
import type { WalletUpkeep } from "./wallet-upkeep.js";

export interface WalletBackgroundParts {
  wallet: string;
  tracker: OrderTracker;
  upkeep: WalletUpkeep;
  sync: SyncContext;
  unknownGraceMs: number;
  unknownSince: ReadonlyMap<string, number>;
  clock: Clock;
  log: Logger;
  observer: EngineObserver;
  /** The wallet is ready: background work runs only then (a "final" sync runs regardless). */
  ready(): boolean;
  /** Quoting is on: only then does a read due later wake maintenance. */
  quoting(): boolean;
  /** After a sync request that ran (whatever its result): cycle every market again. */
  afterSync(): void;
}

export class WalletBackground {
  private syncAgain = false;
  private running: Promise<SyncReport | undefined> | undefined;
  private readWake: { at: number; timer: TimerHandle } | undefined;

  constructor(private readonly p: WalletBackgroundParts) {}

  /** Cancel retries, unknown-outcome lookups, frames buffered for unknown order ids. */
  async maintain(): Promise<void> {
    if (!this.p.ready()) return;
    await this.p.upkeep.maintain();
    this.wakeForReads();
  }

  /**
   * A lookup answered 404 too soon (or a cancel waits for its Retry-After): maintain again when
   * the tracker says the read is due, whatever the maintenance period.
   */
  private wakeForReads(): void {
    const { clock, tracker } = this.p;
    const due = tracker.nextReadDueMs();
    const now = clock.now();
    if (due === undefined || due <= now || !this.p.quoting()) return;
    if (this.readWake !== undefined && this.readWake.at <= due) return;
    clock.clearTimeout(this.readWake?.timer);
    const timer = clock.setTimeout(() => {
      this.readWake = undefined;
      void this.maintain();
    }, due - now);
    this.readWake = { at: due, timer };
  }

  /** Open-order walk, reads, trade pull (serialised; a request during a run repeats it once). */
  async sync(reason: string): Promise<SyncReport | undefined> {
    const p = this.p;
    if (!p.ready() && reason !== "final") return undefined;
    if (this.running !== undefined) {
      // The run going on repeats once more, so the caller gets a full pass that began after its
      // request: a drift check or the dead-man switch must not compare before the pull is done.
      this.syncAgain = true;
      return this.running;
    }
    this.running = this.runSync(reason);
    return this.running;
  }

  private async runSync(reason: string): Promise<SyncReport | undefined> {
    const p = this.p;
    let report: SyncReport | undefined;
    try {
      do {
        this.syncAgain = false;
        report = await syncWallet(p.sync, { unknownGraceMs: p.unknownGraceMs, unknownSince: p.unknownSince });
        p.log.debug({ reason, ...report }, "wallet reconciled");
      } while (this.syncAgain);
      p.observer.onEvent({ type: "synced", wallet: p.wallet, reason, at: p.clock.now() });
      this.wakeForReads();
    } catch (e) {
      p.log.warn({ reason, err: e instanceof Error ? e.message : String(e) }, "wallet reconciliation failed");
    } finally {
      this.running = undefined;
    }
    p.afterSync();
    return report;
  }

  /**
   * Inventory against /api/me/positions and /api/me/balances. A difference is confirmed once more
   * after a full sync (a fill still in flight explains most of them); what survives is reported.
   */
  async checkDrift(): Promise<void> {
    if (this.p.ready()) await this.p.upkeep.reconcileInventory(() => this.sync("drift"));
  }

  /** Drop the pending read wake (quoting stopped). */
  stop(): void {
    this.p.clock.clearTimeout(this.readWake?.timer);
    this.readWake = undefined;
  }
}
