/**
 * The daemon's metric set (src/metrics/metric-set.ts): a registry of its own per instance (two
 * daemons in one process never share a series), Prometheus naming (mm_ prefix, snake_case,
 * `_total` on counters and only on them, also after node's process metrics are added), the
 * daily loss limit shown in token units, and no live source attached at first.
 */
import { describe, expect, it } from "vitest";
import { register as globalRegistry } from "prom-client";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros } from "../../src/core/money.js";
import { MetricSet } from "../../src/metrics/metric-set.js";
import { sample } from "./samples.js";

const clock = () => new VirtualClock(Date.UTC(2026, 2, 1));

function typeOf(metric: { type: unknown }): string {
  return String(metric.type);
}

describe("MetricSet", () => {
  it("has a registry of its own, not prom-client's global one, and not another set's", async () => {
    const a = new MetricSet({ clock: clock(), wallets: [{ name: "w1" }], processMetrics: false });
    const b = new MetricSet({ clock: clock(), wallets: [{ name: "w1" }], processMetrics: false });
    expect(a.registry).not.toBe(b.registry);
    expect(a.registry).not.toBe(globalRegistry);
    a.ordersPlaced.inc({ wallet: "w1", market: "M" }, 3);
    expect(sample(await a.registry.metrics(), 'mm_orders_placed_total{wallet="w1",market="M"}')).toBe(3);
    expect(sample(await b.registry.metrics(), 'mm_orders_placed_total{wallet="w1",market="M"}')).toBeUndefined();
    expect(globalRegistry.getSingleMetric("mm_orders_placed_total")).toBeUndefined();
  });

  it("names every metric mm_<snake_case>, with _total on counters only", () => {
    const s = new MetricSet({ clock: clock(), wallets: [], processMetrics: false });
    const metrics = s.registry.getMetricsAsArray();
    expect(metrics.length).toBeGreaterThan(40);
    for (const metric of metrics) {
      expect(metric.name).toMatch(/^mm_[a-z0-9]+(_[a-z0-9]+)*$/);
      expect(metric.name.endsWith("_total"), metric.name).toBe(typeOf(metric) === "counter");
    }
  });

  it("with process metrics (the default): node's process_* and nodejs_* too, and still no gauge named like a counter", () => {
    const s = new MetricSet({ clock: clock(), wallets: [] });
    const names = s.registry.getMetricsAsArray().map((m) => m.name);
    expect(names.some((n) => n.startsWith("process_"))).toBe(true);
    expect(names.some((n) => n.startsWith("nodejs_"))).toBe(true);
    for (const metric of s.registry.getMetricsAsArray()) if (metric.name.endsWith("_total")) expect(typeOf(metric), metric.name).toBe("counter");
    const bare = new MetricSet({ clock: clock(), wallets: [], processMetrics: false });
    expect(bare.registry.getMetricsAsArray().some((m) => m.name.startsWith("process_") || m.name.startsWith("nodejs_"))).toBe(false);
  });

  it("shows the daily loss limit in token units when given, 0 otherwise", async () => {
    const s = new MetricSet({ clock: clock(), wallets: [], processMetrics: false, dailyLossLimit: parseMicros("250.5") });
    expect(sample(await s.registry.metrics(), "mm_daily_loss_limit")).toBe(250.5);
    const none = new MetricSet({ clock: clock(), wallets: [], processMetrics: false });
    expect(sample(await none.registry.metrics(), "mm_daily_loss_limit")).toBe(0);
  });

  it("starts with no live source, and its label guard knows the configured wallets by name and address", () => {
    const address = "0xAbCd000000000000000000000000000000000001";
    const s = new MetricSet({ clock: clock(), wallets: [{ name: "alpha", address }], processMetrics: false });
    expect(s.sources).toEqual({});
    expect(s.labels.wallet(address.toLowerCase())).toBe("alpha");
    expect(s.labels.wallet("0x9999000000000000000000000000000000000009")).toBe("other");
  });

  it("declares the sub-sets' metrics on the same registry (loop, load shedding, auto-merge, settlement, leases, adverse selection)", () => {
    const s = new MetricSet({ clock: clock(), wallets: [], processMetrics: false });
    for (const name of ["mm_event_loop_lag_seconds", "mm_load_shed_level", "mm_vault_merges_total", "mm_settlement_pending", "mm_shard_lease_state", "mm_fill_markout_ticks"]) {
      expect(s.registry.getSingleMetric(name), name).toBeDefined();
    }
  });
});
