/**
 * The daemon's own timers (src/bot/engine/daemon-timers.ts) on the virtual clock: the risk tick
 * from the start, each periodic job at its own period, the quote refresh widened by the capacity
 * guard's factor, failures of the market refreshes logged rather than thrown, one-off timers
 * forgotten once fired, and everything (the market timeline's timers too) cleared at stop.
 */
import { describe, expect, it } from "vitest";
import { DaemonTimers, type DaemonTimerParts } from "../../../src/bot/engine/daemon-timers.js";
import type { MarketTimeline } from "../../../src/bot/engine/daemon-markets.js";
import { DEFAULT_TUNING } from "../../../src/bot/engine/tuning.js";
import type { WalletRunner } from "../../../src/bot/engine/wallet-runner.js";
import type { MarketRegistry } from "../../../src/bot/market/market-registry.js";
import type { Config } from "../../../src/config/index.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { createLogger } from "../../../src/log/index.js";
import { T0 } from "./fakes.js";

const tuning = { ...DEFAULT_TUNING, riskEvaluateMs: 1_000, statusRefreshMs: 5_000, maintenanceMs: 2_000, fillSyncMs: 30_000, driftCheckMs: 60_000 };

function setup(over: { capacity?: DaemonTimerParts["capacity"]; failSelection?: boolean; slow?: { selection: (() => void)[]; status: (() => void)[] } } = {}) {
  const clock = new VirtualClock(T0);
  const calls: string[] = [];
  const count = (what: string) => calls.filter((c) => c === what).length;
  const lines: { level: string; msg: string; err?: string }[] = [];
  const log = createLogger({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l) as { level: string; msg: string; err?: string }) });
  const runner = (name: string) =>
    ({
      triggerAll: (why: string) => calls.push(`${name}:trigger:${why}`),
      maintain: () => (calls.push(`${name}:maintain`), Promise.resolve()),
      sync: (why: string) => (calls.push(`${name}:sync:${why}`), Promise.resolve(undefined)),
      checkDrift: () => (calls.push(`${name}:drift`), Promise.resolve()),
    }) as unknown as WalletRunner;
  const parts: DaemonTimerParts = {
    clock,
    log,
    config: { markets: { refreshSec: 30 }, quoting: { refreshMs: 3_000 } } as unknown as Config,
    tuning,
    registry: { refreshStatus: () => (calls.push("status"), over.slow ? new Promise<void>((r) => over.slow!.status.push(r)) : Promise.resolve()) } as unknown as MarketRegistry,
    markets: {
      refreshSelection: () =>
        (calls.push("selection"), over.failSelection ? Promise.reject(new Error("exchange_unavailable")) : over.slow ? new Promise<void>((r) => over.slow!.selection.push(r)) : Promise.resolve()),
      clearTimers: () => calls.push("timeline:clear"),
    } as unknown as MarketTimeline,
    runners: [runner("w1"), runner("w2")],
    riskTick: (now) => calls.push(`risk@${now - T0}`),
    ...(over.capacity === undefined ? {} : { capacity: over.capacity }),
  };
  return { clock, calls, count, lines, timers: new DaemonTimers(parts) };
}

describe("the risk tick", () => {
  it("ticks at once with the time, then every riskEvaluateMs", async () => {
    const { clock, calls, timers } = setup();
    timers.startRiskTick();
    expect(calls).toEqual(["risk@0"]);
    await clock.advance(3_500);
    expect(calls).toEqual(["risk@0", "risk@1000", "risk@2000", "risk@3000"]);
    expect(timers.size).toBe(1);
  });
});

describe("the periodic work", () => {
  it("runs each job at its own period, for every wallet", async () => {
    const { clock, count, timers } = setup();
    timers.startPeriodic();
    expect(count("selection")).toBe(0);
    await clock.advance(60_000);
    expect(count("selection")).toBe(2); // every 30 s
    expect(count("status")).toBe(12); // every 5 s
    expect(count("w1:trigger:timer")).toBe(20); // every 3 s
    expect(count("w2:trigger:timer")).toBe(20);
    expect(count("w1:maintain")).toBe(30); // every 2 s
    expect(count("w2:sync:timer")).toBe(2); // every 30 s
    expect(count("w1:drift")).toBe(1); // every 60 s
    expect(timers.size).toBe(6);
  });

  it("a widened refresh (capacity factor 3) triggers the quote cycles on every third tick only", async () => {
    let evaluated = 0;
    const capacity = { refreshFactor: 3, evaluateMs: 10_000, evaluate: () => (evaluated += 1) };
    const { clock, count, timers } = setup({ capacity });
    timers.startPeriodic();
    await clock.advance(18_000);
    expect(count("w1:trigger:timer")).toBe(2); // ticks 3 and 6 of 6
    expect(evaluated).toBe(1);
    expect(timers.size).toBe(7);
  });

  it("the factor is read at each tick: a guard that recovers restores the full rate", async () => {
    const capacity = { refreshFactor: 2, evaluateMs: 1_000_000, evaluate: () => undefined };
    const { clock, count, timers } = setup({ capacity });
    timers.startPeriodic();
    await clock.advance(12_000); // 4 ticks, factor 2: 2 refreshes
    expect(count("w1:trigger:timer")).toBe(2);
    capacity.refreshFactor = 1;
    await clock.advance(6_000);
    expect(count("w1:trigger:timer")).toBe(4);
  });

  it("a failed selection refresh is logged as a warning, and the timer goes on", async () => {
    const { clock, count, lines, timers } = setup({ failSelection: true });
    timers.startPeriodic();
    await clock.advance(60_000);
    expect(count("selection")).toBe(2);
    const warned = lines.filter((l) => l.msg === "market selection failed");
    expect(warned).toHaveLength(2);
    expect(warned[0]).toMatchObject({ level: "warn", err: "exchange_unavailable" });
  });
});

