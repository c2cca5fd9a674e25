import { describe, expect, it } from "vitest";
import { LoadShedder, shedOrder, type LoadShedderOptions, type ShedCandidate } from "../../../src/bot/guards/load-shedder.js";

const OPTS: LoadShedderOptions = { maxLagMs: 200, recoveryMs: 30_000, stepMs: 10_000, refreshFactor: 4, shedFraction: 0.25 };

/** Eight quoted markets in selection order: m0 first selected. m1 and m5 hold shares, m2 and m6 live orders. */
function markets(): ShedCandidate[] {
  return Array.from({ length: 8 }, (_, i) => ({ market: `m${i}`, hasPosition: i === 1 || i === 5, hasLiveOrders: i === 2 || i === 6 }));
}

/** Feeds one lag sample every 250 ms and evaluates every second, from `from` to `to` (ms). */
function drive(s: LoadShedder, from: number, to: number, lagMs: number, cands = markets()) {
  const steps = [];
  for (let t = from; t < to; t += 250) {
    s.sample(lagMs, t);
    if (t % 1000 === 0) {
      const d = s.evaluate(t, cands);
      if (d.step !== undefined) steps.push({ t, ...d.step });
    }
  }
  return steps;
}

describe("shedOrder", () => {
  it("sheds markets holding nothing first, then those with live orders only, then those with a position; later-selected first in each class", () => {
    expect(shedOrder(markets()).map((c) => c.market)).toEqual(["m7", "m4", "m3", "m0", "m6", "m2", "m5", "m1"]);
  });
});

