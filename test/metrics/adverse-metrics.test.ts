/** The markout and adverse_state events reach mm_fill_markout_ticks, mm_toxicity_state and mm_jump_cooling (adverse-metrics.ts). */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { DaemonMetrics, MetricsObserver } from "../../src/metrics/index.js";
import { EngineMetricsBridge } from "../../src/metrics/engine-bridge.js";
import { sample } from "./samples.js";

describe("adverse-selection metrics", () => {
  it("markouts as a histogram in ticks per wallet, market, horizon, side; states as gauges", async () => {
    const clock = new VirtualClock(1_000_000);
    const metrics = new DaemonMetrics({ clock, wallets: [{ name: "w1" }], processMetrics: false });
    const bridge = new EngineMetricsBridge(new MetricsObserver(metrics), clock);
    expect(await metrics.scrape()).toContain("# TYPE mm_fill_markout_ticks histogram");
    bridge.onEvent({ type: "markout", wallet: "w1", marketId: "M", side: "BUY", horizonMs: 5_000, perShare: -2_500n });
    bridge.onEvent({ type: "markout", wallet: "w1", marketId: "M", side: "BUY", horizonMs: 5_000, perShare: 1_000n });
    bridge.onEvent({ type: "markout", wallet: "w1", marketId: "M", side: "SELL", horizonMs: 300_000, perShare: 0n });
    bridge.onEvent({ type: "adverse_state", wallet: "w1", marketId: "M", sides: [{ outcome: 0, side: "BUY", level: "pull" }], jumpCoolingUntilMs: 2_000_000 });
    let text = await metrics.scrape();
    expect(sample(text, 'mm_fill_markout_ticks_sum{wallet="w1",market="M",horizon="5s",side="BUY"}')).toBe(-1.5);
    expect(sample(text, 'mm_fill_markout_ticks_count{wallet="w1",market="M",horizon="5s",side="BUY"}')).toBe(2);
    expect(sample(text, 'mm_fill_markout_ticks_bucket{le="-2",wallet="w1",market="M",horizon="5s",side="BUY"}')).toBe(1);
    expect(sample(text, 'mm_fill_markout_ticks_count{wallet="w1",market="M",horizon="300s",side="SELL"}')).toBe(1);
    expect(sample(text, 'mm_toxicity_state{wallet="w1",market="M",outcome="0",side="BUY"}')).toBe(2);
    expect(sample(text, 'mm_jump_cooling{wallet="w1",market="M"}')).toBe(1);
    bridge.onEvent({ type: "adverse_state", wallet: "w1", marketId: "M", sides: [], jumpCoolingUntilMs: null });
    text = await metrics.scrape();
    expect(sample(text, 'mm_toxicity_state{wallet="w1",market="M",outcome="0",side="BUY"}')).toBe(0);
    expect(sample(text, 'mm_jump_cooling{wallet="w1",market="M"}')).toBe(0);
  });
});
