/**
 * One position (wallet, market, outcome) as a fold over its fills, by the average-cost method and
 * the settlement rules described in the header of inventory.ts. Pure bigint arithmetic: the cost
 * basis and realised PnL are kept exact in micro² (micros x micro-shares) and floored to micros
 * only when summarised.
 *
 * Compaction. The fold starts from a base: the anchor's holdings, then (compactPosition) the fills
 * older than the ledger's watermark folded in for good and dropped, so a position keeps only the
 * fills that can still be corrected or arrive out of order. Every fill still to come sorts after
 * the compacted ones (the ledger's watermark argument), so the fold stays exact.
 */
import { SCALE, absMicros, divRound, type Micros } from "../../core/money.js";
import type { Fill } from "./fill-ledger.js";

/** What inventory needs of a fill. */
export type InventoryFill = Pick<Fill, "tradeId" | "wallet" | "orderId" | "marketId" | "outcome" | "side" | "price" | "qty" | "fee" | "ts">;

export interface PositionSummary {
  wallet: string;
  marketId: string;
  outcome: number;
  /** Signed micro-shares. */
  qty: Micros;
  /** Micros per share (floor of the magnitude); null when flat. */
  avgCost: Micros | null;
  /** Cost basis of the held shares in settlement micros (floor). */
  costBasis: Micros;
  realisedPnl: Micros;
  fees: Micros;
  /** Cash received at resolution / void. */
  payout: Micros;
  settled: boolean;
  /** Fills stamped after the market settled: an anomaly (the platform stops trading first). */
  fillsAfterSettlement: number;
}

export interface Settlement {
  ts: number;
  nums: readonly bigint[];
  den: bigint;
}

export interface Pos {
  wallet: string;
  marketId: string;
  outcome: number;
  fills: InventoryFill[];
  /** Base of the fold: the anchor's holdings, then what compacted fills left (see the header). */
  openQty: Micros;
  openCost: bigint;
  base: PosBase;
  qty: Micros;
  cost: bigint;
  realised: bigint;
  fees: Micros;
  payout: Micros;
  settled: boolean;
  afterSettlement: number;
}

/** What the fold carries besides quantity and cost, at the base. */
export interface PosBase {
  realised: bigint;
  fees: Micros;
  payout: Micros;
  settled: boolean;
  afterSettlement: number;
  /** Fills folded into the base. */
  fills: number;
}

export function emptyBase(): PosBase {
  return { realised: 0n, fees: 0n, payout: 0n, settled: false, afterSettlement: 0, fills: 0 };
}

export const floorMicros = (x: bigint): Micros => divRound(x, SCALE, "floor");

export function emptyPos(wallet: string, marketId: string, outcome: number): Pos {
  return { wallet, marketId, outcome, fills: [], openQty: 0n, openCost: 0n, base: emptyBase(), qty: 0n, cost: 0n, realised: 0n, fees: 0n, payout: 0n, settled: false, afterSettlement: 0 };
}

export function posKey(wallet: string, marketId: string, outcome: number): string {
  return `${wallet}|${marketId}|${outcome}`;
}

/** One fill into the average-cost fold. */
export function foldFill(p: Pos, f: InventoryFill): void {
  p.fees += f.fee;
  const dq = f.side === "BUY" ? f.qty : -f.qty;
  if (p.qty === 0n || p.qty > 0n === dq > 0n) {
    p.qty += dq;
    p.cost += f.price * dq;
    return;
  }
  const held = absMicros(p.qty);
  const closed = f.qty < held ? f.qty : held;
  const removed = closed === held ? p.cost : (p.cost * closed) / held;
  const sign = p.qty > 0n ? 1n : -1n;
  p.realised += sign * f.price * closed - removed;
  p.qty -= sign * closed;
  p.cost -= removed;
  const rest = f.qty - closed;
  if (rest > 0n) {
    const d = dq > 0n ? rest : -rest;
    p.qty += d;
    p.cost += f.price * d;
  }
}

/** Recompute the position from its opening (anchor) and every fill, settling where the market did. */
export function refoldPosition(p: Pos, s: Settlement | undefined): void {
  foldFrom(p, p.fills, s);
  if (s !== undefined && !p.settled) settle(p, s);
}

/** The base, then `fills` (sorted), settling where the market did between two of them. */
function foldFrom(p: Pos, fills: readonly InventoryFill[], s: Settlement | undefined): void {
  p.qty = p.openQty;
  p.cost = p.openCost;
  p.realised = p.base.realised;
  p.fees = p.base.fees;
  p.payout = p.base.payout;
  p.settled = p.base.settled;
  p.afterSettlement = p.base.afterSettlement;
  for (const f of fills) {
    if (s !== undefined && !p.settled && f.ts > s.ts) settle(p, s);
    if (p.settled) p.afterSettlement++;
    foldFill(p, f);
  }
}

/**
 * Fold the first `n` fills (sorted) into the base and drop them. A settlement is folded in only
 * where it falls between two of them: one after them all still applies after the fills kept.
 */
export function compactPosition(p: Pos, n: number, s: Settlement | undefined): void {
  if (n <= 0) return;
  const gone = p.fills.slice(0, n);
  foldFrom(p, gone, s);
  p.openQty = p.qty;
  p.openCost = p.cost;
  p.base = { realised: p.realised, fees: p.fees, payout: p.payout, settled: p.settled, afterSettlement: p.afterSettlement, fills: p.base.fills + gone.length };
  p.fills = p.fills.slice(n);
  refoldPosition(p, s);
}

function settle(p: Pos, s: Settlement): void {
  const num = s.nums[p.outcome] ?? 0n;
  const payout = divRound(p.qty * num, s.den, "floor");
  p.payout += payout;
  p.realised += payout * SCALE - p.cost;
  p.qty = 0n;
  p.cost = 0n;
  p.settled = true;
}

/** Average cost per share of a position's shares (floor), null when it holds none. */
export function avgCostOf(p: Pos): Micros | null {
  return p.qty === 0n ? null : divRound(absMicros(p.cost), absMicros(p.qty), "floor");
}

export function summarise(p: Pos): PositionSummary {
  return {
    wallet: p.wallet,
    marketId: p.marketId,
    outcome: p.outcome,
    qty: p.qty,
    avgCost: avgCostOf(p),
    costBasis: floorMicros(p.cost),
    realisedPnl: floorMicros(p.realised),
    fees: p.fees,
    payout: p.payout,
    settled: p.settled,
    fillsAfterSettlement: p.afterSettlement,
  };
}
