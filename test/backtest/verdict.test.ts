/** The report's verdict on hand-made inputs: warnings and problems name what they found. */
import { describe, expect, it } from "vitest";
import { problemsAndWarnings, type BacktestReport } from "../../src/backtest/index.js";

describe("warnings", () => {
  it("name every held position left out of unrealised PnL", () => {
    const m = {
      marketId: "M",
      status: "OPEN",
      mark: { source: "mixed", prices: ["0.45", null, null], stale: false, ageMs: 0, asOf: null },
      figures: { pnl: { unmarked: 1 }, inventory: [{ outcome: 0, final: "3" }, { outcome: 2, final: "5" }] },
    } as unknown as BacktestReport["markets"][number];
    const run = { startup: { wallets: [] }, shutdown: { wallets: [{ name: "w", leftover: 0, unresolved: 0, unconfirmed: [], finalWalkOk: true, platformOpenOrders: 2 }] } } as unknown as BacktestReport["run"];
    const v = problemsAndWarnings({ run, consistency: { ok: true } as BacktestReport["consistency"], wallets: [], markets: [m] });
    expect(v.warnings).toEqual(["market M: 1 position(s) without a mark (outcome 2): unrealised PnL leaves them out"]);
    expect(v.problems).toEqual(["wallet w: the simulator still has 2 open order(s) of the wallet after shutdown"]);
  });
});
