/**
 * An independent recomputation of a backtest's money figures, for the tests: from the
 * simulator's raw trade list, books and settlements (captured in onFinish), in decimal.js, with
 * none of the daemon's code (no Inventory, no FillLedger) and none of src/backtest. Trades are
 * folded in execution order, average-cost, per (wallet, market, outcome); settled positions are
 * paid qty x numerator / sum, rounded down to the micro per position as the platform pays;
 * unsettled positions are marked at the book mid (binary: YES book, NO at 1 - mid; otherwise per
 * outcome, falling back to the last trade). Row figures are floored to the micro, as the report's
 * rows are. Adapted from the reviewer's scratch script.
 */
import { Decimal } from "decimal.js";
import type { Simulator } from "../../src/sim/simulator.js";

const D = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_DOWN });
type Dec = InstanceType<typeof D>;
const micros = (m: bigint): Dec => new D(m.toString()).div(1_000_000);
/** Floor to six places, as a report string ("0", "-1.5", "12.000001"). */
export const floor6 = (x: Dec): string => {
  const s = x.toDecimalPlaces(6, Decimal.ROUND_FLOOR).toFixed();
  return s === "-0" ? "0" : s;
};

interface Pos {
  q: Dec;
  cost: Dec;
  realised: Dec;
}

export interface RawCapture {
  wallets: string[];
  trades: ReturnType<Simulator["engine"]["ledger"]["trades"]>;
  settlements: Map<string, { nums: bigint[]; payouts: { wallet: string; amount: bigint }[] }>;
  /** Per market: per outcome best bid, best ask, last trade. */
  books: Map<string, { bid: bigint | null; ask: bigint | null; last: bigint | null }[]>;
  balances: Map<string, bigint>;
}

/** What the recomputation needs, read from the simulator after the run. */
export function capture(sim: Simulator, wallets: readonly string[]): RawCapture {
  const trades = sim.engine.ledger.trades();
  const books = new Map<string, { bid: bigint | null; ask: bigint | null; last: bigint | null }[]>();
  for (const m of new Set(trades.map((t) => t.marketId))) {
    const n = sim.engine.market(m).outcomeCount;
    books.set(
      m,
      Array.from({ length: n }, (_, o) => {
        const b = sim.engine.book(m, o, 1);
        return { bid: b.bestBid, ask: b.bestAsk, last: b.lastTradePrice };
      }),
    );
  }
  const settlements = new Map([...sim.settlements].map(([m, s]) => [m, { nums: [...s.payoutNumerators], payouts: s.payouts.map((p) => ({ wallet: p.wallet.toLowerCase(), amount: p.amount })) }]));
  const ws = wallets.map((w) => w.toLowerCase());
  return { wallets: ws, trades, settlements, books, balances: new Map(ws.map((w) => [w, sim.engine.balance(w).total])) };
}

export interface Recomputed {
  /** Per market (all our wallets; each wallet row floored, then summed). */
  markets: Map<string, { realised: string; unrealised: string; fees: string; fills: number; taker: number }>;
  totals: { realised: string; unrealised: string; fees: string; fills: number; taker: number };
  /** Per wallet: settlement-token movement from trades, fees and payouts. */
  cash: Map<string, string>;
  /** Per market: the mark per outcome (null: none). */
  marks: Map<string, (string | null)[]>;
}

function markOf(book: { bid: bigint | null; ask: bigint | null; last: bigint | null }[], outcome: number): Dec | undefined {
  const one = (b: { bid: bigint | null; ask: bigint | null; last: bigint | null } | undefined): Dec | undefined => {
    if (b === undefined) return undefined;
    if (b.bid !== null && b.ask !== null && b.bid < b.ask) return micros(b.bid + b.ask).div(2).toDecimalPlaces(6, Decimal.ROUND_FLOOR);
    return b.last === null ? undefined : micros(b.last);
  };
  if (book.length === 2) {
    const yes = one(book[0]);
    return yes === undefined ? undefined : outcome === 0 ? yes : new D(1).minus(yes);
  }
  return one(book[outcome]);
}

