/**
 * Our positions and cash against the platform's `/api/me/positions` and `/api/me/balances`: every
 * difference becomes a drift record; nothing is corrected here.
 */
import { parseMicros, type Micros } from "../../core/money.js";
import type { Balances, Position } from "../../wire/portfolio.js";

export interface PositionDrift {
  wallet: string;
  marketId: string;
  outcome: number;
  ours: Micros;
  theirs: Micros;
  /** theirs - ours. */
  diff: Micros;
}

export interface CashDrift {
  wallet: string;
  ours: Micros;
  theirs: Micros;
  diff: Micros;
}

export interface DriftReport {
  positions: PositionDrift[];
  cash?: CashDrift;
  clean: boolean;
}

interface Held {
  marketId: string;
  outcome: number;
  qty: Micros;
}

/**
 * `ours` are the wallet's positions (lowercased `wallet`); `expectedCash` is its anchored cash plus
 * the delta, undefined when its cash was never anchored (then cash is not compared).
 */
export function driftReport(
  wallet: string,
  ours: Iterable<Held>,
  platformPositions: readonly Position[],
  balances: Balances | undefined,
  expectedCash: Micros | undefined,
): DriftReport {
  const theirs = new Map<string, Held>();
  for (const p of platformPositions) {
    const k = `${p.marketId}|${p.outcome}`;
    const prev = theirs.get(k);
    theirs.set(k, { marketId: p.marketId, outcome: p.outcome, qty: (prev?.qty ?? 0n) + parseMicros(p.quantity) });
  }
  const mine = new Map<string, Held>();
  for (const p of ours) mine.set(`${p.marketId}|${p.outcome}`, p);
  const drifts: PositionDrift[] = [];
  for (const k of new Set([...theirs.keys(), ...mine.keys()])) {
    const o = mine.get(k);
    const t = theirs.get(k);
    const oq = o?.qty ?? 0n;
    const tq = t?.qty ?? 0n;
    if (oq === tq) continue;
    const ref = (o ?? t)!;
    drifts.push({ wallet, marketId: ref.marketId, outcome: ref.outcome, ours: oq, theirs: tq, diff: tq - oq });
  }
  drifts.sort((a, b) => (a.marketId !== b.marketId ? (a.marketId < b.marketId ? -1 : 1) : a.outcome - b.outcome));
  const report: DriftReport = { positions: drifts, clean: drifts.length === 0 };
  if (balances !== undefined && expectedCash !== undefined) {
    const total = parseMicros(balances.collateral.total);
    if (total !== expectedCash) {
      report.cash = { wallet, ours: expectedCash, theirs: total, diff: total - expectedCash };
      report.clean = false;
    }
  }
  return report;
}
