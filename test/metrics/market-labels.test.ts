/**
 * Market label slots follow the markets in use: a market left is released after a grace period
 * (or handed over once a scrape has rendered its last values), a new market then gets a real
 * label, and "other" only covers more markets in use at once than the cap.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros, type Micros } from "../../src/core/money.js";
import { DaemonMetrics, EngineMetricsBridge, MarketLabels, MetricsObserver, type EngineStateSource, type MarketSlotChange } from "../../src/metrics/index.js";
import { promtoolCheckMetrics } from "./fixtures.js";

const GRACE = 300_000;

describe("MarketLabels", () => {
  function slots(cap: number) {
    let now = 0;
    const used = new Set<string>();
    const changes: [string, MarketSlotChange][] = [];
    const s = new MarketLabels({ cap, accept: (x) => /^[A-Z]+$/.test(x), graceMs: GRACE, now: () => now });
    s.track(
      () => used,
      (l, c) => changes.push([l, c]),
    );
    return { s, used, changes, advance: (ms: number) => (now += ms) };
  }

  it("without a usage source: first come, first served, never recycled", () => {
    const s = new MarketLabels({ cap: 2, accept: () => true, now: () => 0 });
    expect(["A", "B", "C", "A"].map((x) => s.label(x))).toEqual(["A", "B", "other", "A"]);
    s.sweep();
    expect(s.label("C")).toBe("other");
    expect(s.held()).toEqual(["A", "B"]);
  });

  it("hands a left market's slot over at once; its counters stay until a scrape rendered them", () => {
    const { s, used, changes } = slots(2);
    used.add("A").add("B");
    expect([s.label("A"), s.label("B"), s.label("C")]).toEqual(["A", "B", "other"]);
    // The selection refresh: A left, C selected, in the same instant.
    used.delete("A");
    used.add("C");
    expect(s.label("C")).toBe("C");
    expect(s.state("A")).toBeUndefined();
    expect(s.held()).toEqual(["B", "C"]);
    expect(changes).toEqual([["A", "evicted"]]);
    expect([s.keepsGauges("A"), s.keepsCounters("A"), s.peek("A")]).toEqual([false, true, "other"]);
    s.markExported(s.unexported());
    expect(s.keepsCounters("A")).toBe(false);
    expect(changes).toEqual([
      ["A", "evicted"],
      ["A", "exported"],
    ]);
  });

  it("a left market already rendered leaves nothing behind; a leaving one that comes back keeps its counters", () => {
    const { s, used } = slots(1);
    used.add("A");
    s.label("A");
    used.delete("A");
    s.sweep();
    s.markExported(s.unexported());
    used.add("B");
    expect(s.label("B")).toBe("B");
    expect(s.leavingLabels()).toEqual([]);
    used.delete("B");
    used.add("C");
    expect(s.label("C")).toBe("C");
    expect(s.leavingLabels()).toEqual(["B"]);
    used.delete("C");
    used.add("B");
    expect(s.label("B")).toBe("B");
    expect(s.leavingLabels()).toEqual(["C"]);
  });

  it("leaving markets are capped too: without scrapes at most cap of them keep their counters", () => {
    const { s, used } = slots(2);
    for (let i = 0; i < 10; i++) {
      used.clear();
      used.add(`M${"ABCDEFGHIJ"[i]}`);
      used.add(`N${"ABCDEFGHIJ"[i]}`);
      s.label(`M${"ABCDEFGHIJ"[i]}`);
      s.label(`N${"ABCDEFGHIJ"[i]}`);
    }
    expect(s.held()).toEqual(["MJ", "NJ"]);
    expect(s.leavingLabels()).toEqual(["MI", "NI"]);
  });

  it("releases after the grace period when nobody needs the slot; the retired slot goes to the next market", () => {
    const { s, used, changes, advance } = slots(2);
    used.add("A").add("B");
    s.label("A");
    s.label("B");
    used.delete("A");
    s.sweep();
    advance(GRACE - 1);
    s.sweep();
    expect(s.state("A")).toBe("idle");
    advance(1);
    s.sweep();
    expect(s.state("A")).toBe("retired");
    expect(changes).toEqual([["A", "released"]]);
    expect([s.peek("A"), s.keepsGauges("A"), s.keepsCounters("A")]).toEqual(["other", false, true]);
    used.add("C");
    expect(s.label("C")).toBe("C");
    expect(changes).toEqual([
      ["A", "released"],
      ["A", "evicted"],
    ]);
  });

  it("keeps the slot of a market still in use however long, and revives a retired one", () => {
    const { s, used, advance } = slots(1);
    used.add("A");
    s.label("A");
    for (let i = 0; i < 10; i++) {
      advance(GRACE);
      s.sweep();
      s.markExported(s.unexported());
    }
    expect(s.label("B")).toBe("other");
    used.delete("A");
    s.sweep();
    advance(GRACE);
    s.sweep();
    expect(s.state("A")).toBe("retired");
    expect(s.label("A")).toBe("A");
    expect(s.state("A")).toBe("live");
  });

  it("peek never takes a slot; malformed values are other; periodic sweeps are throttled, pressure ones not", () => {
    const { s, used, advance } = slots(1);
    expect(s.peek("A")).toBe("other");
    expect(s.label("bad-symbol")).toBe("other");
    expect(s.size).toBe(0);
    used.add("A");
    s.label("A");
    s.sweep();
    used.delete("A");
    advance(500);
    s.sweep(false);
    expect(s.state("A")).toBe("live");
    advance(500);
    s.sweep(false);
    expect(s.state("A")).toBe("idle");
    used.add("A");
    // A market wanting a slot sweeps at once: A is in use again, so B is other.
    expect(s.label("B")).toBe("other");
    expect(s.state("A")).toBe("live");
  });
});

/** The engine's state as the daemon exposes it: one wallet, markets selected, orders, positions. */
class FakeEngine implements EngineStateSource {
  readonly selected = new Set<string>();
  readonly orders = new Map<string, number>();
  readonly held = new Map<string, Micros>();
  readonly realised = new Map<string, Micros>();

