/** Behaviour every registered strategy must show, whatever its model. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidPrice } from "../../src/core/amounts.js";
import type { BookView, PositionView } from "../../src/bot/quote/quotes.js";
import { createStrategyRunner, strategyNames } from "../../strategies/index.js";
import { BOOK, book, input, m, run, yes, yesView } from "./helpers.js";

const NAMES = strategyNames();

describe("the registry holds the three shipped strategies", () => {
  it("lists them", () => {
    expect(NAMES).toEqual(["avellaneda-stoikov", "inventory-skew", "ladder"]);
  });
});

describe.each(NAMES)("%s", (name) => {
  it("quotes symmetrically around an on-grid mid with zero inventory", () => {
    const v = yesView(run(name, { levels: 3 }, input()).quotes);
    expect(v.bids).toHaveLength(3);
    expect(v.asks).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(m("0.55") - v.bids[i]!.price).toBe(v.asks[i]!.price - m("0.55"));
      expect(v.bids[i]!.size).toBe(v.asks[i]!.size);
    }
  });

  it("quotes symmetrically around an off-grid mid (bids down, asks up)", () => {
    const b = book([["0.551", "10"]], [["0.552", "10"]]); // mid 0.5515
    const v = yesView(run(name, {}, input({ book: b })).quotes);
    expect(m("0.5515") - v.bids[0]!.price).toBe(v.asks[0]!.price - m("0.5515"));
  });

  it("in pre_market every quote is post-only, even with postOnly: false", () => {
    const q = run(name, { postOnly: false, levels: 2 }, input({ phase: "pre_market", inventory: yes("5") })).quotes;
    expect(q.length).toBeGreaterThan(0);
    expect(q.every((x) => x.postOnly)).toBe(true);
  });

  it("in pull and stopped quotes nothing", () => {
    expect(run(name, {}, input({ phase: "pull", inventory: yes("5") })).quotes).toEqual([]);
    expect(run(name, {}, input({ phase: "stopped" })).quotes).toEqual([]);
  });

  it("rejects bad params naming the param", () => {
    expect(() => createStrategyRunner(name, { levels: 0 })).toThrow(/levels/);
    expect(() => createStrategyRunner(name, { size: "-1" })).toThrow(/size/);
    expect(() => createStrategyRunner(name, { size: "0.0000001" })).toThrow(/size: more than 6 decimals/);
    expect(() => createStrategyRunner(name, { band: { min: "0.5", max: "0.4" } })).toThrow(/band\.max/);
    expect(() => createStrategyRunner(name, { band: { min: "0.0005" } })).toThrow(/band\.min/);
    expect(() => createStrategyRunner(name, { levles: 2 })).toThrow(/levles/);
  });

  it("is deterministic: same input and state, same quotes and state", () => {
    const a = run(name, { levels: 2 }, input({ inventory: yes("3") }));
    const b = run(name, { levels: 2 }, input({ inventory: yes("3") }));
    expect(b).toEqual(a);
  });

  it("holds the price invariants on arbitrary books, inventories, phases and params", () => {
    const tick = fc.integer({ min: 1, max: 999 });
    const level = fc.record({ t: tick, size: fc.integer({ min: 1, max: 1000 }) });
    const arbBook = fc
      .record({ bids: fc.array(level, { maxLength: 3 }), asks: fc.array(level, { maxLength: 3 }), last: fc.option(tick) })
      .map(({ bids, asks, last }): BookView => {
        const bs = [...new Set(bids.map((l) => l.t))].sort((x, y) => y - x);
        const bestBid = bs[0] ?? 0;
        const as = [...new Set(asks.map((l) => l.t))].filter((t) => t > bestBid).sort((x, y) => x - y);
        const b: BookView = {
          bids: bs.map((t) => ({ price: BigInt(t) * 1000n, size: 5_000_000n })),
          asks: as.map((t) => ({ price: BigInt(t) * 1000n, size: 7_000_000n })),
          updatedAtMs: 0,
        };
        if (last !== null) b.lastTradePrice = BigInt(last) * 1000n;
        return b;
      });
    const arbInventory = fc
      .record({ yes: fc.integer({ min: -50, max: 200 }), no: fc.integer({ min: 0, max: 200 }) })
      .map(({ yes: y, no: n }): PositionView[] => [
        { outcome: 0, qty: BigInt(y) * 1_000_000n, avgCost: null },
        { outcome: 1, qty: BigInt(n) * 1_000_000n, avgCost: null },
      ]);
    const arbBand = fc
      .tuple(tick, tick)
      .map(([a, b]) => ({ min: `${Math.min(a, b) / 1000}`, max: `${Math.max(a, b) / 1000}` }));
    fc.assert(
      fc.property(
        arbBook,
        arbInventory,
        arbBand,
        fc.constantFrom("open", "pre_market" as const),
        fc.boolean(),
        fc.integer({ min: 1, max: 6 }),
        fc.option(fc.integer({ min: 0, max: 10_000_000 })),
        (b, inv, band, phase, postOnly, levels, ttc) => {
          const closes = ttc === null ? {} : { closesAtMs: 1_000_000 + ttc, timeToCloseMs: ttc };
          const q = run(name, { band, postOnly, levels, fallbackPrice: "0.5" }, input({ book: b, inventory: inv, phase, ...closes })).quotes;
          const mustPost = phase === "pre_market" || postOnly;
          for (const x of q) {
            expect(isValidPrice(x.price)).toBe(true);
            expect(x.size > 0n).toBe(true);
            if (phase === "pre_market") expect(x.postOnly).toBe(true);
          }
          const v = yesView(q);
          const bandMin = m(band.min);
          const bandMax = m(band.max);
          for (const l of [...v.bids, ...v.asks]) {
            expect(l.price >= bandMin && l.price <= bandMax).toBe(true);
          }
          if (v.bids.length && v.asks.length) expect(v.bids[0]!.price < v.asks[0]!.price).toBe(true);
          if (mustPost) {
            const bestAsk = b.asks[0]?.price;
            const bestBid = b.bids[0]?.price;
            if (bestAsk !== undefined && v.bids.length) expect(v.bids[0]!.price < bestAsk).toBe(true);
            if (bestBid !== undefined && v.asks.length) expect(v.asks[0]!.price > bestBid).toBe(true);
          }
          // Never sells more than is held.
          const soldYes = q.filter((x) => x.outcome === 0 && x.side === "SELL").reduce((s, x) => s + x.size, 0n);
          const soldNo = q.filter((x) => x.outcome === 1 && x.side === "SELL").reduce((s, x) => s + x.size, 0n);
          expect(soldYes <= (inv[0]!.qty > 0n ? inv[0]!.qty : 0n)).toBe(true);
          expect(soldNo <= inv[1]!.qty).toBe(true);
        },
      ),
      { seed: 20260101, numRuns: 300 },
    );
  });
});

describe("ladder specifics", () => {
  it("places levels at the configured spread and spacing", () => {
    const v = yesView(run("ladder", { halfSpreadTicks: 3, levels: 3, levelSpacingTicks: 2 }, input({ book: BOOK })).quotes);
    expect(v.bids.map((l) => l.price)).toEqual([m("0.547"), m("0.545"), m("0.543")]);
    expect(v.asks.map((l) => l.price)).toEqual([m("0.553"), m("0.555"), m("0.557")]);
  });
  it("does not skew prices with inventory (only how the ask is expressed)", () => {
    const flat = yesView(run("ladder", {}, input()).quotes);
    const long = yesView(run("ladder", {}, input({ inventory: yes("50") })).quotes);
    expect(long).toEqual(flat);
  });
  it("quotes around the microprice when asked to", () => {
    const b = book([["0.50", "300"]], [["0.60", "100"]]); // microprice 0.575
    const v = yesView(run("ladder", { reference: "microprice", halfSpreadTicks: 2 }, input({ book: b })).quotes);
    expect(v.bids[0]!.price).toBe(m("0.573"));
    expect(v.asks[0]!.price).toBe(m("0.577"));
  });
});
