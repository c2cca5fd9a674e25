/**
 * The quote cycle as a function of values (src/bot/quote/cycle.ts): snapshot and strategy state in,
 * desired quotes, plan, next state and the reasons out. Table-driven, in the style of poly-maker's
 * construct_quotes tests: each row is one situation and what the cycle must decide in it.
 */
import { describe, expect, it } from "vitest";
import type { StrategyRunner } from "../../../strategies/registry.js";
import type { StrategyInput } from "../../../strategies/contract.js";
import { enginePhase, quoteCycle, type CyclePolicy, type CycleSnapshot, type EnginePhase, type PhaseInputs, type QuotedBook } from "../../../src/bot/quote/cycle.js";
import type { DesiredQuote, LiveOrder, MarketPhase } from "../../../src/bot/quote/quotes.js";
import { RiskSnapshot } from "../../../src/bot/risk/exposure.js";
import type { RiskHook } from "../../../src/bot/risk/risk-hook.js";
import type { GateVerdict } from "../../../src/bot/risk/types.js";
import { limits, m } from "../risk/fixtures.js";
import { NOW, OPEN_PHASE, SYMBOL, cycleSnapshot, liveOrder, quotedBook } from "./fixtures.js";


/**
 * A strategy that joins the best bid it is shown and, on a binary market, the best ask as a NO bid
 * at the complement price (no short inventory: an ask is a buy of the other outcome); it counts its
 * calls in its state.
 */
function twoSided(over: Partial<DesiredQuote> = {}): StrategyRunner & { inputs: StrategyInput[] } {
  const inputs: StrategyInput[] = [];
  return {
    name: "two-sided",
    params: {},
    inputs,
    step(input, prev) {
      inputs.push(input);
      const o = input.quoteOutcome ?? 0;
      const bid = input.book.bids[0]?.price ?? m("0.40");
      const ask = input.book.asks[0]?.price ?? m("0.60");
      const quotes: DesiredQuote[] = [{ outcome: o, side: "BUY", price: bid, size: m("10"), postOnly: false, level: 0, ...over }];
      if (input.outcomeCount === 2) quotes.push({ outcome: 1, side: "BUY", price: m("1") - ask, size: m("10"), postOnly: false, level: 0, ...over });
      return {
        quotes,
        state: ((prev as number | undefined) ?? 0) + 1,
      };
    },
  };
}

function book(outcome: number, bid: string, ask: string, own: QuotedBook["own"] = []): QuotedBook {
  return quotedBook(outcome, [[bid, "100"]], [[ask, "100"]], own);
}

function live(id: string, side: "BUY" | "SELL", price: string, over: Partial<LiveOrder> = {}): LiveOrder {
  return liveOrder(id, side, price, { createdAtMs: NOW - 1_000, ...over });
}

const OPEN = OPEN_PHASE;
const HALTED: GateVerdict = { quote: false, reason: "kill_switch", scope: { kind: "global" }, halts: [] };

function snapshot(over: Partial<CycleSnapshot> = {}): CycleSnapshot {
  const s = cycleSnapshot(over, "w");
  // The shell's exposure always holds the cycle's own (wallet, market), with its outcome count.
  if (over.exposure === undefined) {
    s.exposure = new RiskSnapshot([{ wallet: "w", market: SYMBOL, outcomeCount: s.market?.outcomeCount ?? 2, positions: s.inventory, openOrders: s.live }]);
  }
  return s;
}

function policy(strategy: StrategyRunner, over: Partial<CyclePolicy> = {}): CyclePolicy {
  return {
    strategy,
    quoting: { priceToleranceTicks: 1, sizeTolerance: 0.1, maxOrderAgeMs: 600_000 },
    limits: limits(),
    tuning: { minQuoteSize: m("1") },
    ...over,
  };
}

/** "YES BUY@450000/po": outcome (YES, NO, else its index), side, price in micros, post-only. */
const brief = (qs: readonly { outcome: number; side: string; price: bigint; postOnly: boolean }[]): string[] =>
  qs.map((q) => `${["YES", "NO"][q.outcome] ?? q.outcome} ${q.side}@${q.price}${q.postOnly ? "/po" : ""}`);

