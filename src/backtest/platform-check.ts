/**
 * A second, independent look at each wallet's PnL: the simulator's own books. Net PnL is the
 * change in the wallet's settlement token on the platform (trades, fees, payouts) plus the
 * platform's final positions at the report's marks; it must equal the daemon's
 * realised + unrealised - fees up to rounding (the platform rounds each fill's cash, the
 * inventory each order's cumulative notional and each position's PnL: at most a micro or so per
 * fill and per position). A wallet that started with positions, or holds one without a mark, is
 * not checked (null, with the reason, which the report lists as a warning). The exact check of the
 * inventory against the simulator's cash and positions is inventory-check.ts; this one adds the
 * marks and the PnL arithmetic on top.
 */
import { SCALE, divRound, formatMicros, parseMicros, type Micros } from "../core/money.js";
import type { Marks } from "../bot/fills/inventory.js";
import type { Simulator } from "../sim/simulator.js";
import type { PlatformCheck, TotalFigures } from "./types.js";

export interface StartingBalance {
  cash: Micros;
  positions: number;
}

/** What a wallet holds on the simulator before the daemon starts. */
export function startingBalance(sim: Simulator, wallet: string): StartingBalance {
  return { cash: sim.engine.balance(wallet).total, positions: sim.engine.positions(wallet).length };
}

export function platformCheck(
  sim: Simulator,
  wallet: string,
  start: StartingBalance | undefined,
  marks: Marks,
  totals: TotalFigures,
): { check: PlatformCheck; skipped?: undefined } | { check: null; skipped: string } {
  if (start === undefined) return { check: null, skipped: "no starting balance was read" };
  if (start.positions > 0) return { check: null, skipped: `the wallet started with ${start.positions} position(s), whose cost the inventory takes from the platform's average price` };
  const cashDelta = sim.engine.balance(wallet).total - start.cash;
  let value2 = 0n;
  const held = sim.engine.positions(wallet);
  const unmarked = held.filter((p) => marks(p.marketId, p.outcome) === undefined);
  if (unmarked.length > 0) {
    return { check: null, skipped: `no mark for ${unmarked.map((p) => `${p.marketId} outcome ${p.outcome}`).join(", ")}` };
  }
  for (const p of held) value2 += p.quantity * marks(p.marketId, p.outcome)!;
  const positionsValue = divRound(value2, SCALE, "floor");
  const net = cashDelta + positionsValue;
  const difference = parseMicros(totals.pnl.net) - net;
  const tolerance = BigInt(totals.fills.count + 2 * held.length + 2);
  const check: PlatformCheck = {
    cashDelta: formatMicros(cashDelta),
    positionsValue: formatMicros(positionsValue),
    net: formatMicros(net),
    difference: formatMicros(difference),
    tolerance: formatMicros(tolerance),
    ok: (difference < 0n ? -difference : difference) <= tolerance,
  };
  return { check };
}
