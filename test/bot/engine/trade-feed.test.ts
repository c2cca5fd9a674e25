import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import type { MarketTradesQuery, Ok } from "../../../src/api/index.js";
import type { MarketTradesPage, Trade } from "../../../src/wire/index.js";
import { RestTradeFeed, tradeViewOf, type TradeFeedOptions } from "../../../src/bot/engine/trade-feed.js";
import { T0, silentLogger } from "./fakes.js";

interface Call {
  symbol: string;
  q: MarketTradesQuery;
  at: number;
}

let nextId = 0;

function row(symbol: string, over: { outcome?: number; side?: "BUY" | "SELL"; price?: string; quantity?: string; at: number; id?: string }): Trade {
  nextId += 1;
  return {
    id: over.id ?? `t${nextId}`,
    marketId: symbol,
    tokenId: "1",
    outcome: over.outcome ?? 0,
    side: over.side ?? "BUY",
    price: over.price ?? "0.5",
    quantity: over.quantity ?? "1",
    fee: "0",
    feeRateBps: 100,
    makerOrderId: "m",
    takerOrderId: "t",
    makerWallet: "0x1111111111111111111111111111111111111111",
    takerWallet: "0x2222222222222222222222222222222222222222",
    createdAt: new Date(over.at).toISOString(),
  };
}

/**
 * A scripted trades endpoint: each market's tape (appended oldest first), served newest first
 * with `limit` and, unless `ignoreAfter`, strictly after `after` (like the simulator).
 */
function fakeTape(clock: VirtualClock, opts: { fail?: (c: Call) => boolean; ignoreAfter?: boolean; hold?: () => Promise<void> } = {}) {
  const calls: Call[] = [];
  const tapes = new Map<string, Trade[]>();
  return {
    calls,
    add(symbol: string, ...rows: Trade[]) {
      const t = tapes.get(symbol) ?? [];
      t.push(...rows);
      tapes.set(symbol, t);
    },
    api: {
      async trades(symbol: string, q: MarketTradesQuery = {}): Promise<Ok<MarketTradesPage>> {
        const c = { symbol, q, at: clock.now() };
        calls.push(c);
        if (opts.hold !== undefined) await opts.hold();
        if (opts.fail?.(c)) throw new Error("boom");
        const after = q.after === undefined || opts.ignoreAfter ? -Infinity : Date.parse(q.after);
        const rows = (tapes.get(symbol) ?? []).filter((t) => Date.parse(t.createdAt) > after).reverse().slice(0, q.limit ?? 50);
        return { ok: true, data: { trades: rows }, meta: {} as Ok<MarketTradesPage>["meta"] };
      },
    },
  };
}

function feed(clock: VirtualClock, api: TradeFeedOptions["markets"], over: Partial<TradeFeedOptions> = {}): RestTradeFeed {
  return new RestTradeFeed({ markets: api, clock, log: silentLogger(), budgetPerMin: 60, minMarketIntervalMs: 1_000, maxTrades: 200, windowMs: 900_000, ...over });
}

const prices = (f: RestTradeFeed, symbol: string, outcome = 0): string[] => f.recent(symbol, outcome).map((t) => (Number(t.price) / 1e6).toFixed(3));

