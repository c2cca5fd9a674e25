import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import type { MarketTradesQuery, Ok } from "../../../src/api/index.js";
import { createLogger, type Logger } from "../../../src/log/index.js";
import type { MarketTradesRawPage, Trade } from "../../../src/wire/index.js";
import { RestTradeFeed, tradeViewOf, WARN_EVERY_MS, type TradeFeedOptions } from "../../../src/bot/market/trade-feed.js";
import { T0, silentLogger } from "../engine/fakes.js";

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
  /** Rows as the platform holds them (its own time `at`) and as it sends them (`row`, maybe malformed). */
  const tapes = new Map<string, { at: number; row: unknown }[]>();
  const push = (symbol: string, ...rows: { at: number; row: unknown }[]) => {
    const t = tapes.get(symbol) ?? [];
    t.push(...rows);
    tapes.set(symbol, t);
  };
  return {
    calls,
    add(symbol: string, ...rows: Trade[]) {
      push(symbol, ...rows.map((row) => ({ at: Date.parse(row.createdAt), row })));
    },
    /** A row the platform stamps `at` but sends in a shape that does not read. */
    addRaw(symbol: string, at: number, row: unknown) {
      push(symbol, { at, row });
    },
    api: {
      async tradesPage(symbol: string, q: MarketTradesQuery = {}): Promise<Ok<MarketTradesRawPage>> {
        const c = { symbol, q, at: clock.now() };
        calls.push(c);
        if (opts.hold !== undefined) await opts.hold();
        if (opts.fail?.(c)) throw new Error("boom");
        const after = q.after === undefined || opts.ignoreAfter ? -Infinity : Date.parse(q.after);
        const rows = (tapes.get(symbol) ?? []).filter((t) => t.at > after).reverse().slice(0, q.limit ?? 50).map((t) => t.row);
        return { ok: true, data: { trades: rows }, meta: {} as Ok<MarketTradesRawPage>["meta"] };
      },
    },
  };
}

function feed(clock: VirtualClock, api: TradeFeedOptions["markets"], over: Partial<TradeFeedOptions> = {}): RestTradeFeed {
  return new RestTradeFeed({ markets: api, clock, log: silentLogger(), budgetPerMin: 60, minMarketIntervalMs: 1_000, maxTrades: 200, windowMs: 900_000, ...over });
}

