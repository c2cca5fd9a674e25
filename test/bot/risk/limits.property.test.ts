import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DesiredQuote, LiveOrder, PositionView } from "../../../src/bot/quote/quotes.js";
import { DEFAULT_TUNING, RiskSnapshot, applyLimits, priceProblem, type MarketExposure } from "../../../src/bot/risk/index.js";
import { notional } from "../../../src/core/money.js";
import { limits, m } from "./fixtures.js";

const W = "w1";
const MKT = "M";
const L = limits({
  maxPositionPerMarket: m("200"),
  maxNotionalPerWallet: m("300"),
  maxNotionalTotal: m("500"),
  maxOpenOrdersPerMarket: 4,
  maxOrderSize: m("60"),
});

const price = fc.integer({ min: 0, max: 1000 }).map((t) => BigInt(t) * 1000n);
const size = fc.integer({ min: 0, max: 100 }).map((s) => BigInt(s) * 1_000_000n);
const quote = (outcomes: number): fc.Arbitrary<DesiredQuote> =>
  fc.record({
    outcome: fc.integer({ min: 0, max: outcomes - 1 }),
    side: fc.constantFrom("BUY" as const, "SELL" as const),
    price,
    size,
    postOnly: fc.constant(true),
    level: fc.integer({ min: 0, max: 5 }),
  });
const order = (outcomes: number): fc.Arbitrary<LiveOrder> =>
  fc
    .record({
      outcome: fc.integer({ min: 0, max: outcomes - 1 }),
      side: fc.constantFrom("BUY" as const, "SELL" as const),
      price: fc.integer({ min: 1, max: 999 }).map((t) => BigInt(t) * 1000n),
      size: fc.integer({ min: 1, max: 40 }).map((s) => BigInt(s) * 1_000_000n),
      state: fc.constantFrom("open" as const, "pending" as const, "cancelling" as const),
    })
    .map((o) => ({ ...o, clientOrderId: `c-${o.outcome}-${o.side}-${o.price}`, remaining: o.size, postOnly: true, createdAtMs: 0 }));
const positions = (outcomes: number): fc.Arbitrary<PositionView[]> =>
  fc.array(
    fc.record({
      outcome: fc.integer({ min: 0, max: outcomes - 1 }),
      qty: fc.integer({ min: 0, max: 150 }).map((q) => BigInt(q) * 1_000_000n),
      avgCost: fc.option(fc.integer({ min: 1, max: 999 }).map((t) => BigInt(t) * 1000n), { nil: null }),
    }),
    { maxLength: 3 },
  );

function heldOf(ps: readonly PositionView[], o: number): bigint {
  return ps.filter((p) => p.outcome === o).reduce((a, p) => a + p.qty, 0n);
}

function sumBy<T>(xs: readonly T[], f: (x: T) => bigint): bigint {
  return xs.reduce((a, x) => a + f(x), 0n);
}

const scenario = fc.integer({ min: 2, max: 3 }).chain((outcomes) =>
  fc.record({
    outcomes: fc.constant(outcomes),
    positions: positions(outcomes),
    orders: fc.array(order(outcomes), { maxLength: 4 }),
    desired: fc.array(quote(outcomes), { maxLength: 8 }),
    others: fc.array(
      fc.record({ wallet: fc.constantFrom("w1", "w2"), market: fc.constantFrom("X", "Y"), positions: positions(2), orders: fc.array(order(2), { maxLength: 3 }) }),
      { maxLength: 3 },
    ),
  }),
);

