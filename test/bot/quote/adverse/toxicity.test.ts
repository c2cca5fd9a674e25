import { describe, expect, it } from "vitest";
import { NORMAL, ToxicityBook, estimateOf, stepToxicity, type ToxicState, type ToxicityParams } from "../../../../src/bot/quote/adverse/toxicity.js";
import type { Markout } from "../../../../src/bot/quote/adverse/markout-tracker.js";

const P: ToxicityParams = {
  horizonMs: 5_000,
  fills: 4,
  windowMs: 60_000,
  minFills: 2,
  widenEnterMicros: 2_000n,
  widenExitMicros: 1_000n,
  pullEnterMicros: 5_000n,
  coolingMs: 30_000,
};
const st = (level: ToxicState["level"], sinceMs = 0, resetAtMs = 0): ToxicState => ({ level, sinceMs, resetAtMs });

describe("stepToxicity (hysteresis)", () => {
  it.each<[string, ToxicState, bigint | null, number, ToxicState]>([
    ["normal, no estimate: stays", NORMAL, null, 1_000, NORMAL],
    ["normal, mildly bad (above -enter): stays", NORMAL, -1_999n, 1_000, NORMAL],
    ["normal, at -widenEnter: widen", NORMAL, -2_000n, 1_000, st("widen", 1_000)],
    ["normal, at -pullEnter: straight to pull", NORMAL, -5_000n, 1_000, st("pull", 1_000)],
    ["widen, worse: pull", st("widen", 1_000), -6_000n, 2_000, st("pull", 2_000)],
    ["widen, between exit and enter after cooling: stays (hysteresis)", st("widen", 1_000), -1_500n, 40_000, st("widen", 1_000)],
    ["widen, recovered but cooling not over: stays", st("widen", 1_000), 0n, 30_999, st("widen", 1_000)],
    ["widen, recovered past exit after cooling: normal", st("widen", 1_000), -999n, 31_000, st("normal", 31_000)],
    ["widen, no estimate any more after cooling: normal", st("widen", 1_000), null, 31_000, st("normal", 31_000)],
    ["pull, cooling not over, even if good: stays", st("pull", 1_000), 3_000n, 30_999, st("pull", 1_000)],
    ["pull, after cooling: normal, evidence reset", st("pull", 1_000, 0), -9_000n, 31_000, st("normal", 31_000, 31_000)],
  ])("%s", (_n, s, est, now, want) => {
    expect(stepToxicity(s, est, now, P)).toEqual(want);
  });

  it("returns the same object when nothing changes", () => {
    const s = st("widen", 1_000);
    expect(stepToxicity(s, -3_000n, 2_000, P)).toBe(s);
  });
});

describe("estimateOf", () => {
  const x = (fillTs: number, perShare: bigint, qty = 1_000_000n) => ({ fillTs, perShare, qty });
  it.each<[string, ReturnType<typeof x>[], number, number, bigint | null, number]>([
    ["below minFills: none", [x(1_000, -3_000n)], 2_000, 0, null, 1],
    ["size-weighted, rounded down", [x(1_000, -3_000n, 1_000_000n), x(2_000, 1_000n, 2_000_000n)], 3_000, 0, -334n, 2],
    ["only the last `fills` (4)", [x(1, -90_000n), x(2, 0n), x(3, 0n), x(4, -4_000n), x(5, 0n)], 10, 0, -1_000n, 4],
    ["fills older than the window are out", [x(0, -90_000n), x(70_000, -2_000n), x(71_000, -4_000n)], 70_001, 0, -3_000n, 2],
    ["fills before the reset are out", [x(1_000, -90_000n), x(5_000, -2_000n), x(6_000, -4_000n)], 7_000, 5_000, -3_000n, 2],
  ])("%s", (_n, samples, now, reset, est, n) => {
    expect(estimateOf(samples, now, reset, P)).toEqual({ estimate: est, fills: n });
  });
});

describe("ToxicityBook", () => {
  const mk = (fillTs: number, perShare: bigint, over: Partial<Markout> = {}): Markout => ({
    wallet: "w",
    market: "M",
    outcome: 0,
    side: "BUY",
    role: "maker",
    horizonMs: 5_000,
    perShare,
    qty: 1_000_000n,
    fillTs,
    mid: 500_000n,
    ...over,
  });

  it("a run of toxic fills widens then pulls the side; the pull ends after cooling and the side starts afresh", () => {
    const b = new ToxicityBook(P);
    b.onMarkout(mk(0, -3_000n), 5_000);
    expect(b.view("w", "M", 5_000)[0]).toMatchObject({ level: "normal", estimateMicros: null, fills: 1 });
    b.onMarkout(mk(1_000, -3_000n), 6_000);
    expect(b.view("w", "M", 6_000)[0]).toMatchObject({ level: "widen", estimateMicros: -3_000n, sinceMs: 6_000 });
    b.onMarkout(mk(2_000, -9_000n), 7_000);
    expect(b.view("w", "M", 7_000)[0]).toMatchObject({ level: "pull", estimateMicros: -5_000n, sinceMs: 7_000 });
    expect(b.view("w", "M", 36_999)[0]!.level).toBe("pull");
    expect(b.view("w", "M", 37_000)[0]).toMatchObject({ level: "normal", estimateMicros: null, fills: 0, sinceMs: 37_000 });
  });

  it("sides are separate: only the toxic one moves; other horizons are ignored", () => {
    const b = new ToxicityBook(P);
    for (const t of [0, 1_000]) b.onMarkout(mk(t, -3_000n), t + 5_000);
    for (const t of [0, 1_000]) b.onMarkout(mk(t, 4_000n, { side: "SELL" }), t + 5_000);
    b.onMarkout(mk(3_000, -50_000n, { side: "SELL", horizonMs: 1_000 }), 4_000);
    expect(b.view("w", "M", 6_000).map((v) => [v.side, v.level])).toEqual([
      ["BUY", "widen"],
      ["SELL", "normal"],
    ]);
    expect(b.view("other", "M", 6_000)).toEqual([]);
  });

  it("prune drops quiet sides, keeps the acting ones", () => {
    const b = new ToxicityBook(P);
    for (const t of [0, 1_000]) b.onMarkout(mk(t, 0n, { market: "N" }), t + 5_000);
    for (const t of [30_000, 31_000]) b.onMarkout(mk(t, -3_000n), t + 5_000);
    b.prune(61_500);
    expect(b.size).toBe(1);
    b.prune(200_000);
    expect(b.size).toBe(0);
  });
});
