/**
 * Multi-outcome (neg-risk) events as one risk unit: pure, exact bigint micros.
 *
 * Group. The binary markets with `negRiskEligible` that share an `eventId`, among the market rows
 * the registry holds (spec 2.6). They resolve together: at most one of them resolves YES. A market
 * of the event that is not neg-risk eligible, or not binary, is NOT in the group: nothing ties its
 * resolution to the others, so only its own per-market caps apply to it.
 *
 * Scenarios. One per market of the group (that market's YES wins, every other market's NO wins),
 * plus "none of the listed wins" (every market resolves NO). The last one is always counted: the
 * platform does not say whether an event's markets are exhaustive (spec 2.8: not shown), and a
 * sibling the daemon does not follow winning looks exactly like it from our positions.
 *
 * PnL of a scenario, per wallet (the cap is per wallet: each wallet has its own collateral):
 *   payout of the shares held that pay in it (1 per share)
 *   - cost basis of the positions (qty x avgCost, ceil; without an average cost the mark, else 1,
 *     as exposure.ts values them: never under-counted)
 *   + every open order as if filled where filling it loses in that scenario, and as not filled
 *     where filling it would gain (each order may fill or not: this is the worst case over every
 *     set of fills). A BUY of remaining r at price p loses r x p (ceil) where its outcome does not
 *     pay; a SELL of held shares loses r - r x p (floor) where its outcome pays.
 *     Counting a resting bid's payout would let bids that never fill (the complement's, say)
 *     pay for positions that did (test/bot/risk/event-group-fast.test.ts shows it).
 * Worst case = min over the scenarios. With n markets every scenario is a base common to all plus
 * one term of its winner, so all of them cost one pass over the legs.
 *
 * The cap (`risk.maxEventLoss`) bounds the loss of the worst case: with this cycle's quotes resting
 * (counted as open orders are), every scenario's PnL must stay >= -maxEventLoss. Only BUY quotes are judged: a BUY of
 * outcome o in market m pays in some scenarios (no loss there: its price is below 1) and loses its
 * cost in the others, so the size that fits is the most shares whose cost fits the smallest
 * headroom among the scenarios where it does not pay. SELL quotes (of held shares: no short
 * inventory) are never trimmed here, but they are counted first (a sold share no longer pays), so
 * the BUYs of the same cycle do not spend a payout the sell may give away. A SELL may still take
 * a scenario past the cap while bids rest on sibling markets: their next cycles count it and trim
 * them. A BUY is limited only by the scenarios where it does not pay: the complement of a position
 * whose loss is the problem passes as far as the others allow.
 */
import { ONE, SCALE, notional, type Micros } from "../../core/money.js";
import type { DesiredQuote, LiveOrder, PositionView } from "../quote/quotes.js";
import { NO, YES } from "../quote/quotes.js";
import type { RiskSnapshot } from "./exposure.js";

/** What the grouping needs of a market row (MarketSummary has all of it). */
export interface GroupRow {
  symbol: string;
  eventId: string;
  negRiskEligible: boolean;
  outcomeCount: number;
}

export interface EventGroup {
  eventId: string;
  /** Symbols of the group's markets, sorted (the scenario order). */
  markets: readonly string[];
}

/** Can the market be part of a neg-risk group at all. */
export function groupable(row: GroupRow): boolean {
  return row.negRiskEligible && row.outcomeCount === 2;
}

/** The neg-risk group `symbol` belongs to among `rows`, or undefined (not neg-risk, or not binary). */
export function eventGroupOf(rows: Iterable<GroupRow>, symbol: string): EventGroup | undefined {
  const list = [...rows];
  const self = list.find((r) => r.symbol === symbol);
  if (self === undefined || !groupable(self)) return undefined;
  const markets = new Set<string>();
  for (const r of list) if (r.eventId === self.eventId && groupable(r)) markets.add(r.symbol);
  return { eventId: self.eventId, markets: [...markets].sort() };
}

/** Every neg-risk group among `rows`, by event id (markets sorted). */
export function eventGroups(rows: Iterable<GroupRow>): Map<string, EventGroup> {
  const byEvent = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!groupable(r)) continue;
    let s = byEvent.get(r.eventId);
    if (s === undefined) byEvent.set(r.eventId, (s = new Set()));
    s.add(r.symbol);
  }
  const out = new Map<string, EventGroup>();
  for (const [eventId, s] of byEvent) out.set(eventId, { eventId, markets: [...s].sort() });
  return out;
}

