/**
 * Scrape-time collectors (src/metrics/collectors.ts) on a bare MetricSet: the rate gate's figures
 * per bucket and subject (a wallet by its name, folded ones summed, the used ratio the highest, 1
 * while blocked, 0 for an unpaced bucket), the breaker's one-hot state and totals, the streams,
 * the halts (one per reason always present), readiness, and the engine's state (live quotes,
 * unknown orders, positions with a bounded outcome label, PnL only under labels already held);
 * every series follows its source, a source's vanished row leaves nothing behind.
 */
import { describe, expect, it } from "vitest";
import type { BreakerStats } from "../../src/api/breaker.js";
import { HALT_REASONS, type Halt } from "../../src/bot/risk/types.js";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros } from "../../src/core/money.js";
import { refreshScrapeMetrics } from "../../src/metrics/collectors.js";
import { MetricSet } from "../../src/metrics/metric-set.js";
import type { EngineStateSource } from "../../src/metrics/scrape-sources.js";
import type { BucketStats } from "../../src/ratelimit/gate.js";
import { streamStats } from "./fixtures.js";
import { sample, seriesOf } from "./samples.js";

const m = parseMicros;
const NOW = Date.UTC(2026, 2, 1, 12);
const A = "0xaaaa000000000000000000000000000000000001";
const B = "0xbbbb000000000000000000000000000000000002";

function setup(maxMarkets = 10) {
  const clock = new VirtualClock(NOW);
  const set = new MetricSet({ clock, wallets: [{ name: "alpha", address: A }, { name: "beta", address: B }], processMetrics: false, maxMarkets });
  const text = async (): Promise<string> => {
    refreshScrapeMetrics(set);
    return set.registry.metrics();
  };
  return { clock, set, text };
}

function bucket(over: Partial<BucketStats>): BucketStats {
  return { bucket: "orders-place", scope: "wallet", subject: A, limit: 20, budget: 18, used: 0, resetInMs: 0, blockedForMs: 0, queueDepth: 0, admitted: 0, waited: 0, waitMsSum: 0, waitMsMax: 0, rejected429: 0, ...over };
}

function breaker(over: Partial<BreakerStats>): BreakerStats {
  return { state: "closed", windowTotal: 0, windowFailures: 0, opened: 0, refused: 0, bypassed: 0, openUntil: undefined, ...over };
}

describe("rate gate", () => {
  it("per bucket and subject: queue depth, admitted, 429s and the used share of the budget", async () => {
    const { set, text } = setup();
    let stats: BucketStats[] = [
      bucket({ subject: A, used: 9, queueDepth: 2, admitted: 40, rejected429: 1 }),
      bucket({ bucket: "markets-read", scope: "ip", subject: "10.0.0.1", budget: 540, used: 600, admitted: 700 }),
      bucket({ bucket: "orders-cancel", subject: B, used: 1, blockedForMs: 2_000 }),
      bucket({ bucket: "me-read", scope: "partner", subject: "mm", budget: Number.POSITIVE_INFINITY, used: 5 }),
    ];
    set.sources.rateGate = { stats: () => stats };
    let t = await text();
    expect(sample(t, 'mm_rate_gate_queue_depth{bucket="orders-place",subject="alpha"}')).toBe(2);
    expect(sample(t, 'mm_rate_gate_admitted_total{bucket="orders-place",subject="alpha"}')).toBe(40);
    expect(sample(t, 'mm_rate_limited_responses_total{bucket="orders-place",subject="alpha"}')).toBe(1);
    // 9 of 18
    expect(sample(t, 'mm_rate_gate_window_used_ratio{bucket="orders-place",subject="alpha"}')).toBe(0.5);
    // ip and partner buckets are labelled by their scope, never the address; over budget is capped at 1
    expect(sample(t, 'mm_rate_gate_window_used_ratio{bucket="markets-read",subject="ip"}')).toBe(1);
    expect(t).not.toContain("10.0.0.1");
    // blocked (a 429's Retry-After): 1 whatever was used
    expect(sample(t, 'mm_rate_gate_window_used_ratio{bucket="orders-cancel",subject="beta"}')).toBe(1);
    // not paced
    expect(sample(t, 'mm_rate_gate_window_used_ratio{bucket="me-read",subject="partner"}')).toBe(0);

    stats = [bucket({ subject: A, used: 0, admitted: 41 })];
    t = await text();
    expect(seriesOf(t, "mm_rate_gate_admitted_total")).toEqual(['mm_rate_gate_admitted_total{bucket="orders-place",subject="alpha"} 41']);
    expect(seriesOf(t, "mm_rate_gate_window_used_ratio")).toEqual(['mm_rate_gate_window_used_ratio{bucket="orders-place",subject="alpha"} 0']);
  });

  it("addresses folding into other: counts summed, the highest used ratio", async () => {
    const { set, text } = setup();
    const u1 = "0x1111000000000000000000000000000000000001";
    const u2 = "0x2222000000000000000000000000000000000002";
    set.sources.rateGate = { stats: () => [bucket({ subject: u1, used: 3, admitted: 5, queueDepth: 1 }), bucket({ subject: u2, used: 12, admitted: 7, queueDepth: 2 })] };
    const t = await text();
    expect(sample(t, 'mm_rate_gate_admitted_total{bucket="orders-place",subject="other"}')).toBe(12);
    expect(sample(t, 'mm_rate_gate_queue_depth{bucket="orders-place",subject="other"}')).toBe(3);
    // max(3/18, 12/18)
    expect(sample(t, 'mm_rate_gate_window_used_ratio{bucket="orders-place",subject="other"}')).toBeCloseTo(12 / 18, 12);
  });
});

