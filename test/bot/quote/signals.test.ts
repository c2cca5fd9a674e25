/** What the shell keeps between cycles (src/bot/quote/signals.ts): the newest fill per (outcome, side), frozen views, the adverse trackers' state. */
import { describe, expect, it } from "vitest";
import { NO_SIGNALS, SignalBook, lastFillOf, type MarketSignals, type SignalFill } from "../../../src/bot/quote/signals.js";

const f = (outcome: number, side: "BUY" | "SELL", ts: number, price = 500_000n): SignalFill => ({ outcome, side, price, size: 1_000_000n, role: "maker", ts });
const TOXICITY = { horizonMs: 1_000, fills: 4, windowMs: 60_000, minFills: 1, widenEnterMicros: 1_000n, widenExitMicros: 500n, pullEnterMicros: 3_000n, coolingMs: 10_000 };

describe("SignalBook.onFill and view", () => {
  it.each<{ name: string; fills: SignalFill[]; want: [number, string, number][] }>([
    { name: "nothing filled: no fills", fills: [], want: [] },
    { name: "one per (outcome, side), newest first", fills: [f(0, "BUY", 10), f(0, "SELL", 30), f(1, "BUY", 20)], want: [[0, "SELL", 30], [1, "BUY", 20], [0, "BUY", 10]] },
    { name: "a newer fill of the same side replaces the older", fills: [f(0, "BUY", 10), f(0, "BUY", 40)], want: [[0, "BUY", 40]] },
    { name: "an older fill arriving late does not replace a newer one", fills: [f(0, "BUY", 40), f(0, "BUY", 10)], want: [[0, "BUY", 40]] },
    { name: "a fill of the same time replaces (the later one told wins)", fills: [f(0, "BUY", 40, 1n), f(0, "BUY", 40, 2n)], want: [[0, "BUY", 40]] },
  ])("$name", ({ fills, want }) => {
    const sb = new SignalBook();
    for (const x of fills) sb.onFill("w", "M", x);
    const v = sb.view("w", "M", 1_000);
    expect(v.lastFills.map((x) => [x.outcome, x.side, x.ts])).toEqual(want);
    if (fills.length === 2 && fills[0]!.ts === fills[1]!.ts) expect(v.lastFills[0]!.price).toBe(2n);
  });

  it("a (wallet, market) never filled reads NO_SIGNALS", () => {
    const sb = new SignalBook();
    sb.onFill("w", "M", f(0, "BUY", 1));
    expect(sb.view("w", "other", 0)).toBe(NO_SIGNALS);
    expect(sb.view("v", "M", 0)).toBe(NO_SIGNALS);
  });

  it("wallets and markets are kept apart", () => {
    const sb = new SignalBook();
    sb.onFill("w", "A", f(0, "BUY", 1));
    sb.onFill("v", "A", f(0, "SELL", 2));
    sb.onFill("w", "B", f(1, "SELL", 3));
    expect(sb.view("w", "A", 0).lastFills.map((x) => x.side)).toEqual(["BUY"]);
    expect(sb.view("v", "A", 0).lastFills.map((x) => x.side)).toEqual(["SELL"]);
    expect(sb.view("w", "B", 0).lastFills.map((x) => x.outcome)).toEqual([1]);
    expect(sb.size).toBe(3);
  });

  it("views are frozen copies: the same view until a new fill, the caller's fill object not kept", () => {
    const sb = new SignalBook();
    const mine = f(0, "BUY", 10);
    sb.onFill("w", "M", mine);
    mine.price = 1n;
    const v1 = sb.view("w", "M", 0);
    expect(v1.lastFills[0]!.price).toBe(500_000n);
    expect(Object.isFrozen(v1)).toBe(true);
    expect(Object.isFrozen(v1.lastFills)).toBe(true);
    expect(sb.view("w", "M", 0)).toBe(v1);
    sb.onFill("w", "M", f(0, "SELL", 20));
    const v2 = sb.view("w", "M", 0);
    expect(v2).not.toBe(v1);
    expect(v1.lastFills).toHaveLength(1);
    expect(v2.lastFills).toHaveLength(2);
    // an older fill ignored leaves the view as it was
    sb.onFill("w", "M", f(0, "SELL", 5));
    expect(sb.view("w", "M", 0)).toBe(v2);
  });
});

