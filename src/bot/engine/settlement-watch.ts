/**
 * Settlement you can check, the shell (the states are src/bot/fills/settlement-check.ts): when a
 * market resolves or is voided, each wallet holding shares in it gets a watch with the exact
 * payout owed; while any watch is open, every `pollIntervalSec` the wallets with open watches read
 * `/api/me/balance-events` (newest first, pages of 500 back to the oldest open settlement),
 * `/api/me/positions`, `/api/me/balances` and `/api/me/auto-redeem` through the client (so inside
 * the rate gate's buckets); nothing is read while nothing is awaited.
 *
 * A payout not shown within `payoutTimeoutSec` of the settlement is overdue: an error log naming
 * wallet, market and amount, and the metrics mm_settlement_pending / mm_settlement_overdue (alert
 * MMSettlementPayoutOverdue). Until a payout is confirmed, the inventory's drift check leaves the
 * market out (Inventory.awaitPayout): a late payout is this alert's business, not a drift halt.
 * A wallet owed nothing (only losing shares) is confirmed at once, but the market stays out of the
 * drift check (an awaited payout of 0) until /api/me/positions no longer lists it: the inventory
 * zeroed the shares at settlement, the platform may redeem them later.
 *
 * A watch carries the platform's market id as well as the symbol: once the daemon forgets a market,
 * balance events and positions naming it by id still match (and the daemon keeps a market whose
 * payout is awaited: Inventory.payoutAwaited).
 */
import { z } from "zod";
import type { Clock } from "../../core/clock.js";
import { formatMicros, tryParseMicros, type Micros } from "../../core/money.js";
import type { Logger } from "../../log/index.js";
import type { WalletClient } from "../../api/index.js";
import type { SettlementSettings } from "../../config/settlement-section.js";
import type { Inventory } from "../fills/inventory.js";
import {
  marketShown,
  payoutsByMarket,
  startWatch,
  stepWatch,
  voidNumerators,
  type SettlementKind,
  type SettlementObservation,
  type SettlementWatch,
} from "../fills/settlement-check.js";
import { readPositions } from "./startup.js";

/** Pages of balance events read per wallet and round at most (500 rows each). */
const MAX_EVENT_PAGES = 10;
const EVENTS_PAGE = 500;
/** Confirmed watches kept for the status and tests, newest last. */
const KEEP_DONE = 200;

const eventRow = z.looseObject({
  kind: z.string(),
  amount: z.string(),
  marketId: z.string().nullish(),
  createdAt: z.string().nullish(),
});

export interface SettlementWatchParts {
  clock: Clock;
  log: Logger;
  settings: SettlementSettings;
  inventory: Inventory;
  /** The wallets this daemon runs: lower-case address and config name. */
  wallets: () => readonly { wallet: string; name: string }[];
  api: (wallet: string) => WalletClient;
  /** A platform market id as the symbol fills carry. */
  symbolOf: (marketId: string) => string;
  /** A one-off timer the daemon clears at stop. */
  later: (fn: () => void, ms: number) => void;
  /** False once the daemon stops. */
  active: () => boolean;
}

export interface SettlementView extends SettlementWatch {
  walletName: string;
}

export class SettlementWatcher {
  private readonly open = new Map<string, SettlementWatch>();
  private readonly done: SettlementWatch[] = [];
  /** Nothing-due watches whose losing shares the platform still lists, by `wallet|market`. */
  private readonly clearing = new Map<string, Pick<SettlementWatch, "wallet" | "marketId" | "platformId">>();
  private polling = false;
  private scheduled = false;

  constructor(private readonly p: SettlementWatchParts) {}

