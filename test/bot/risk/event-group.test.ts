/**
 * Event-group risk (src/bot/risk/event-group.ts): grouping of neg-risk markets, the PnL of every
 * winning scenario, the worst case, and the cap's trimming. Table tests, then a property check
 * against a brute force that resolves every market of every scenario position by position.
 */
import { describe, expect, it } from "vitest";
import { Rng } from "../../../src/core/rng.js";
import { ONE, notional, type Micros } from "../../../src/core/money.js";
import type { DesiredQuote } from "../../../src/bot/quote/quotes.js";
import {
  applyEventLimit,
  eventBase,
  eventGroupOf,
  eventGroups,
  scenarioPnl,
  worstCase,
  type EventGroup,
  type EventLeg,
  type GroupRow,
} from "../../../src/bot/risk/event-group.js";
import { RiskSnapshot } from "../../../src/bot/risk/exposure.js";
import { bid, held, live, m } from "./fixtures.js";

const row = (symbol: string, eventId: string, negRiskEligible = true, outcomeCount = 2): GroupRow => ({ symbol, eventId, negRiskEligible, outcomeCount });

const G3: EventGroup = { eventId: "E", markets: ["A", "B", "C"] };

describe("eventGroupOf / eventGroups", () => {
  const rows = [row("C", "E"), row("A", "E"), row("B", "E"), row("X", "E", false), row("Y", "E", true, 3), row("D", "F"), row("S", "G", false)];

  it("groups the binary neg-risk markets of one event, sorted; others are not in any group", () => {
    expect(eventGroupOf(rows, "B")).toEqual(G3);
    expect(eventGroupOf(rows, "X")).toBeUndefined(); // same event, not neg-risk: its own caps only
    expect(eventGroupOf(rows, "Y")).toBeUndefined(); // not binary
    expect(eventGroupOf(rows, "S")).toBeUndefined();
    expect(eventGroupOf(rows, "nope")).toBeUndefined();
    expect(eventGroupOf(rows, "D")).toEqual({ eventId: "F", markets: ["D"] });
    expect([...eventGroups(rows).values()]).toEqual([G3, { eventId: "F", markets: ["D"] }]);
  });
});

describe("scenarioPnl", () => {
  const legs = (l: Record<string, EventLeg>) => (mk: string) => l[mk];

  const cases: { name: string; legs: Record<string, EventLeg>; pnl: string[] }[] = [
    { name: "nothing held", legs: {}, pnl: ["0", "0", "0", "0"] },
    {
      name: "100 YES of A at 0.30: +70 if A wins, -30 otherwise (none included)",
      legs: { A: { positions: [held(0, "100", "0.30")], orders: [] } },
      pnl: ["70", "-30", "-30", "-30"],
    },
    {
      name: "100 NO of B at 0.60: pays unless B wins",
      legs: { B: { positions: [held(1, "100", "0.60")], orders: [] } },
      pnl: ["40", "-60", "40", "40"],
    },
    {
      name: "YES of every market at 0.30 each: +10 when one wins, -90 when none does",
      legs: {
        A: { positions: [held(0, "100", "0.30")], orders: [] },
        B: { positions: [held(0, "100", "0.30")], orders: [] },
        C: { positions: [held(0, "100", "0.30")], orders: [] },
      },
      pnl: ["10", "10", "10", "-90"],
    },
    {
      name: "open orders count where filling them loses, not where it would gain",
      legs: {
        A: { positions: [held(0, "100", "0.30")], orders: [live("s", "0.50", "40", { side: "SELL" })] },
        C: { positions: [], orders: [live("b", "0.20", "50")] },
      },
      // Held: +70 if A wins, -30 otherwise. The SELL of 40 at 0.50 loses 20 if A wins (sold a
      // winner at half); the C bid loses its 10 unless C wins (and gains nothing counted if it does).
      pnl: ["40", "-40", "-30", "-40"],
    },
    {
      name: "a position without an average cost is costed at the mark, else at 1",
      legs: {
        A: { positions: [held(0, "10", null)], orders: [], marks: { 0: m("0.25") } },
        B: { positions: [held(0, "10", null)], orders: [] },
      },
      pnl: ["-2.5", "-2.5", "-12.5", "-12.5"],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const pnl = scenarioPnl(G3, legs(c.legs));
      expect(pnl).toEqual(c.pnl.map((x) => m(x)));
      expect(worstCase(pnl)).toBe(c.pnl.map((x) => m(x)).reduce((a, b) => (a < b ? a : b)));
    });
  }

  it("eventBase counts the cycle's market without its replaceable orders, siblings with all of theirs", () => {
    const snap = new RiskSnapshot([
      { wallet: "w", market: "A", outcomeCount: 2, positions: [held(0, "100", "0.30")], openOrders: [live("a1", "0.30", "50"), live("a2", "0.20", "10", { state: "cancelling" })] },
      { wallet: "w", market: "B", outcomeCount: 2, positions: [], openOrders: [live("b1", "0.40", "10")] },
      { wallet: "other", market: "C", outcomeCount: 2, positions: [held(0, "1000", "0.5")], openOrders: [] },
    ]);
    const base = eventBase(G3, "A", "w", snap);
    // A: 100 YES held for 30; a1 left out; a2 (cancelling) loses 2 unless A wins; B's bid loses 4
    // unless B wins; the other wallet's C is not counted.
    expect(base).toEqual([m("66"), m("-32"), m("-36"), m("-36")]);
  });
});

