/**
 * Limit checks over the desired quotes of one (wallet, market): pure, over a RiskSnapshot.
 *
 * Per quote, in this order:
 *  1. Validity and band: the price must be on the 0.001 grid inside [0.001, 0.999] (never 0 or
 *     1) AND inside the configured band (the quote's own outcome price); else dropped. Applies to
 *     every quote, reducing ones too: the band is absolute.
 *  2. Order size: capped at maxOrderSize (resized).
 *  3. The part of the quote that REDUCES exposure is always allowed (limits below skip it):
 *       - SELL o: up to the shares of o held (less sells already allowed and sells still
 *         cancelling). Selling more than is held is not possible (no short inventory) and the
 *         excess is cut (`exceeds_holdings`).
 *       - BUY o on a binary market: up to held(complement) - held(o) (less buys of o already
 *         allowed or cancelling): the pairs merge back to collateral.
 *  4. The rest of a BUY increases exposure and must fit every headroom, the smallest wins:
 *       - position: worst case (all buys fill) of the net exposure (binary: held(o) - held(c);
 *         otherwise held(o)) + allowed and cancelling buys of o <= maxPositionPerMarket;
 *       - notional, per wallet and in total: the snapshot's figures with this market's open BUY
 *         notional replaced by what the allowed quotes (and cancelling orders) would rest.
 *  5. Open orders: at most maxOpenOrdersPerMarket quotes; past it only reducing parts pass.
 * Quotes are judged reducing-first, then by ladder level, then in the caller's order, so the
 * closest levels get the headroom. A quote resized by a limit below `minQuoteSize` is dropped
 * (unless it carries a reducing part). `allowed` keeps the caller's order.
 */
import { MAX_PRICE, MIN_PRICE, isValidPrice } from "../../core/amounts.js";
import { SCALE, notional, type Micros } from "../../core/money.js";
import { sortSmall } from "../../core/small-sort.js";
import { NO, YES, type DesiredQuote } from "../quote/quotes.js";
import { figuresOf, heldQty, type MarketFigures, type RiskSnapshot } from "./exposure.js";
import type { GateVerdict, RiskLimits, RiskTuning } from "./types.js";

export const LIMIT_REASONS = [
  "halted",
  "price_invalid",
  "price_band",
  "size_invalid",
  "outcome_invalid",
  "order_size",
  "open_orders",
  "position",
  "wallet_notional",
  "total_notional",
  "exceeds_holdings",
  // The neg-risk event group's worst case (event-group.ts), judged after the limits above.
  "event_loss",
] as const;
export type LimitReason = (typeof LIMIT_REASONS)[number];

export interface DroppedQuote {
  quote: DesiredQuote;
  reason: LimitReason;
}

export interface ResizedQuote {
  quote: DesiredQuote;
  /** The size allowed (< quote.size). */
  size: Micros;
  reason: LimitReason;
}

export interface LimitResult {
  /** Allowed quotes in the caller's order; resized ones are copies with the smaller size. */
  allowed: DesiredQuote[];
  dropped: DroppedQuote[];
  resized: ResizedQuote[];
  /** Open BUY notional the allowed quotes plus cancelling orders would rest: RiskSnapshot.commit. */
  restingBuyNotional: Micros;
}

/** Why `price` may not be quoted, or null. */
export function priceProblem(price: Micros, band: RiskLimits["priceBand"]): "price_invalid" | "price_band" | null {
  if (!isValidPrice(price) || price < MIN_PRICE || price > MAX_PRICE) return "price_invalid";
  if (price < band.min || price > band.max) return "price_band";
  return null;
}

function pos(v: Micros): Micros {
  return v > 0n ? v : 0n;
}

function min(a: Micros, b: Micros): Micros {
  return a < b ? a : b;
}

/** Most shares at `price` whose ceil notional fits `budget`. */
function sharesFor(budget: Micros, price: Micros): Micros {
  if (budget <= 0n) return 0n;
  let s = (budget * SCALE) / price;
  while (s > 0n && notional(price, s, "ceil") > budget) s -= 1n;
  return s;
}

interface Candidate {
  q: DesiredQuote;
  i: number;
  size: Micros;
  sizeReason: LimitReason | undefined;
  reducing: boolean;
}

interface Running {
  buys: Map<number, Micros>;
  sells: Map<number, Micros>;
  addedNotional: Micros;
  count: number;
}

function get(m: ReadonlyMap<number, Micros>, k: number): Micros {
  return m.get(k) ?? 0n;
}

function complementOf(outcome: number): number {
  return outcome === YES ? NO : YES;
}

/**
 * The limits behind the halt gate, pure (the snapshot is not changed). Halted: every quote is
 * dropped "halted" and nothing else is judged; the orders resting there still count until their
 * cancels land (`restingBuyNotional`), so no other market takes that headroom.
 */
export function gatedLimits(
  gate: GateVerdict,
  wallet: string,
  market: string,
  desired: readonly DesiredQuote[],
  snapshot: RiskSnapshot,
  limits: RiskLimits,
  tuning: Pick<RiskTuning, "minQuoteSize">,
): LimitResult {
  if (gate.quote) return applyLimits(wallet, market, desired, snapshot, limits, tuning);
  return {
    allowed: [],
    dropped: desired.map((quote) => ({ quote, reason: "halted" as const })),
    resized: [],
    restingBuyNotional: snapshot.market(wallet, market)?.openBuyNotional ?? 0n,
  };
}

