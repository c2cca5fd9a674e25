/**
 * What the backtest collector gathers from the engine's events (collector.ts), on hand-made
 * events: order counts per wallet and market (cancels by result, rejections by code), the largest
 * |position| per wallet and across our wallets read from the inventory after each fill, each fill
 * passed on to the series, quote-uptime samples that count only tradable markets, halts, drift,
 * reconciliation re-checks; and the uptime fraction to four places, rounded down.
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros } from "../../src/core/money.js";
import { Inventory } from "../../src/bot/fills/inventory.js";
import type { Fill } from "../../src/bot/fills/fill-ledger.js";
import type { EngineEvent } from "../../src/bot/observer.js";
import { BacktestCollector, emptyOrderCounts, formatUptime, type SampledRunner } from "../../src/backtest/collector.js";
import type { SeriesFill, SeriesRecorder } from "../../src/backtest/series.js";

const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";

let trade = 0;
function fill(wallet: string, side: "BUY" | "SELL", shares: string, over: Partial<Fill> = {}): Fill {
  trade += 1;
  return { tradeId: `t${trade}`, wallet, orderId: `o${trade}`, marketId: "M", outcome: 0, side, price: parseMicros("0.4"), qty: parseMicros(shares), fee: 0n, role: "maker", ts: 1_000 + trade, source: "stream", ...over };
}

const placed = (wallet: string, marketId: string): EngineEvent => ({ type: "order_placed", wallet, marketId, clientOrderId: "c", orderId: "o", outcome: 0, side: "BUY", price: 400_000n, size: ONE, postOnly: true, status: "OPEN" });
const cancelled = (wallet: string, marketId: string, result: "CANCELLED" | "FILLED" | "pending"): EngineEvent => ({ type: "order_cancelled", wallet, marketId, clientOrderId: "c", orderId: "o", result });
const rejected = (marketId: string, code: string): EngineEvent => ({ type: "order_rejected", wallet: A, marketId, clientOrderId: "c", code, handling: "business_reject" });

describe("order counts", () => {
  it("count placements, cancels by result, rejections by code and unknown outcomes per wallet and market", () => {
    const c = new BacktestCollector();
    // A wallet written in capitals counts with its lower-case form.
    c.onEvent(placed(A.toUpperCase().replace("0X", "0x"), "M"));
    c.onEvent(placed(A, "M"));
    c.onEvent(placed(B, "M"));
    c.onEvent(cancelled(A, "M", "CANCELLED"));
    c.onEvent(cancelled(A, "M", "FILLED"));
    c.onEvent(cancelled(A, "M", "pending"));
    c.onEvent(rejected("M", "post_only_would_cross"));
    c.onEvent(rejected("M", "post_only_would_cross"));
    c.onEvent(rejected("M", "insufficient_funds"));
    c.onEvent({ type: "order_unknown", wallet: A, marketId: "N", clientOrderId: "c", code: "timeout" });
    const m = c.ordersOf(A, "M");
    expect({ ...m, rejected: Object.fromEntries(m.rejected) }).toEqual({
      placed: 2,
      cancelled: 1,
      cancelTooLate: 1,
      cancelledBySettlement: 0,
      rejected: { post_only_would_cross: 2, insufficient_funds: 1 },
      unknown: 0,
    });
    expect(c.ordersOf(B, "M").placed).toBe(1);
    expect(c.ordersOf(A, "N").unknown).toBe(1);
    expect(c.ordersOf(B, "N")).toEqual(emptyOrderCounts());
    expect([...c.markets].sort()).toEqual(["M", "N"]);
  });

  it("count the platform's settlement cancels only when there were some", () => {
    const c = new BacktestCollector();
    c.noteSettlementCancels(A, "M", 0);
    expect(c.orders.size).toBe(0);
    expect(c.markets.size).toBe(0);
    c.noteSettlementCancels(A, "M", 2);
    c.noteSettlementCancels(A, "M", 1);
    expect(c.ordersOf(A, "M").cancelledBySettlement).toBe(3);
  });

  it("starts every count from a fresh zero", () => {
    const a = emptyOrderCounts();
    a.rejected.set("x", 1);
    expect(emptyOrderCounts().rejected.size).toBe(0);
  });
});

describe("largest positions", () => {
  it("are read from the inventory after each fill, per wallet and for our wallets together", () => {
    const inv = new Inventory();
    const c = new BacktestCollector();
    c.attach(inv, [A.toUpperCase().replace("0X", "0x"), B]);
    // A buys 10, B sells 4, A sells 10: A peaks at 10, B at -4, together 10, 6, then -4.
    for (const f of [fill(A, "BUY", "10"), fill(B, "SELL", "4"), fill(A, "SELL", "10")]) {
      inv.applyFill(f); // the daemon's inventory applies a fill before the event is emitted
      c.onEvent({ type: "fill", wallet: f.wallet, fill: f });
    }
    expect(c.maxAbsOf(A, "M", 0)).toBe(10n * ONE);
    expect(c.maxAbsOf(B, "M", 0)).toBe(4n * ONE);
    expect(c.maxAbsOf("*", "M", 0)).toBe(10n * ONE);
    expect(c.maxAbsOf(A, "M", 1)).toBe(0n);
    expect([...c.markets]).toEqual(["M"]);
  });

  it("keep the largest magnitude noted, a short one included", () => {
    const c = new BacktestCollector();
    c.noteQty("w|M|0", 3n);
    c.noteQty("w|M|0", -7n);
    c.noteQty("w|M|0", 5n);
    expect(c.maxAbsOf("w", "M", 0)).toBe(7n);
  });

  it("are not tracked before the inventory is attached, but the fill's market is", () => {
    const c = new BacktestCollector();
    const f = fill(A, "BUY", "1", { marketId: "Z" });
    c.onEvent({ type: "fill", wallet: A, fill: f });
    expect(c.maxAbs.size).toBe(0);
    expect([...c.markets]).toEqual(["Z"]);
  });

  it("pass each fill on to the time series", () => {
    const seen: SeriesFill[] = [];
    const c = new BacktestCollector();
    c.series = { fill: (x: SeriesFill) => void seen.push(x) } as unknown as SeriesRecorder;
    const f = fill(A, "SELL", "2.5", { outcome: 1, price: parseMicros("0.61"), fee: 1_234n, role: "taker", ts: 42 });
    c.onEvent({ type: "fill", wallet: A, fill: f });
    expect(seen).toEqual([{ ts: 42, marketId: "M", outcome: 1, side: "SELL", role: "taker", price: 610_000n, qty: 2_500_000n, fee: 1_234n }]);
  });
});

describe("quote uptime samples", () => {
  const runner = (wallet: string, live: Record<string, number>): SampledRunner => ({ wallet, tracker: { liveOrders: (m) => Array.from({ length: live[m] ?? 0 }) } });

  it("count per wallet and for any wallet, only while the market is tradable", () => {
    const c = new BacktestCollector();
    const runners = [runner(A, { M1: 2, M3: 1 }), runner(B, {})];
    const tradable = (m: string) => m !== "M3";
    c.sample(runners, ["M1", "M2", "M3"], tradable);
    c.sample([runner(A, {}), runner(B, { M1: 1 })], ["M1", "M2", "M3"], tradable);
    expect(c.uptimeOf(A, "M1")).toEqual({ samples: 2, live: 1 });
    expect(c.uptimeOf(B, "M1")).toEqual({ samples: 2, live: 1 });
    expect(c.uptimeOf("*", "M1")).toEqual({ samples: 2, live: 2 });
    expect(c.uptimeOf(A, "M2")).toEqual({ samples: 2, live: 0 });
    expect(c.uptimeOf("*", "M2")).toEqual({ samples: 2, live: 0 });
    expect(c.uptimeOf(A, "M3")).toBeUndefined();
    expect(c.uptimeOf("*", "M3")).toBeUndefined();
  });

  it("format as live / samples to four places, rounded down; null without a sample", () => {
    expect(formatUptime(undefined)).toBeNull();
    expect(formatUptime({ samples: 0, live: 0 })).toBeNull();
    expect(formatUptime({ samples: 3, live: 2 })).toBe("0.6666");
    expect(formatUptime({ samples: 10_000, live: 9_995 })).toBe("0.9995");
    expect(formatUptime({ samples: 20_001, live: 20_000 })).toBe("0.9999");
    expect(formatUptime({ samples: 4, live: 4 })).toBe("1.0000");
    expect(formatUptime({ samples: 7, live: 0 })).toBe("0.0000");
  });
});

describe("halts, anomalies, drift and reconciliation", () => {
  it("are recorded as they come; other events are ignored", () => {
    const c = new BacktestCollector();
    c.onEvent({ type: "halt", action: "raised", scope: "market", target: "M", reason: "stale_market_data", detail: "no book for 30 s", at: 5_000 });
    c.onEvent({ type: "tracker_anomaly", wallet: A, outcome: "impossible", event: "fill", message: undefined });
    c.onEvent({ type: "tracker_anomaly", wallet: A, outcome: "conflict", event: "cancel", message: "x" });
    c.onEvent({ type: "drift", wallet: A, kind: "positions", count: 2 });
    c.onEvent({ type: "drift", wallet: B, kind: "positions", count: 1 });
    c.onEvent({ type: "drift", wallet: A, kind: "cash", count: 1 });
    c.onEvent({ type: "reconciliation", wallet: A, positions: 0, cash: 0, at: 1 });
    c.onEvent({ type: "reconciliation", wallet: A, positions: 2, cash: 1, at: 2 });
    c.onEvent({ type: "reconciliation", wallet: B, positions: 0, cash: 1, at: 3 });
    c.onEvent({ type: "quotes_live", wallet: A, marketId: "Q", count: 3 });
    expect(c.halts).toEqual([{ at: 5_000, action: "raised", scope: "market", target: "M", reason: "stale_market_data" }]);
    expect(c.trackerAnomalies).toBe(2);
    expect(Object.fromEntries(c.drift)).toEqual({ positions: 3, cash: 1 });
    expect(c.reconciliation).toEqual({ checks: 3, differing: 2, positions: 2, cash: 2 });
    expect(c.markets.size).toBe(0);
  });
});