  /**
   * A market settled: open a watch for every wallet of ours holding shares in it. Call BEFORE the
   * inventory applies the settlement (the shares held are read from it).
   */
  onSettled(marketId: string, kind: SettlementKind, numerators: readonly bigint[] | null, outcomeCount: number, settledAtMs: number, platformId?: string): void {
    if (!this.p.settings.enabled) return;
    const nums = kind === "voided" || numerators === null ? voidNumerators(outcomeCount) : numerators;
    const byWallet = new Map<string, { outcome: number; qty: Micros }[]>();
    for (const pos of this.p.inventory.positions(undefined, marketId)) {
      if (pos.qty <= 0n) continue;
      const list = byWallet.get(pos.wallet) ?? [];
      list.push({ outcome: pos.outcome, qty: pos.qty });
      byWallet.set(pos.wallet, list);
    }
    const ours = new Set(this.p.wallets().map((w) => w.wallet));
    for (const [wallet, held] of byWallet) {
      if (!ours.has(wallet)) continue;
      const key = `${wallet}|${marketId}`;
      if (this.open.has(key) || this.clearing.has(key)) continue;
      const w = startWatch({ wallet, marketId, ...(platformId !== undefined ? { platformId } : {}), kind, numerators: nums, held, settledAtMs });
      const fields = { wallet: this.nameOf(wallet), market: marketId, kind, expected: formatMicros(w.expected) };
      if (w.state === "confirmed") {
        this.p.log.info(fields, "settlement: nothing due (only losing shares held)");
        this.finish(w);
        // Until the platform stops listing the shares, they are not drift either.
        this.clearing.set(key, { wallet: w.wallet, marketId, ...(platformId !== undefined ? { platformId } : {}) });
        this.p.inventory.awaitPayout(wallet, marketId, 0n);
        continue;
      }
      this.open.set(key, w);
      this.p.inventory.awaitPayout(wallet, marketId, w.expected);
      this.p.log.info(fields, "settlement: payout expected");
    }
    this.schedule();
  }

  /** Open and recently confirmed watches, for metrics, status and tests. */
  views(): SettlementView[] {
    return [...this.done, ...this.open.values()].map((w) => ({ ...w, walletName: this.nameOf(w.wallet) }));
  }

  openWatches(): SettlementView[] {
    return [...this.open.values()].map((w) => ({ ...w, walletName: this.nameOf(w.wallet) }));
  }