export function applyLimits(
  wallet: string,
  market: string,
  desired: readonly DesiredQuote[],
  snapshot: RiskSnapshot,
  limits: RiskLimits,
  tuning: Pick<RiskTuning, "minQuoteSize">,
): LimitResult {
  const f = snapshot.market(wallet, market) ?? figuresOf({ wallet, market, outcomeCount: 2, positions: [], openOrders: [] });
  const e = f.exposure;
  const binary = e.outcomeCount === 2;
  const dropped: DroppedQuote[] = [];
  const resized: ResizedQuote[] = [];

  const candidates: Candidate[] = [];
  desired.forEach((q, i) => {
    const bad =
      priceProblem(q.price, limits.priceBand) ??
      (q.size <= 0n ? "size_invalid" : null) ??
      (!Number.isInteger(q.outcome) || q.outcome < 0 || q.outcome >= Math.max(1, e.outcomeCount) ? "outcome_invalid" : null);
    if (bad !== null) {
      dropped.push({ quote: q, reason: bad });
      return;
    }
    const capped = min(q.size, limits.maxOrderSize);
    const held = heldQty(e, q.outcome);
    const reducing = q.side === "SELL" ? held > 0n : binary && heldQty(e, complementOf(q.outcome)) > held;
    candidates.push({ q, i, size: capped, sizeReason: capped < q.size ? "order_size" : undefined, reducing });
  });
  sortSmall(candidates, (a, b) => Number(b.reducing) - Number(a.reducing) || (a.q.level ?? 0) - (b.q.level ?? 0) || a.i - b.i);

  const run: Running = { buys: new Map(), sells: new Map(), addedNotional: 0n, count: 0 };
  const baseWallet = snapshot.walletNotional(wallet) - f.openBuyNotional + f.cancellingBuyNotional;
  const baseTotal = snapshot.totalNotional() - f.openBuyNotional + f.cancellingBuyNotional;
  const accepted: { i: number; q: DesiredQuote }[] = [];

  for (const c of candidates) {
    const { size: granted, reason } =
      c.q.side === "SELL" ? sellGrant(c, f, run) : buyGrant(c, f, run, limits, binary, baseWallet, baseTotal);
    const reduced = granted.reducing;
    const final = granted.total;
    const why = reason ?? c.sizeReason;
    if (final <= 0n || (final < c.q.size && reduced === 0n && final < tuning.minQuoteSize && why !== "order_size")) {
      dropped.push({ quote: c.q, reason: why ?? "size_invalid" });
      continue;
    }
    run.count += 1;
    if (c.q.side === "BUY") {
      run.buys.set(c.q.outcome, get(run.buys, c.q.outcome) + final);
      run.addedNotional += notional(c.q.price, final, "ceil");
    } else {
      run.sells.set(c.q.outcome, get(run.sells, c.q.outcome) + final);
    }
    if (final < c.q.size) {
      resized.push({ quote: c.q, size: final, reason: why ?? "order_size" });
      accepted.push({ i: c.i, q: { ...c.q, size: final } });
    } else {
      accepted.push({ i: c.i, q: c.q });
    }
  }
  sortSmall(accepted, (a, b) => a.i - b.i);
  return {
    allowed: accepted.map((a) => a.q),
    dropped,
    resized,
    restingBuyNotional: f.cancellingBuyNotional + run.addedNotional,
  };
}

interface Grant {
  size: { reducing: Micros; total: Micros };
  reason: LimitReason | undefined;
}

function sellGrant(c: Candidate, f: MarketFigures, run: Running): Grant {
  const o = c.q.outcome;
  const cap = pos(heldQty(f.exposure, o) - get(run.sells, o) - get(f.cancellingSell, o));
  // Selling held shares only reduces exposure: no limit but the holdings applies, open orders included.
  const r = min(c.size, cap);
  return { size: { reducing: r, total: r }, reason: r < c.size ? "exceeds_holdings" : undefined };
}

function buyGrant(
  c: Candidate,
  f: MarketFigures,
  run: Running,
  limits: RiskLimits,
  binary: boolean,
  baseWallet: Micros,
  baseTotal: Micros,
): Grant {
  const e = f.exposure;
  const o = c.q.outcome;
  const own = heldQty(e, o);
  const other = binary ? heldQty(e, complementOf(o)) : 0n;
  const committed = get(run.buys, o) + get(f.cancellingBuy, o);
  const r = binary ? min(c.size, pos(other - own - committed)) : 0n;
  const rest = c.size - r;
  if (rest === 0n) return { size: { reducing: r, total: r }, reason: undefined };
  if (run.count >= limits.maxOpenOrdersPerMarket) return { size: { reducing: r, total: r }, reason: "open_orders" };

  const rNotional = notional(c.q.price, r, "ceil");
  const heads: [LimitReason, Micros][] = [
    ["position", pos(limits.maxPositionPerMarket - (own - other + committed + r))],
    ["wallet_notional", sharesFor(limits.maxNotionalPerWallet - (baseWallet + run.addedNotional + rNotional), c.q.price)],
    ["total_notional", sharesFor(limits.maxNotionalTotal - (baseTotal + run.addedNotional + rNotional), c.q.price)],
  ];
  let inc = rest;
  let reason: LimitReason | undefined;
  for (const [why, head] of heads) {
    if (head < inc) {
      inc = head;
      reason = why;
    }
  }
  return { size: { reducing: r, total: r + inc }, reason };
}