describe("LoadShedder", () => {
  it("does nothing while the lag stays under the bound", () => {
    const s = new LoadShedder(OPTS);
    expect(drive(s, 0, 120_000, 150)).toEqual([]);
    expect(s.level).toBe(0);
    expect(s.refreshFactor).toBe(1);
  });

  it("widens the refresh first, then sheds a quarter of the markets per step, one step per stepMs, in priority order", () => {
    const s = new LoadShedder(OPTS);
    const steps = drive(s, 0, 60_000, 500);
    expect(steps.map((x) => [x.t, x.kind, x.level])).toEqual([
      [0, "widen_refresh", 1],
      [10_000, "shed", 2],
      [20_000, "shed", 3],
      [30_000, "shed", 4],
      [40_000, "shed", 5],
    ]);
    expect(s.refreshFactor).toBe(4);
    expect(steps.filter((x) => x.kind === "shed").map((x) => ("markets" in x ? x.markets : []))).toEqual([
      ["m7", "m4"],
      ["m3", "m0"],
      ["m6", "m2"],
      ["m5", "m1"],
    ]);
    // Everything is shed: no further step, however long the lag lasts.
    expect(s.shed).toHaveLength(8);
    expect(s.isShed("m1")).toBe(true);
  });

  it("judges a step only on the samples taken after the previous one", () => {
    const s = new LoadShedder(OPTS);
    for (let t = 0; t < 10_000; t += 250) s.sample(900, t);
    expect(s.evaluate(10_000, markets()).step?.kind).toBe("widen_refresh");
    // The lag clears right after the step: the 40 late ticks before it do not count.
    expect(drive(s, 10_250, 30_000, 10)).toEqual([]);
    expect(s.level).toBe(1);
  });

  it("takes no step for a few late ticks (one GC pause), and does for a loop late on more than a tenth of them", () => {
    const s = new LoadShedder(OPTS);
    for (let t = 0; t < 10_000; t += 250) s.sample(t % 5000 === 0 ? 3000 : 20, t);
    expect(s.evaluate(10_000, markets()).step).toBeUndefined();
    for (let t = 10_000; t < 20_000; t += 250) s.sample(t % 2000 === 0 ? 300 : 20, t);
    expect(s.evaluate(20_000, markets()).step?.kind).toBe("widen_refresh");
  });

  it("holds its level while the lag is between half the bound and the bound (hysteresis)", () => {
    const s = new LoadShedder(OPTS);
    drive(s, 0, 11_000, 500); // widened, then one batch shed
    expect(s.level).toBe(2);
    expect(drive(s, 11_000, 200_000, 150)).toEqual([]);
    expect(s.level).toBe(2);
  });

  it("restores one step per recovery period once the lag stays under half the bound: last shed first, the refresh last", () => {
    const s = new LoadShedder(OPTS);
    drive(s, 0, 21_000, 500);
    expect(s.level).toBe(3);
    const steps = drive(s, 21_000, 200_000, 20);
    // Calm from 28 s (the three late ticks after the last step are then under a tenth of the window).
    expect(steps.map((x) => [x.t, x.kind, "markets" in x ? x.markets : []])).toEqual([
      [58_000, "restore", ["m3", "m0"]],
      [88_000, "restore", ["m7", "m4"]],
      [118_000, "restore_refresh", []],
    ]);
    expect(s.level).toBe(0);
    expect(s.refreshFactor).toBe(1);
    expect(s.shed).toEqual([]);
  });

  it("restarts the recovery count when the lag comes back before it completes", () => {
    const s = new LoadShedder(OPTS);
    drive(s, 0, 11_000, 500); // level 2 at t=10 s
    drive(s, 11_000, 35_000, 20); // calm from 18 s: a restore was due at 48 s
    drive(s, 35_000, 37_000, 150); // two seconds over half the bound
    const steps = drive(s, 37_000, 80_000, 20);
    // Calm again once the burst is under a tenth of the window (46 s), 30 s more.
    expect(steps.map((x) => [x.t, x.kind])).toEqual([[76_000, "restore"]]);
  });

  it("doubles the recovery period after a restore that did not fit (no flapping), and resets it at level 0", () => {
    const s = new LoadShedder(OPTS);
    drive(s, 0, 11_000, 500); // level 2 at 10 s
    expect(s.recoveryMs).toBe(30_000);
    const restored = drive(s, 11_000, 60_000, 20);
    expect(restored.map((x) => [x.t, x.kind])).toEqual([[48_000, "restore"]]);
    // The restored markets bring the lag back at once: shed again, and the next restore waits 60 s.
    const again = drive(s, 60_000, 61_250, 500);
    expect(again.map((x) => [x.t, x.kind])).toEqual([[61_000, "shed"]]);
    expect(s.recoveryMs).toBe(60_000);
    // Calm from 62 s: 60 s per step until level 0, where the period is 30 s again.
    const later = drive(s, 61_250, 400_000, 20);
    expect(later.map((x) => [x.t, x.kind])).toEqual([
      [122_000, "restore"],
      [182_000, "restore_refresh"],
    ]);
    expect(s.recoveryMs).toBe(30_000);
  });

  it("forgets shed markets that are no longer quoted, without a step", () => {
    const s = new LoadShedder(OPTS);
    drive(s, 0, 11_000, 500);
    expect(s.shed).toEqual(["m7", "m4"]);
    const fewer = markets().filter((c) => c.market !== "m7");
    const d = s.evaluate(12_000, fewer);
    expect(d.gone).toEqual(["m7"]);
    expect(d.step).toBeUndefined();
    expect(s.shed).toEqual(["m4"]);
  });

  it("sheds at least one market per step, however few are quoted", () => {
    const s = new LoadShedder({ ...OPTS, shedFraction: 0.01 });
    const steps = drive(s, 0, 25_000, 500, markets().slice(0, 3));
    expect(steps.filter((x) => x.kind === "shed").map((x) => ("markets" in x ? x.markets.length : 0))).toEqual([1, 1]);
  });

  it("refuses nonsense options and ignores nonsense samples", () => {
    expect(() => new LoadShedder({ ...OPTS, maxLagMs: 0 })).toThrow(/maxLagMs/);
    expect(() => new LoadShedder({ ...OPTS, shedFraction: 1.5 })).toThrow(/shedFraction/);
    expect(() => new LoadShedder({ ...OPTS, refreshFactor: 1.5 })).toThrow(/refreshFactor/);
    const s = new LoadShedder(OPTS);
    s.sample(Number.NaN, 0);
    s.sample(-5, 0);
    s.sample(Number.POSITIVE_INFINITY, 0);
    expect(s.windowLagMs(0)).toBe(0);
  });
});