describe("applyEventLimit", () => {
  const base0 = scenarioPnl(G3, () => undefined);

  it("resizes a BUY to what keeps every scenario where it does not pay within the cap", () => {
    // Holding 100 YES of A at 0.30: -30 unless A wins; cap 50 leaves 20 to spend on B's YES.
    const base = scenarioPnl(G3, (mk) => (mk === "A" ? { positions: [held(0, "100", "0.30")], orders: [] } : undefined));
    const r = applyEventLimit({ group: G3, market: "B", base, quotes: [bid("0.40", "100")], maxEventLoss: m("50"), minQuoteSize: m("1") });
    expect(r.resized).toEqual([{ quote: bid("0.40", "100"), size: m("50"), reason: "event_loss" }]);
    expect(r.allowed).toEqual([bid("0.40", "50")]);
    expect(r.worstAfter).toBe(m("-50"));
  });

  it("a NO bid only loses when its own market wins", () => {
    const r = applyEventLimit({ group: G3, market: "A", base: base0, quotes: [bid("0.70", "100", { outcome: 1 })], maxEventLoss: m("35") });
    expect(r.allowed).toEqual([bid("0.70", "50", { outcome: 1 })]);
  });

  it("levels get the headroom in order; a remainder under minQuoteSize is dropped; SELLs pass", () => {
    const quotes: DesiredQuote[] = [
      bid("0.30", "10", { level: 1 }),
      { outcome: 0, side: "SELL", price: m("0.50"), size: m("10"), postOnly: true },
      bid("0.40", "20", { level: 0 }),
    ];
    const r = applyEventLimit({ group: G3, market: "C", base: base0, quotes, maxEventLoss: m("8.2"), minQuoteSize: m("1") });
    // level 0 takes 8.00 of 8.20; level 1 fits 0.666666 shares < 1: dropped.
    expect(r.allowed).toEqual([quotes[1], quotes[2]]);
    expect(r.dropped).toEqual([{ quote: quotes[0], reason: "event_loss" }]);
  });

  it("a scenario already beyond the cap blocks every BUY that loses in it, not one that pays in it", () => {
    // YES of A and B: "C wins" and "none" lose 60 > cap 50.
    const base = scenarioPnl(G3, (mk) => (mk === "C" ? undefined : { positions: [held(0, "100", "0.30")], orders: [] }));
    const yesC = applyEventLimit({ group: G3, market: "C", base, quotes: [bid("0.10", "10")], maxEventLoss: m("50") });
    expect(yesC.allowed).toEqual([]);
    expect(yesC.dropped.map((d) => d.reason)).toEqual(["event_loss"]);
    // NO of A pays when B, C or nobody wins: it passes as far as "A wins" (+40) allows; resting, it
    // does not make the worst case worse (filled, it would make it better).
    const noA = applyEventLimit({ group: G3, market: "A", base, quotes: [bid("0.50", "40", { outcome: 1 })], maxEventLoss: m("50") });
    expect(noA.allowed).toEqual([bid("0.50", "40", { outcome: 1 })]);
    expect(noA.worstAfter).toBe(worstCase(base));
  });

  it("a market outside the group passes everything", () => {
    const q = [bid("0.5", "1000")];
    expect(applyEventLimit({ group: G3, market: "Z", base: base0, quotes: q, maxEventLoss: 0n }).allowed).toEqual(q);
  });
});

// ---- property: against brute force --------------------------------------------------------------

/**
 * Resolve every market in every scenario, position by position, and for each scenario try every
 * subset of the open orders filling: the worst of them.
 */
