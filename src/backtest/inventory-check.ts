/**
 * The exact check of where the report's PnL comes from: the daemon's Inventory (not its fill
 * ledger: the inventory can leave a ledger fill out, e.g. one stamped at or before its start-up
 * anchor) against the simulator's own books, with zero tolerance:
 *
 * - cash: Inventory.cashDelta (trade cash per order as the platform rounds it, fees, payouts,
 *   since the anchor) must equal the simulator's settlement-token total at the end minus before
 *   the daemon started. The daemon anchors before it trades, so both cover the same fills; a fill
 *   the inventory skipped, double-counted or priced differently shows up as a difference;
 * - positions: every (market, outcome) held on either side must have the same quantity. Starting
 *   positions enter the inventory through its anchor, so wallets that started with holdings are
 *   checked the same way.
 */
import { formatMicros, type Micros } from "../core/money.js";
import type { Inventory } from "../bot/fills/inventory.js";
import type { Simulator } from "../sim/simulator.js";
import type { InventoryCheck, PositionDifference } from "./types.js";

/** Listed position differences (the count is always complete). */
const LISTED = 20;

export function inventoryCheck(sim: Simulator, inventory: Inventory, wallet: string, startCash: Micros | undefined): InventoryCheck {
  const w = wallet.toLowerCase();
  const invCash = inventory.cashDelta(w);
  // Without a starting balance (never expected: it is read before the daemon starts) compare
  // against a platform delta that cannot match, so the check fails loudly instead of passing.
  const simCash = startCash === undefined ? invCash + 1n : sim.engine.balance(w).total - startCash;
  const qty = new Map<string, { marketId: string; outcome: number; inv: Micros; sim: Micros }>();
  const at = (marketId: string, outcome: number) => {
    const k = `${marketId}|${String(outcome).padStart(4, "0")}`;
    let e = qty.get(k);
    if (e === undefined) qty.set(k, (e = { marketId, outcome, inv: 0n, sim: 0n }));
    return e;
  };
  for (const p of inventory.positions(w)) if (p.qty !== 0n) at(p.marketId, p.outcome).inv = p.qty;
  for (const p of sim.engine.positions(w)) if (p.quantity !== 0n) at(p.marketId, p.outcome).sim = p.quantity;
  const differences: PositionDifference[] = [];
  let count = 0;
  for (const k of [...qty.keys()].sort()) {
    const e = qty.get(k)!;
    if (e.inv === e.sim) continue;
    if (count++ < LISTED) differences.push({ marketId: e.marketId, outcome: e.outcome, inventory: formatMicros(e.inv), platform: formatMicros(e.sim) });
  }
  return {
    inventoryCashDelta: formatMicros(invCash),
    platformCashDelta: formatMicros(simCash),
    cashDifference: formatMicros(invCash - simCash),
    positionsCompared: qty.size,
    positionDifferences: differences,
    positionDifferenceCount: count,
    ok: invCash === simCash && count === 0 && startCash !== undefined,
  };
}