describe("circuit breaker", () => {
  it("one state at 1, the others 0; opened and refused are the breaker's totals", async () => {
    const { set, text } = setup();
    let st = breaker({ state: "open", opened: 2, refused: 17 });
    set.sources.breaker = { stats: () => st };
    let t = await text();
    expect([sample(t, 'mm_circuit_breaker_state{state="closed"}'), sample(t, 'mm_circuit_breaker_state{state="open"}'), sample(t, 'mm_circuit_breaker_state{state="half_open"}')]).toEqual([0, 1, 0]);
    expect(sample(t, "mm_circuit_breaker_opened_total")).toBe(2);
    expect(sample(t, "mm_circuit_breaker_refused_total")).toBe(17);
    st = breaker({ state: "half_open", opened: 2, refused: 20 });
    t = await text();
    expect(sample(t, 'mm_circuit_breaker_state{state="half_open"}')).toBe(1);
    expect(sample(t, 'mm_circuit_breaker_state{state="open"}')).toBe(0);
    // set to the total, not added to the last scrape's
    expect(sample(t, "mm_circuit_breaker_opened_total")).toBe(2);
    expect(sample(t, "mm_circuit_breaker_refused_total")).toBe(20);
  });
});

describe("user streams", () => {
  it("connected only when subscribed too; reconnects and frames; lag from the newest serverTs, never negative", async () => {
    const { set, text } = setup();
    set.sources.streams = () => [
      { wallet: A, stats: () => streamStats({ connected: true, subscribed: true, reconnects: 3, framesReceived: 90, lastServerTs: NOW - 2_500 }) },
      { wallet: "beta", stats: () => streamStats({ connected: true, subscribed: false, lastServerTs: NOW + 400 }) },
    ];
    const t = await text();
    expect(sample(t, 'mm_stream_connected{wallet="alpha"}')).toBe(1);
    expect(sample(t, 'mm_stream_connected{wallet="beta"}')).toBe(0);
    expect(sample(t, 'mm_stream_reconnects_total{wallet="alpha"}')).toBe(3);
    expect(sample(t, 'mm_stream_frames_total{wallet="alpha"}')).toBe(90);
    expect(sample(t, 'mm_stream_frame_lag_seconds{wallet="alpha"}')).toBe(2.5);
    // A frame stamped ahead of our clock (skew): 0, not negative.
    expect(sample(t, 'mm_stream_frame_lag_seconds{wallet="beta"}')).toBe(0);
  });
});

describe("halts and readiness", () => {
  it("one series per active halt; every reason counted, 0 when none; readiness 1 or 0", async () => {
    const { set, text } = setup();
    let halts: Halt[] = [
      { scope: { kind: "global" }, reason: "kill_switch", sinceMs: NOW, detail: "" },
      { scope: { kind: "wallet", wallet: A }, reason: "stream_down", sinceMs: NOW, detail: "" },
      { scope: { kind: "market", market: "BTC-UP" }, reason: "stale_market_data", sinceMs: NOW, detail: "" },
      { scope: { kind: "market", market: "ETH-UP" }, reason: "stale_market_data", sinceMs: NOW, detail: "" },
    ];
    let ready = false;
    set.sources.halts = { halts: () => halts };
    set.sources.ready = () => ready;
    let t = await text();
    expect(sample(t, 'mm_risk_halt_active{scope="global",target="all",reason="kill_switch"}')).toBe(1);
    expect(sample(t, 'mm_risk_halt_active{scope="wallet",target="alpha",reason="stream_down"}')).toBe(1);
    expect(sample(t, 'mm_risk_halt_active{scope="market",target="BTC-UP",reason="stale_market_data"}')).toBe(1);
    expect(sample(t, 'mm_risk_halts_active{reason="stale_market_data"}')).toBe(2);
    expect(sample(t, 'mm_risk_halts_active{reason="kill_switch"}')).toBe(1);
    expect(seriesOf(t, "mm_risk_halts_active")).toHaveLength(HALT_REASONS.length);
    expect(sample(t, 'mm_risk_halts_active{reason="daily_loss"}')).toBe(0);
    expect(sample(t, "mm_ready")).toBe(0);

    halts = [];
    ready = true;
    t = await text();
    expect(seriesOf(t, "mm_risk_halt_active")).toEqual([]);
    expect(sample(t, 'mm_risk_halts_active{reason="kill_switch"}')).toBe(0);
    expect(sample(t, "mm_ready")).toBe(1);
  });

  it("without a halt source every reason still shows 0", async () => {
    const t = await setup().text();
    expect(seriesOf(t, "mm_risk_halts_active")).toHaveLength(HALT_REASONS.length);
    expect(seriesOf(t, "mm_risk_halt_active")).toEqual([]);
  });
});

