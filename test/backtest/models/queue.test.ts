/**
 * Queue-position models against hand-computed cases (quantities in shares here, micro-shares in
 * the model), and properties over random event sequences. Each probabilistic number in the tables
 * was computed by hand from the formula in queue.ts: s floored to parts per billion, then
 * floor(d * ppb / 1e9) in micro-shares.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cancelAdvance,
  cancelShare,
  openQueue,
  queueModelFactory,
  queueSpecProblem,
  type QueueModel,
  type QueueModelSpec,
} from "../../../src/backtest/models/queue.js";

const S = 1_000_000n;
/** n shares in micro-shares. */
const sh = (n: number): bigint => BigInt(Math.round(n * 1e6));

const RISK: QueueModelSpec = { kind: "risk-averse" };
const POW1: QueueModelSpec = { kind: "prob-power", n: 1 };
const POW2: QueueModelSpec = { kind: "prob-power", n: 2 };
const LOG: QueueModelSpec = { kind: "prob-log" };
const FRAC2: QueueModelSpec = { kind: "prob-power-fraction", n: 2 };
const describeSpec = (s: QueueModelSpec): string => JSON.stringify(s, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
const ALL: QueueModelSpec[] = [RISK, POW1, POW2, LOG, FRAC2, { kind: "prob-power", n: 0.5 }, { kind: "prob-log", unit: 1n }];

describe("risk-averse: the issue's case", () => {
  it("an order behind 100 shares fills only after 100 shares traded at its price", () => {
    const q = openQueue(RISK, sh(100), sh(10));
    q.book(sh(100), sh(150)); // 50 join behind us
    q.book(sh(150), sh(110)); // 40 cancelled: risk-averse puts them behind us
    expect(q.ahead).toBe(sh(100));
    expect(q.trade(sh(60))).toBe(0n);
    expect(q.trade(sh(39))).toBe(0n);
    expect(q.ahead).toBe(sh(1));
    expect(q.trade(sh(1))).toBe(0n); // exactly 100 traded: at the front, nothing of ours yet
    expect(q.ahead).toBe(0n);
    expect(q.trade(sh(3))).toBe(sh(3));
    expect([q.remaining, q.filled]).toEqual([sh(7), sh(3)]);
  });

  it("one trade of 103 behind 100 fills 3", () => {
    const q = openQueue(RISK, sh(100), sh(10));
    expect(q.trade(sh(103))).toBe(sh(3));
  });

  it("cancels move us up only when the level drops below what is ahead (nobody was behind)", () => {
    const q = openQueue(RISK, sh(100), sh(10));
    q.book(sh(100), sh(80)); // back = 0: the 20 were ahead of us
    expect(q.ahead).toBe(sh(80));
    q.book(sh(80), sh(120));
    q.book(sh(120), sh(50)); // level 120 = 80 ahead + 40 behind, 70 left: at least 30 were ahead
    expect(q.ahead).toBe(sh(50));
  });
});

describe("probabilistic: cancels ahead versus behind, hand-computed", () => {
  // [spec, front, back, d, share s, advance in micro-shares]
  const cases: [string, QueueModelSpec, number, number, number, bigint][] = [
    // n = 1: s = front / (front + back)
    ["power n=1, 30 ahead 70 behind", POW1, 30, 70, 20, 6_000_000n],
    ["power n=1, near the front", POW1, 10, 90, 20, 2_000_000n],
    ["power n=1, near the back", POW1, 90, 10, 20, 18_000_000n],
    // n = 2: s = 900/5800 = 0.155172413.. -> 155172413 ppb -> 20e6 * 155172413 / 1e9 = 3103448.26
    ["power n=2, 30 ahead 70 behind", POW2, 30, 70, 20, 3_103_448n],
    // s = 100/8200 = 0.012195121.. -> 243902.42
    ["power n=2, near the front", POW2, 10, 90, 20, 243_902n],
    // s = 8100/8200 = 0.987804878.. -> 19756097.56
    ["power n=2, near the back", POW2, 90, 10, 20, 19_756_097n],
    // log: s = ln 31 / (ln 31 + ln 71) = 0.446165485.. -> 8923309.7
    ["log, 30 ahead 70 behind", LOG, 30, 70, 20, 8_923_309n],
    // s = ln 11 / (ln 11 + ln 91) = 0.347080675.. -> 6941613.5
    ["log, near the front", LOG, 10, 90, 20, 6_941_613n],
    // s = ln 91 / (ln 91 + ln 11) = 0.652919324.. -> 13058386.5
    ["log, near the back", LOG, 90, 10, 20, 13_058_386n],
    // power-fraction n=2: s = (front / level)^2
    ["power-fraction n=2, 30 ahead 70 behind", FRAC2, 30, 70, 20, 1_800_000n],
    ["power-fraction n=2, near the back", FRAC2, 90, 10, 20, 16_200_000n],
    // forced: 50 left, only 10 were behind, so at least 40 were ahead (log's 32.6 is below it)
    ["log, more left than was behind", LOG, 90, 10, 50, 40_000_000n],
    ["risk-averse, more left than was behind", RISK, 90, 10, 50, 40_000_000n],
    ["risk-averse, cancel behind", RISK, 90, 10, 10, 0n],
  ];
  it.each(cases)("%s", (_name, spec, front, back, d, advance) => {
    expect(cancelAdvance(spec, sh(front), sh(back), sh(d))).toBe(advance);
    // the same through a model: arrive behind `front`, `back` join, then the level shrinks by d
    const q = openQueue(spec, sh(front), sh(5));
    q.book(sh(front), sh(front + back));
    q.book(sh(front + back), sh(front + back - d));
    expect(q.ahead).toBe(sh(front) - advance);
  });

  it("shares: 9/10 counts as 0.9 (the grid snap), log uses shares as its unit", () => {
    expect(cancelShare(POW1, sh(90), sh(10))).toBeCloseTo(0.9, 15);
    expect(cancelAdvance(POW1, sh(90), sh(10), sh(10))).toBe(9_000_000n); // 8999999 without the snap
    // in micro-shares (unit 1) every level looks alike: ln(1 + 3e7) / (ln(1 + 3e7) + ln(1 + 7e7)) = 17.2167 / 35.2807 = 0.48799
    expect(cancelShare({ kind: "prob-log", unit: 1n }, sh(30), sh(70))).toBeCloseTo(0.48799, 5);
    expect(cancelShare(LOG, sh(30), sh(70))).toBeCloseTo(0.446165485, 8);
  });

  it("trades since the last book change explain that much of it", () => {
    const q = openQueue(POW1, sh(30), sh(5));
    q.book(sh(30), sh(100)); // 70 join behind
    q.trade(sh(10)); // ahead 20; the level is 90 after it
    q.book(sh(100), sh(90)); // fully explained by the trade: nothing moves
    expect(q.ahead).toBe(sh(20));
    q.trade(sh(10)); // ahead 10, level 80
    q.book(sh(90), sh(70)); // 10 unexplained: s = 10/80 -> 125000000 ppb -> 1.25 shares
    expect(q.ahead).toBe(sh(10) - 1_250_000n);
  });

  it("growth never moves us; n -> 0 splits a decrease half and half", () => {
    const q = openQueue(POW2, sh(40), sh(5));
    q.book(sh(40), sh(400));
    expect(q.ahead).toBe(sh(40));
    expect(cancelShare({ kind: "prob-power", n: 1e-9 }, sh(1), sh(999))).toBeCloseTo(0.5, 8);
  });
});

describe("every model", () => {
  it.each(ALL.map((s) => [describeSpec(s), s] as const))("%s: fills, partial fills, wipe-out", (_n, spec) => {
    // trades larger than the queue: 30 ahead, 10 ours, 100 traded
    const big = openQueue(spec, sh(30), sh(10));
    expect(big.trade(sh(100))).toBe(sh(10));
    expect([big.ahead, big.remaining, big.filled]).toEqual([0n, 0n, sh(10)]);
    expect(big.trade(sh(5))).toBe(0n);

    // partial fills: at the front, 4 then own fill 2 then 10 traded
    const part = openQueue(spec, 0n, sh(10));
    expect(part.trade(sh(4))).toBe(sh(4));
    part.ownFill(sh(2));
    expect([part.remaining, part.filled]).toEqual([sh(4), sh(6)]);
    expect(part.trade(sh(10))).toBe(sh(4));
    expect(() => part.ownFill(1n)).toThrow(/own fill must be > 0 and <= remaining 0/);

    // an own fill means the queue ahead is gone
    const own = openQueue(spec, sh(50), sh(10));
    own.ownFill(sh(3));
    expect([own.ahead, own.remaining]).toEqual([0n, sh(7)]);

    // level wiped out: at the front, the next trade fills us
    const wiped = openQueue(spec, sh(50), sh(10));
    wiped.book(sh(50), sh(120));
    wiped.book(sh(120), 0n);
    expect(wiped.ahead).toBe(0n);
    expect(wiped.trade(sh(1))).toBe(sh(1));
  });
});

describe("validation", () => {
  it.each([
    [{ kind: "prob-power", n: 0 }, /n must be a finite number > 0 \(got 0\)/],
    [{ kind: "prob-power", n: -1 }, /n must be a finite number > 0/],
    [{ kind: "prob-power-fraction", n: Number.NaN }, /got NaN/],
    [{ kind: "prob-power", n: Number.POSITIVE_INFINITY }, /got Infinity/],
    [{ kind: "prob-log", unit: 0n }, /unit must be a bigint number of micro-shares > 0/],
    [{ kind: "fifo" }, /unknown kind "fifo"/],
  ] as [QueueModelSpec, RegExp][])("%o", (spec, message) => {
    expect(queueSpecProblem(spec)).toMatch(message);
    expect(() => queueModelFactory(spec)).toThrow(message);
  });

  it("orders and events", () => {
    const open = queueModelFactory(RISK);
    expect(() => open(-1n, S)).toThrow(/shares ahead must be >= 0/);
    expect(() => open(0n, 0n)).toThrow(/quantity must be > 0/);
    const q = open(S, S);
    expect(() => q.trade(-1n)).toThrow(/trade quantity must be >= 0/);
    expect(() => q.book(-1n, 0n)).toThrow(/level sizes must be >= 0/);
    expect(queueSpecProblem(POW2)).toBeUndefined();
  });
});

/** Random events at our price, in whole shares up to 1000 (sizes the models see in practice). */
type Ev = { t: "trade"; q: bigint } | { t: "book"; to: bigint } | { t: "own"; q: bigint };
const shares = fc.integer({ min: 0, max: 1000 }).map((n) => BigInt(n) * S);
const events = fc.array(
  fc.oneof(
    shares.map((q): Ev => ({ t: "trade", q })),
    shares.map((to): Ev => ({ t: "book", to })),
    fc.integer({ min: 1, max: 50 }).map((n): Ev => ({ t: "own", q: BigInt(n) * S })),
  ),
  { maxLength: 60 },
);

/** Plays the events; each book change goes from the previous displayed size (trades since it are inside the change). */
function play(spec: QueueModelSpec, ahead: bigint, qty: bigint, evs: Ev[], each?: (q: QueueModel, e: Ev) => void): QueueModel {
  const q = openQueue(spec, ahead, qty);
  let shown = ahead; // the last displayed size: trades since it are inside the next change
  for (const e of evs) {
    if (e.t === "trade") q.trade(e.q);
    else if (e.t === "book") {
      q.book(shown, e.to);
      shown = e.to;
    } else if (e.q <= q.remaining) q.ownFill(e.q);
    each?.(q, e);
  }
  return q;
}

describe("properties", () => {
  const start = fc.tuple(shares, fc.integer({ min: 1, max: 100 }).map((n) => BigInt(n) * S));

  it("ahead never goes negative and never grows, whatever happens; filled + remaining = qty", () => {
    fc.assert(
      fc.property(start, events, fc.constantFrom(...ALL), ([ahead, qty], evs, spec) => {
        let prev = ahead;
        play(spec, ahead, qty, evs, (q) => {
          expect(q.ahead >= 0n).toBe(true);
          expect(q.ahead <= prev).toBe(true);
          expect(q.filled + q.remaining).toBe(qty);
          prev = q.ahead;
        });
      }),
    );
  });

  it("with trades only, every model fills min(qty, traded - ahead) exactly", () => {
    fc.assert(
      fc.property(start, fc.array(shares, { maxLength: 30 }), fc.constantFrom(...ALL), ([ahead, qty], trades, spec) => {
        const q = play(spec, ahead, qty, trades.map((t): Ev => ({ t: "trade", q: t })));
        const traded = trades.reduce((a, b) => a + b, 0n);
        const beyond = traded > ahead ? traded - ahead : 0n;
        expect(q.filled).toBe(beyond < qty ? beyond : qty);
      }),
    );
  });

  it("a probabilistic model is never behind risk-averse: never more ahead, never less filled", () => {
    // Own fills are left out: they come from outside the models, in amounts the caller chooses.
    const noOwn = events.map((evs) => evs.filter((e) => e.t !== "own"));
    fc.assert(
      fc.property(start, noOwn, fc.constantFrom(...ALL.slice(1)), ([ahead, qty], evs, spec) => {
        const risk = openQueue(RISK, ahead, qty);
        let shown = ahead;
        play(spec, ahead, qty, evs, (q, e) => {
          if (e.t === "trade") risk.trade(e.q);
          else if (e.t === "book") {
            risk.book(shown, e.to);
            shown = e.to;
          }
          expect(q.ahead <= risk.ahead).toBe(true);
          expect(q.filled >= risk.filled).toBe(true);
        });
      }),
    );
  });

  it("power-fraction with a huge n is risk-averse exactly (anyone behind us takes every cancel)", () => {
    const huge: QueueModelSpec = { kind: "prob-power-fraction", n: 1e6 };
    const noOwn = events.map((evs) => evs.filter((e) => e.t !== "own"));
    fc.assert(
      fc.property(start, noOwn, ([ahead, qty], evs) => {
        const a = play(huge, ahead, qty, evs);
        const b = play(RISK, ahead, qty, evs);
        expect([a.ahead, a.filled]).toEqual([b.ahead, b.filled]);
      }),
    );
  });

  it("power with a huge n gives the whole decrease to the larger side (not risk-averse)", () => {
    const huge: QueueModelSpec = { kind: "prob-power", n: 1e6 };
    fc.assert(
      fc.property(shares, shares, shares, (front, back, dRaw) => {
        fc.pre(front !== back);
        const d = dRaw % (front + back + 1n);
        const advance = cancelAdvance(huge, front, back, d);
        if (front > back) expect(advance).toBe(d < front ? d : front);
        else expect(advance).toBe(cancelAdvance(RISK, front, back, d));
      }),
    );
  });
});