describe("RestTradeFeed", () => {
  it("spreads its budget over the markets: one request per max(60 s / budget, minInterval / markets)", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    const f = feed(clock, m.api, { budgetPerMin: 30, minMarketIntervalMs: 1_000 });
    f.track("A", 2);
    f.track("B", 3);
    f.start();
    await clock.advance(10_000);
    f.stop();
    // Budget 30/min: every 2 s (minInterval / markets = 500 ms is shorter), A and B in turn.
    expect(m.calls.map((c) => c.at - T0)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
    expect(m.calls.map((c) => c.symbol)).toEqual(["B", "A", "B", "A", "B", "A"]);
    expect(m.calls.every((c) => c.q.limit === 200)).toBe(true);
  });

  it("never reads one market more often than minMarketIntervalMs, whatever the budget", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    const f = feed(clock, m.api, { budgetPerMin: 6_000, minMarketIntervalMs: 2_000 });
    f.track("A", 2);
    f.start();
    await clock.advance(9_000);
    f.stop();
    expect(m.calls.map((c) => c.at - T0)).toEqual([0, 2000, 4000, 6000, 8000]);
  });

  it("reads a newly tracked market next, and skips a turn when the bucket has no room", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    let room = 10;
    const f = feed(clock, m.api, { budgetPerMin: 60, minMarketIntervalMs: 1_000, room: () => room });
    f.track("A", 2);
    f.start();
    await clock.advance(1_500);
    f.track("NEW", 2);
    await clock.advance(1_000);
    expect(m.calls.map((c) => c.symbol)).toEqual(["A", "A", "NEW"]);
    room = 0;
    await clock.advance(3_000);
    expect(m.calls.length).toBe(3);
    expect(f.counters.skippedNoRoom).toBe(3);
    f.stop();
  });

  it("asks only after the window start first, then after the newest trade held (1 ms earlier)", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    m.add("A", row("A", { at: T0 - 5_000, price: "0.41" }));
    const f = feed(clock, m.api, { windowMs: 60_000 });
    f.track("A", 2);
    f.start();
    await clock.advance(1_000);
    expect(m.calls[0]!.q.after).toBe(new Date(T0 - 60_000).toISOString());
    expect(m.calls[1]!.q.after).toBe(new Date(T0 - 5_001).toISOString());
    f.stop();
  });

  it("keeps each trade once (by id), oldest first, even when the platform sends it again", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock, { ignoreAfter: true });
    m.add("A", row("A", { at: T0 - 3_000, price: "0.40" }), row("A", { at: T0 - 2_000, price: "0.41" }));
    const f = feed(clock, m.api);
    f.track("A", 2);
    f.start();
    await clock.advance(0);
    expect(prices(f, "A")).toEqual(["0.400", "0.410"]);
    // Same millisecond as the newest one held, and later: both new.
    m.add("A", row("A", { at: T0 - 2_000, price: "0.42" }), row("A", { at: T0 + 500, price: "0.43" }));
    await clock.advance(5_000);
    expect(m.calls.length).toBeGreaterThanOrEqual(3);
    expect(prices(f, "A")).toEqual(["0.400", "0.410", "0.420", "0.430"]);
    expect(f.counters.trades).toBe(4);
    f.stop();
  });

  it("hands out the stored list (same array between reads) and never changes a list it handed out", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    m.add("A", row("A", { at: T0 - 1_000 }));
    const f = feed(clock, m.api);
    f.track("A", 2);
    f.start();
    await clock.advance(0);
    const first = f.recent("A", 0);
    expect(f.recent("A", 0)).toBe(first);
    await clock.advance(1_000); // a read with nothing new keeps the list
    expect(f.recent("A", 0)).toBe(first);
    m.add("A", row("A", { at: T0 + 1_500 }));
    await clock.advance(1_000);
    expect(f.recent("A", 0)).not.toBe(first);
    expect(f.recent("A", 0)).toHaveLength(2);
    expect(first).toHaveLength(1);
    f.stop();
  });

  it("keeps at most maxTrades, the newest", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    for (let i = 0; i < 5; i++) m.add("A", row("A", { at: T0 - 5_000 + i * 1000, price: `0.4${i}` }));
    const f = feed(clock, m.api, { maxTrades: 3 });
    f.track("A", 2);
    f.start();
    await clock.advance(0);
    expect(prices(f, "A")).toEqual(["0.420", "0.430", "0.440"]);
    m.add("A", row("A", { at: T0 + 100, price: "0.45" }));
    await clock.advance(1_000);
    expect(prices(f, "A")).toEqual(["0.430", "0.440", "0.450"]);
    f.stop();
  });

  it("drops trades older than the window, at the read that finds them too old", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock, { ignoreAfter: true });
    m.add("A", row("A", { at: T0 - 70_000, price: "0.30" }), row("A", { at: T0 - 50_000, price: "0.31" }), row("A", { at: T0 - 10_000, price: "0.32" }));
    const f = feed(clock, m.api, { windowMs: 60_000 });
    f.track("A", 2);
    f.start();
    await clock.advance(0);
    expect(prices(f, "A")).toEqual(["0.310", "0.320"]);
    // 15 s later the 0.31 trade is 65 s old: gone at the next read, with nothing new on the tape.
    await clock.advance(15_000);
    expect(prices(f, "A")).toEqual(["0.320"]);
    await clock.advance(60_000);
    expect(f.recent("A", 0)).toEqual([]);
    f.stop();
  });

  it("expresses binary trades in YES terms: a NO trade at p is the opposite taker side at 1 - p", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    m.add(
      "BIN",
      row("BIN", { at: T0 - 3_000, outcome: 0, side: "BUY", price: "0.6", quantity: "2" }),
      row("BIN", { at: T0 - 2_000, outcome: 1, side: "BUY", price: "0.3", quantity: "5" }),
      row("BIN", { at: T0 - 1_000, outcome: 1, side: "SELL", price: "0.25", quantity: "1.5" }),
    );
    const f = feed(clock, m.api);
    f.track("BIN", 2);
    f.start();
    await clock.advance(0);
    f.stop();
    expect(f.recent("BIN", 0)).toEqual([
      { price: 600_000n, size: 2_000_000n, side: "BUY", ts: T0 - 3_000 },
      { price: 700_000n, size: 5_000_000n, side: "SELL", ts: T0 - 2_000 },
      { price: 750_000n, size: 1_500_000n, side: "BUY", ts: T0 - 1_000 },
    ]);
    // Binary markets have one list, the YES one.
    expect(f.recent("BIN", 1)).toEqual([]);
  });

  it("keeps multi-outcome trades per outcome, in that outcome's terms", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    m.add(
      "MULTI",
      row("MULTI", { at: T0 - 3_000, outcome: 0, price: "0.2" }),
      row("MULTI", { at: T0 - 2_000, outcome: 2, side: "SELL", price: "0.5" }),
      row("MULTI", { at: T0 - 1_000, outcome: 0, price: "0.21" }),
      row("MULTI", { at: T0 - 500, outcome: 7, price: "0.9" }), // no such outcome: skipped
    );
    const f = feed(clock, m.api);
    f.track("MULTI", 3);
    f.start();
    await clock.advance(0);
    f.stop();
    expect(prices(f, "MULTI", 0)).toEqual(["0.200", "0.210"]);
    expect(f.recent("MULTI", 1)).toEqual([]);
    expect(f.recent("MULTI", 2)).toEqual([{ price: 500_000n, size: 1_000_000n, side: "SELL", ts: T0 - 2_000 }]);
    expect(f.counters.badRows).toBe(1);
  });

  it("untrack stops the reads, forgets the trades and drops a read that was in flight", async () => {
    const clock = new VirtualClock(T0);
    let release: (() => void) | undefined;
    let holding = false;
    const m = fakeTape(clock, { hold: () => (holding ? new Promise<void>((r) => (release = r)) : Promise.resolve()) });
    m.add("A", row("A", { at: T0 - 1_000 }));
    const f = feed(clock, m.api);
    f.track("A", 2);
    f.start();
    await clock.advance(0);
    expect(f.recent("A", 0)).toHaveLength(1);
    f.untrack("A");
    expect(f.recent("A", 0)).toEqual([]);
    await clock.advance(5_000);
    expect(m.calls.length).toBe(1);

    // In flight when untracked and tracked again: the late answer does not land in the new entry.
    holding = true;
    f.track("A", 2);
    await clock.advance(0);
    expect(m.calls.length).toBe(2);
    f.untrack("A");
    f.track("A", 2);
    holding = false;
    release!();
    await clock.advance(0);
    expect(f.recent("A", 0)).toEqual([]);
    f.stop();
  });

  it("counts a failed read, never throws, and reads again next turn", async () => {
    const clock = new VirtualClock(T0);
    let failing = true;
    const m = fakeTape(clock, { fail: () => failing });
    m.add("A", row("A", { at: T0 - 1_000 }));
    const f = feed(clock, m.api);
    f.track("A", 2);
    f.start();
    await clock.advance(2_000);
    expect(f.counters.errors).toBe(3);
    expect(f.recent("A", 0)).toEqual([]);
    failing = false;
    await clock.advance(1_000);
    expect(f.counters.errors).toBe(3);
    expect(f.recent("A", 0)).toHaveLength(1);
    expect(f.counters.requests).toBe(4);
    f.stop();
  });

  it("is off with a zero budget", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock);
    const f = feed(clock, m.api, { budgetPerMin: 0 });
    f.track("A", 2);
    f.start();
    await clock.advance(10_000);
    expect(m.calls).toEqual([]);
    expect(f.recent("A", 0)).toEqual([]);
  });

  it("refuses rows it cannot read", () => {
    expect(tradeViewOf(row("A", { at: T0, price: "abc" }), 2)).toBeUndefined();
    expect(tradeViewOf(row("A", { at: T0, outcome: 2 }), 2)).toBeUndefined();
    expect(tradeViewOf(row("A", { at: T0, outcome: 1, side: "SELL", price: "0.001" }), 2)).toEqual({ list: 0, view: { price: 999_000n, size: 1_000_000n, side: "BUY", ts: T0 } });
  });
});
