/** The engine's price grid as integer ticks, and the bounds that keep its amounts inside int64. */
import { describe, expect, it } from "vitest";
import { MAX_PRICE, MIN_PRICE, PRICE_TICK } from "../../../src/core/amounts.js";
import { parseMicros } from "../../../src/core/money.js";
import { MAX_ORDER_QTY, MAX_TICK, MAX_TOTAL_DEPOSITS, MIN_TICK, PRICE_OF_TICK, TICK_BIG, TICK_ONE, tickOf } from "../../../src/sim/engine/ticks.js";

describe("ticks", () => {
  it("maps every grid price to its tick and back", () => {
    for (let t = MIN_TICK; t <= MAX_TICK; t++) {
      expect(tickOf(PRICE_OF_TICK[t]!)).toBe(t);
      expect(TICK_BIG[t]).toBe(BigInt(t));
    }
    expect(tickOf(MIN_PRICE)).toBe(1);
    expect(tickOf(MAX_PRICE)).toBe(999);
    expect(tickOf(parseMicros("0.45"))).toBe(450);
    expect(PRICE_OF_TICK[TICK_ONE]).toBe(parseMicros("1"));
  });

  it("is -1 off the grid or outside [0.001, 0.999]", () => {
    for (const p of [0n, PRICE_TICK - 1n, parseMicros("0.4505"), parseMicros("1"), parseMicros("1.5"), -PRICE_TICK]) expect(tickOf(p), String(p)).toBe(-1);
  });

  it("keeps the largest amounts inside int64", () => {
    const INT64_MAX = (1n << 63n) - 1n;
    // An order's exact notional in tick units stays below 1e15.
    expect(BigInt(MAX_TICK) * MAX_ORDER_QTY < 10n ** 15n).toBe(true);
    expect(MAX_TOTAL_DEPOSITS * 2n - 1n <= INT64_MAX).toBe(true);
    expect(BigInt.asIntN(64, MAX_TOTAL_DEPOSITS)).toBe(MAX_TOTAL_DEPOSITS);
  });
});
