/**
 * Settlement you can check (issue 14 part 3), the pure part: when a market a wallet holds shares in
 * reaches RESOLVED or VOIDED, the payout it is owed is computed from its positions, exactly as the
 * platform pays (per position floor(qty x numerator / sum(numerators)); a void pays 1/outcomeCount
 * per share), and watched until the platform shows it:
 *
 *   expected --(payout balance events for the market reach the amount)------> confirmed (balance_events)
 *   expected --(the market's shares are gone and the balance equals ours)---> confirmed (balances)
 *   expected --(payoutTimeout passed since the settlement)-------------------> overdue
 *   overdue  --(either confirmation above, later)-----------------------------> confirmed
 *
 * Nothing is confirmed on our own arithmetic alone: only a payout the platform shows in its
 * balance events, or in its positions and balance together, counts. A wallet owed nothing (it
 * held only losing shares) is confirmed at once as `nothing_due` (the shell still waits for the
 * platform to stop listing those shares before the drift check counts the market again). A payout
 * above the expected amount confirms too (the surplus is reported, not hidden).
 *
 * Payout rows and positions name a market by symbol, or by the platform's market id once the
 * daemon no longer knows the market: a watch matches either (`platformId`).
 */
import type { Micros } from "../../core/money.js";

export type SettlementKind = "resolved" | "voided";
export type SettlementState = "expected" | "confirmed" | "overdue";
export type ConfirmedBy = "balance_events" | "balances" | "nothing_due";

export interface HeldShares {
  outcome: number;
  /** Micro-shares held when the market settled (negative or zero counts as nothing). */
  qty: Micros;
}

export interface SettlementWatch {
  /** Lower-case wallet address. */
  wallet: string;
  marketId: string;
  /** The platform's market id (MarketSummary.id), when known: rows carrying it match too. */
  platformId?: string;
  kind: SettlementKind;
  /** The payout vector used (a void: all ones). */
  numerators: readonly bigint[];
  held: readonly HeldShares[];
  /** Exact payout owed, micros. */
  expected: Micros;
  /** When the market settled (the platform's resolvedAt / voidedAt, else when we saw it). */
  settledAtMs: number;
  state: SettlementState;
  /** Payout seen in balance events for the market so far. */
  received: Micros;
  confirmedBy?: ConfirmedBy;
  confirmedAtMs?: number;
  overdueAtMs?: number;
}

/** Exact payout of `held` under `numerators`, rounded down per position as the platform pays. */
export function expectedPayout(held: readonly HeldShares[], numerators: readonly bigint[]): Micros {
  let den = 0n;
  for (const n of numerators) den += n;
  if (den <= 0n) throw new Error("payout numerators must sum to a positive number");
  let total = 0n;
  for (const h of held) {
    if (h.qty <= 0n) continue;
    const num = numerators[h.outcome];
    if (num === undefined) throw new Error(`outcome ${h.outcome} has no payout numerator`);
    total += (h.qty * num) / den;
  }
  return total;
}

export function voidNumerators(outcomeCount: number): bigint[] {
  return new Array<bigint>(outcomeCount).fill(1n);
}

/** A new watch; one owed nothing is confirmed at once. */
export function startWatch(args: {
  wallet: string;
  marketId: string;
  platformId?: string;
  kind: SettlementKind;
  numerators: readonly bigint[];
  held: readonly HeldShares[];
  settledAtMs: number;
}): SettlementWatch {
  const held = args.held.filter((h) => h.qty > 0n);
  const expected = expectedPayout(held, args.numerators);
  const w: SettlementWatch = { ...args, wallet: args.wallet.toLowerCase(), held, expected, state: "expected", received: 0n };
  if (expected === 0n) return { ...w, state: "confirmed", confirmedBy: "nothing_due", confirmedAtMs: args.settledAtMs };
  return w;
}

/** What one round of reads showed for one wallet; a field is undefined when its read failed. */
export interface SettlementObservation {
  atMs: number;
  /** Sum of the `payout` balance events per market seen in the pages read. */
  payouts?: ReadonlyMap<string, Micros>;
  /** Markets in which /api/me/positions still shows shares. */
  marketsHeld?: ReadonlySet<string>;
  /** The balance total equals our books' expected cash (which already counts the payouts). */
  balanceMatches?: boolean;
}

/** One step of a watch against an observation; returns the same object when nothing changed. */
export function stepWatch(w: SettlementWatch, obs: SettlementObservation, payoutTimeoutMs: number): SettlementWatch {
  if (w.state === "confirmed") return w;
  const received = obs.payouts === undefined ? w.received : receivedFor(w, obs.payouts);
  if (received >= w.expected) {
    return { ...w, received, state: "confirmed", confirmedBy: "balance_events", confirmedAtMs: obs.atMs };
  }
  if (obs.marketsHeld !== undefined && !marketShown(w, obs.marketsHeld) && obs.balanceMatches === true) {
    return { ...w, received, state: "confirmed", confirmedBy: "balances", confirmedAtMs: obs.atMs };
  }
  if (w.state === "expected" && obs.atMs - w.settledAtMs >= payoutTimeoutMs) {
    return { ...w, received, state: "overdue", overdueAtMs: obs.atMs };
  }
  return received === w.received ? w : { ...w, received };
}

/** Payout rows for the watch's market, under its symbol and under its platform id (both summed). */
function receivedFor(w: SettlementWatch, payouts: ReadonlyMap<string, Micros>): Micros {
  const bySymbol = payouts.get(w.marketId);
  const byId = w.platformId !== undefined && w.platformId !== w.marketId ? payouts.get(w.platformId) : undefined;
  if (bySymbol === undefined && byId === undefined) return w.received;
  return (bySymbol ?? 0n) + (byId ?? 0n);
}

/** True when `markets` (from /api/me/positions) names the watch's market by symbol or platform id. */
export function marketShown(w: Pick<SettlementWatch, "marketId" | "platformId">, markets: ReadonlySet<string>): boolean {
  return markets.has(w.marketId) || (w.platformId !== undefined && markets.has(w.platformId));
}

/** Sum the `payout` rows per market of a page of balance events (loose rows; others ignored). */
export function payoutsByMarket(rows: Iterable<{ kind: string; marketId: string | null; amount: Micros }>): Map<string, Micros> {
  const out = new Map<string, Micros>();
  for (const r of rows) {
    if (r.kind !== "payout" || r.marketId === null) continue;
    out.set(r.marketId, (out.get(r.marketId) ?? 0n) + r.amount);
  }
  return out;
}
