/** The halt figures of the report on hand-made inputs. */
import { describe, expect, it } from "vitest";
import { haltSummary } from "../../src/backtest/index.js";

describe("halts", () => {
  it("are summed per reason, a halt never cleared lasting to the end of trading", () => {
    const h = (at: number, action: string, target: string, reason: string) => ({ at, action, scope: "market", target, reason });
    const s = haltSummary(
      [
        h(1_000, "raised", "A", "stale_market_data"),
        h(61_000, "cleared", "A", "stale_market_data"),
        h(2_000, "raised", "B", "stale_market_data"),
        h(5_000, "raised", "all", "reconciliation_drift"),
        h(500_000, "raised", "C", "daily_loss"),
      ],
      100_000,
    );
    expect(s).toEqual([
      { reason: "daily_loss", raised: 1, haltedMs: 0, openAtEnd: 0 },
      { reason: "reconciliation_drift", raised: 1, haltedMs: 95_000, openAtEnd: 1 },
      { reason: "stale_market_data", raised: 2, haltedMs: 60_000 + 98_000, openAtEnd: 1 },
    ]);
  });
});