describe("applyLimits properties", () => {
  it("allowed quotes are valid, in band, never larger than asked or maxOrderSize, and sells never exceed holdings", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const here: MarketExposure = { wallet: W, market: MKT, outcomeCount: s.outcomes, positions: s.positions, openOrders: s.orders };
        const r = applyLimits(W, MKT, s.desired, new RiskSnapshot([here]), L, DEFAULT_TUNING);
        expect(r.allowed.length + r.dropped.length).toBe(s.desired.length);
        for (const q of r.allowed) {
          expect(priceProblem(q.price, L.priceBand)).toBeNull();
          expect(q.size > 0n && q.size <= L.maxOrderSize).toBe(true);
        }
        for (let o = 0; o < s.outcomes; o++) {
          const sold = sumBy(r.allowed.filter((q) => q.side === "SELL" && q.outcome === o), (q) => q.size);
          const cancelling = sumBy(s.orders.filter((x) => x.side === "SELL" && x.outcome === o && x.state === "cancelling"), (x) => x.remaining);
          expect(sold).toBeLessThanOrEqual(heldOf(s.positions, o) - cancelling > 0n ? heldOf(s.positions, o) - cancelling : 0n);
        }
      }),
      { numRuns: 400, seed: 424242 },
    );
  });

  it("starting within the position limit, the worst case after the allowed buys stays within it", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const here: MarketExposure = { wallet: W, market: MKT, outcomeCount: s.outcomes, positions: s.positions, openOrders: s.orders };
        const binary = s.outcomes === 2;
        const measure = (o: number): bigint => heldOf(s.positions, o) - (binary ? heldOf(s.positions, 1 - o) : 0n);
        const cancellingBuy = (o: number): bigint =>
          sumBy(s.orders.filter((x) => x.side === "BUY" && x.outcome === o && x.state === "cancelling"), (x) => x.remaining);
        for (let o = 0; o < s.outcomes; o++) fc.pre(measure(o) + cancellingBuy(o) <= L.maxPositionPerMarket);
        const r = applyLimits(W, MKT, s.desired, new RiskSnapshot([here]), L, DEFAULT_TUNING);
        for (let o = 0; o < s.outcomes; o++) {
          const bought = sumBy(r.allowed.filter((q) => q.side === "BUY" && q.outcome === o), (q) => q.size);
          expect(measure(o) + cancellingBuy(o) + bought).toBeLessThanOrEqual(L.maxPositionPerMarket);
        }
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it("without reducing buys, wallet and total notional stay within their limits when they started within", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        // Only YES held and only YES bought: no buy can be reducing.
        const pos = s.positions.filter((p) => p.outcome === 0);
        const desired = s.desired.filter((q) => q.outcome === 0);
        const here: MarketExposure = { wallet: W, market: MKT, outcomeCount: 2, positions: pos, openOrders: s.orders.filter((o) => o.outcome === 0) };
        const others: MarketExposure[] = s.others.map((o) => ({ wallet: o.wallet, market: o.market, outcomeCount: 2, positions: o.positions, openOrders: o.orders }));
        const snap = new RiskSnapshot([...others, here]);
        const f = snap.market(W, MKT)!;
        const baseWallet = snap.walletNotional(W) - f.openBuyNotional + f.cancellingBuyNotional;
        const baseTotal = snap.totalNotional() - f.openBuyNotional + f.cancellingBuyNotional;
        fc.pre(baseWallet <= L.maxNotionalPerWallet && baseTotal <= L.maxNotionalTotal);
        const r = applyLimits(W, MKT, desired, snap, L, DEFAULT_TUNING);
        const added = sumBy(r.allowed.filter((q) => q.side === "BUY"), (q) => notional(q.price, q.size, "ceil"));
        expect(baseWallet + added).toBeLessThanOrEqual(L.maxNotionalPerWallet);
        expect(baseTotal + added).toBeLessThanOrEqual(L.maxNotionalTotal);
        expect(r.restingBuyNotional).toBe(f.cancellingBuyNotional + added);
        expect(r.allowed.length).toBeLessThanOrEqual(L.maxOpenOrdersPerMarket + r.allowed.filter((q) => q.side === "SELL").length);
      }),
      { numRuns: 400, seed: 99 },
    );
  });
});
