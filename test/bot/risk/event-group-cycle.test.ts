/**
 * Issue 14 part 1, done-when, at the quote cycle: a three-outcome neg-risk event whose worst case
 * is bounded by risk.maxEventLoss while each market's own caps alone would allow more. The three
 * markets are cycled one after the other; each cycle's allowed quotes then rest as live orders, so
 * the next cycle's event base counts them wherever filling them loses.
 */
import { describe, expect, it } from "vitest";
import type { StrategyRunner } from "../../../strategies/registry.js";
import type { StrategyInput } from "../../../strategies/contract.js";
import { quoteCycle, type CyclePolicy, type CycleSnapshot } from "../../../src/bot/quote/cycle.js";
import type { DesiredQuote, LiveOrder, PositionView } from "../../../src/bot/quote/quotes.js";
import { RiskSnapshot, type MarketExposure } from "../../../src/bot/risk/exposure.js";
import { cycleEvent, type EventRow } from "../../../src/bot/risk/event-group-view.js";
import { scenarioPnl, worstCase } from "../../../src/bot/risk/event-group.js";
import { limits, m, NOW } from "./fixtures.js";

const ROWS: EventRow[] = [
  { symbol: "A", eventId: "E", negRiskEligible: true, outcomeCount: 2, groupItemTitle: "Alice" },
  { symbol: "B", eventId: "E", negRiskEligible: true, outcomeCount: 2, groupItemTitle: "Bob" },
  { symbol: "C", eventId: "E", negRiskEligible: true, outcomeCount: 2, groupItemTitle: "Carol" },
  // Same event, not neg-risk: not in the group.
  { symbol: "X", eventId: "E", negRiskEligible: false, outcomeCount: 2, groupItemTitle: null },
];

/** Bids 100 YES at 0.30 on whatever it quotes; remembers what it was shown. */
function yesBidder(): StrategyRunner & { inputs: StrategyInput[] } {
  const inputs: StrategyInput[] = [];
  return {
    name: "yes-bidder",
    params: {},
    inputs,
    step(input) {
      inputs.push(input);
      const quotes: DesiredQuote[] = input.quoteOutcome === 0 ? [{ outcome: 0, side: "BUY", price: m("0.30"), size: m("100"), postOnly: true, level: 0 }] : [];
      return { quotes, state: undefined };
    },
  };
}

const BOOK = { bids: [{ price: m("0.29"), size: m("100") }], asks: [{ price: m("0.31"), size: m("100") }], updatedAtMs: NOW };

function snapshot(symbol: string, live: Map<string, LiveOrder[]>, positions: Map<string, PositionView[]>): CycleSnapshot {
  const exposures: MarketExposure[] = [];
  for (const r of ROWS) exposures.push({ wallet: "w", market: r.symbol, outcomeCount: 2, positions: positions.get(r.symbol) ?? [], openOrders: live.get(r.symbol) ?? [] });
  const inventory = positions.get(symbol) ?? [];
  const own = live.get(symbol) ?? [];
  return {
    symbol,
    nowMs: NOW,
    market: { outcomeCount: 2, feeTakerBps: 0 },
    phase: { phase: "open", reason: "open", closesAtMs: null },
    books: new Map([[0, { snapshot: { symbol, outcome: 0, view: BOOK, fetchedAtMs: NOW, sentSeq: 1 }, own: [], trades: [] }]]),
    mids: { 0: m("0.30"), 1: m("0.70") },
    live: own,
    inventory,
    budget: { cancels: 100, places: 100 },
    gate: { quote: true },
    exposure: new RiskSnapshot(exposures),
    risk: {
      wallet: "0xw",
      walletName: "w",
      marketId: symbol,
      outcomeCount: 2,
      nowMs: NOW,
      phase: "open",
      phaseReason: "open",
      book: BOOK,
      dataAgeMs: 0,
      inventory,
      live: own,
      stream: { subscribed: true, downSinceMs: undefined },
      engine: undefined as never,
    },
    event: cycleEvent(ROWS, symbol, { book: () => BOOK, positions: (s) => positions.get(s) ?? [] }),
  };
}

