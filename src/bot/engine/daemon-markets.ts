/**
 * The daemon's markets over time: book and selection events to the wallets' cycles (a selected
 * market's books and public trades followed, a deselected one's dropped), the selection refresh (and forgetting markets nobody holds anything on), one timer per market at
 * its next phase boundary (pre-market start, opensAt, the pull time before closesAt), and the
 * settlement of inventory when a market resolves or is voided.
 */
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Logger } from "../../log/index.js";
import type { Inventory } from "../fills/inventory.js";
import type { MarketDataSource } from "../market/market-data.js";
import type { MarketRegistry } from "../market/market-registry.js";
import { quotedOutcomes } from "../quote/quote-cycle.js";
import type { RestTradeFeed } from "../market/trade-feed.js";
import type { WalletRunner } from "./wallet-runner.js";

/** Longest single timer (node's setTimeout overflows past 2^31 ms). */
const MAX_TIMER_MS = 6 * 3_600_000;

export interface MarketTimelineParts {
  clock: Clock;
  log: Logger;
  registry: MarketRegistry;
  data: MarketDataSource;
  trades: Pick<RestTradeFeed, "track" | "untrack">;
  inventory: Inventory;
  runners: readonly WalletRunner[];
  /** False once the daemon stops: no new phase timer then. */
  active: () => boolean;
  /** A one-off timer the daemon clears at stop. */
  later: (fn: () => void, ms: number) => void;
  /** Told of a settlement before the inventory applies it (the settlement check reads the shares held). */
  onSettled?: (symbol: string, kind: "resolved" | "voided", payoutNumerators: readonly bigint[] | null, outcomeCount: number, atMs: number, platformId: string) => void;
}

export class MarketTimeline {
  private readonly phaseTimers = new Map<string, TimerHandle>();
  /**
   * Markets whose settlement was applied (noteSettlement: once per market). Only consulted for a
   * market the registry follows (noteSettlement and the forgetting in refreshSelection both start
   * from the registry's entry), so an entry is dropped when its market is forgotten: the set never
   * outgrows the registry. A forgotten settled market does not come back to settle twice: selection
   * skips a market whose row is stopped (settled, or past closesAt), and followHeld runs only at
   * start-up (settleKnown), before anything is settled in this process. While a payout is awaited
   * (the settlement check, its overdue alert) the registry keeps the market, and so its entry.
   */
  private readonly settled = new Set<string>();
  /** The wallets' inventories are anchored (start-up done): settlements may be applied. */
  private anchored = false;
  private selectedOnce = false;
  /** Inventory.counters.afterRetirement already logged. */
  private lateRetiredSeen = 0;

  constructor(private readonly p: MarketTimelineParts) {}

  /** Book updates and staleness to the owning wallet, selection and row changes to everyone. */
  wire(): void {
    const { data, trades, registry, log } = this.p;
    data.onUpdate((symbol) => this.ownerOf(symbol)?.trigger(symbol, "book"));
    data.onStale((symbol, outcome) => {
      log.warn({ market: symbol, outcome }, "market data stale: pulling quotes");
      this.ownerOf(symbol)?.trigger(symbol, "stale");
    });
    registry.onChange((symbol, what) => {
      const e = registry.get(symbol);
      if (e === undefined) return;
      if (what === "selected") {
        data.track(symbol, quotedOutcomes(e.row.outcomeCount));
        trades.track(symbol, e.row.outcomeCount);
      }
      if (what === "deselected") {
        data.untrack(symbol);
        trades.untrack(symbol);
      }
      if (what === "row") this.noteSettlement(symbol);
      this.schedulePhase(symbol);
      for (const r of this.p.runners) r.trigger(symbol, "market");
    });
  }

  private ownerOf(symbol: string): WalletRunner | undefined {
    const w = this.p.registry.get(symbol)?.wallet;
    return w === undefined ? undefined : this.p.runners[w];
  }