  /** One round of reads and steps now (tests; the timer calls it too). */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const wallets = [...new Set([...this.open.values(), ...this.clearing.values()].map((w) => w.wallet))];
      for (const wallet of wallets) {
        if (!this.p.active()) return;
        await this.pollWallet(wallet);
      }
    } finally {
      this.polling = false;
    }
  }

  private schedule(): void {
    if (this.scheduled || this.open.size + this.clearing.size === 0 || !this.p.active()) return;
    this.scheduled = true;
    this.p.later(() => {
      this.scheduled = false;
      void this.poll().finally(() => this.schedule());
    }, this.p.settings.pollIntervalSec * 1000);
  }

  private async pollWallet(wallet: string): Promise<void> {
    const watches = [...this.open.values()].filter((w) => w.wallet === wallet);
    const clearing = [...this.clearing.entries()].filter(([, c]) => c.wallet === wallet);
    if (watches.length === 0 && clearing.length === 0) return;
    const api = this.p.api(wallet);
    const obs: { -readonly [K in keyof SettlementObservation]: SettlementObservation[K] } = { atMs: this.p.clock.now() };
    if (watches.length > 0) {
      const since = Math.min(...watches.map((w) => w.settledAtMs)) - 60_000;
      obs.payouts = await this.readPayouts(api, since).catch((e: unknown) => this.failed(wallet, "balance-events", e));
    }
    const positions = await readPositions(api, this.p.symbolOf).catch((e: unknown) => this.failed(wallet, "positions", e));
    if (positions !== undefined) obs.marketsHeld = new Set(positions.positions.filter((p) => (tryParseMicros(p.quantity) ?? 0n) > 0n).map((p) => p.marketId));
    const held = obs.marketsHeld;
    if (held !== undefined) {
      for (const [key, c] of clearing) {
        if (marketShown(c, held)) continue;
        this.clearing.delete(key);
        this.p.inventory.payoutArrived(wallet, c.marketId);
        this.p.log.info({ wallet: this.nameOf(wallet), market: c.marketId }, "settlement: losing shares no longer listed by the platform");
      }
    }
    if (watches.length === 0) return;
    const balances = await api.portfolio.balances().catch((e: unknown) => this.failed(wallet, "balances", e));
    const expectedCash = this.p.inventory.expectedCash(wallet);
    if (balances !== undefined && expectedCash !== undefined) obs.balanceMatches = tryParseMicros(balances.data.collateral.total) === expectedCash;
    // Auto-redeem is read for the log only: a platform that says it will pay is not a payout.
    const redeem = await api.portfolio.autoRedeem().catch((e: unknown) => this.failed(wallet, "auto-redeem", e));
    const timeoutMs = this.p.settings.payoutTimeoutSec * 1000;
    for (const w of watches) {
      const next = stepWatch(w, obs, timeoutMs);
      if (next === w) continue;
      const fields = {
        wallet: this.nameOf(wallet),
        market: w.marketId,
        kind: w.kind,
        expected: formatMicros(w.expected),
        received: formatMicros(next.received),
        settledAt: new Date(w.settledAtMs).toISOString(),
      };
      if (next.state === "overdue" && w.state !== "overdue") {
        const shown = next.received === 0n ? "the platform shows no payout" : "the platform shows only part of the payout";
        this.p.log.error({ ...fields, payoutTimeoutSec: this.p.settings.payoutTimeoutSec, autoRedeem: redeem?.data }, `settlement payout overdue: ${shown}`);
      }
      if (next.state === "confirmed") {
        const late = w.state === "overdue";
        const surplus = next.received > next.expected ? formatMicros(next.received - next.expected) : undefined;
        (late ? this.p.log.warn.bind(this.p.log) : this.p.log.info.bind(this.p.log))({ ...fields, by: next.confirmedBy, surplus }, late ? "settlement payout arrived late" : "settlement payout confirmed");
        this.open.delete(`${wallet}|${w.marketId}`);
        this.p.inventory.payoutArrived(wallet, w.marketId);
        this.finish(next);
        continue;
      }
      this.open.set(`${wallet}|${w.marketId}`, next);
    }
  }

  /** `payout` balance events per market (symbol), newest pages back to `sinceMs`. */
  private async readPayouts(api: WalletClient, sinceMs: number): Promise<Map<string, Micros>> {
    const rows: { kind: string; marketId: string | null; amount: Micros }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_EVENT_PAGES; page++) {
      const r = await api.portfolio.balanceEventsPage({ limit: EVENTS_PAGE, ...(cursor !== undefined ? { cursor } : {}) });
      let oldest = Number.POSITIVE_INFINITY;
      for (const raw of r.data.events) {
        const e = eventRow.safeParse(raw);
        if (!e.success) continue;
        const amount = tryParseMicros(e.data.amount);
        if (amount === undefined) continue;
        const marketId = e.data.marketId === null || e.data.marketId === undefined ? null : this.p.symbolOf(e.data.marketId);
        rows.push({ kind: e.data.kind.toLowerCase(), marketId, amount });
        const at = e.data.createdAt ? Date.parse(e.data.createdAt) : Number.NaN;
        if (Number.isFinite(at)) oldest = Math.min(oldest, at);
      }
      const next = r.data.nextCursor;
      if (next === null || next === undefined || next === "" || oldest < sinceMs) break;
      cursor = next;
    }
    return payoutsByMarket(rows);
  }

  private failed(wallet: string, what: string, e: unknown): undefined {
    this.p.log.warn({ wallet: this.nameOf(wallet), read: what, err: e instanceof Error ? e.message : String(e) }, "settlement check: read failed");
    return undefined;
  }

  private finish(w: SettlementWatch): void {
    this.done.push(w);
    if (this.done.length > KEEP_DONE) this.done.splice(0, this.done.length - KEEP_DONE);
  }

  private nameOf(wallet: string): string {
    return this.p.wallets().find((w) => w.wallet === wallet)?.name ?? wallet;
  }
}