describe("engine state", () => {
  function engine(over: Partial<EngineStateSource> = {}): EngineStateSource {
    return { liveQuotes: () => [], unknownOrders: () => [], positions: () => [], pnl: () => [], dailyPnl: () => [], ...over };
  }

  it("live quotes per side, unknown orders, positions in shares, daily PnL in token units", async () => {
    const { set, text } = setup();
    set.sources.engine = engine({
      liveQuotes: () => [{ wallet: A, market: "BTC-UP", buy: 2, sell: 1 }],
      unknownOrders: () => [{ wallet: "beta", count: 3 }],
      positions: () => [
        { wallet: A, market: "BTC-UP", outcome: 0, qty: m("12.5") },
        { wallet: A, market: "BTC-UP", outcome: 1, qty: m("-2") },
        { wallet: A, market: "BTC-UP", outcome: 64, qty: m("1") },
        { wallet: A, market: "BTC-UP", outcome: 70, qty: m("2") },
      ],
      dailyPnl: () => [{ wallet: A, pnl: m("-3.75") }],
    });
    const t = await text();
    expect(sample(t, 'mm_live_quotes{wallet="alpha",market="BTC-UP",side="buy"}')).toBe(2);
    expect(sample(t, 'mm_live_quotes{wallet="alpha",market="BTC-UP",side="sell"}')).toBe(1);
    expect(sample(t, 'mm_orders_unknown_state{wallet="beta"}')).toBe(3);
    expect(sample(t, 'mm_position_shares{wallet="alpha",market="BTC-UP",outcome="0"}')).toBe(12.5);
    expect(sample(t, 'mm_position_shares{wallet="alpha",market="BTC-UP",outcome="1"}')).toBe(-2);
    // Outcomes outside 0..63 share one bounded label, summed.
    expect(sample(t, 'mm_position_shares{wallet="alpha",market="BTC-UP",outcome="other"}')).toBe(3);
    expect(sample(t, 'mm_daily_pnl{wallet="alpha"}')).toBe(-3.75);
  });

  it("PnL takes a market's label only when it holds one; the rest sums into other", async () => {
    const { set, text } = setup();
    set.sources.engine = engine({
      liveQuotes: () => [{ wallet: A, market: "BTC-UP", buy: 1, sell: 1 }],
      pnl: () => [
        { wallet: A, market: "BTC-UP", realised: m("1.5"), unrealised: m("-0.5") },
        { wallet: A, market: "OLD-1", realised: m("2"), unrealised: m("0") },
        { wallet: A, market: "OLD-2", realised: m("0.25"), unrealised: m("0.1") },
      ],
    });
    const t = await text();
    expect(sample(t, 'mm_realised_pnl{wallet="alpha",market="BTC-UP"}')).toBe(1.5);
    expect(sample(t, 'mm_unrealised_pnl{wallet="alpha",market="BTC-UP"}')).toBe(-0.5);
    expect(sample(t, 'mm_realised_pnl{wallet="alpha",market="other"}')).toBe(2.25);
    expect(sample(t, 'mm_unrealised_pnl{wallet="alpha",market="other"}')).toBe(0.1);
    expect(t).not.toContain("OLD-1");
  });

  it("a row gone from the engine leaves no gauge behind", async () => {
    const { set, text } = setup();
    let quotes = [{ wallet: A, market: "BTC-UP", buy: 1, sell: 0 }];
    set.sources.engine = engine({ liveQuotes: () => quotes, unknownOrders: () => (quotes.length > 0 ? [{ wallet: A, count: 1 }] : []) });
    expect(seriesOf(await text(), "mm_live_quotes")).toHaveLength(2);
    quotes = [];
    const t = await text();
    expect(seriesOf(t, "mm_live_quotes")).toEqual([]);
    expect(seriesOf(t, "mm_orders_unknown_state")).toEqual([]);
  });
});