function bruteScenarios(markets: readonly string[], legs: ReadonlyMap<string, EventLeg>): Micros[] {
  const out: Micros[] = [];
  const orders: { i: number; o: EventLeg["orders"][number] }[] = [];
  markets.forEach((mk, i) => {
    for (const o of legs.get(mk)?.orders ?? []) orders.push({ i, o });
  });
  for (let w = 0; w <= markets.length; w++) {
    let held = 0n;
    markets.forEach((mk, i) => {
      const leg = legs.get(mk);
      if (leg === undefined) return;
      const winner = (o: number) => (o === 0 ? i === w : i !== w);
      for (const p of leg.positions) {
        const cost = p.avgCost ?? leg.marks?.[p.outcome] ?? ONE;
        held += (winner(p.outcome) ? p.qty : 0n) - notional(cost, p.qty, "ceil");
      }
    });
    let worst: Micros | undefined;
    for (let mask = 0; mask < 1 << orders.length; mask++) {
      let pnl = held;
      orders.forEach(({ i, o }, k) => {
        if ((mask & (1 << k)) === 0) return;
        const pays = o.outcome === 0 ? i === w : i !== w;
        if (o.side === "BUY") pnl += (pays ? o.remaining : 0n) - notional(o.price, o.remaining, "ceil");
        else pnl += notional(o.price, o.remaining, "floor") - (pays ? o.remaining : 0n);
      });
      if (worst === undefined || pnl < worst) worst = pnl;
    }
    out.push(worst ?? held);
  }
  return out;
}

function randomLegs(rng: Rng, markets: readonly string[]): Map<string, EventLeg> {
  const legs = new Map<string, EventLeg>();
  const price = () => BigInt(1 + rng.int(999)) * 1000n;
  const qty = () => BigInt(rng.int(200_000_000));
  for (const mk of markets) {
    if (rng.bool(0.2)) continue;
    const positions = [];
    for (let o = 0; o < 2; o++) if (rng.bool(0.6)) positions.push({ outcome: o, qty: qty(), avgCost: rng.bool(0.9) ? price() : null });
    const orders = [];
    const n = rng.int(3); // at most 2 per market: 2^8 fill subsets at most
    for (let k = 0; k < n; k++) orders.push(live(`${mk}${k}`, "0.5", "1", { outcome: rng.int(2), side: rng.bool(0.7) ? "BUY" : "SELL", price: price(), remaining: qty() }));
    legs.set(mk, { positions, orders, marks: rng.bool(0.5) ? { 0: price(), 1: price() } : undefined });
  }
  return legs;
}

describe("event group property (brute force over scenarios and fill subsets)", () => {
  const rng = new Rng(1414);

  it("scenarioPnl equals resolving every market of every scenario", () => {
    for (let t = 0; t < 200; t++) {
      const markets = Array.from({ length: 1 + rng.int(4) }, (_, i) => `M${i}`);
      const legs = randomLegs(rng, markets);
      expect(scenarioPnl({ eventId: "E", markets }, (mk) => legs.get(mk))).toEqual(bruteScenarios(markets, legs));
    }
  });

  it("applyEventLimit grants the most that keeps every scenario at or above min(before, -cap)", () => {
    for (let t = 0; t < 200; t++) {
      const markets = Array.from({ length: 1 + rng.int(4) }, (_, i) => `M${i}`);
      const group = { eventId: "E", markets };
      const legs = randomLegs(rng, markets);
      const market = markets[rng.int(markets.length)] as string;
      const before = bruteScenarios(markets, legs);
      const cap = BigInt(rng.int(150_000_000));
      const q: DesiredQuote = { outcome: rng.int(2), side: "BUY", price: BigInt(1 + rng.int(999)) * 1000n, size: BigInt(1 + rng.int(100_000_000)), postOnly: true };
      const r = applyEventLimit({ group, market, base: before, quotes: [q], maxEventLoss: cap, minQuoteSize: 1n });
      const granted = r.allowed[0]?.size ?? 0n;
      const after = (size: Micros) => {
        const l = new Map(legs);
        const leg = l.get(market) ?? { positions: [], orders: [] };
        l.set(market, { ...leg, orders: [...leg.orders, { ...live("q", "0.5"), outcome: q.outcome, price: q.price, remaining: size }] });
        return bruteScenarios(markets, l);
      };
      const fits = (size: Micros) => after(size).every((v, s) => v >= (before[s]! < -cap ? before[s]! : -cap));
      expect(fits(granted)).toBe(true);
      if (granted < q.size) expect(fits(granted + 1n)).toBe(false);
      expect(r.worstAfter).toBe(worstCase(after(granted)));
    }
  });
});