/** An open order as the worst case counts it (where filling it loses). */
export type LegOrder = Pick<LiveOrder, "outcome" | "side" | "price" | "remaining">;

/** One wallet's holdings and orders on one market of the group. */
export interface EventLeg {
  positions: readonly PositionView[];
  orders: readonly LegOrder[];
  /** Mark per outcome: the cost of a position without an average cost. */
  marks?: Readonly<Record<number, Micros>> | undefined;
}

/**
 * PnL per scenario: index i < markets.length is "markets[i] wins", the last index is "none wins".
 * Micros; negative is a loss.
 */
export type ScenarioPnl = Micros[];

function positionCost(p: PositionView, marks: EventLeg["marks"]): Micros {
  const value = p.avgCost ?? marks?.[p.outcome] ?? ONE;
  return p.qty >= 0n ? notional(value, p.qty, "ceil") : -notional(value, -p.qty, "floor");
}

/**
 * A leg's part of every scenario: `all` is added to every scenario, `win` to the one where this
 * market wins only (see the header: positions exact, open orders only where they lose).
 */
function legTerms(leg: EventLeg): { all: Micros; win: Micros } {
  let all = 0n;
  let win = 0n;
  for (const p of leg.positions) {
    if (p.outcome !== YES && p.outcome !== NO) continue;
    const cost = positionCost(p, leg.marks);
    all -= cost;
    if (p.outcome === YES) win += p.qty;
    else {
      all += p.qty;
      win -= p.qty;
    }
  }
  for (const o of leg.orders) {
    if (o.remaining <= 0n || (o.outcome !== YES && o.outcome !== NO)) continue;
    if (o.side === "BUY") {
      // Loses its cost where its outcome does not pay.
      const cost = notional(o.price, o.remaining, "ceil");
      if (o.outcome === YES) {
        all -= cost;
        win += cost;
      } else win -= cost;
    } else {
      // Loses the share's payout less the price where its outcome pays.
      const loss = o.remaining - notional(o.price, o.remaining, "floor");
      if (o.outcome === YES) win -= loss;
      else {
        all -= loss;
        win += loss;
      }
    }
  }
  return { all, win };
}

/** PnL of every scenario of `group` from the wallet's legs (a market without one holds nothing). */
export function scenarioPnl(group: EventGroup, legOf: (market: string) => EventLeg | undefined): ScenarioPnl {
  const n = group.markets.length;
  let base = 0n;
  const winDelta: Micros[] = [];
  for (const market of group.markets) {
    const leg = legOf(market);
    if (leg === undefined) {
      winDelta.push(0n);
      continue;
    }
    const t = legTerms(leg);
    base += t.all;
    winDelta.push(t.win);
  }
  const out: ScenarioPnl = new Array<Micros>(n + 1);
  for (let i = 0; i < n; i++) out[i] = base + (winDelta[i] as Micros);
  out[n] = base;
  return out;
}

/** The worst case: min over the scenarios (0 for an empty vector). */
export function worstCase(pnl: readonly Micros[]): Micros {
  let w: Micros | undefined;
  for (const v of pnl) if (w === undefined || v < w) w = v;
  return w ?? 0n;
}

/** Does outcome `outcome` of `group.markets[index]` pay in scenario `s`. */
function pays(index: number, outcome: number, s: number): boolean {
  return outcome === YES ? s === index : s !== index;
}

/** Most shares at `price` whose ceil notional fits `budget`. */
function sharesFor(budget: Micros, price: Micros): Micros {
  if (budget <= 0n) return 0n;
  let s = (budget * SCALE) / price;
  while (s > 0n && notional(price, s, "ceil") > budget) s -= 1n;
  return s;
}

export interface EventLimitResult {
  /** In the caller's order; resized ones are copies with the smaller size. */
  allowed: DesiredQuote[];
  dropped: { quote: DesiredQuote; reason: "event_loss" }[];
  resized: { quote: DesiredQuote; size: Micros; reason: "event_loss" }[];
  /** The worst case with the allowed quotes resting (counted as open orders are, SELLs included). */
  worstAfter: Micros;
}

