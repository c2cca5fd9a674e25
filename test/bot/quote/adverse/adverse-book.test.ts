/**
 * The adverse-selection trackers composed (src/bot/quote/adverse/adverse-book.ts): the options
 * `adverse:` asks for, the observer sinks, fills held until a call brings the time, the state
 * reported only on change, and the markets it holds / forgets.
 */
import { describe, expect, it } from "vitest";
import { adverseSectionSchema } from "../../../../src/config/adverse-section.js";
import { AdverseBook, adverseOptionsOf, observedAdverse, type AdverseView } from "../../../../src/bot/quote/adverse/adverse-book.js";
import type { Markout, OwnFill } from "../../../../src/bot/quote/adverse/markout-tracker.js";
import { RecordingObserver } from "../../../../src/bot/observer.js";

const TOXICITY = { horizonMs: 1_000, fills: 4, windowMs: 60_000, minFills: 1, widenEnterMicros: 1_000n, widenExitMicros: 500n, pullEnterMicros: 3_000n, coolingMs: 10_000 };
const JUMP = { thresholdMicros: 10_000n, windowMs: 5_000, coolingMs: 20_000 };
const fill = (over: Partial<OwnFill> = {}): OwnFill => ({ wallet: "w", market: "M", outcome: 0, side: "BUY", price: 500_000n, qty: 1_000_000n, role: "maker", ts: 100, ...over });

describe("adverseOptionsOf", () => {
  const parse = (a: unknown) => adverseSectionSchema().parse(a);
  it.each([
    { name: "no section", a: undefined },
    { name: "markouts off, nothing else", a: { markouts: false } },
  ])("$name: undefined (nothing on)", ({ a }) => {
    expect(adverseOptionsOf(a === undefined ? undefined : parse(a))).toBeUndefined();
  });

  it("markouts only (the default section): no toxicity, no jump", () => {
    expect(adverseOptionsOf(parse({}))).toEqual({ markouts: true, maxPending: 10_000, toxicity: undefined, jump: undefined });
  });

  it("seconds as ms, ticks as micros, the rest as given", () => {
    const o = adverseOptionsOf(
      parse({
        markouts: false,
        maxPendingMarkouts: 7,
        toxicity: { horizonSec: 5, fills: 9, windowSec: 120, minFills: 3, widenEnterTicks: 1.5, widenExitTicks: 0.5, pullEnterTicks: 4, coolingSec: 30 },
        jump: { thresholdTicks: 20, windowSec: 2.5, coolingSec: 0.0015 },
      }),
    );
    expect(o).toEqual({
      markouts: false,
      maxPending: 7,
      toxicity: { horizonMs: 5_000, fills: 9, windowMs: 120_000, minFills: 3, widenEnterMicros: 1_500n, widenExitMicros: 500n, pullEnterMicros: 4_000n, coolingMs: 30_000 },
      // fractional seconds rounded to whole ms
      jump: { thresholdMicros: 20_000n, windowMs: 2_500, coolingMs: 2 },
    });
  });
});

describe("observedAdverse", () => {
  it("undefined stays undefined", () => {
    expect(observedAdverse(undefined, new RecordingObserver())).toBeUndefined();
  });

  it("markouts and state changes become the observer's markout and adverse_state events", () => {
    const obs = new RecordingObserver();
    const o = observedAdverse({ markouts: true, maxPending: 5, toxicity: TOXICITY }, obs)!;
    expect(o.toxicity).toBe(TOXICITY);
    const mk: Markout = { wallet: "w", market: "M", outcome: 1, side: "SELL", role: "maker", horizonMs: 5_000, perShare: -2_000n, qty: 1n, fillTs: 0, mid: 1n };
    o.onMarkout!(mk);
    const view: AdverseView = {
      toxicity: [
        { outcome: 0, side: "BUY", level: "normal", estimateMicros: null, fills: 0, sinceMs: 0 },
        { outcome: 0, side: "SELL", level: "widen", estimateMicros: -1_500n, fills: 2, sinceMs: 10 },
        { outcome: 1, side: "BUY", level: "pull", estimateMicros: -5_000n, fills: 3, sinceMs: 20 },
      ],
      jump: { coolingUntilMs: 99, lastMoveMicros: 1n, lastJumpMs: 9 },
    };
    o.onState!("w", "M", view);
    expect(obs.events).toEqual([
      { type: "markout", wallet: "w", marketId: "M", side: "SELL", horizonMs: 5_000, perShare: -2_000n },
      {
        type: "adverse_state",
        wallet: "w",
        marketId: "M",
        sides: [
          { outcome: 0, side: "SELL", level: "widen" },
          { outcome: 1, side: "BUY", level: "pull" },
        ],
        jumpCoolingUntilMs: 99,
      },
    ]);
  });
});

