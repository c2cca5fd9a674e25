/**
 * bench/fixtures.ts: what the benches build the same way. The scenario and config it writes must
 * parse (the simulator's and the daemon's own parsers), the walk must stay in range and repeat
 * with its seed, and the plan must apply as if executed at once.
 */
import { describe, expect, it } from "vitest";
import { benchDaemonConfig, benchScenario, benchSnapshot, fmt, InstantOrders, ladderBook, median, midWalk, parseSize } from "../../bench/fixtures.js";
import { parseConfig, simulatorWalletKey } from "../../src/config/index.js";
import { parseScenario } from "../../src/sim/platform/index.js";
import { RiskSnapshot } from "../../src/bot/risk/exposure.js";

const key = (i: number): string => simulatorWalletKey(3, `fx-${i}`).reveal();
const symbol = (j: number): string => `FX${j}`;
const SPEC = { seed: 3, apiKey: "pmk_sim_5e1d0000000000cc_FixturesTestSecret0000000000001", title: "Fixture bench", eventSlug: "fx-event", key, symbol, jumps: true };

describe("bench fixtures: W x M scenarios", () => {
  it("parseSize reads WxM and refuses a bad or out-of-range size, naming the variable", () => {
    expect(parseSize(" 3x40 ", "V", 100)).toEqual({ wallets: 3, markets: 40 });
    expect(() => parseSize("3-40", "V", 100)).toThrow('V: expected WxM (e.g. 20x50), got "3-40"');
    expect(() => parseSize("51x1", "V", 100)).toThrow("V: 51x1 is out of range (1..50 wallets, 1..100 markets)");
    expect(() => parseSize("1x101", "V", 100)).toThrow("1..100 markets");
    expect(parseSize("1x101", "V", 1000)).toEqual({ wallets: 1, markets: 101 });
  });

  it("the scenario parses, with W wallets, M markets, and the jumps only when asked", () => {
    const text = benchScenario(SPEC, 2, 3);
    expect(() => parseScenario(text, "fx.yaml")).not.toThrow();
    expect(text.match(/partner: mm/g)).toHaveLength(2);
    expect(text.match(/ {6}- title: FX\d/g)).toHaveLength(3);
    expect(text.match(/jumpSize/g)).toHaveLength(3);
    expect(benchScenario({ ...SPEC, jumps: false }, 2, 3)).not.toContain("jump");
    expect(() => parseScenario(benchScenario({ ...SPEC, jumps: false }, 1, 1), "fx.yaml")).not.toThrow();
  });

  it("the daemon config parses and quotes every market with a key per wallet from the environment", () => {
    const yaml = benchDaemonConfig({ head: "mode: simulator\ninstance: { id: fx }", keyVar: (i) => `K${i}`, symbol, metrics: "{ port: 0 }", log: "{ level: silent }" }, 2, 3);
    const config = parseConfig(yaml, "fx.yaml", { K0: key(0), K1: key(1) });
    expect(config.wallets.map((w) => w.name)).toEqual(["w0", "w1"]);
    expect(config.markets.slugs).toEqual(["FX0", "FX1", "FX2"]);
    expect(config.markets.maxMarkets).toBe(3);
  });
});

describe("bench fixtures: the quote cycle by hand", () => {
  it("midWalk repeats with its seed, moves a tick at most and stays in range", () => {
    const a = midWalk(20_000, 5, { start: 300, min: 100, max: 600 });
    expect(midWalk(20_000, 5, { start: 300, min: 100, max: 600 })).toEqual(a);
    expect(midWalk(20_000, 6, { start: 300, min: 100, max: 600 })).not.toEqual(a);
    let prev = 300;
    for (const m of a) {
      expect(Math.abs(m - prev)).toBeLessThanOrEqual(1);
      expect(m >= 100 && m <= 600).toBe(true);
      prev = m;
    }
    const pinned = midWalk(5_000, 1, { start: 101, min: 100, max: 102 });
    expect(Math.min(...pinned)).toBe(100);
    expect(Math.max(...pinned)).toBe(102);
  });

  it("ladderBook and benchSnapshot: five levels a tick apart, the NO mid, the event key only when given", () => {
    const view = ladderBook(400_000n, 10);
    expect(view.bids.map((l) => l.price)).toEqual([399_000n, 398_000n, 397_000n, 396_000n, 395_000n]);
    expect(view.asks[0]!.price).toBe(401_000n);
    const base = { symbol: "S", i: 4, nowMs: 10, mid: 400_000n, view, closesAtMs: 99, live: [], exposure: new RiskSnapshot([]) };
    const s = benchSnapshot(base);
    expect(s.mids).toEqual({ 0: 400_000n, 1: 600_000n });
    expect(s.books.get(0)!.snapshot.sentSeq).toBe(4);
    expect(s.phase.closesAtMs).toBe(99);
    expect("event" in s).toBe(false);
    expect("event" in benchSnapshot({ ...base, event: undefined })).toBe(true);
  });

  it("InstantOrders ends the cancelled orders and rests the placed ones under fresh ids", () => {
    const o = new InstantOrders();
    const q = { outcome: 0, side: "BUY" as const, price: 1_000n, size: 5n, postOnly: true };
    o.apply({ cancels: [], places: [q, { ...q, price: 2_000n }] }, 7);
    expect(o.live.map((x) => [x.clientOrderId, x.orderId, x.price, x.remaining, x.createdAtMs])).toEqual([
      ["c1", "o1", 1_000n, 5n, 7],
      ["c2", "o2", 2_000n, 5n, 7],
    ]);
    o.apply({ cancels: [{ clientOrderId: "c1" }], places: [q] }, 8);
    expect(o.live.map((x) => x.clientOrderId)).toEqual(["c2", "c3"]);
  });

  it("median and fmt", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(fmt(12)).toBe("12");
    expect(fmt(0.123456)).toBe("0.123");
  });
});
