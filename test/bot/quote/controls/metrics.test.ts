/** The cycle event's why.controls reach mm_quote_control_changes_total{control} (engine-bridge.ts). */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../../src/core/clock.js";
import { DaemonMetrics, MetricsObserver } from "../../../../src/metrics/index.js";
import { EngineMetricsBridge } from "../../../../src/metrics/engine-bridge.js";
import { sample } from "../../../metrics/samples.js";

describe("mm_quote_control_changes_total", () => {
  it("counts each control's changes from the cycle events, by control", async () => {
    const clock = new VirtualClock(1_000_000);
    const metrics = new DaemonMetrics({ clock, wallets: [{ name: "w1" }], processMetrics: false });
    const bridge = new EngineMetricsBridge(new MetricsObserver(metrics), clock);
    const cycle = { type: "cycle" as const, wallet: "w1", marketId: "M", trigger: "book" as const, latencyMs: 1, cancels: 0, places: 0, deferredByBudget: 0 };
    bridge.onEvent(cycle);
    bridge.onEvent({ ...cycle, controls: new Map([["order_levels", 4], ["hanging_orders", 1]]) });
    bridge.onEvent({ ...cycle, controls: new Map([["order_levels", 2], ["Bad Name", 1]]) });
    const text = await metrics.scrape();
    expect(sample(text, 'mm_quote_control_changes_total{control="order_levels"}')).toBe(6);
    expect(sample(text, 'mm_quote_control_changes_total{control="hanging_orders"}')).toBe(1);
    expect(sample(text, 'mm_quote_control_changes_total{control="other"}')).toBe(1);
  });
});
