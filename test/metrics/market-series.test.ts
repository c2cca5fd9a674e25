/**
 * Market label slots under pressure: quoted markets outrank markets that only hold shares, an
 * overflow does not walk the engine's state per event, no increment is dropped unseen, and the
 * event-fed usage stays bounded.
 */
import { describe, expect, it } from "vitest";
import { LOCAL_CODES } from "../../src/api/errors.js";
import { VirtualClock } from "../../src/core/clock.js";
import { parseMicros, type Micros } from "../../src/core/money.js";
import { readFileSync } from "node:fs";
import { DaemonMetrics, EngineMetricsBridge, MetricsObserver, codeLabel, type EngineStateSource } from "../../src/metrics/index.js";

const GRACE = 300_000;

class Engine implements EngineStateSource {
  quoted = new Set<string>();
  held = new Map<string, Micros>();
  realised = new Map<string, Micros>();
  walks = 0;
  *liveQuotes() {
    this.walks++;
    for (const m of this.quoted) yield { wallet: "w1", market: m, buy: 1, sell: 1 };
  }
  *unknownOrders() {}
  *positions() {
    for (const [market, qty] of this.held) yield { wallet: "w1", market, outcome: 0, qty };
  }
  *pnl() {
    for (const market of new Set([...this.held.keys(), ...this.realised.keys()])) {
      yield { wallet: "w1", market, realised: this.realised.get(market) ?? 0n, unrealised: 0n };
    }
  }
  *dailyPnl(): Generator<{ wallet: string; pnl: Micros }> {}
}

/** `eventFed`: no engine state attached (an embedder feeding events only). */
function setup(cap: number, eventFed = false) {
  const clock = new VirtualClock(1_000_000);
  const metrics = new DaemonMetrics({ clock, wallets: [{ name: "w1" }], maxMarkets: cap, processMetrics: false });
  const engine = new Engine();
  if (!eventFed) metrics.setSources({ engine });
  return { clock, metrics, engine, o: new MetricsObserver(metrics) };
}

function samples(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, "gm"))) {
    const market = /market="([^"]*)"/.exec(m[1]!)?.[1] ?? "";
    out.set(market, (out.get(market) ?? 0) + Number(m[2]));
  }
  return out;
}

describe("quoted markets outrank markets that only hold shares", () => {
  it("markets pulled with shares held give their slots to the markets quoted now; positions fold into other", async () => {
    const { metrics, engine, o, clock } = setup(2);
    engine.quoted = new Set(["A", "B"]);
    engine.held.set("A", parseMicros("5")).set("B", parseMicros("3"));
    engine.realised.set("A", parseMicros("1"));
    o.ordersPlaced("w1", "A");
    o.ordersPlaced("w1", "B");
    await metrics.scrape();
    // A and B pulled before closesAt: shares held until resolution; the refresh selects C and D.
    engine.quoted = new Set(["C", "D"]);
    await clock.advance(3_600_000);
    for (let i = 0; i < 100; i++) {
      o.ordersPlaced("w1", "C");
      o.ordersPlaced("w1", "D");
    }
    const t = await metrics.scrape();
    const placed = samples(t, "mm_orders_placed_total");
    expect(placed.get("C")).toBe(100);
    expect(placed.get("D")).toBe(100);
    expect(placed.has("other")).toBe(false);
    // Every count of A and B was rendered before: their series went with their slots.
    expect(placed.has("A")).toBe(false);
    const pos = samples(t, "mm_position_shares");
    expect(pos.get("other")).toBe(8);
    expect([...pos.values()].reduce((a, b) => a + b, 0)).toBe(8);
    expect(samples(t, "mm_live_quotes").get("C")).toBe(2);
    expect(samples(t, "mm_realised_pnl").get("other")).toBe(1);
    expect(metrics.labels.markets.held().sort()).toEqual(["C", "D"]);
    const next = await metrics.scrape();
    expect([...samples(next, "mm_orders_placed_total").keys()].sort()).toEqual(["C", "D"]);
  });

  it("a shares-only market keeps its slot while no quoted market needs it, and takes a free one", async () => {
    const { metrics, engine, clock } = setup(2);
    engine.quoted = new Set(["A"]);
    engine.held.set("B", parseMicros("2"));
    for (let i = 0; i < 3; i++) {
      await clock.advance(GRACE);
      const t = await metrics.scrape();
      expect(samples(t, "mm_position_shares").get("B")).toBe(2);
    }
    expect(metrics.labels.markets.state("B")).toBe("held");
    // Three markets quoted with cap 2: other is for the quoted overflow only.
    engine.quoted = new Set(["A", "C", "D"]);
    const t = await metrics.scrape();
    expect(samples(t, "mm_live_quotes").get("other")).toBe(2);
    expect(samples(t, "mm_position_shares").get("other")).toBe(2);
    expect(metrics.labels.markets.held().sort()).toEqual(["A", "C"]);
  });
});

describe("overflow cost", () => {
  it("events of a market without a label do not walk the engine state each time", async () => {
    const { metrics, engine, o, clock } = setup(2);
    engine.quoted = new Set(["A", "B", "C"]);
    await metrics.scrape();
    const before = engine.walks;
    for (let i = 0; i < 1000; i++) o.ordersPlaced("w1", "C");
    expect(engine.walks - before).toBeLessThanOrEqual(1);
    // Once the sweep interval passed, one more look.
    await clock.advance(1_000);
    for (let i = 0; i < 1000; i++) o.ordersPlaced("w1", "C");
    expect(engine.walks - before).toBeLessThanOrEqual(2);
    // A selection change signalled: the next market wanting a slot looks at once.
    engine.quoted.delete("A");
    metrics.marketsChanged();
    expect(metrics.labels.market("C")).toBe("C");
  });
});

