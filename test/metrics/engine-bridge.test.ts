/**
 * EngineEvents to metric updates (src/metrics/engine-bridge.ts): each event the header's table
 * names reaches its MetricsObserver method with the right arguments (a pending cancel is not
 * counted, a cycle's control changes are, reconciliation drift is positions + cash); the events
 * the metrics do not count reach nothing; and trackTrackerAnomalies points the counter at the
 * trackers' totals.
 */
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../src/bot/observer.js";
import { emptyCounters } from "../../src/bot/orders/order-tracker-types.js";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros } from "../../src/core/money.js";
import { DaemonMetrics, MetricsObserver } from "../../src/metrics/index.js";
import { EngineMetricsBridge, trackTrackerAnomalies } from "../../src/metrics/engine-bridge.js";
import { sample } from "./samples.js";

const m = parseMicros;
const NOW = Date.UTC(2026, 2, 1, 12);

/** A MetricsObserver stand-in that records every call as [method, ...args]. */
function recorder() {
  const calls: unknown[][] = [];
  const observer = new Proxy({}, { get: (_t, name) => (...args: unknown[]) => void calls.push([String(name), ...args]) }) as MetricsObserver;
  return { calls, bridge: new EngineMetricsBridge(observer, new VirtualClock(NOW)) };
}

const fill = { tradeId: "t1", wallet: "0xw", orderId: "o1", marketId: "BTC-UP", outcome: 0, side: "BUY" as const, price: m("0.45"), qty: m("10"), fee: m("0.02"), role: "taker" as const, ts: NOW, source: "stream" as const };

