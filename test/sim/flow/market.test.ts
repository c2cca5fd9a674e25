/**
 * What the synthetic traders of one market know (src/sim/flow/market.ts): the books liquidity is
 * posted on, whether the market is settled, the true fair value (news in) and the public one
 * (news hidden until its reveal time, clamped to the fair-value bounds), and the engine's touch.
 */
import { describe, expect, it } from "vitest";
import type { Micros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import { FairValue } from "../../../src/sim/flow/fair-value.js";
import { FlowMarket } from "../../../src/sim/flow/market.js";
import type { LifecycleStatus } from "../../../src/sim/platform/lifecycle.js";
import { ALICE, BOB, fixture, u } from "../engine/helpers.js";

const STILL = { volPerSqrtMin: 0, jumpProbPerMin: 0, jumpSize: 0 };

function setup(fair: string[], opts: { outcomes?: number; walk?: typeof STILL } = {}) {
  const f = fixture({ outcomes: opts.outcomes ?? fair.length });
  let status: LifecycleStatus = "OPEN";
  const fv = new FairValue(
    fair.map((v) => u(v)),
    opts.walk ?? STILL,
    new Rng(3),
    f.clock.now(),
  );
  const market = new FlowMarket({ clock: f.clock, engine: f.engine, marketId: "M", outcomeCount: fair.length, fair: fv, status: () => status });
  return { ...f, market, fv, setStatus: (s: LifecycleStatus) => (status = s) };
}

const values = (m: FlowMarket, n: number): Micros[] => Array.from({ length: n }, (_, i) => m.publicValue(i));

describe("FlowMarket: the books and the status", () => {
  it("a binary market posts on the YES book only; a multi-outcome market on every book", () => {
    const bin = setup(["0.5", "0.5"]).market;
    expect(bin.binary).toBe(true);
    expect(bin.books).toEqual([0]);
    const multi = setup(["0.5", "0.3", "0.2"]).market;
    expect(multi.binary).toBe(false);
    expect(multi.books).toEqual([0, 1, 2]);
  });

  it("is settled once RESOLVED or VOIDED, and reads the status live", () => {
    const { market, setStatus } = setup(["0.5", "0.5"]);
    for (const s of ["PRE_MARKET", "OPEN", "PAUSED", "CLOSED", "PENDING_RESOLUTION"] as const) {
      setStatus(s);
      expect(market.status()).toBe(s);
      expect(market.settled()).toBe(false);
    }
    for (const s of ["RESOLVED", "VOIDED"] as const) {
      setStatus(s);
      expect(market.settled()).toBe(true);
    }
  });
});

describe("FlowMarket: fair values", () => {
  it("the walk moves only when a trader looks", async () => {
    const { market, clock } = setup(["0.5", "0.5"], { walk: { volPerSqrtMin: 0.01, jumpProbPerMin: 0, jumpSize: 0 } });
    await clock.advance(60_000);
    expect(market.trueValue(0)).toBe(u("0.5"));
    market.look();
    expect(market.trueValue(0)).not.toBe(u("0.5"));
    expect(market.trueValue(0) + market.trueValue(1)).toBe(u("1"));
  });

  it("with no news pending the public value is the true value", () => {
    const { market } = setup(["0.62", "0.38"]);
    expect(values(market, 2)).toEqual([u("0.62"), u("0.38")]);
    expect(market.hiddenCount()).toBe(0);
  });

  it("binary: hidden news is taken out of YES until its reveal time, NO the complement", async () => {
    const { market, fv, clock } = setup(["0.5", "0.5"]);
    fv.set([u("0.6"), u("0.4")]);
    market.hide([u("0.1"), u("-0.1")], clock.now() + 2_000);
    expect(market.trueValue(0)).toBe(u("0.6"));
    expect(values(market, 2)).toEqual([u("0.5"), u("0.5")]);
    expect(market.hiddenCount()).toBe(1);
    await clock.advance(1_999);
    expect(market.publicValue(0)).toBe(u("0.5"));
    await clock.advance(1);
    expect(values(market, 2)).toEqual([u("0.6"), u("0.4")]);
    expect(market.hiddenCount()).toBe(0);
  });

  it("news hidden for different spans is revealed one at a time", async () => {
    const { market, fv, clock } = setup(["0.5", "0.5"]);
    fv.set([u("0.7"), u("0.3")]);
    market.hide([u("0.05"), u("-0.05")], clock.now() + 1_000);
    market.hide([u("0.15"), u("-0.15")], clock.now() + 3_000);
    expect(market.publicValue(0)).toBe(u("0.5"));
    await clock.advance(1_000);
    expect(market.hiddenCount()).toBe(1);
    expect(market.publicValue(0)).toBe(u("0.55"));
    await clock.advance(2_000);
    expect(market.publicValue(0)).toBe(u("0.7"));
  });

  it("binary: the public value stays within 0.02 .. 0.98", () => {
    const { market, fv, clock } = setup(["0.5", "0.5"]);
    fv.set([u("0.95"), u("0.05")]);
    market.hide([u("-0.1"), u("0.1")], clock.now() + 1_000);
    expect(values(market, 2)).toEqual([u("0.98"), u("0.02")]);
    fv.set([u("0.05"), u("0.95")]);
    expect(values(market, 2)).toEqual([u("0.15"), u("0.85")]);
    market.hide([u("0.2"), u("-0.2")], clock.now() + 1_000);
    expect(values(market, 2)).toEqual([u("0.02"), u("0.98")]);
  });

  it("multi-outcome: each outcome's hidden change comes out of its own value, floored at 0.01", async () => {
    const { market, clock } = setup(["0.5", "0.3", "0.2"]);
    market.hide([u("0.2"), u("-0.1"), u("-0.1")], clock.now() + 1_000);
    expect(values(market, 3)).toEqual([u("0.3"), u("0.4"), u("0.3")]);
    market.hide([0n, 0n, u("0.35")], clock.now() + 1_000); // 0.2 + 0.1 - 0.35 = -0.05
    expect(market.publicValue(2)).toBe(u("0.01"));
    await clock.advance(1_000);
    expect(values(market, 3)).toEqual([u("0.5"), u("0.3"), u("0.2")]);
  });

  it("news whose reveal time has already come is never hidden", () => {
    const { market, fv, clock } = setup(["0.5", "0.5"]);
    fv.set([u("0.6"), u("0.4")]);
    market.hide([u("0.1"), u("-0.1")], clock.now());
    market.hide([u("0.1"), u("-0.1")], clock.now() - 5);
    expect(market.hiddenCount()).toBe(0);
    expect(market.publicValue(0)).toBe(u("0.6"));
  });
});

describe("FlowMarket.touch", () => {
  it("reads the best bid and ask of an outcome from the engine, NO as the YES complement", () => {
    const { market, engine, place } = setup(["0.5", "0.5"]);
    expect(market.touch(0)).toEqual({ bid: null, ask: null });
    place(ALICE, { outcome: 0, side: "BUY", price: u("0.4"), quantity: u("1") });
    engine.split(BOB, "M", u("1"));
    place(BOB, { outcome: 0, side: "SELL", price: u("0.7"), quantity: u("1") });
    expect(market.touch(0)).toEqual({ bid: u("0.4"), ask: u("0.7") });
    expect(market.touch(1)).toEqual({ bid: u("0.3"), ask: u("0.6") });
  });
});
