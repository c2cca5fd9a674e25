/**
 * The PnL cross-check against the simulator's own books (platform-check.ts), on hand-made
 * inputs: net is the settlement token's change plus the final positions at the report's marks
 * (their value rounded down once), compared with the report's net within one micro per fill, two
 * per position, plus two; a wallet that started with positions, holds one without a mark, or
 * whose start was not read is skipped with the reason.
 */
import { describe, expect, it } from "vitest";
import { parseMicros as m, type Micros } from "../../src/core/money.js";
import type { Marks } from "../../src/bot/fills/inventory.js";
import type { Simulator } from "../../src/sim/simulator.js";
import { platformCheck, startingBalance } from "../../src/backtest/platform-check.js";
import type { TotalFigures } from "../../src/backtest/types.js";

const W = "0x00000000000000000000000000000000000000aa";

type Held = { marketId: string; outcome: number; quantity: Micros };

/** The simulator's books as the check reads them: the wallet's cash total and positions. */
function simBooks(cash: Micros, positions: Held[]): Simulator {
  return { engine: { balance: () => ({ total: cash }), positions: () => positions } } as unknown as Simulator;
}

const totals = (net: string, fills: number): TotalFigures => ({ pnl: { net }, fills: { count: fills } }) as unknown as TotalFigures;

const marks: Marks = (market, outcome) => (market === "M" ? [m("0.333333"), m("0.6")][outcome] : undefined);

// Start 1000, end 998.5: cash moved -1.5. Held: 3.333333 YES at 0.333333 and 2 NO at 0.6:
// 3_333_333 x 333_333 + 2_000_000 x 600_000 = 2_311_109_888_889 micro² -> 2.311109 (floor).
// Net -1.5 + 2.311109 = 0.811109.
const HELD: Held[] = [
  { marketId: "M", outcome: 0, quantity: 3_333_333n },
  { marketId: "M", outcome: 1, quantity: 2_000_000n },
];
const START = { cash: m("1000"), positions: 0 };

describe("the PnL cross-check", () => {
  it("reads the wallet's starting cash and how many positions it held", () => {
    expect(startingBalance(simBooks(m("250.5"), HELD), W)).toEqual({ cash: m("250.5"), positions: 2 });
  });

  it("values the simulator's positions at the marks, rounded down once, and agrees within the tolerance", () => {
    const r = platformCheck(simBooks(m("998.5"), HELD), W, START, marks, totals("0.811115", 2));
    // Tolerance: 2 fills + 2 x 2 positions + 2 = 8 micros; the difference is 6.
    expect(r).toEqual({ check: { cashDelta: "-1.5", positionsValue: "2.311109", net: "0.811109", difference: "0.000006", tolerance: "0.000008", ok: true } });
  });

  it("fails one micro beyond the tolerance, either way, and passes at it", () => {
    const sim = simBooks(m("998.5"), HELD);
    expect(platformCheck(sim, W, START, marks, totals("0.811117", 2)).check).toMatchObject({ difference: "0.000008", ok: true });
    expect(platformCheck(sim, W, START, marks, totals("0.811118", 2)).check).toMatchObject({ difference: "0.000009", ok: false });
    expect(platformCheck(sim, W, START, marks, totals("0.811101", 2)).check).toMatchObject({ difference: "-0.000008", ok: true });
    expect(platformCheck(sim, W, START, marks, totals("0.8111", 2)).check).toMatchObject({ difference: "-0.000009", ok: false });
  });

  it("with nothing held, is the cash change alone with a tolerance of fills + 2", () => {
    const r = platformCheck(simBooks(m("1003.25"), []), W, START, marks, totals("3.25", 5));
    expect(r.check).toEqual({ cashDelta: "3.25", positionsValue: "0", net: "3.25", difference: "0", tolerance: "0.000007", ok: true });
  });

  it("is skipped, with the reason, when it cannot be made", () => {
    expect(platformCheck(simBooks(m("1000"), []), W, undefined, marks, totals("0", 0))).toEqual({ check: null, skipped: "no starting balance was read" });
    expect(platformCheck(simBooks(m("1000"), []), W, { cash: m("1000"), positions: 3 }, marks, totals("0", 0))).toEqual({
      check: null,
      skipped: "the wallet started with 3 position(s), whose cost the inventory takes from the platform's average price",
    });
    const unmarked = simBooks(m("1000"), [...HELD, { marketId: "X", outcome: 1, quantity: 1n }, { marketId: "M", outcome: 2, quantity: 1n }]);
    expect(platformCheck(unmarked, W, START, marks, totals("0", 0))).toEqual({ check: null, skipped: "no mark for X outcome 1, M outcome 2" });
  });
});
