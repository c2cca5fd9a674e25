/**
 * The exact inventory check on hand-made inputs: it catches a fill the inventory skipped (at its
 * start-up anchor) and a position that differs, where a tolerance would not. (The report's other
 * checks on hand-made inputs: marks.test.ts, verdict.test.ts, events.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros, type Micros } from "../../src/core/money.js";
import { Inventory, type InventoryFill } from "../../src/bot/fills/inventory.js";
import type { Simulator } from "../../src/sim/simulator.js";
import { inventoryCheck, problemsAndWarnings, type BacktestReport } from "../../src/backtest/index.js";

const W = "0x00000000000000000000000000000000000000aa";

function fill(over: Partial<InventoryFill>): InventoryFill {
  return { tradeId: "t1", wallet: W, orderId: "o1", marketId: "M", outcome: 0, side: "BUY", price: parseMicros("0.4"), qty: 10n * ONE, fee: 0n, ts: 1_000, ...over };
}

/** The simulator's books as inventoryCheck reads them. */
function simBooks(cash: Micros, positions: { marketId: string; outcome: number; quantity: Micros }[]): Simulator {
  return { engine: { balance: () => ({ total: cash }), positions: () => positions } } as unknown as Simulator;
}

describe("the exact inventory check", () => {
  it("passes when cash and positions equal the simulator's to the micro", () => {
    const inv = new Inventory();
    inv.applyFill(fill({}));
    const c = inventoryCheck(simBooks(1_000n * ONE - 4n * ONE, [{ marketId: "M", outcome: 0, quantity: 10n * ONE }]), inv, W, 1_000n * ONE);
    expect(c).toMatchObject({ ok: true, cashDifference: "0", inventoryCashDelta: "-4", platformCashDelta: "-4", positionsCompared: 1, positionDifferenceCount: 0 });
  });

  it("fails on a fill the inventory skipped at its anchor, even a tiny one", () => {
    const inv = new Inventory();
    inv.anchor(W, 1_000, [], 1_000n * ONE);
    // Stamped at the anchor: ignored by the inventory, but the platform booked it (0.004 of cash).
    expect(inv.applyFill(fill({ qty: 10_000n, ts: 1_000 }))).toBe(false);
    const c = inventoryCheck(simBooks(1_000n * ONE - 4_000n, [{ marketId: "M", outcome: 0, quantity: 10_000n }]), inv, W, 1_000n * ONE);
    expect(c.ok).toBe(false);
    expect(c.cashDifference).toBe("0.004");
    expect(c.positionDifferences).toEqual([{ marketId: "M", outcome: 0, inventory: "0", platform: "0.01" }]);
    const wallet = { name: "w", inventoryCheck: c, platformCheck: null, platformCheckSkipped: "test", totals: { pnl: { net: "0" } } } as unknown as BacktestReport["wallets"][number];
    const run = { startup: { wallets: [] }, shutdown: { wallets: [] } } as unknown as BacktestReport["run"];
    const v = problemsAndWarnings({ run, consistency: { ok: true } as BacktestReport["consistency"], wallets: [wallet], markets: [] });
    expect(v.problems).toEqual([
      "wallet w: the daemon's inventory moved 0 of cash, the simulator -0.004 (difference 0.004)",
      "wallet w: 1 position(s) differ from the simulator's, e.g. M outcome 0: inventory 0, simulator 0.01",
    ]);
    expect(v.warnings).toEqual(["wallet w: PnL cross-check skipped: test"]);
  });

  it("compares wallets that started with positions through the anchor", () => {
    const inv = new Inventory();
    inv.anchor(W, 500, [{ marketId: "M", outcome: 1, qty: 5n * ONE, avgPrice: parseMicros("0.3") }], 1_000n * ONE);
    inv.applyFill(fill({ ts: 1_000 }));
    const sim = simBooks(1_000n * ONE - 4n * ONE, [
      { marketId: "M", outcome: 0, quantity: 10n * ONE },
      { marketId: "M", outcome: 1, quantity: 5n * ONE },
    ]);
    expect(inventoryCheck(sim, inv, W, 1_000n * ONE)).toMatchObject({ ok: true, positionsCompared: 2 });
    const off = simBooks(1_000n * ONE - 4n * ONE, [{ marketId: "M", outcome: 0, quantity: 10n * ONE }]);
    expect(inventoryCheck(off, inv, W, 1_000n * ONE)).toMatchObject({ ok: false, positionDifferenceCount: 1 });
  });
});
