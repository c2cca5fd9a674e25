/**
 * What the market label's slots (market-labels.ts) follow, and the series removed when a slot is
 * released or given away.
 *
 * In use: with the engine's state attached (the daemon), the markets it cycles (selected and
 * assigned, or with live orders: `liveQuotes()` lists exactly those) and those with shares held
 * (`positions()`, non-zero: settlement flattens them); without it (an embedder feeding events
 * only), the (wallet, market) pairs reported through `liveQuotes` / `position` until
 * `forgetMarket`. Either way, markets under a market-scope halt.
 *
 * Removal: a retired market loses its gauge series, a market whose slot went to another one its
 * counter series too (once a scrape rendered them: market-labels.ts). Series are matched by
 * their `market` label through prom-client's public get() / remove(), which are async: removal
 * runs in the background as soon as a slot is freed (so series of markets long gone never pile
 * up, scraped or not), and a scrape waits for it before rendering.
 */
import type { Counter, Gauge } from "prom-client";
import { OTHER } from "./market-labels.js";
import type { DaemonMetrics } from "./registry.js";

type Series = Gauge<string> | Counter<string>;

export class MarketSeries {
  /** Event-fed usage: raw market -> raw wallets following it. */
  private readonly followed = new Map<string, Set<string>>();
  private dirty = false;
  private running: Promise<void> | undefined;

  constructor(private readonly m: DaemonMetrics) {}

  /** Event-fed: the wallet follows the market until `unfollow` (forgetMarket) says otherwise. */
  follow(wallet: string, market: string): void {
    let ws = this.followed.get(market);
    if (ws === undefined) this.followed.set(market, (ws = new Set()));
    ws.add(wallet);
  }

  unfollow(wallet: string, market: string): void {
    const ws = this.followed.get(market);
    if (ws === undefined) return;
    ws.delete(wallet);
    if (ws.size === 0) this.followed.delete(market);
  }

  /** Markets in use now (raw symbols). */
  inUse(): Set<string> {
    const used = new Set<string>();
    const engine = this.m.sources.engine;
    if (engine !== undefined) {
      for (const q of engine.liveQuotes()) used.add(q.market);
      for (const p of engine.positions()) if (p.qty !== 0n) used.add(p.market);
    } else {
      for (const market of this.followed.keys()) used.add(market);
    }
    for (const h of this.m.sources.halts?.halts() ?? []) if (h.scope.kind === "market") used.add(h.scope.market);
    return used;
  }

  /** A slot was released or given away: prune soon (in the background) and before the next render. */
  changed(): void {
    this.dirty = true;
    this.running ??= this.drain();
  }

  /** Wait until every removal asked for so far is done (a scrape does, before rendering). */
  async prune(): Promise<void> {
    if (this.dirty) this.running ??= this.drain();
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      // Let the event that freed the slot finish first.
      await Promise.resolve();
      while (this.dirty) {
        this.dirty = false;
        await this.pruneOnce();
      }
    } catch {
      // get() of a plain gauge or counter does not throw; a failed prune is retried next change.
    } finally {
      this.running = undefined;
    }
  }

  /** Remove the series of markets without a label: gauges of retired ones too. */
  private async pruneOnce(): Promise<void> {
    const m = this.m;
    const slots = m.labels.markets;
    const gauges: Series[] = [m.liveQuotes, m.position, m.realisedPnl, m.unrealisedPnl];
    const counters: Series[] = [m.ordersPlaced, m.ordersCancelled, m.ordersRejected, m.quotesDropped, m.fills, m.tradedShares, m.tradedNotional, m.feesPaid];
    for (const [metrics, keep] of [
      [gauges, (label: string) => slots.keepsGauges(label)],
      [counters, (label: string) => slots.keepsCounters(label)],
    ] as const) {
      for (const metric of metrics) {
        for (const v of (await metric.get()).values) {
          const label = v.labels["market"];
          if (label === undefined || label === OTHER) continue;
          // Decided now, after the await: a market labelled again meanwhile keeps its series.
          if (!keep(String(label))) metric.remove(v.labels);
        }
      }
    }
  }
}
