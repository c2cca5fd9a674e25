/**
 * One position (wallet, market, outcome) as a fold over its fills, by the average-cost method and
 * the settlement rules described in the header of inventory.ts. Pure bigint arithmetic: the cost
 * basis and realised PnL are kept exact in micro² (micros x micro-shares) and floored to micros
 * only when summarised.
 */
import { SCALE, absMicros, divRound, type Micros } from "../core/money.js";
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
  openQty: Micros;
  openCost: bigint;
  qty: Micros;
  cost: bigint;
  realised: bigint;
  fees: Micros;
  payout: Micros;
  settled: boolean;
  afterSettlement: number;
}

export const floorMicros = (x: bigint): Micros => divRound(x, SCALE, "floor");

export function emptyPos(wallet: string, marketId: string, outcome: number): Pos {
  return { wallet, marketId, outcome, fills: [], openQty: 0n, openCost: 0n, qty: 0n, cost: 0n, realised: 0n, fees: 0n, payout: 0n, settled: false, afterSettlement: 0 };
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
  p.qty = p.openQty;
  p.cost = p.openCost;
  p.realised = 0n;
  p.fees = 0n;
  p.payout = 0n;
  p.settled = false;
  p.afterSettlement = 0;
  for (const f of p.fills) {
    if (s !== undefined && !p.settled && f.ts > s.ts) settle(p, s);
    if (p.settled) p.afterSettlement++;
    foldFill(p, f);
  }
  if (s !== undefined && !p.settled) settle(p, s);
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

export function summarise(p: Pos): PositionSummary {
  return {
    wallet: p.wallet,
    marketId: p.marketId,
    outcome: p.outcome,
    qty: p.qty,
    avgCost: p.qty === 0n ? null : divRound(absMicros(p.cost), absMicros(p.qty), "floor"),
    costBasis: floorMicros(p.cost),
    realisedPnl: floorMicros(p.realised),
    fees: p.fees,
    payout: p.payout,
    settled: p.settled,
    fillsAfterSettlement: p.afterSettlement,
  };
}