  *liveQuotes() {
    for (const market of new Set([...this.selected, ...this.orders.keys()])) {
      const n = this.orders.get(market) ?? 0;
      yield { wallet: "w1", market, buy: n, sell: n };
    }
  }
  *unknownOrders() {
    yield { wallet: "w1", count: 0 };
  }
  *positions() {
    for (const [market, qty] of this.held) yield { wallet: "w1", market, outcome: 0, qty };
  }
  *pnl() {
    for (const market of new Set([...this.held.keys(), ...this.realised.keys()])) {
      yield { wallet: "w1", market, realised: this.realised.get(market) ?? 0n, unrealised: 0n };
    }
  }
  *dailyPnl() {
    yield { wallet: "w1", pnl: 0n };
  }

  select(market: string): void {
    this.selected.add(market);
  }
  /** Deselected, its orders cancelled. */
  leave(market: string): void {
    this.selected.delete(market);
    this.orders.delete(market);
  }
}

function setup(cap = 3) {
  const clock = new VirtualClock(1_000_000);
  const metrics = new DaemonMetrics({ clock, wallets: [{ name: "w1" }], maxMarkets: cap, processMetrics: false });
  const engine = new FakeEngine();
  metrics.setSources({ engine });
  return { clock, metrics, engine, o: new MetricsObserver(metrics) };
}

type Samples = { name: string; labels: Record<string, string>; value: number }[];