/** A debug-level logger whose lines are kept (level and message). */
function capturingLogger(): { log: Logger; lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const log = createLogger({ level: "debug" }, { write: (s: string) => void lines.push(JSON.parse(s) as { level: string; msg: string }) });
  return { log, lines };
}
const WARN = "warn";
const DEBUG = "debug";

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

  it("skips a malformed row, keeps the rest of its page, counts it once by id, and moves the cursor on", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock, { ignoreAfter: true });
    const { feeRateBps: _f, ...noFee } = row("A", { at: T0 - 2_000, id: "bad1" });
    m.add("A", row("A", { at: T0 - 3_000, price: "0.40" }));
    m.addRaw("A", T0 - 2_000, noFee);
    m.add("A", row("A", { at: T0 - 1_000, price: "0.41" }));
    const { log, lines } = capturingLogger();
    const f = feed(clock, m.api, { log });
    f.track("A", 2);
    f.start();
    await clock.advance(0);
    expect(prices(f, "A")).toEqual(["0.400", "0.410"]);
    expect(f.counters.badRows).toBe(1);
    expect(f.counters.errors).toBe(0);
    expect(lines.filter((l) => l.level === WARN).map((l) => l.msg)).toEqual(["market trades rows skipped (unreadable)"]);
    // The platform sends the bad row again (ignoreAfter): not counted again; new trades land.
    m.add("A", row("A", { at: T0 + 1_500, price: "0.42" }));
    await clock.advance(2_000);
    expect(m.calls[1]!.q.after).toBe(new Date(T0 - 1_001).toISOString());
    expect(m.calls[2]!.q.after).toBe(new Date(T0 + 1_499).toISOString());
    expect(prices(f, "A")).toEqual(["0.400", "0.410", "0.420"]);
    expect(f.counters.badRows).toBe(1);
    f.stop();
  });

  it("skips rows with no usable id or no object at all (counted on each read: nothing to remember them by)", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock, { ignoreAfter: true });
    m.addRaw("A", T0 - 3_000, "garbage");
    m.add("A", row("A", { at: T0 - 2_000, price: "0.40" }));
    m.addRaw("A", T0 - 1_000, { price: "0.5" });
    m.addRaw("A", T0 - 900, null);
    const f = feed(clock, m.api);
    f.track("A", 2);
    f.start();
    await clock.advance(1_000);
    expect(m.calls).toHaveLength(2);
    expect(prices(f, "A")).toEqual(["0.400"]);
    expect(f.counters.badRows).toBe(6);
    expect(f.counters.trades).toBe(1);
    f.stop();
  });

  it("logs a failed read at warn at most once a minute per market (debug in between), counting every one", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeTape(clock, { fail: () => true });
    const { log, lines } = capturingLogger();
    const f = feed(clock, m.api, { log, budgetPerMin: 60, minMarketIntervalMs: 1_000 });
    f.track("A", 2);
    f.track("B", 2);
    f.start();
    // One read a second, B and A in turn: B at 0, 2 s, ...; A at 1 s, 3 s, ...
    await clock.advance(WARN_EVERY_MS - 1_000);
    const failed = (level: string) => lines.filter((l) => l.level === level && l.msg === "market trades read failed");
    expect(f.counters.errors).toBe(60);
    expect(failed(WARN)).toHaveLength(2);
    expect(failed(DEBUG)).toHaveLength(58);
    // B read again at 60 s, A at 61 s: a minute after each one's first warning.
    await clock.advance(1_000);
    expect(failed(WARN)).toHaveLength(3);
    await clock.advance(1_000);
    expect(failed(WARN)).toHaveLength(4);
    expect(f.counters.errors).toBe(62);
    f.stop();
  });

  describe("stop() and start() while a read is out", () => {
    function held(clock: VirtualClock) {
      const h = { holding: true, release: undefined as (() => void) | undefined };
      const m = fakeTape(clock, { hold: () => (h.holding ? new Promise<void>((r) => (h.release = r)) : Promise.resolve()) });
      return { h, m };
    }

    it("keeps one timer chain when the read lands before the restarted turn falls due", async () => {
      const clock = new VirtualClock(T0);
      const { h, m } = held(clock);
      const f = feed(clock, m.api, { budgetPerMin: 60, minMarketIntervalMs: 1_000 });
      f.track("A", 2);
      f.start();
      await clock.advance(0);
      expect(m.calls).toHaveLength(1);
      f.stop();
      f.start();
      h.holding = false;
      h.release!();
      await clock.advance(10_000);
      // One request a second, as before the restart (two chains would make it two).
      expect(m.calls.map((c) => c.at - T0)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000]);
      expect(clock.pending()).toBe(1);
      f.stop();
      expect(clock.pending()).toBe(0);
    });

    it("keeps the chain going when the restarted turn falls due while the read is still out", async () => {
      const clock = new VirtualClock(T0);
      const { h, m } = held(clock);
      const f = feed(clock, m.api, { budgetPerMin: 60, minMarketIntervalMs: 1_000 });
      f.track("A", 2);
      f.start();
      await clock.advance(0);
      f.stop();
      f.start();
      await clock.advance(500); // the restarted turn fires while the read is out: dropped
      expect(m.calls).toHaveLength(1);
      h.holding = false;
      h.release!();
      await clock.advance(4_500);
      expect(m.calls.map((c) => c.at - T0)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
      f.stop();
    });

    it("stops for good when stopped while the read is out", async () => {
      const clock = new VirtualClock(T0);
      const { h, m } = held(clock);
      const f = feed(clock, m.api);
      f.track("A", 2);
      f.start();
      await clock.advance(0);
      f.stop();
      h.holding = false;
      h.release!();
      await clock.advance(10_000);
      expect(m.calls).toHaveLength(1);
      expect(clock.pending()).toBe(0);
    });
  });

  it("refuses rows it cannot read", () => {
    expect(tradeViewOf(row("A", { at: T0, price: "abc" }), 2)).toBeUndefined();
    expect(tradeViewOf(row("A", { at: T0, outcome: 2 }), 2)).toBeUndefined();
    expect(tradeViewOf(row("A", { at: T0, outcome: 1, side: "SELL", price: "0.001" }), 2)).toEqual({ list: 0, view: { price: 999_000n, size: 1_000_000n, side: "BUY", ts: T0 } });
  });
});