describe("market refreshes that outlast their period", () => {
  it("a selection or status refresh still running is not started again: the tick is skipped, the next one after it ends runs", async () => {
    const slow = { selection: [] as (() => void)[], status: [] as (() => void)[] };
    const { clock, count, lines, timers } = setup({ slow });
    timers.startPeriodic();
    // Neither refresh answers for 95 s: three selection ticks (30, 60, 90 s), nineteen status ticks.
    await clock.advance(95_000);
    expect(count("selection")).toBe(1);
    expect(count("status")).toBe(1);
    expect(lines.filter((l) => l.msg === "market selection still running: refresh skipped")).toHaveLength(2);
    expect(lines.filter((l) => l.msg === "market status refresh still running: refresh skipped")).toHaveLength(18);
    // They end: the next ticks run again.
    for (const done of [...slow.selection.splice(0), ...slow.status.splice(0)]) done();
    await clock.advance(5_000);
    expect(count("status")).toBe(2);
    await clock.advance(20_000);
    expect(count("selection")).toBe(2);
  });

  it("a refresh that failed does not block the next one", async () => {
    const { clock, count, timers } = setup({ failSelection: true });
    timers.startPeriodic();
    await clock.advance(90_000);
    expect(count("selection")).toBe(3);
  });
});

describe("one-off timers and stop", () => {
  it("a later() timer fires once and is then forgotten", async () => {
    const { clock, calls, timers } = setup();
    timers.later(() => calls.push("once"), 500);
    expect(timers.size).toBe(1);
    await clock.advance(499);
    expect(calls).toEqual([]);
    await clock.advance(1);
    expect(calls).toEqual(["once"]);
    expect(timers.size).toBe(0);
    await clock.advance(10_000);
    expect(calls).toEqual(["once"]);
  });

  it("clear stops every timer, pending one-offs too, and the market timeline's", async () => {
    const { clock, calls, timers } = setup();
    timers.startRiskTick();
    timers.startPeriodic();
    timers.later(() => calls.push("never"), 5_000);
    calls.length = 0;
    timers.clear();
    expect(calls).toEqual(["timeline:clear"]);
    expect(timers.size).toBe(0);
    expect(clock.pending()).toBe(0);
    await clock.advance(120_000);
    expect(calls).toEqual(["timeline:clear"]);
  });
});

describe("a clock that gives turns (live)", () => {
  it("refreshes and maintains each wallet in a turn of its own, and a stop ends a walk half done", async () => {
    const { clock, calls, timers } = setup();
    const turns: (() => void)[] = [];
    (clock as VirtualClock & { turn?: () => Promise<void> }).turn = () => new Promise<void>((r) => turns.push(r));
    timers.startPeriodic();
    await clock.advance(3_000);
    // The refresh tick triggered w1; w2 waits for the event loop's turn.
    expect(calls.filter((c) => c.includes("trigger"))).toEqual(["w1:trigger:timer"]);
    expect(turns.length).toBeGreaterThan(0);
    for (const t of turns.splice(0)) t();
    await Promise.resolve();
    await Promise.resolve();
    expect(calls.filter((c) => c.includes("trigger"))).toEqual(["w1:trigger:timer", "w2:trigger:timer"]);
    // Next tick: w1 triggered, then a stop before the turn comes: w2 is not.
    await clock.advance(3_000);
    timers.clear();
    for (const t of turns.splice(0)) t();
    await Promise.resolve();
    await Promise.resolve();
    expect(calls.filter((c) => c.includes("trigger"))).toEqual(["w1:trigger:timer", "w2:trigger:timer", "w1:trigger:timer"]);
  });
});