describe("quoteCycle: one row per situation", () => {
  const rows: {
    name: string;
    snap: Partial<CycleSnapshot>;
    strategyCalled: boolean;
    desired: string[];
    places: string[];
    cancels: string[];
    filtered?: Record<string, number>;
  }[] = [
    {
      name: "open market, nothing live: the strategy's two quotes are placed",
      snap: {},
      strategyCalled: true,
      desired: ["YES BUY@450000", "NO BUY@450000"],
      places: ["YES BUY@450000", "NO BUY@450000"],
      cancels: [],
    },
    {
      name: "pre-market: every quote becomes post-only, whatever the strategy said",
      snap: { phase: { phase: "pre_market", reason: "pre_market", closesAtMs: NOW + 1e8 } },
      strategyCalled: true,
      desired: ["YES BUY@450000/po", "NO BUY@450000/po"],
      places: ["YES BUY@450000/po", "NO BUY@450000/po"],
      cancels: [],
    },
    {
      name: "quotes within tolerance of live orders are kept (queue position is worth money)",
      snap: { live: [live("a", "BUY", "0.45"), live("b", "BUY", "0.45", { outcome: 1 })] },
      strategyCalled: true,
      desired: ["YES BUY@450000", "NO BUY@450000"],
      places: [],
      cancels: [],
    },
    {
      name: "a live order far from the wanted price is cancelled and replaced",
      snap: { live: [live("a", "BUY", "0.30"), live("b", "BUY", "0.45", { outcome: 1 })] },
      strategyCalled: true,
      desired: ["YES BUY@450000", "NO BUY@450000"],
      places: ["YES BUY@450000"],
      cancels: ["a"],
    },
    {
      name: "pulled (market not this wallet's): the strategy is not asked, everything live is cancelled",
      snap: { phase: { phase: "pull", reason: "not_assigned", closesAtMs: null }, live: [live("a", "BUY", "0.45")] },
      strategyCalled: false,
      desired: [],
      places: [],
      cancels: ["a"],
    },
    {
      name: "a market we only pull (unknown to the registry): nothing placed, live orders cancelled",
      snap: { market: undefined, phase: { phase: "stopped", reason: "unknown_market", closesAtMs: null }, live: [live("a", "SELL", "0.55")] },
      strategyCalled: false,
      desired: [],
      places: [],
      cancels: ["a"],
    },
    {
      name: "halted: no quotes (each dropped as halted), live orders cancelled",
      snap: { gate: HALTED, live: [live("a", "BUY", "0.45")] },
      strategyCalled: true,
      desired: [],
      places: [],
      cancels: ["a"],
      filtered: { halted: 2 },
    },
    {
      name: "a quote outside the price band is dropped by the limits",
      snap: { books: new Map([[0, book(0, "0.01", "0.55")]]) },
      strategyCalled: true,
      desired: ["NO BUY@450000"],
      places: ["NO BUY@450000"],
      cancels: [],
      filtered: { price_band: 1 },
    },
    {
      name: "no book read yet: nothing to quote from",
      snap: { books: new Map() },
      strategyCalled: false,
      desired: [],
      places: [],
      cancels: [],
    },
  ];

  for (const r of rows) {
    it(r.name, () => {
      const strategy = twoSided();
      const c = quoteCycle(policy(strategy), snapshot(r.snap), new Map());
      expect(strategy.inputs.length > 0).toBe(r.strategyCalled);
      expect(brief(c.desired)).toEqual(r.desired);
      expect(brief(c.plan.places)).toEqual(r.places);
      expect(c.plan.cancels.map((o) => o.clientOrderId)).toEqual(r.cancels);
      expect(Object.fromEntries(c.why.filtered)).toEqual(r.filtered ?? {});
      expect(c.why.phase).toBe((r.snap.phase ?? OPEN).phase);
    });
  }
});

