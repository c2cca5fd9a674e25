/**
 * A second, independent look at each wallet's PnL: the simulator's own books. Net PnL is the
 * change in the wallet's settlement token on the platform (trades, fees, payouts) plus the
 * platform's final positions at the report's marks; it must equal the daemon's
 * realised + unrealised - fees up to rounding (the platform rounds each fill's cash, the
 * inventory each order's cumulative notional and each position's PnL: at most a micro or so per
 * fill and per position). A wallet that started with positions, or holds one without a mark, is
 * not checked (null).
 */
import { SCALE, divRound, formatMicros, parseMicros, type Micros } from "../core/money.js";
import type { Marks } from "../bot/inventory.js";
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

export function platformCheck(sim: Simulator, wallet: string, start: StartingBalance | undefined, marks: Marks, totals: TotalFigures): PlatformCheck | null {
  if (start === undefined || start.positions > 0) return null;
  const cashDelta = sim.engine.balance(wallet).total - start.cash;
  let value2 = 0n;
  const held = sim.engine.positions(wallet);
  for (const p of held) {
    const mark = marks(p.marketId, p.outcome);
    if (mark === undefined) return null;
    value2 += p.quantity * mark;
  }
  const positionsValue = divRound(value2, SCALE, "floor");
  const net = cashDelta + positionsValue;
  const difference = parseMicros(totals.pnl.net) - net;
  const tolerance = BigInt(totals.fills.count + 2 * held.length + 2);
  return {
    cashDelta: formatMicros(cashDelta),
    positionsValue: formatMicros(positionsValue),
    net: formatMicros(net),
    difference: formatMicros(difference),
    tolerance: formatMicros(tolerance),
    ok: (difference < 0n ? -difference : difference) <= tolerance,
  };
}
