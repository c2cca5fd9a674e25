/**
 * The load shedder's gauges (src/metrics/capacity-metrics.ts): mm_load_shed_level and
 * mm_load_shed_markets are 0 before the engine attaches its guard, then read the guard's state
 * at each scrape (never a stale copy).
 */
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { LoadShedMetrics, type LoadShedSource } from "../../src/metrics/capacity-metrics.js";
import { sample } from "./samples.js";

describe("mm_load_shed_*", () => {
  it("are 0 until a guard is followed, with their help and type", async () => {
    const registry = new Registry();
    new LoadShedMetrics(registry);
    const text = await registry.metrics();
    expect(sample(text, "mm_load_shed_level")).toBe(0);
    expect(sample(text, "mm_load_shed_markets")).toBe(0);
    expect(text).toContain("# TYPE mm_load_shed_level gauge");
    expect(text).toContain("# TYPE mm_load_shed_markets gauge");
  });

  it("read the followed guard at every scrape", async () => {
    const registry = new Registry();
    const m = new LoadShedMetrics(registry);
    const state: LoadShedSource = { level: 1, marketsShed: 0 };
    m.follow(() => state);
    let text = await registry.metrics();
    expect(sample(text, "mm_load_shed_level")).toBe(1);
    expect(sample(text, "mm_load_shed_markets")).toBe(0);
    // Two batches shed: level 1 + 2, six markets.
    Object.assign(state, { level: 3, marketsShed: 6 });
    text = await registry.metrics();
    expect(sample(text, "mm_load_shed_level")).toBe(3);
    expect(sample(text, "mm_load_shed_markets")).toBe(6);
  });

  it("a second follow replaces the first source", async () => {
    const registry = new Registry();
    const m = new LoadShedMetrics(registry);
    m.follow(() => ({ level: 5, marketsShed: 9 }));
    m.follow(() => ({ level: 2, marketsShed: 1 }));
    const text = await registry.metrics();
    expect(sample(text, "mm_load_shed_level")).toBe(2);
    expect(sample(text, "mm_load_shed_markets")).toBe(1);
  });
});
