/**
 * The platform's positions are as of the read's server time; our inventory moves on with every
 * fill. A fill stamped after the read is not drift: `fillsAfter` gives the moves the read could not
 * see, which the confirmation adds to the platform's side before comparing.
 */
import { describe, expect, it } from "vitest";
import { fillsAfter } from "../../../src/bot/engine/wallet-upkeep.js";
import type { Fill } from "../../../src/bot/fills/fill-ledger.js";
import { driftReport } from "../../../src/bot/fills/inventory-drift.js";
import { parseMicros } from "../../../src/core/money.js";

function fill(tradeId: string, ts: number, side: "BUY" | "SELL", qty: string, marketId = "M", outcome = 0): Fill {
  return { tradeId, wallet: "0xw", orderId: `o-${tradeId}`, marketId, outcome, side, price: 500_000n, qty: parseMicros(qty), fee: 0n, role: "maker", ts, source: "stream" };
}

describe("fillsAfter", () => {
  it("sums the signed quantities stamped strictly after the read, per market and outcome", () => {
    const rows = fillsAfter(
      [fill("t1", 1_000, "BUY", "5"), fill("t2", 2_000, "BUY", "3"), fill("t3", 2_001, "SELL", "1.5"), fill("t4", 3_000, "BUY", "2", "M", 1), fill("t5", 3_000, "BUY", "4", "N"), fill("t6", 3_500, "SELL", "4", "N")],
      2_000,
    );
    expect(rows.map((r) => ({ marketId: r.marketId, outcome: r.outcome, quantity: r.quantity }))).toEqual([
      { marketId: "M", outcome: 0, quantity: "-1.5" },
      { marketId: "M", outcome: 1, quantity: "2" },
    ]);
  });

  it("turns a fill that landed between the read and the comparison from drift into agreement", () => {
    // We hold 10 (8 before the read at T = 2_000, then a BUY of 2 at 2_500); the platform read says 8.
    const ours = [{ marketId: "M", outcome: 0, qty: parseMicros("10") }];
    const platform = [{ marketId: "M", tokenId: "1", outcome: 0, quantity: "8", locked: "0", avgPrice: null }];
    expect(driftReport("0xw", ours, platform, undefined, undefined).clean).toBe(false);
    const moved = fillsAfter([fill("a", 1_500, "BUY", "8"), fill("b", 2_500, "BUY", "2")], 2_000);
    expect(driftReport("0xw", ours, [...platform, ...moved], undefined, undefined).clean).toBe(true);
    // A fill the read saw but we never got is still drift.
    expect(driftReport("0xw", [{ marketId: "M", outcome: 0, qty: parseMicros("6") }], [...platform], undefined, undefined).positions).toHaveLength(1);
  });
});
