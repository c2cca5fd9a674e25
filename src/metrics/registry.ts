/**
 * DaemonMetrics: every metric of the daemon (metric-set.ts) and its scrape.
 *
 * Two kinds of metrics:
 * - event metrics, updated by the MetricsObserver (observer.ts) as the engine reports;
 * - scrape metrics, read from live objects (rate gate, breaker, streams, halts, order trackers)
 *   by `refresh()`, which `scrape()` runs before rendering. Scrape `/metrics` through `scrape()`.
 *
 * `promtool check metrics` passes on the output (test/metrics/promtool.test.ts). Labels are
 * bounded and secret-free (labels.ts); the market label's slots follow the markets quoted, then
 * those holding shares, and are recycled (market-labels.ts, market-series.ts).
 * docs/metrics.md describes each metric.
 */
import { refreshScrapeMetrics } from "./collectors.js";
import { MarketSeries } from "./market-series.js";
import { MetricSet, type MetricSetOptions } from "./metric-set.js";
import type { ScrapeSources } from "./scrape-sources.js";
import { ConfigInfoMetric } from "./config-info.js";

export type DaemonMetricsOptions = MetricSetOptions;

export class DaemonMetrics extends MetricSet {
  /** What the market label's slots follow, and the series pruned when one is freed. */
  readonly marketSeries: MarketSeries;
  /** mm_config_info{hash}: the active config (the engine sets it at start-up and on each applied reload). */
  readonly configInfo: ConfigInfoMetric;

  constructor(opts: DaemonMetricsOptions) {
    super(opts);
    this.configInfo = new ConfigInfoMetric(this.registry);
    this.marketSeries = new MarketSeries(this);
    this.labels.markets.track(
      () => this.marketSeries.inUse(),
      () => this.marketSeries.changed(),
    );
  }

  /** Attach live objects read at scrape time (rate gate, breaker, streams, halts, readiness). */
  setSources(sources: Partial<ScrapeSources>): void {
    Object.assign(this.sources, sources);
  }

  /**
   * The markets in use changed (a selection refresh, a market closing or halted): the next market
   * wanting a label re-reads them at once instead of waiting for the periodic sweep.
   */
  marketsChanged(): void {
    this.labels.markets.usageChanged();
  }

  /** Update the market label slots, then the scrape metrics from their sources. */
  refresh(): void {
    this.labels.markets.afterSweep(() => refreshScrapeMetrics(this));
  }

  /**
   * The exposition text of every metric (refreshing the scrape metrics and removing the series
   * of freed market labels first). Markets left have their final values in this text: their
   * counters may go once their labels are given away. An update made while the text is being
   * rendered is not counted as rendered (the marks are taken before), so the next scrape shows it.
   */
  async scrape(): Promise<string> {
    this.refresh();
    await this.marketSeries.prune();
    const left = this.labels.markets.unexported();
    const text = await this.registry.metrics();
    this.labels.markets.markExported(left);
    return text;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
