/**
 * DaemonMetrics and its scrape (src/metrics/registry.ts): sources attached in parts are merged;
 * each scrape reads them again (scrape metrics are never a stale copy); mm_config_info is
 * declared and follows the active hash; the content type is Prometheus text; a market whose label
 * is released still shows its final counter values in the scrape that follows, and is gone after.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { DaemonMetrics, MetricsObserver } from "../../src/metrics/index.js";
import type { EngineStateSource } from "../../src/metrics/scrape-sources.js";
import { sample, seriesOf } from "./samples.js";

const NOW = Date.UTC(2026, 2, 1, 12);

function metrics(over: { maxMarkets?: number; marketGraceMs?: number } = {}) {
  const clock = new VirtualClock(NOW);
  return { clock, metrics: new DaemonMetrics({ clock, wallets: [{ name: "w1" }], processMetrics: false, ...over }) };
}

describe("DaemonMetrics", () => {
  it("merges sources given in parts, and reads them again at every scrape", async () => {
    const { metrics: d } = metrics();
    let ready = false;
    d.setSources({ ready: () => ready });
    d.setSources({ breaker: { stats: () => ({ state: "closed", windowTotal: 0, windowFailures: 0, opened: 4, refused: 0, bypassed: 0, openUntil: undefined }) } });
    let text = await d.scrape();
    expect(sample(text, "mm_ready")).toBe(0);
    expect(sample(text, "mm_circuit_breaker_opened_total")).toBe(4);
    ready = true;
    text = await d.scrape();
    expect(sample(text, "mm_ready")).toBe(1);
  });

  it("declares mm_config_info, one series for the active hash", async () => {
    const { metrics: d } = metrics();
    expect(seriesOf(await d.scrape(), "mm_config_info")).toEqual([]);
    d.configInfo.set("0123abcd");
    d.configInfo.set("4567ef01");
    expect(seriesOf(await d.scrape(), "mm_config_info")).toEqual(['mm_config_info{hash="4567ef01"} 1']);
  });

  it("serves the Prometheus text format", () => {
    expect(metrics().metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("a market's label given to another: its final counters are scraped once, then its series go", async () => {
    const { metrics: d } = metrics({ maxMarkets: 1 });
    const observer = new MetricsObserver(d);
    let quoted = "AAA-1";
    const engine: EngineStateSource = {
      liveQuotes: () => [{ wallet: "w1", market: quoted, buy: 1, sell: 1 }],
      unknownOrders: () => [],
      positions: () => [],
      pnl: () => [],
      dailyPnl: () => [],
    };
    d.setSources({ engine });
    await d.scrape();
    observer.ordersPlaced("w1", "AAA-1", 2);
    let text = await d.scrape();
    expect(sample(text, 'mm_orders_placed_total{wallet="w1",market="AAA-1"}')).toBe(2);
    // The engine now quotes another market only: one slot, so it goes to BBB-1.
    quoted = "BBB-1";
    d.marketsChanged();
    observer.ordersPlaced("w1", "AAA-1", 1);
    text = await d.scrape();
    expect(sample(text, 'mm_live_quotes{wallet="w1",market="BBB-1",side="buy"}')).toBe(1);
    expect(sample(text, 'mm_live_quotes{wallet="w1",market="AAA-1",side="buy"}')).toBeUndefined();
    // 2 + 1: the increment made before the slot went is rendered.
    expect(sample(text, 'mm_orders_placed_total{wallet="w1",market="AAA-1"}')).toBe(3);
    text = await d.scrape();
    expect(text).not.toContain('market="AAA-1"');
  });
});