export interface EventLimitInput {
  group: EventGroup;
  /** The market the quotes are for (one of group.markets). */
  market: string;
  /**
   * The wallet's PnL per scenario WITHOUT this market's replaceable orders: its positions and its
   * orders still cancelling (they may fill whatever the cycle decides), every sibling's positions
   * and live orders. See `scenarioPnl`.
   */
  base: ScenarioPnl;
  quotes: readonly DesiredQuote[];
  maxEventLoss: Micros;
  /** A quote resized below this is dropped (no dust orders); default 0. */
  minQuoteSize?: Micros | undefined;
}

/**
 * Trim the BUY quotes of one market so that, all filled, no scenario loses more than
 * `maxEventLoss` (see the header). Judged by ladder level, then in the caller's order, so the
 * closest levels get the headroom; SELL quotes pass untouched.
 */
export function applyEventLimit(i: EventLimitInput): EventLimitResult {
  const index = i.group.markets.indexOf(i.market);
  const pnl = [...i.base];
  if (index < 0) return { allowed: [...i.quotes], dropped: [], resized: [], worstAfter: worstCase(pnl) };
  // SELLs first: never trimmed, but counted as open orders are (where filling loses: their
  // outcome pays), so the BUYs judged after them do not lean on the payout a sell may give away.
  const order = i.quotes
    .map((q, k) => ({ q, k }))
    .sort((a, b) => Number(a.q.side === "BUY") - Number(b.q.side === "BUY") || (a.q.level ?? 0) - (b.q.level ?? 0) || a.k - b.k);
  const keep = new Map<number, DesiredQuote>();
  const dropped: EventLimitResult["dropped"] = [];
  const resized: EventLimitResult["resized"] = [];
  for (const { q, k } of order) {
    if (q.side !== "BUY" || (q.outcome !== YES && q.outcome !== NO) || q.size <= 0n || q.price <= 0n) {
      keep.set(k, q);
      if (q.side === "SELL" && (q.outcome === YES || q.outcome === NO) && q.size > 0n) {
        const loss = q.size - notional(q.price, q.size, "floor");
        for (let s = 0; s < pnl.length; s++) if (pays(index, q.outcome, s)) pnl[s] = (pnl[s] as Micros) - loss;
      }
      continue;
    }
    let head: Micros | undefined;
    for (let s = 0; s < pnl.length; s++) {
      if (pays(index, q.outcome, s)) continue;
      const h = (pnl[s] as Micros) + i.maxEventLoss;
      if (head === undefined || h < head) head = h;
    }
    // There is always a scenario where it does not pay (YES loses in "none", NO when its market wins).
    const fit = head === undefined ? q.size : sharesFor(head, q.price);
    const size = fit < q.size ? fit : q.size;
    if (size <= 0n || (size < q.size && size < (i.minQuoteSize ?? 0n))) {
      dropped.push({ quote: q, reason: "event_loss" });
      continue;
    }
    // Counted as the open orders are: its cost where it does not pay, nothing where it does.
    const cost = notional(q.price, size, "ceil");
    for (let s = 0; s < pnl.length; s++) if (!pays(index, q.outcome, s)) pnl[s] = (pnl[s] as Micros) - cost;
    if (size < q.size) {
      resized.push({ quote: q, size, reason: "event_loss" });
      keep.set(k, { ...q, size });
    } else keep.set(k, q);
  }
  const allowed: DesiredQuote[] = [];
  for (let k = 0; k < i.quotes.length; k++) {
    const q = keep.get(k);
    if (q !== undefined) allowed.push(q);
  }
  return { allowed, dropped, resized, worstAfter: worstCase(pnl) };
}

/** The part of a market's leg that stays whatever the cycle decides: positions and cancelling orders. */
export function fixedLeg(positions: readonly PositionView[], live: readonly LiveOrder[], marks?: EventLeg["marks"]): EventLeg {
  return { positions, orders: live.filter((o) => o.state === "cancelling"), marks };
}

/**
 * The cap's base for a cycle of (wallet, market): every sibling's positions and live orders from
 * the exposure snapshot, and this market's positions and cancelling orders only (its other live
 * orders are replaced by the quotes being judged, as the per-market limits count them).
 */
export function eventBase(group: EventGroup, market: string, walletName: string, exposure: Pick<RiskSnapshot, "market">): ScenarioPnl {
  return scenarioPnl(group, (m) => {
    const f = exposure.market(walletName, m);
    if (f === undefined) return undefined;
    const e = f.exposure;
    return m === market ? fixedLeg(e.positions, e.openOrders, e.marks) : { positions: e.positions, orders: e.openOrders, marks: e.marks };
  });
}