function parse(text: string): Samples {
  const out: Samples = [];
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (m === null) continue;
    const labels = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

function value(s: Samples, name: string, labels: Record<string, string>): number | undefined {
  return s.find((x) => x.name === name && Object.entries(labels).every(([k, v]) => x.labels[k] === v))?.value;
}

function marketsIn(s: Samples): Set<string> {
  return new Set(s.flatMap((x) => (x.labels["market"] === undefined ? [] : [x.labels["market"]])));
}

/** One quoting round of the market: orders placed, resting, a fill. */
function quote(e: FakeEngine, o: MetricsObserver, market: string): void {
  e.select(market);
  e.orders.set(market, 2);
  o.ordersPlaced("w1", market, 4);
  o.fill({ wallet: "w1", market, role: "maker", qty: parseMicros("1"), price: parseMicros("0.5"), fee: 0n });
}

describe("market labels in a daemon's metrics", () => {
  it("rotating markets well past the cap: each new market gets its own label, old series go, at most cap labels", async () => {
    const { metrics, engine, o, clock } = setup(3);
    for (const m of ["M0", "M1", "M2"]) quote(engine, o, m);
    let s = parse(await metrics.scrape());
    expect([...marketsIn(s)].sort()).toEqual(["M0", "M1", "M2"]);

    for (let i = 3; i < 15; i++) {
      const old = `M${i - 3}`;
      const next = `M${i}`;
      // A selection refresh: the old market is left (its orders cancelled), the next selected.
      o.ordersCancelled("w1", old, 2);
      engine.leave(old);
      quote(engine, o, next);
      await clock.advance(15_000);
      s = parse(await metrics.scrape());
      expect(value(s, "mm_orders_placed_total", { market: next }), next).toBe(4);
      expect(value(s, "mm_fills_total", { market: next, role: "maker" })).toBe(1);
      expect(value(s, "mm_live_quotes", { market: next, side: "buy" })).toBe(2);
      expect(marketsIn(s).has("other")).toBe(false);
      // The old market's last counts are rendered once, its gauges are gone...
      expect(value(s, "mm_orders_cancelled_total", { market: old })).toBe(2);
      expect(value(s, "mm_live_quotes", { market: old, side: "buy" })).toBeUndefined();
      await clock.advance(15_000);
      s = parse(await metrics.scrape());
      // ...and then nothing of it is left.
      const seen = marketsIn(s);
      expect(seen.has(old), `${old} still has series`).toBe(false);
      expect(seen.size).toBeLessThanOrEqual(3);
    }
    expect(metrics.labels.markets.held().sort()).toEqual(["M12", "M13", "M14"]);
    expect(promtoolClean(await metrics.scrape())).toBe(true);
  });

  it("other only while more markets are in use than the cap", async () => {
    const { metrics, engine, o } = setup(2);
    quote(engine, o, "A");
    quote(engine, o, "B");
    await metrics.scrape();
    // C comes while A still has live orders: three markets in use, cap two.
    quote(engine, o, "C");
    let s = parse(await metrics.scrape());
    expect(value(s, "mm_orders_placed_total", { market: "other" })).toBe(4);
    expect(value(s, "mm_live_quotes", { market: "other", side: "buy" })).toBe(2);
    engine.leave("A");
    s = parse(await metrics.scrape());
    expect(value(s, "mm_live_quotes", { market: "C", side: "buy" })).toBe(2);
    expect(value(s, "mm_live_quotes", { market: "other", side: "buy" })).toBeUndefined();
    // Every count of A was rendered by the scrapes before: its series went with the slot.
    expect(marketsIn(s).has("A")).toBe(false);
    o.ordersPlaced("w1", "C");
    s = parse(await metrics.scrape());
    expect(value(s, "mm_orders_placed_total", { market: "C" })).toBe(1);
    // What C did before it had a label stays in "other" (a counter is never moved between series).
    expect(value(s, "mm_orders_placed_total", { market: "other" })).toBe(4);
  });

  it("a position still held on a deselected market keeps its slot until a quoted market needs it", async () => {
    const { metrics, engine, o, clock } = setup(2);
    quote(engine, o, "A");
    quote(engine, o, "B");
    engine.held.set("A", parseMicros("5"));
    engine.realised.set("A", parseMicros("1.5"));
    engine.realised.set("B", parseMicros("0.25"));
    engine.leave("A"); // deselected, no orders, shares held until the market resolves
    for (let i = 0; i < 3; i++) {
      await clock.advance(GRACE);
      const s = parse(await metrics.scrape());
      expect(value(s, "mm_position_shares", { market: "A", outcome: "0" })).toBe(5);
    }
    expect(metrics.labels.markets.state("A")).toBe("held");
    // C is selected: quoted, it takes the slot of A, which only holds shares.
    quote(engine, o, "C");
    let s = parse(await metrics.scrape());
    expect(value(s, "mm_orders_placed_total", { market: "C" })).toBe(4);
    expect(value(s, "mm_live_quotes", { market: "C", side: "buy" })).toBe(2);
    expect(value(s, "mm_position_shares", { market: "A", outcome: "0" })).toBeUndefined();
    // A's position and PnL go on under other: the sums over markets are unchanged.
    expect(value(s, "mm_position_shares", { market: "other", outcome: "0" })).toBe(5);
    expect(value(s, "mm_realised_pnl", { market: "other" })).toBe(1.5);
    expect(s.filter((x) => x.name === "mm_realised_pnl").reduce((a, x) => a + x.value, 0)).toBe(1.75);
    expect(marketsIn(s).has("A")).toBe(false);
    // Resolution flattens the position: nothing of A but its PnL (under other).
    engine.held.delete("A");
    s = parse(await metrics.scrape());
    expect(value(s, "mm_position_shares", { market: "other", outcome: "0" })).toBeUndefined();
    expect(value(s, "mm_realised_pnl", { market: "other" })).toBe(1.5);
  });

  it("series of markets given away are removed without waiting for a scrape", async () => {
    const { metrics, engine, o } = setup(1);
    quote(engine, o, "A");
    await metrics.scrape();
    engine.leave("A");
    await metrics.scrape(); // A's last values rendered
    quote(engine, o, "B");
    await metrics.marketSeries.prune();
    const json = await metrics.registry.getMetricsAsJSON();
    const markets = new Set(json.flatMap((x) => x.values.map((v) => v.labels["market"]).filter((v) => v !== undefined)));
    expect([...markets]).toEqual(["B"]);
  });

  it("a market left without pressure: gauges go after the grace period, counters stay until the label is reused", async () => {
    const { metrics, engine, o, clock } = setup(2);
    quote(engine, o, "A");
    quote(engine, o, "B");
    engine.realised.set("A", parseMicros("2"));
    engine.leave("A");
    await clock.advance(GRACE - 1);
    let s = parse(await metrics.scrape());
    expect(metrics.labels.markets.state("A")).toBe("idle");
    expect(value(s, "mm_realised_pnl", { market: "A" })).toBe(2);
    expect(value(s, "mm_live_quotes", { market: "A", side: "buy" })).toBeUndefined();
    await clock.advance(GRACE);
    s = parse(await metrics.scrape());
    expect(metrics.labels.markets.state("A")).toBe("retired");
    expect(value(s, "mm_realised_pnl", { market: "A" })).toBeUndefined();
    expect(value(s, "mm_realised_pnl", { market: "other" })).toBe(2);
    expect(value(s, "mm_orders_placed_total", { market: "A" })).toBe(4);
    // A comes back before anyone took its label: its counters resume (no reset).
    quote(engine, o, "A");
    s = parse(await metrics.scrape());
    expect(value(s, "mm_orders_placed_total", { market: "A" })).toBe(8);
    expect(value(s, "mm_realised_pnl", { market: "A" })).toBe(2);
    // Left again, retired again, then C takes the label: A's counters go.
    engine.leave("A");
    await metrics.scrape();
    await clock.advance(GRACE);
    await metrics.scrape();
    quote(engine, o, "C");
    s = parse(await metrics.scrape());
    expect(value(s, "mm_orders_placed_total", { market: "C" })).toBe(4);
    expect(marketsIn(s).has("A")).toBe(false);
    expect(promtoolClean(await metrics.scrape())).toBe(true);
  });

  it("cycle events start the grace period when a market is left, between scrapes", async () => {
    const { metrics, engine, o, clock } = setup(1);
    const bridge = new EngineMetricsBridge(o, clock);
    quote(engine, o, "A");
    await metrics.scrape();
    engine.leave("A");
    await clock.advance(2_000);
    bridge.onEvent({ type: "cycle", wallet: "w1", marketId: "B", trigger: "timer", latencyMs: 3, cancels: 0, places: 0, deferredByBudget: 0 });
    expect(metrics.labels.markets.state("A")).toBe("idle");
    await clock.advance(GRACE);
    engine.select("B");
    // No scrape since A was left: the grace period, counted from that cycle, frees the label.
    expect(metrics.labels.markets.label("B")).toBe("B");
  });

  it("without the engine's state: markets reported by events are followed until forgetMarket", async () => {
    const clock = new VirtualClock(0);
    const metrics = new DaemonMetrics({ clock, wallets: [{ name: "w1" }, { name: "w2" }], maxMarkets: 2, processMetrics: false });
    const o = new MetricsObserver(metrics);
    o.liveQuotes("w1", "A", { buy: 1, sell: 1 });
    o.liveQuotes("w2", "A", { buy: 1, sell: 0 });
    o.position("w1", "B", 0, parseMicros("3"));
    o.ordersPlaced("w1", "A", 2);
    o.liveQuotes("w1", "C", { buy: 1, sell: 1 });
    let s = parse(await metrics.scrape());
    // C is quoted: it took the slot of B, which only holds shares (its position sums into other).
    expect(value(s, "mm_live_quotes", { market: "C", wallet: "w1", side: "buy" })).toBe(1);
    expect(value(s, "mm_position_shares", { market: "other", wallet: "w1", outcome: "0" })).toBe(3);
    o.liveQuotes("w1", "D", { buy: 1, sell: 1 });
    s = parse(await metrics.scrape());
    // Three markets quoted, cap two: D is other.
    expect(value(s, "mm_live_quotes", { market: "other", wallet: "w1", side: "buy" })).toBe(1);
    o.forgetMarket("w1", "A");
    await clock.advance(GRACE);
    s = parse(await metrics.scrape());
    // w2 still follows A.
    expect(metrics.labels.markets.state("A")).toBe("live");
    expect(value(s, "mm_live_quotes", { market: "A", wallet: "w2", side: "buy" })).toBe(1);
    expect(value(s, "mm_live_quotes", { market: "A", wallet: "w1", side: "buy" })).toBeUndefined();
    o.forgetMarket("w2", "A");
    await metrics.scrape();
    await metrics.scrape();
    o.liveQuotes("w1", "C", { buy: 2, sell: 2 });
    s = parse(await metrics.scrape());
    expect(value(s, "mm_live_quotes", { market: "C", wallet: "w1", side: "buy" })).toBe(2);
    // Nobody follows A: idle (no gauges), its counters kept for the grace period.
    expect(metrics.labels.markets.state("A")).toBe("idle");
    expect(value(s, "mm_live_quotes", { market: "A", side: "buy" })).toBeUndefined();
    expect(value(s, "mm_orders_placed_total", { market: "A" })).toBe(2);
    // forgetMarket of a market never reported leaves the other series alone; of one under other,
    // takes its part out.
    o.forgetMarket("w1", "Z");
    expect(value(parse(await metrics.scrape()), "mm_live_quotes", { market: "other", wallet: "w1", side: "buy" })).toBe(1);
    o.forgetMarket("w1", "D");
    expect(value(parse(await metrics.scrape()), "mm_live_quotes", { market: "other", wallet: "w1", side: "buy" })).toBe(0);
  });
});

/** True when promtool passes the exposition, or is missing outside CI (skipped with a notice). */
function promtoolClean(text: string): boolean {
  const r = promtoolCheckMetrics(text);
  if (r === undefined) return true;
  expect(r.out).toBe("");
  return r.status === 0;
}