/** Cycle A, B, C in turn; each cycle's allowed quotes rest as live orders afterwards. */
function run(maxEventLoss: bigint | undefined, positions = new Map<string, PositionView[]>()) {
  const strategy = yesBidder();
  // Per-market caps that alone allow every 100-share bid: position 500, order 100, notional 1000.
  const policy: CyclePolicy = {
    strategy,
    quoting: { priceToleranceTicks: 1, sizeTolerance: 0.1, maxOrderAgeMs: 600_000 },
    limits: limits({ maxEventLoss }),
    tuning: { minQuoteSize: m("1") },
  };
  const live = new Map<string, LiveOrder[]>();
  const placed: Record<string, bigint> = {};
  const filtered: Record<string, number> = {};
  for (const symbol of ["A", "B", "C"]) {
    const c = quoteCycle(policy, snapshot(symbol, live, positions));
    const size = c.plan.places.reduce((a, p) => a + p.size, 0n);
    placed[symbol] = size;
    for (const [k, n] of c.why.filtered) filtered[`${symbol}:${k}`] = n;
    live.set(
      symbol,
      c.plan.places.map((q, i) => ({ clientOrderId: `${symbol}${i}`, orderId: `o${symbol}${i}`, outcome: q.outcome, side: q.side, price: q.price, size: q.size, remaining: q.size, postOnly: q.postOnly, createdAtMs: NOW, state: "open" as const })),
    );
  }
  const worst = worstCase(scenarioPnl({ eventId: "E", markets: ["A", "B", "C"] }, (mk) => ({ positions: positions.get(mk) ?? [], orders: live.get(mk) ?? [] })));
  return { placed, filtered, worst, inputs: strategy.inputs };
}

describe("event-group risk in the quote cycle (three-outcome event)", () => {
  it("without an event cap each market's caps allow the full 100-share bid: worst case -90 (nobody among A, B, C wins)", () => {
    const r = run(undefined);
    expect(r.placed).toEqual({ A: m("100"), B: m("100"), C: m("100") });
    expect(r.filtered).toEqual({});
    expect(r.worst).toBe(m("-90"));
  });

  it("maxEventLoss 50 bounds the worst case at -50: A in full, B resized, C dropped, each counted as event_loss", () => {
    const r = run(m("50"));
    // A: 30 at risk. B: A's bid loses 30 unless A wins: 20 left, 66.666666 shares at 0.30. C: nothing left.
    expect(r.placed).toEqual({ A: m("100"), B: m("66.666666"), C: 0n });
    expect(r.filtered).toEqual({ "B:event_loss": 1, "C:event_loss": 1 });
    expect(r.worst).toBeGreaterThanOrEqual(m("-50"));
    expect(r.worst).toBe(-m("50"));
  });

  it("positions count at their cost: holding 100 NO of C at 0.90 (-90 if C wins) leaves A and B only what C's win allows", () => {
    const r = run(m("100"), new Map([["C", [{ outcome: 1, qty: m("100"), avgCost: m("0.90") }]]]));
    // C wins: -90 on the NO, so A's and B's YES bids may cost 10 between them.
    expect(r.placed.A).toBe(m("33.333333"));
    expect(r.placed.B).toBe(0n);
    expect(r.worst).toBeGreaterThanOrEqual(-m("100"));
  });

  it("the strategy sees the event group: the siblings' books, labels and our positions there", () => {
    const pos = new Map([["B", [{ outcome: 0, qty: m("5"), avgCost: m("0.2") }]]]);
    const r = run(undefined, pos);
    const a = r.inputs.find((i) => i.marketId === "A" && i.quoteOutcome === 0);
    expect(a?.eventGroup).toEqual({
      eventId: "E",
      siblings: [
        { marketId: "B", label: "Bob", book: BOOK, inventory: pos.get("B") },
        { marketId: "C", label: "Carol", book: BOOK, inventory: [] },
      ],
    });
  });
});