export function recompute(c: RawCapture): Recomputed {
  const ours = new Set(c.wallets);
  const pos = new Map<string, Pos>();
  const fees = new Map<string, Dec>();
  const counts = new Map<string, { fills: number; taker: number }>();
  const cash = new Map<string, Dec>(c.wallets.map((w) => [w, new D(0)]));
  const apply = (w: string, m: string, o: number, side: string, price: bigint, qty: bigint, fee: bigint, taker: boolean, moved: bigint): void => {
    const k = `${w}|${m}|${o}`;
    let p = pos.get(k);
    if (p === undefined) pos.set(k, (p = { q: new D(0), cost: new D(0), realised: new D(0) }));
    const wm = `${w}|${m}`;
    fees.set(wm, (fees.get(wm) ?? new D(0)).plus(micros(fee)));
    const n = counts.get(m) ?? { fills: 0, taker: 0 };
    counts.set(m, { fills: n.fills + 1, taker: n.taker + (taker ? 1 : 0) });
    cash.set(w, cash.get(w)!.plus(side === "BUY" ? micros(moved).neg() : micros(moved)).minus(micros(fee)));
    const px = micros(price);
    const dq = side === "BUY" ? micros(qty) : micros(qty).neg();
    if (p.q.isZero() || p.q.isPos() === dq.isPos()) {
      p.q = p.q.plus(dq);
      p.cost = p.cost.plus(px.times(dq));
      return;
    }
    // Reducing (or crossing zero): realise against the average cost of what is closed.
    const held = p.q.abs();
    const closed = D.min(held, dq.abs());
    const removed = p.cost.times(closed).div(held);
    const sign = p.q.isPos() ? 1 : -1;
    p.realised = p.realised.plus(px.times(closed).times(sign)).minus(removed);
    p.q = p.q.minus(closed.times(sign));
    p.cost = p.cost.minus(removed);
    const rest = dq.abs().minus(closed);
    if (rest.gt(0)) {
      const d = dq.isPos() ? rest : rest.neg();
      p.q = p.q.plus(d);
      p.cost = p.cost.plus(px.times(d));
    }
  };
  for (const t of c.trades) {
    const maker = t.makerWallet.toLowerCase();
    const taker = t.takerWallet.toLowerCase();
    if (ours.has(maker)) apply(maker, t.marketId, t.makerOutcome, t.makerSide, t.makerPrice, t.quantity, 0n, false, t.makerCash);
    if (ours.has(taker)) apply(taker, t.marketId, t.outcome, t.side, t.price, t.quantity, t.fee, true, t.takerCash);
  }
  for (const [m, s] of c.settlements) {
    for (const p of s.payouts) if (ours.has(p.wallet)) cash.set(p.wallet, cash.get(p.wallet)!.plus(micros(p.amount)));
    const den = s.nums.reduce((a, b) => a + b, 0n);
    for (const [k, p] of pos) {
      const [, pm, po] = k.split("|");
      if (pm !== m) continue;
      const paid = p.q.times((s.nums[Number(po)] ?? 0n).toString()).div(den.toString()).toDecimalPlaces(6, Decimal.ROUND_FLOOR);
      p.realised = p.realised.plus(paid).minus(p.cost);
      p.q = new D(0);
      p.cost = new D(0);
    }
  }
  // Wallet x market rows, floored like the report's, then summed per market.
  const rows = new Map<string, { realised: Dec; unrealised: Dec }>();
  for (const [k, p] of pos) {
    const [w, m, o] = k.split("|") as [string, string, string];
    const r = rows.get(`${w}|${m}`) ?? { realised: new D(0), unrealised: new D(0) };
    r.realised = r.realised.plus(p.realised);
    if (!p.q.isZero()) {
      const mark = markOf(c.books.get(m) ?? [], Number(o));
      if (mark !== undefined) r.unrealised = r.unrealised.plus(mark.times(p.q).minus(p.cost));
    }
    rows.set(`${w}|${m}`, r);
  }
  const markets = new Map<string, { realised: string; unrealised: string; fees: string; fills: number; taker: number }>();
  const sum = { realised: new D(0), unrealised: new D(0), fees: new D(0), fills: 0, taker: 0 };
  const perMarket = new Map<string, { realised: Dec; unrealised: Dec; fees: Dec }>();
  for (const [wm, r] of rows) {
    const m = wm.slice(wm.indexOf("|") + 1);
    const acc = perMarket.get(m) ?? { realised: new D(0), unrealised: new D(0), fees: new D(0) };
    acc.realised = acc.realised.plus(floor6(r.realised));
    acc.unrealised = acc.unrealised.plus(floor6(r.unrealised));
    acc.fees = acc.fees.plus(fees.get(wm) ?? 0);
    perMarket.set(m, acc);
  }
  for (const [m, acc] of perMarket) {
    const n = counts.get(m) ?? { fills: 0, taker: 0 };
    markets.set(m, { realised: floor6(acc.realised), unrealised: floor6(acc.unrealised), fees: floor6(acc.fees), ...n });
    sum.realised = sum.realised.plus(acc.realised);
    sum.unrealised = sum.unrealised.plus(acc.unrealised);
    sum.fees = sum.fees.plus(acc.fees);
    sum.fills += n.fills;
    sum.taker += n.taker;
  }
  const marks = new Map<string, (string | null)[]>();
  for (const [m, book] of c.books) {
    if (c.settlements.has(m)) continue;
    marks.set(
      m,
      book.map((_, o) => {
        const x = markOf(book, o);
        return x === undefined ? null : floor6(x);
      }),
    );
  }
  return {
    markets,
    totals: { realised: floor6(sum.realised), unrealised: floor6(sum.unrealised), fees: floor6(sum.fees), fills: sum.fills, taker: sum.taker },
    cash: new Map([...cash].map(([w, x]) => [w, floor6(x)])),
    marks,
  };
}