describe("lastFillOf", () => {
  const signals: MarketSignals = { lastFills: [f(0, "SELL", 30), f(1, "BUY", 20), f(0, "BUY", 10)] };
  it.each([
    { outcome: 0, side: "BUY" as const, ts: 10 },
    { outcome: 0, side: "SELL" as const, ts: 30 },
    { outcome: 1, side: "BUY" as const, ts: 20 },
    { outcome: 1, side: "SELL" as const, ts: undefined },
  ])("outcome $outcome $side → $ts", ({ outcome, side, ts }) => {
    expect(lastFillOf(signals, outcome, side)?.ts).toBe(ts);
  });
  it("no signals: undefined", () => {
    expect(lastFillOf(undefined, 0, "BUY")).toBeUndefined();
    expect(lastFillOf(NO_SIGNALS, 0, "BUY")).toBeUndefined();
  });
});

describe("SignalBook with adverse trackers", () => {
  it("without `adverse` the view has no toxicity and no jump keys", () => {
    const sb = new SignalBook();
    expect(sb.adverse).toBeUndefined();
    sb.onFill("w", "M", f(0, "BUY", 1));
    expect(Object.keys(sb.view("w", "M", 0)).sort()).toEqual(["lastFills"]);
  });

  it("fills and mids go to the trackers; the view adds their toxicity and jump, frozen", () => {
    const sb = new SignalBook({ adverse: { markouts: false, maxPending: 100, toxicity: TOXICITY, jump: { thresholdMicros: 10_000n, windowMs: 5_000, coolingMs: 20_000 } } });
    sb.onMid("M", 0, 500_000n, 0);
    sb.onFill("w", "M", f(0, "BUY", 100));
    sb.onMid("M", 0, 498_000n, 500);
    const v = sb.view("w", "M", 1_200);
    expect(v.lastFills.map((x) => x.ts)).toEqual([100]);
    expect(v.toxicity!.map((t) => [t.outcome, t.side, t.level])).toEqual([[0, "BUY", "widen"]]);
    expect(v.jump!.coolingUntilMs).toBeNull();
    expect(Object.isFrozen(v)).toBe(true);
    sb.onMid("M", 0, 520_000n, 2_000);
    expect(sb.view("w", "M", 2_000).jump!.coolingUntilMs).toBe(22_000);
    // a wallet that never filled there still sees the market's jump
    expect(sb.view("v", "M", 2_000)).toMatchObject({ lastFills: [], toxicity: [], jump: { coolingUntilMs: 22_000 } });
  });

  it("every fill goes to the trackers, even one older than the kept fill", () => {
    const sb = new SignalBook({ adverse: { markouts: true, maxPending: 1 } });
    sb.onFill("w", "M", f(0, "BUY", 50));
    sb.onFill("w", "M", f(0, "BUY", 10));
    // the second overflowed the trackers' queue of one: it was handed over
    expect(sb.adverse!.tracker.stats.dropped).toBe(sb.adverse!.tracker.horizonsMs.length);
  });
});

describe("SignalBook.markets and forget", () => {
  it("markets with fills of any wallet, or with tracker state; forget drops one market for every wallet", () => {
    const sb = new SignalBook({ adverse: { markouts: true, maxPending: 100 } });
    sb.onFill("w", "A", f(0, "BUY", 1));
    sb.onFill("v", "B", f(0, "BUY", 1));
    sb.onMid("C", 0, 500_000n, 0);
    expect(sb.markets().sort()).toEqual(["A", "B", "C"]);
    sb.onFill("v", "A", f(0, "SELL", 2));
    sb.forget("A");
    expect(sb.markets().sort()).toEqual(["B", "C"]);
    expect(sb.view("w", "A", 0).lastFills).toEqual([]);
    expect(sb.view("v", "A", 0).lastFills).toEqual([]);
    expect(sb.view("v", "B", 0).lastFills).toHaveLength(1);
  });
});
