import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "../../src/api/breaker.js";
import { TransportError, type HttpRequest, type Transport } from "../../src/wire/transport.js";
import { Risk } from "../../src/bot/risk/index.js";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros } from "../../src/core/money.js";
import { emptyCounters } from "../../src/bot/orders/order-tracker-types.js";
import { DaemonMetrics, MetricsObserver, TRACKER_ANOMALY_KINDS, instrumentTransport, trackTrackerAnomalies } from "../../src/metrics/index.js";
import { limits } from "../bot/risk/fixtures.js";
import { streamStats } from "./fixtures.js";
import { sample } from "./samples.js";

function setup() {
  const clock = new VirtualClock(1_000_000);
  const metrics = new DaemonMetrics({ clock, wallets: [{ name: "w1" }, { name: "w2" }], processMetrics: false, dailyLossLimit: parseMicros("250") });
  return { clock, metrics, observer: new MetricsObserver(metrics) };
}

describe("scrape-time collectors", () => {
  it("frame lag is now minus the newest serverTs, and follows the clock", async () => {
    const { clock, metrics } = setup();
    metrics.setSources({ streams: () => [{ wallet: "w1", stats: () => streamStats({ lastServerTs: 1_000_000 - 250 }) }, { wallet: "w2", stats: () => streamStats({ connected: false, lastServerTs: undefined }) }] });
    let text = await metrics.scrape();
    expect(sample(text, 'mm_stream_frame_lag_seconds{wallet="w1"}')).toBe(0.25);
    expect(sample(text, 'mm_stream_frame_lag_seconds{wallet="w2"}')).toBeUndefined();
    expect(sample(text, 'mm_stream_connected{wallet="w2"}')).toBe(0);
    await clock.advance(10_000);
    text = await metrics.scrape();
    expect(sample(text, 'mm_stream_frame_lag_seconds{wallet="w1"}')).toBe(10.25);
  });

  it("tracker anomalies mirror each wallet's tracker counters, by kind, at every scrape", async () => {
    const { metrics } = setup();
    // Declared by every DaemonMetrics, with no series until a source is attached.
    expect(metrics.registry.getSingleMetric("mm_tracker_anomalies_total")).toBe(metrics.trackerAnomalies);
    expect(await metrics.scrape()).not.toMatch(/^mm_tracker_anomalies_total\{/m);
    const w1 = emptyCounters();
    const w2 = emptyCounters();
    trackTrackerAnomalies(metrics, () => [
      { wallet: "w1", counters: w1 },
      { wallet: "w2", counters: w2 },
    ]);
    w1.conflict = 2;
    w1.overfill = 1;
    w2.notFoundTooSoon = 3;
    w2.applied = 50; // an ordinary outcome, not an anomaly: no kind reads it
    let text = await metrics.scrape();
    expect(sample(text, 'mm_tracker_anomalies_total{wallet="w1",kind="conflict"}')).toBe(2);
    expect(sample(text, 'mm_tracker_anomalies_total{wallet="w1",kind="overfill"}')).toBe(1);
    expect(sample(text, 'mm_tracker_anomalies_total{wallet="w2",kind="not_found_too_soon"}')).toBe(3);
    for (const kind of Object.keys(TRACKER_ANOMALY_KINDS)) expect(sample(text, `mm_tracker_anomalies_total{wallet="w2",kind="${kind}"}`), kind).toBeDefined();
    expect(text.split("\n").filter((l) => l.startsWith("mm_tracker_anomalies_total{"))).toHaveLength(12);
    w1.conflict = 5;
    text = await metrics.scrape();
    expect(sample(text, 'mm_tracker_anomalies_total{wallet="w1",kind="conflict"}')).toBe(5);
  });

  it("breaker state is a one-hot gauge that follows the breaker", async () => {
    const { clock, metrics } = setup();
    const breaker = new CircuitBreaker(clock);
    metrics.setSources({ breaker });
    expect(sample(await metrics.scrape(), 'mm_circuit_breaker_state{state="closed"}')).toBe(1);
    for (let i = 0; i < 10; i++) breaker.record(true, false);
    let text = await metrics.scrape();
    expect([sample(text, 'mm_circuit_breaker_state{state="open"}'), sample(text, 'mm_circuit_breaker_state{state="closed"}')]).toEqual([1, 0]);
    expect(sample(text, "mm_circuit_breaker_opened_total")).toBe(1);
    await clock.advance(60_000);
    text = await metrics.scrape();
    expect(sample(text, 'mm_circuit_breaker_state{state="half_open"}')).toBe(1);
    // Counters read from a source are stable across scrapes (reset + set, never accumulated twice).
    expect(sample(text, "mm_circuit_breaker_opened_total")).toBe(1);
  });

  it("halt gauges follow the book: per-reason counts always present, active series vanish when cleared", async () => {
    const { metrics, observer } = setup();
    const risk = new Risk({ limits: limits(), onChange: (c) => observer.halt(c) });
    metrics.setSources({ halts: risk });
    risk.evaluate({ reconciliations: [{ wallet: "w2", drifted: 3, atMs: 1 }], breaker: "open" }, 1);
    let text = await metrics.scrape();
    expect(sample(text, 'mm_risk_halt_active{scope="wallet",target="w2",reason="reconciliation_drift"}')).toBe(1);
    expect(sample(text, 'mm_risk_halt_active{scope="global",target="all",reason="circuit_open"}')).toBe(1);
    expect(sample(text, 'mm_risk_halts_total{scope="global",reason="circuit_open"}')).toBe(1);
    risk.evaluate({ breaker: "closed" }, 2);
    text = await metrics.scrape();
    expect(sample(text, 'mm_risk_halt_active{scope="global",target="all",reason="circuit_open"}')).toBeUndefined();
    expect(sample(text, 'mm_risk_halts_active{reason="circuit_open"}')).toBe(0);
    expect(sample(text, 'mm_risk_halts_active{reason="reconciliation_drift"}')).toBe(1);
    expect(sample(text, 'mm_risk_halts_total{scope="global",reason="circuit_open"}')).toBe(1);
  });
});

describe("observer events", () => {
  it("counts fills, volume and fees in token units; forgetMarket drops the market's gauges", async () => {
    const { metrics, observer: o } = setup();
    o.fill({ wallet: "w1", market: "M", role: "taker", qty: parseMicros("3"), price: parseMicros("0.333"), fee: parseMicros("0.01") });
    o.fill({ wallet: "w1", market: "M", role: "taker", qty: parseMicros("1"), price: parseMicros("0.5"), fee: 0n });
    o.position("w1", "M", 1, parseMicros("-2.5"));
    o.liveQuotes("w1", "M", { buy: 3, sell: 0 });
    o.pnl("w1", "M", { realised: parseMicros("1"), unrealised: parseMicros("2") });
    let text = await metrics.scrape();
    expect(sample(text, 'mm_fills_total{wallet="w1",market="M",role="taker"}')).toBe(2);
    expect(sample(text, 'mm_traded_shares_total{wallet="w1",market="M",role="taker"}')).toBe(4);
    expect(sample(text, 'mm_traded_notional_total{wallet="w1",market="M",role="taker"}')).toBeCloseTo(1.499, 9);
    expect(sample(text, 'mm_fees_paid_total{wallet="w1",market="M"}')).toBe(0.01);
    expect(sample(text, 'mm_position_shares{wallet="w1",market="M",outcome="1"}')).toBe(-2.5);
    expect(sample(text, "mm_daily_loss_limit")).toBe(250);
    o.forgetMarket("w1", "M");
    text = await metrics.scrape();
    expect(text).not.toMatch(/mm_position_shares\{/);
    expect(text).not.toMatch(/mm_live_quotes\{/);
    expect(text).not.toMatch(/mm_realised_pnl\{/);
    expect(sample(text, 'mm_fills_total{wallet="w1",market="M",role="taker"}')).toBe(2);
  });

  it("instrumentTransport times answers and failures by route template", async () => {
    const { clock, metrics, observer } = setup();
    const inner: Transport = {
      request: async (req: HttpRequest) => {
        await clock.sleep(120);
        if (req.path.includes("fail")) throw new TransportError("reset", true, "reset");
        return { status: 503, headers: {}, body: "{}" };
      },
    };
    const t = instrumentTransport(inner, observer, clock);
    const done = t.request({ method: "GET", path: "/api/orders/123?x=1", headers: {} });
    await clock.advance(120);
    expect((await done).status).toBe(503);
    const failed = t.request({ method: "POST", path: "/api/orders/fail", headers: {} }).catch((e: unknown) => e);
    await clock.advance(120);
    expect(await failed).toBeInstanceOf(TransportError);
    const text = await metrics.scrape();
    expect(sample(text, 'mm_http_request_duration_seconds_sum{route="/api/orders/{id}",method="GET",status="503"}')).toBe(0.12);
    expect(sample(text, 'mm_http_request_duration_seconds_count{route="/api/orders/{id}",method="POST",status="error"}')).toBe(1);
  });

  it("each daemon has its own registry", async () => {
    const a = setup();
    const b = setup();
    a.observer.ordersPlaced("w1", "M", 2);
    expect(await b.metrics.scrape()).not.toMatch(/mm_orders_placed_total\{/);
  });
});