describe("quoteCycle", () => {
  it("is a function of its inputs: same snapshot and state, same result; the state passed in is not changed", () => {
    const state = new Map<number, unknown>([[0, 4]]);
    const a = quoteCycle(policy(twoSided()), snapshot(), state);
    const b = quoteCycle(policy(twoSided()), snapshot(), state);
    expect(a).toEqual(b);
    expect(state.get(0)).toBe(4);
    expect(a.nextStrategyState.get(0)).toBe(5);
    expect(a.nextStrategyState).not.toBe(state);
  });

  it("keeps the strategy state as it was when the strategy did not run", () => {
    const state = new Map<number, unknown>([[0, 7]]);
    const c = quoteCycle(policy(twoSided()), snapshot({ phase: { phase: "pull", reason: "stale_data", closesAtMs: null } }), state);
    expect(c.nextStrategyState).toBe(state);
  });

  it("shows the strategy the book without our own resting orders, and the market's fee and time to close", () => {
    const strategy = twoSided();
    const own = [{ outcome: 0, side: "BUY" as const, price: m("0.45"), remaining: m("100") }];
    const books = new Map([[0, { ...book(0, "0.45", "0.55", own), snapshot: { ...book(0, "0.45", "0.55").snapshot, view: { bids: [{ price: m("0.45"), size: m("100") }, { price: m("0.44"), size: m("5") }], asks: [{ price: m("0.55"), size: m("100") }], updatedAtMs: NOW } } }]]);
    quoteCycle(policy(strategy), snapshot({ books }), new Map());
    const input = strategy.inputs[0]!;
    expect(input.book.bids.map((l) => l.price)).toEqual([m("0.44")]);
    expect(input.feeTakerBps).toBe(100);
    expect(input.timeToCloseMs).toBe(86_400_000);
    expect(input.quoteOutcome).toBe(0);
  });

  it("runs the strategy once per outcome on a multi-outcome market, each on its own book, state per outcome", () => {
    const strategy = twoSided();
    const books = new Map([0, 1, 2].map((o) => [o, book(o, "0.30", "0.40")] as const));
    const c = quoteCycle(policy(strategy), snapshot({ market: { outcomeCount: 3, feeTakerBps: 0 }, books }), new Map([[1, 10]]));
    expect(strategy.inputs.map((i) => i.quoteOutcome)).toEqual([0, 1, 2]);
    expect([...c.nextStrategyState]).toEqual([
      [1, 11],
      [0, 1],
      [2, 1],
    ]);
    expect(brief(c.desired)).toEqual(["YES BUY@300000", "NO BUY@300000", "2 BUY@300000"]);
    expect(c.plan.places).toHaveLength(3);
  });

  it("asks the extra hook after the limits, and nothing it does can place on a pulled market or break post-only", () => {
    const seen: string[] = [];
    const careless: RiskHook = {
      reviewQuotes: (qs) => {
        seen.push("quotes");
        return qs.map((q) => ({ ...q, postOnly: false }));
      },
      reviewPlan: (plan) => {
        seen.push("plan");
        return { ...plan, places: [{ outcome: 0, side: "BUY", price: m("0.5"), size: m("1"), postOnly: false }] };
      },
    };
    const pre = quoteCycle(policy(twoSided(), { hook: careless }), snapshot({ phase: { phase: "pre_market", reason: "pre_market", closesAtMs: null } }), new Map());
    expect(seen).toEqual(["quotes", "plan"]);
    expect(pre.desired.every((q) => q.postOnly)).toBe(true);
    const pulled = quoteCycle(policy(twoSided(), { hook: careless }), snapshot({ phase: { phase: "pull", reason: "onboarding", closesAtMs: null } }), new Map());
    expect(pulled.plan.places).toEqual([]);
  });

  it("fits the plan to the rate budget and says how much it deferred", () => {
    const c = quoteCycle(policy(twoSided()), snapshot({ budget: { cancels: 0, places: 1 } }), new Map());
    expect(c.plan.places).toHaveLength(1);
    expect(c.why.deferredByBudget).toBe(1);
  });
});

describe("enginePhase", () => {
  const lifecycle = (phase: MarketPhase): EnginePhase => ({ phase, reason: phase, closesAtMs: NOW + 1_000 });
  const base: PhaseInputs = { nowMs: NOW, market: { selected: true, wallet: 0 }, lifecycle: lifecycle("open"), walletIndex: 0, pausedUntilMs: 0, stale: false };
  const rows: { name: string; over: Partial<PhaseInputs>; phase: MarketPhase; reason: string }[] = [
    { name: "the market's own phase", over: {}, phase: "open", reason: "open" },
    { name: "pre-market stays pre-market", over: { lifecycle: lifecycle("pre_market") }, phase: "pre_market", reason: "pre_market" },
    { name: "unknown market: stopped", over: { market: undefined, lifecycle: undefined }, phase: "stopped", reason: "unknown_market" },
    { name: "not selected: pull", over: { market: { selected: false, wallet: 0 } }, phase: "pull", reason: "not_assigned" },
    { name: "another wallet's market: pull", over: { market: { selected: true, wallet: 1 } }, phase: "pull", reason: "not_assigned" },
    { name: "onboarding pause: pull", over: { pausedUntilMs: NOW + 1 }, phase: "pull", reason: "onboarding" },
    { name: "stale book on an open market: pull", over: { stale: true }, phase: "pull", reason: "stale_data" },
    { name: "a stopped market stays stopped whatever the data", over: { lifecycle: lifecycle("stopped"), stale: true }, phase: "stopped", reason: "stopped" },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const p = enginePhase({ ...base, ...r.over });
      expect([p.phase, p.reason]).toEqual([r.phase, r.reason]);
    });
  }
});
