/**
 * What the market label's slots (market-labels.ts) follow, the series removed when a slot is
 * released or given away, and the event-fed gauges summed under "other".
 *
 * In use: with the engine's state attached (the daemon), quoted: the markets it cycles (selected
 * and assigned, or with live orders: `liveQuotes()` lists exactly those); held: those with shares
 * (`positions()`, non-zero: settlement flattens them). Without it (an embedder feeding events
 * only): quoted while a wallet reports live orders there through `liveQuotes`, or reported it
 * (any count) within the grace period; held while a wallet reports a non-zero `position`; a market
 * reported by no wallet since the grace period, with no live orders and no shares, is forgotten
 * (so this map stays as small as the markets in use); `forgetMarket` drops a wallet at once.
 * Either way, markets under a market-scope halt are quoted.
 *
 * Removal: a retired market loses its gauge series, a market whose slot went to another one its
 * counter series too (once a scrape rendered them: market-labels.ts). Series are matched by
 * their `market` label through prom-client's public get() / remove(), which are async: removal
 * runs in the background as soon as a slot is freed (so series of markets long gone never pile
 * up, scraped or not), and a scrape waits for it before rendering.
 *
 * "other" gauges, event-fed: several markets share the series, so it holds the sum of each
 * market's last value (kept per market here; a market's part leaves when it gets a label back or
 * is forgotten). A market losing its label moves its last gauge values there. With the engine's
 * state attached the scrape recomputes those sums from the state instead.
 */
import type { Counter, Gauge } from "prom-client";
import { OTHER, type MarketUsage } from "./market-labels.js";
import type { MetricSet } from "./metric-set.js";

type Series = Gauge<string> | Counter<string>;
type Labels = Record<string, string>;

interface Follow {
  /** Wallet -> live orders it last reported. */
  quoters: Map<string, number>;
  /** `wallet\0outcome` reported with shares. */
  holders: Set<string>;
  /** Last report. */
  seen: number;
}

/** One market's share of an "other" gauge series. */
interface Part {
  gauge: Gauge<string>;
  /** The "other" series' labels. */
  labels: Labels;
  value: number;
}

export class MarketSeries {
  /** Event-fed usage: raw market -> who follows it. */
  private readonly followed = new Map<string, Follow>();
  /** Event-fed: raw market -> its parts of "other" gauge series. */
  private readonly parts = new Map<string, Map<string, Part>>();
  private dirty = false;
  private running: Promise<void> | undefined;

  constructor(private readonly m: MetricSet) {}

  /** Event-fed: the wallet's live orders on the market. */
  quotes(wallet: string, market: string, live: number): void {
    const f = this.follow(market);
    f.quoters.set(wallet, live);
  }

  /** Event-fed: the wallet's shares of one outcome of the market (non-zero: held). */
  holds(wallet: string, market: string, outcome: number, held: boolean): void {
    const k = `${wallet}\u0000${outcome}`;
    if (held) this.follow(market).holders.add(k);
    else this.followed.get(market)?.holders.delete(k);
  }

  /** Event-fed: the wallet no longer follows the market (forgetMarket). */
  unfollow(wallet: string, market: string): void {
    const f = this.followed.get(market);
    if (f === undefined) return;
    f.quoters.delete(wallet);
    for (const k of f.holders) if (k.startsWith(`${wallet}\u0000`)) f.holders.delete(k);
    if (f.quoters.size === 0 && f.holders.size === 0) this.followed.delete(market);
  }

  /** Markets followed without the engine's state (bounded by the markets in use). */
  get followedCount(): number {
    return this.followed.size;
  }

  /** Markets in use now (raw symbols). */
  inUse(): MarketUsage {
    const quoted = new Set<string>();
    const held = new Set<string>();
    const engine = this.m.sources.engine;
    if (engine !== undefined) {
      for (const q of engine.liveQuotes()) quoted.add(q.market);
      for (const p of engine.positions()) if (p.qty !== 0n) held.add(p.market);
    } else {
      const now = this.m.clock.now();
      const grace = this.m.labels.markets.graceMs;
      for (const [market, f] of this.followed) {
        const recent = now - f.seen < grace;
        let live = false;
        for (const n of f.quoters.values()) if (n > 0) live = true;
        if (live || (recent && f.quoters.size > 0)) quoted.add(market);
        if (f.holders.size > 0) held.add(market);
        else if (!live && !recent) this.followed.delete(market);
      }
    }
    for (const h of this.m.sources.halts?.halts() ?? []) if (h.scope.kind === "market") quoted.add(h.scope.market);
    for (const q of quoted) held.delete(q);
    return { quoted, held };
  }

  /**
   * Set an event-fed gauge of market `raw` whose labels (`labels.market`) were guarded: under
   * "other", the series keeps the sum of each market's last value.
   */
  setGauge(gauge: Gauge<string>, labels: Labels, raw: string, value: number): void {
    if (this.m.sources.engine !== undefined) {
      gauge.set(labels, value);
      return;
    }
    const other = { ...labels, market: OTHER };
    const k = partKey(gauge, other);
    const parts = this.parts.get(raw);
    const prev = parts?.get(k);
    if (labels["market"] !== OTHER) {
      if (prev !== undefined) this.dropPart(raw, k, prev);
      gauge.set(labels, value);
      return;
    }
    gauge.inc(other, value - (prev?.value ?? 0));
    if (value === 0) {
      if (prev !== undefined) parts!.delete(k);
    } else if (prev !== undefined) prev.value = value;
    else this.partsOf(raw).set(k, { gauge, labels: other, value });
  }

  /** Event-fed: take the wallet's parts of market `raw` out of the "other" sums (forgetMarket). */
  dropParts(wallet: string, raw: string): void {
    for (const [k, p] of this.parts.get(raw) ?? []) if (p.labels["wallet"] === wallet) this.dropPart(raw, k, p);
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

  private follow(market: string): Follow {
    let f = this.followed.get(market);
    if (f === undefined) this.followed.set(market, (f = { quoters: new Map<string, number>(), holders: new Set<string>(), seen: 0 }));
    f.seen = this.m.clock.now();
    return f;
  }

  private partsOf(raw: string): Map<string, Part> {
    let p = this.parts.get(raw);
    if (p === undefined) this.parts.set(raw, (p = new Map<string, Part>()));
    return p;
  }

  private dropPart(raw: string, k: string, p: Part): void {
    p.gauge.dec(p.labels, p.value);
    const parts = this.parts.get(raw);
    parts?.delete(k);
    if (parts?.size === 0) this.parts.delete(raw);
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
          if (keep(String(label))) continue;
          metric.remove(v.labels);
          if (metrics === gauges) this.fold(metric as Gauge<string>, v.labels, String(label), v.value);
        }
      }
    }
  }

  /** Event-fed: a gauge series of a market losing its label goes on in the "other" sum. */
  private fold(gauge: Gauge<string>, labels: Partial<Record<string, string | number>>, raw: string, value: number): void {
    if (this.m.sources.engine !== undefined || value === 0) return;
    const other: Labels = {};
    for (const [k, v] of Object.entries(labels)) if (v !== undefined) other[k] = String(v);
    other["market"] = OTHER;
    const k = partKey(gauge, other);
    // An event since the slot went already put its value there.
    if (this.parts.get(raw)?.has(k) === true) return;
    gauge.inc(other, value);
    this.partsOf(raw).set(k, { gauge, labels: other, value });
  }
}

function partKey(gauge: Gauge<string>, labels: Labels): string {
  const name = (gauge as unknown as { name: string }).name;
  return [name, ...Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`)].join("\u0000");
}