  async refreshSelection(): Promise<void> {
    const { registry, log, inventory } = this.p;
    const change = await registry.refreshSelection();
    if (change.added.length + change.removed.length + change.moved.length > 0) {
      // The first selection is in the daemon's "started" line (debug here); later changes are news.
      const fields = { added: change.added, removed: change.removed, moved: change.moved };
      if (this.selectedOnce) log.info(fields, "market selection");
      else log.debug(fields, "market selection");
    }
    this.selectedOnce = true;
    // Forget deselected markets once no wallet holds orders there, nor shares awaiting settlement
    // (their rows keep being read until RESOLVED / VOIDED pays them out in the inventory), nor a
    // payout still awaited (the settlement check maps the platform's market id back to the symbol).
    for (const e of registry.all()) {
      if (e.selected) continue;
      const symbol = e.row.symbol;
      const held = !this.settled.has(symbol) && inventory.positions(undefined, symbol).some((p) => p.qty !== 0n);
      const busy = held || inventory.payoutAwaited(symbol) || this.p.runners.some((r) => r.tracker.liveOrders(symbol).length > 0);
      if (!busy) {
        registry.forget(symbol);
        this.settled.delete(symbol);
        // A settled market's positions go too, once no fill can still reach them (Inventory,
        // "Retirement"); an unsettled one keeps them.
        inventory.retireWhenSafe(symbol, this.p.runners.map((r) => r.wallet));
        this.p.clock.clearTimeout(this.phaseTimers.get(symbol));
        this.phaseTimers.delete(symbol);
      }
    }
    const late = inventory.counters.afterRetirement;
    if (late > this.lateRetiredSeen) {
      log.warn({ fills: late - this.lateRetiredSeen, total: late }, "fills for markets already retired from the inventory: their settlement was applied again");
      this.lateRetiredSeen = late;
    }
  }

  /** Selected markets in a quoting phase, with the outcomes whose books they quote from. */
  quotedMarkets(nowMs: number): { symbol: string; outcomes: number[] }[] {
    const out: { symbol: string; outcomes: number[] }[] = [];
    for (const e of this.p.registry.selected()) {
      const phase = this.p.registry.phase(e.row.symbol, nowMs)?.phase;
      if (phase === "open" || phase === "pre_market") out.push({ symbol: e.row.symbol, outcomes: quotedOutcomes(e.row.outcomeCount) });
    }
    return out;
  }

  /** A timer at the market's next phase boundary: cycle it then (and re-read its row at opening). */
  private schedulePhase(symbol: string): void {
    const clock = this.p.clock;
    clock.clearTimeout(this.phaseTimers.get(symbol));
    this.phaseTimers.delete(symbol);
    if (!this.p.active()) return;
    const at = this.p.registry.nextBoundary(symbol);
    if (at === undefined) return;
    const delay = at - clock.now() + 1;
    const handle = clock.setTimeout(
      () => {
        this.phaseTimers.delete(symbol);
        // A far boundary is approached in steps (timers cannot wait weeks).
        if (delay > MAX_TIMER_MS) {
          this.schedulePhase(symbol);
          return;
        }
        for (const r of this.p.runners) r.trigger(symbol, "phase");
        // The status moves at opensAt / closesAt: read it shortly after.
        this.p.later(() => void this.p.registry.refreshStatus([symbol]).catch(() => undefined), 1_000);
        this.schedulePhase(symbol);
      },
      Math.min(MAX_TIMER_MS, Math.max(0, delay)),
    );
    this.phaseTimers.set(symbol, handle);
  }

  /**
   * Start-up is done (the wallets' inventories are anchored to the platform's positions): apply the
   * settlements seen so far, markets settled before this process started included. A market whose
   * payout the platform has not made yet still lists its shares, so the inventory holds them and
   * the settlement check watches the payout as if the daemon had not restarted; one already paid
   * lists nothing and settles nothing. Held markets no selection follows (settled before the start,
   * or dropped from the config) are read first (MarketRegistry.followHeld).
   */
  async settleKnown(): Promise<void> {
    const { registry, inventory } = this.p;
    const held = [...new Set(inventory.positions().filter((p) => p.qty !== 0n).map((p) => p.marketId))].filter((s) => registry.get(s) === undefined);
    if (held.length > 0) await registry.followHeld(held);
    this.anchored = true;
    for (const e of registry.all()) this.noteSettlement(e.row.symbol);
  }

  /** Resolution / void moves inventory to cash (once per market, once the inventories are anchored). */
  private noteSettlement(symbol: string): void {
    const e = this.p.registry.get(symbol);
    if (!this.anchored || e === undefined || this.settled.has(symbol)) return;
    const row = e.row;
    const now = this.p.clock.now();
    if (row.status === "RESOLVED" && row.payoutNumerators !== null) {
      this.settled.add(symbol);
      const nums = row.payoutNumerators.map((n) => BigInt(n));
      const at = Date.parse(row.lifecycle.resolvedAt ?? "") || now;
      this.p.onSettled?.(symbol, "resolved", nums, row.outcomeCount, at, row.id);
      this.p.inventory.resolve(symbol, nums, at);
    } else if (row.status === "VOIDED") {
      this.settled.add(symbol);
      const at = Date.parse(row.lifecycle.voidedAt ?? "") || now;
      this.p.onSettled?.(symbol, "voided", null, row.outcomeCount, at, row.id);
      this.p.inventory.voidMarket(symbol, row.outcomeCount, at);
    }
  }

  clearTimers(): void {
    for (const t of this.phaseTimers.values()) this.p.clock.clearTimeout(t);
    this.phaseTimers.clear();
  }
}