describe("overflow and selection changes", () => {
  it("a market refused in an overflow does not keep a newly selected one from its label", async () => {
    const { metrics, engine, o } = setup(2);
    engine.quoted = new Set(["A", "B", "C"]);
    await metrics.scrape();
    for (let i = 0; i < 10; i++) o.ordersPlaced("w1", "C");
    // A selection refresh, not signalled: A left, E selected. E was not in use at the last sweep.
    engine.quoted = new Set(["B", "C", "E"]);
    const before = engine.walks;
    o.ordersPlaced("w1", "E");
    expect(engine.walks - before).toBe(1);
    expect(metrics.labels.markets.held().sort()).toEqual(["B", "E"]);
    const t = await metrics.scrape();
    expect(samples(t, "mm_orders_placed_total").get("E")).toBe(1);
    expect(samples(t, "mm_orders_placed_total").get("other")).toBe(10);
  });

  it("market phase events signal a change of the markets in use", async () => {
    const { metrics, engine, o, clock } = setup(1);
    const bridge = new EngineMetricsBridge(o, clock);
    engine.quoted = new Set(["A", "B"]);
    await metrics.scrape();
    o.ordersPlaced("w1", "B"); // refused: B waits for the periodic sweep
    engine.quoted = new Set(["B"]);
    o.ordersPlaced("w1", "B");
    expect(metrics.labels.markets.state("B")).toBeUndefined();
    bridge.onEvent({ type: "market_phase", marketId: "A", phase: "pull", reason: "closesAt" });
    o.ordersPlaced("w1", "B");
    expect(metrics.labels.markets.state("B")).toBe("live");
  });
});

describe("no increment is dropped unseen", () => {
  it("an increment on an idle slot already rendered is rendered before the slot goes", async () => {
    const { metrics, engine, o, clock } = setup(1);
    engine.quoted.add("A");
    o.ordersCancelled("w1", "A");
    expect(samples(await metrics.scrape(), "mm_orders_cancelled_total").get("A")).toBe(1);
    engine.quoted.delete("A");
    await clock.advance(2_000);
    expect(samples(await metrics.scrape(), "mm_orders_cancelled_total").get("A")).toBe(1);
    o.ordersCancelled("w1", "A"); // a late confirmation
    engine.quoted.add("B");
    o.ordersPlaced("w1", "B"); // B takes A's slot
    let t = await metrics.scrape();
    expect(samples(t, "mm_orders_cancelled_total").get("A")).toBe(2);
    expect(samples(t, "mm_orders_placed_total").get("B")).toBe(1);
    t = await metrics.scrape();
    expect(samples(t, "mm_orders_cancelled_total").has("A")).toBe(false);
  });

  it("an increment during the rendering of a scrape is rendered by the next one", async () => {
    const { metrics, engine, o, clock } = setup(1);
    engine.quoted.add("A");
    o.ordersCancelled("w1", "A");
    await metrics.scrape();
    engine.quoted.delete("A");
    await clock.advance(2_000);
    const render = metrics.registry.metrics.bind(metrics.registry);
    metrics.registry.metrics = async () => {
      const text = await render();
      o.ordersCancelled("w1", "A"); // between the snapshot and markExported
      return text;
    };
    expect(samples(await metrics.scrape(), "mm_orders_cancelled_total").get("A")).toBe(1);
    metrics.registry.metrics = render;
    engine.quoted.add("B");
    o.ordersPlaced("w1", "B");
    expect(samples(await metrics.scrape(), "mm_orders_cancelled_total").get("A")).toBe(2);
  });
});

describe("event-fed usage", () => {
  it("markets reported once and long out of use are forgotten", async () => {
    const { metrics, o, clock } = setup(2, true);
    for (let i = 0; i < 50; i++) {
      o.liveQuotes("w1", `M${i}`, { buy: 0, sell: 0 });
      o.position("w1", `M${i}`, 0, 0n);
    }
    o.position("w1", "H", 0, parseMicros("1"));
    await clock.advance(GRACE);
    await metrics.scrape();
    expect(metrics.marketSeries.followedCount).toBe(1);
  });

  it("a quoted market takes the slot of a market only holding shares; the position sums into other", async () => {
    const { metrics, o } = setup(1, true);
    o.position("w1", "H", 0, parseMicros("4"));
    o.liveQuotes("w1", "Q", { buy: 1, sell: 1 });
    o.position("w1", "H", 0, parseMicros("5"));
    o.position("w1", "K", 0, parseMicros("1"));
    const t = await metrics.scrape();
    expect(samples(t, "mm_live_quotes").get("Q")).toBe(2);
    expect(samples(t, "mm_position_shares").get("other")).toBe(6);
    expect(samples(t, "mm_position_shares").has("H")).toBe(false);
  });
});

describe("rejected codes", () => {
  it("the client's local codes keep their own label", () => {
    expect(codeLabel("withdrawn")).toBe("withdrawn");
    for (const c of Object.values(LOCAL_CODES)) expect(codeLabel(c)).toBe(c);
    expect(codeLabel("withdrawn2")).toBe("other");
  });

  it("withdrawn orders are counted under their code and do not page", async () => {
    const { metrics, o } = setup(2);
    o.orderRejected("w1", "A", "withdrawn");
    expect(await metrics.scrape()).toMatch(/^mm_orders_rejected_total\{wallet="w1",market="A",code="withdrawn"\} 1$/m);
    const rule = /alert: MMRejects\n\s+expr: (.*)/.exec(readFileSync("configs/prometheus/alerts.yaml", "utf8"))?.[1];
    expect(rule).toMatch(/mm_orders_rejected_total\{code!~"[^"]*\bwithdrawn\b[^"]*"\}/);
  });
});