describe("AdverseBook", () => {
  it("a fill is timed at the next call that brings the time, against the mids seen until then", () => {
    const got: Markout[] = [];
    const b = new AdverseBook({ markouts: true, maxPending: 100, onMarkout: (m) => got.push(m) });
    b.onMid("M", 0, 500_000n, 0);
    b.onFill(fill({ ts: 100 }));
    // held: nothing pending in the tracker until a call brings the time
    expect(b.tracker.stats.pending).toBe(0);
    b.onMid("M", 0, 503_000n, 1_050);
    expect(b.tracker.stats.pending).toBe(b.tracker.horizonsMs.length);
    // the 1 s horizon (due 1,100) settles at a later view, with the mid in effect then
    b.view("w", "M", 1_200);
    expect(got.map((m) => [m.horizonMs, m.perShare])).toEqual([[1_000, 3_000n]]);
  });

  it("a fill learnt after a later mid: horizons already past are late, not measured", () => {
    const got: Markout[] = [];
    const b = new AdverseBook({ markouts: true, maxPending: 100, onMarkout: (m) => got.push(m) });
    b.onMid("M", 0, 500_000n, 0);
    b.onMid("M", 0, 510_000n, 1_500);
    b.onFill(fill({ ts: 100 }));
    b.view("w", "M", 2_000);
    expect(got).toEqual([]);
    expect(b.tracker.stats.late).toBe(1);
  });

  it.each([
    { name: "markouts on: every markout goes to onMarkout", markouts: true, seen: 1 },
    { name: "markouts off: onMarkout is not called (toxicity still fed)", markouts: false, seen: 0 },
  ])("$name", ({ markouts, seen }) => {
    const got: Markout[] = [];
    const b = new AdverseBook({ markouts, maxPending: 100, toxicity: TOXICITY, onMarkout: (m) => got.push(m) });
    b.onMid("M", 0, 500_000n, 0);
    b.onFill(fill());
    b.onMid("M", 0, 498_000n, 500);
    const v = b.view("w", "M", 1_200);
    expect(got).toHaveLength(seen);
    expect(v.toxicity.map((t) => t.level)).toEqual(["widen"]);
  });

  it("fills past maxPending while waiting for the time are dropped, counted at every horizon", () => {
    const b = new AdverseBook({ markouts: true, maxPending: 2 });
    for (let i = 0; i < 4; i++) b.onFill(fill());
    expect(b.tracker.stats.dropped).toBe(2 * b.tracker.horizonsMs.length);
  });

  it("without toxicity and jump the view is empty sides and no jump", () => {
    const b = new AdverseBook({ markouts: true, maxPending: 10 });
    expect(b.view("w", "M", 0)).toEqual({ toxicity: [], jump: { coolingUntilMs: null, lastMoveMicros: null, lastJumpMs: null } });
    expect(b.counts(0)).toEqual({ widen: 0, pull: 0, cooling: 0 });
  });

  it("onState: told only when a (wallet, market)'s state changes, and once more when it is back to normal", () => {
    const states: [string, string, string][] = [];
    const b = new AdverseBook({
      markouts: false,
      maxPending: 100,
      toxicity: TOXICITY,
      jump: JUMP,
      onState: (w, m, v) => states.push([w, m, `${v.toxicity.map((t) => t.level).join(",")}|${v.jump.coolingUntilMs}`]),
    });
    b.onMid("M", 0, 500_000n, 0);
    b.view("w", "M", 0);
    expect(states).toEqual([]); // normal from the start: nothing to say
    b.onFill(fill());
    b.onMid("M", 0, 498_000n, 500);
    b.view("w", "M", 1_200);
    b.view("w", "M", 1_300);
    expect(states).toEqual([["w", "M", "widen|null"]]);
    expect(b.acting).toBe(1);
    // a jump: the cooling end is part of the state
    b.onMid("M", 0, 520_000n, 2_000);
    b.view("w", "M", 2_000);
    // another wallet on the same market sees the jump only
    b.view("v", "M", 2_000);
    expect(states.slice(1)).toEqual([
      ["w", "M", "widen|22000"],
      ["v", "M", "|22000"],
    ]);
    expect(b.acting).toBe(2);
    // cooling over and the toxic fill out of the window: back to normal, told once
    b.view("w", "M", 61_200);
    b.view("w", "M", 61_300);
    expect(states.slice(3)).toEqual([["w", "M", "|null"]]); // the side, normal again and out of the window, is pruned
    expect(b.acting).toBe(1);
  });

  it("markets: every market with state, pending fills and reported states included; forget drops one market only", () => {
    const b = new AdverseBook({ markouts: true, maxPending: 100, toxicity: TOXICITY, jump: JUMP, onState: () => undefined });
    b.onMid("A", 0, 500_000n, 0);
    b.onFill(fill({ market: "XA" })); // held, not timed yet
    expect(b.markets().sort()).toEqual(["A", "XA"]);
    b.onMid("XA", 0, 500_000n, 50);
    b.onMid("XA", 0, 498_000n, 500);
    b.onMid("A", 0, 530_000n, 600); // a jump on A
    b.view("w", "A", 1_200);
    b.view("w", "XA", 1_200);
    expect(b.acting).toBe(2);
    b.forget("A");
    expect(b.markets()).toEqual(["XA"]);
    expect(b.acting).toBe(1);
    expect(b.counts(1_200)).toEqual({ widen: 1, pull: 0, cooling: 0 });
    b.onFill(fill({ market: "XA" }));
    b.forget("XA");
    expect(b.markets()).toEqual([]);
    expect(b.acting).toBe(0);
  });
});