describe("EngineMetricsBridge", () => {
  const cases: { name: string; e: EngineEvent; calls: unknown[][] }[] = [
    {
      name: "order_placed counts one placement",
      e: { type: "order_placed", wallet: "w1", marketId: "M", clientOrderId: "c", orderId: "o", outcome: 0, side: "BUY", price: m("0.4"), size: m("5"), postOnly: true, status: "OPEN" },
      calls: [["ordersPlaced", "w1", "M"]],
    },
    { name: "a final cancel counts", e: { type: "order_cancelled", wallet: "w1", marketId: "M", clientOrderId: "c", orderId: "o", result: "CANCELLED" }, calls: [["ordersCancelled", "w1", "M"]] },
    { name: "a pending cancel does not (it counts once final)", e: { type: "order_cancelled", wallet: "w1", marketId: "M", clientOrderId: "c", orderId: "o", result: "pending" }, calls: [] },
    { name: "a cancel answered FILLED is not a cancel", e: { type: "order_cancelled", wallet: "w1", marketId: "M", clientOrderId: "c", orderId: "o", result: "FILLED" }, calls: [] },
    { name: "order_rejected passes its code", e: { type: "order_rejected", wallet: "w1", marketId: "M", clientOrderId: "c", code: "insufficient_funds", handling: "business_reject" }, calls: [["orderRejected", "w1", "M", "insufficient_funds"]] },
    {
      name: "fill passes market, role, quantity, price and fee of the fill",
      e: { type: "fill", wallet: "w1", fill },
      calls: [["fill", { wallet: "w1", market: "BTC-UP", role: "taker", qty: m("10"), price: m("0.45"), fee: m("0.02") }]],
    },
    { name: "stream_frame passes serverTs and the receive time", e: { type: "stream_frame", wallet: "w1", serverTs: NOW - 80, at: NOW }, calls: [["streamFrame", "w1", NOW - 80, NOW]] },
    { name: "reconciliation counts positions and cash drift together", e: { type: "reconciliation", wallet: "w1", positions: 2, cash: 1, at: NOW }, calls: [["reconciliation", "w1", 3]] },
    {
      name: "cycle passes its latency and the clock's now, then each control's changes",
      e: { type: "cycle", wallet: "w1", marketId: "M", trigger: "timer", latencyMs: 12, cancels: 0, places: 0, deferredByBudget: 0, controls: new Map([["join_penny", 2], ["order_levels", 1]]) },
      calls: [["cycle", 12, NOW], ["quoteControlChanges", "join_penny", 2], ["quoteControlChanges", "order_levels", 1]],
    },
    { name: "a cycle without controls only times the cycle", e: { type: "cycle", wallet: "w1", marketId: "M", trigger: "book", latencyMs: 3, cancels: 1, places: 1, deferredByBudget: 0 }, calls: [["cycle", 3, NOW]] },
    { name: "market_phase: the markets in use changed", e: { type: "market_phase", marketId: "M", phase: "stopped", reason: "closed" }, calls: [["marketsChanged"]] },
    { name: "markout passes side, horizon and per-share value", e: { type: "markout", wallet: "w1", marketId: "M", side: "SELL", horizonMs: 5_000, perShare: -2_000n }, calls: [["markout", "w1", "M", "SELL", 5_000, -2_000n]] },
    {
      name: "adverse_state passes the sides and whether jump cooling holds",
      e: { type: "adverse_state", wallet: "w1", marketId: "M", sides: [{ outcome: 0, side: "BUY", level: "pull" }], jumpCoolingUntilMs: NOW + 1_000 },
      calls: [["adverseState", "w1", "M", [{ outcome: 0, side: "BUY", level: "pull" }], true]],
    },
    { name: "adverse_state without cooling", e: { type: "adverse_state", wallet: "w1", marketId: "M", sides: [], jumpCoolingUntilMs: null }, calls: [["adverseState", "w1", "M", [], false]] },
    { name: "vault_merge passes result and amount", e: { type: "vault_merge", wallet: "w1", marketId: "M", result: "confirmed", amount: m("20") }, calls: [["vaultMerge", "w1", "confirmed", m("20")]] },
    { name: "events the metrics take elsewhere reach nothing (quotes_live)", e: { type: "quotes_live", wallet: "w1", marketId: "M", count: 2 }, calls: [] },
    { name: "... nor unknown_orders", e: { type: "unknown_orders", wallet: "w1", count: 1 }, calls: [] },
    { name: "... nor a halt (it comes through the risk facade)", e: { type: "halt", action: "raised", scope: "global", target: "all", reason: "manual", detail: "", at: NOW }, calls: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { calls, bridge } = recorder();
      bridge.onEvent(c.e);
      expect(calls).toEqual(c.calls);
    });
  }

  it("through a real MetricsObserver: placements, final cancels and rejects land in their counters", async () => {
    const metrics = new DaemonMetrics({ clock: new VirtualClock(NOW), wallets: [{ name: "w1" }], processMetrics: false });
    const bridge = new EngineMetricsBridge(new MetricsObserver(metrics), new VirtualClock(NOW));
    const placed: EngineEvent = { type: "order_placed", wallet: "w1", marketId: "M", clientOrderId: "c", orderId: "o", outcome: 0, side: "BUY", price: m("0.4"), size: m("5"), postOnly: true, status: "OPEN" };
    bridge.onEvent(placed);
    bridge.onEvent(placed);
    bridge.onEvent({ type: "order_cancelled", wallet: "w1", marketId: "M", clientOrderId: "c", orderId: "o", result: "pending" });
    bridge.onEvent({ type: "order_cancelled", wallet: "w1", marketId: "M", clientOrderId: "c", orderId: "o", result: "CANCELLED" });
    bridge.onEvent({ type: "order_rejected", wallet: "w1", marketId: "M", clientOrderId: "c2", code: "insufficient_funds", handling: "business_reject" });
    const text = await metrics.scrape();
    expect(sample(text, 'mm_orders_placed_total{wallet="w1",market="M"}')).toBe(2);
    expect(sample(text, 'mm_orders_cancelled_total{wallet="w1",market="M"}')).toBe(1);
    expect(sample(text, 'mm_orders_rejected_total{wallet="w1",market="M",code="insufficient_funds"}')).toBe(1);
    expect(sample(text, "mm_last_cycle_timestamp_seconds")).toBe(0);
  });
});

describe("trackTrackerAnomalies", () => {
  it("returns the registry's counter and reads the trackers' totals at each scrape", async () => {
    const metrics = new DaemonMetrics({ clock: new VirtualClock(NOW), wallets: [{ name: "w1" }], processMetrics: false });
    const counters = emptyCounters();
    const counter = trackTrackerAnomalies(metrics, () => [{ wallet: "w1", counters }]);
    expect(counter).toBe(metrics.trackerAnomalies);
    counters.overfill = 4;
    expect(sample(await metrics.scrape(), 'mm_tracker_anomalies_total{wallet="w1",kind="overfill"}')).toBe(4);
  });
});
