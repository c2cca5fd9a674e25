import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import type { Ok } from "../../../src/api/index.js";
import type { Orderbook } from "../../../src/wire/index.js";
import { RestBookPoller, bookViewOf } from "../../../src/bot/market/market-data.js";
import { T0, silentLogger } from "../engine/fakes.js";

interface Call {
  symbol: string;
  outcome: number;
  at: number;
}

function fakeMarkets(clock: VirtualClock, opts: { fail?: (c: Call) => boolean; book?: (c: Call) => Orderbook } = {}) {
  const calls: Call[] = [];
  return {
    calls,
    api: {
      orderbook(symbol: string, outcome: number): Promise<Ok<Orderbook>> {
        const c = { symbol, outcome, at: clock.now() };
        calls.push(c);
        if (opts.fail?.(c)) return Promise.reject(new Error("boom"));
        const data = opts.book?.(c) ?? { marketId: symbol, outcome, bids: [{ price: "0.4", quantity: "10" }], asks: [{ price: "0.6", quantity: "10" }] };
        return Promise.resolve({ ok: true, data, meta: {} as Ok<Orderbook>["meta"] });
      },
    },
  };
}

function poller(clock: VirtualClock, markets: ReturnType<typeof fakeMarkets>["api"], over: Partial<ConstructorParameters<typeof RestBookPoller>[0]> = {}) {
  return new RestBookPoller({ markets, clock, log: silentLogger(), budgetPerMin: 120, minBookIntervalMs: 1_000, staleAfterMs: 5_000, ...over });
}

describe("RestBookPoller", () => {
  it("spreads its budget evenly: one request per max(60 s / budget, minInterval / books)", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeMarkets(clock);
    const p = poller(clock, m.api);
    p.track("A", [0]);
    p.track("B", [0, 1, 2]);
    p.start();
    await clock.advance(10_000);
    p.stop();
    // 4 books, budget 120/min: every 500 ms (minInterval/books = 250 ms is shorter).
    const gaps = m.calls.slice(1).map((c, i) => c.at - m.calls[i]!.at);
    expect(new Set(gaps)).toEqual(new Set([500]));
    expect(m.calls.length).toBe(21);
    // Round robin: every book gets the same share.
    const per = new Map<string, number>();
    for (const c of m.calls) per.set(`${c.symbol}#${c.outcome}`, (per.get(`${c.symbol}#${c.outcome}`) ?? 0) + 1);
    expect([...per.values()].every((n) => n >= 5 && n <= 6)).toBe(true);
  });

  it("never reads one book more often than minBookIntervalMs", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeMarkets(clock);
    const p = poller(clock, m.api, { budgetPerMin: 6000, minBookIntervalMs: 2_000 });
    p.track("A", [0]);
    p.start();
    await clock.advance(10_000);
    p.stop();
    expect(m.calls.map((c) => c.at - T0)).toEqual([0, 2000, 4000, 6000, 8000, 10000]);
  });

  it("reads a newly tracked book next, and skips a turn when the bucket has no room", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeMarkets(clock);
    let room = 10;
    const p = poller(clock, m.api, { budgetPerMin: 60, room: () => room });
    p.track("A", [0]);
    p.start();
    await clock.advance(1_500);
    p.track("NEW", [0]);
    await clock.advance(1_000);
    expect(m.calls.map((c) => c.symbol)).toEqual(["A", "A", "NEW"]);
    room = 0;
    await clock.advance(3_000);
    expect(m.calls.length).toBe(3);
    expect(p.counters.skippedNoRoom).toBe(3);
    p.stop();
  });

  it("emits updates only when the book changed, flags staleness once, and recovers", async () => {
    const clock = new VirtualClock(T0);
    let failing = false;
    let price = "0.40";
    const m = fakeMarkets(clock, {
      fail: () => failing,
      book: (c) => ({ marketId: c.symbol, outcome: 0, bids: [{ price, quantity: "10" }], asks: [{ price: "0.6", quantity: "10" }] }),
    });
    const p = poller(clock, m.api, { budgetPerMin: 60, staleAfterMs: 3_000 });
    const updates: number[] = [];
    const stale: number[] = [];
    p.onUpdate(() => updates.push(clock.now() - T0));
    p.onStale(() => stale.push(clock.now() - T0));
    p.track("A", [0]);
    p.start();
    await clock.advance(2_500);
    expect(updates).toEqual([0]); // unchanged reads at 1 s and 2 s are not updates
    price = "0.41";
    await clock.advance(1_000);
    expect(updates).toEqual([0, 3000]);
    failing = true;
    await clock.advance(6_000);
    expect(p.isStale("A", 0)).toBe(true);
    expect(stale).toEqual([7000]); // last good read at 3 s + 3 s, seen by the 1 s check
    failing = false;
    await clock.advance(1_000);
    expect(p.isStale("A", 0)).toBe(false);
    expect(updates.at(-1)).toBe(10_000);
    expect(p.book("A", 0)!.view.bids[0]!.price).toBe(410_000n);
    p.stop();
  });

  it("a tracked book never read counts as stale after staleAfterMs", async () => {
    const clock = new VirtualClock(T0);
    const m = fakeMarkets(clock, { fail: () => true });
    const p = poller(clock, m.api, { staleAfterMs: 2_000 });
    p.track("A", [0]);
    p.start();
    expect(p.isStale("A", 0)).toBe(false);
    await clock.advance(2_500);
    expect(p.isStale("A", 0)).toBe(true);
    expect(p.isStale("UNTRACKED", 0)).toBe(true);
    p.stop();
  });

  it("converts wire books to micros, best first", () => {
    const v = bookViewOf({ marketId: "A", outcome: 0, bids: [{ price: "0.55", quantity: "1.5" }], asks: [] }, 123);
    expect(v).toEqual({ bids: [{ price: 550_000n, size: 1_500_000n }], asks: [], updatedAtMs: 123 });
  });
});
