/** Book terms of the quote controls (src/bot/quote/controls/sides.ts): a quote as the book side it rests on, and the grid helpers. */
import { describe, expect, it } from "vitest";
import type { CycleSnapshot } from "../../../../src/bot/quote/cycle.js";
import type { DesiredQuote, Side } from "../../../../src/bot/quote/quotes.js";
import {
  atBookPrice,
  away,
  bookTerms,
  ceilTick,
  closer,
  compact,
  floorTick,
  groupBySide,
  onGrid,
  outcomeCountOf,
  shiftGroup,
  type BookSide,
} from "../../../../src/bot/quote/controls/sides.js";
import { parseMicros as m } from "../../../../src/core/money.js";

const q = (outcome: number, side: Side, price: string, over: Partial<DesiredQuote> = {}): DesiredQuote => ({ outcome, side, price: m(price), size: m("10"), postOnly: true, ...over });

describe("bookTerms", () => {
  const rows: { name: string; outcome: number; side: Side; price: string; outcomes: number; book: number; bookSide: BookSide; bookPrice: string }[] = [
    { name: "binary YES bid", outcome: 0, side: "BUY", price: "0.40", outcomes: 2, book: 0, bookSide: "bid", bookPrice: "0.40" },
    { name: "binary YES ask", outcome: 0, side: "SELL", price: "0.60", outcomes: 2, book: 0, bookSide: "ask", bookPrice: "0.60" },
    { name: "binary NO bid is a YES ask at 1 - p", outcome: 1, side: "BUY", price: "0.35", outcomes: 2, book: 0, bookSide: "ask", bookPrice: "0.65" },
    { name: "binary NO ask is a YES bid at 1 - p", outcome: 1, side: "SELL", price: "0.62", outcomes: 2, book: 0, bookSide: "bid", bookPrice: "0.38" },
    { name: "multi-outcome: outcome 1 on its own book", outcome: 1, side: "BUY", price: "0.35", outcomes: 3, book: 1, bookSide: "bid", bookPrice: "0.35" },
    { name: "multi-outcome: outcome 2 ask", outcome: 2, side: "SELL", price: "0.20", outcomes: 3, book: 2, bookSide: "ask", bookPrice: "0.20" },
  ];
  it.each(rows)("$name", (r) => {
    expect(bookTerms({ outcome: r.outcome, side: r.side, price: m(r.price) }, r.outcomes)).toEqual({ book: r.book, side: r.bookSide, price: m(r.bookPrice) });
  });
});

describe("atBookPrice", () => {
  it.each([
    { name: "YES quote takes the book price", quote: q(0, "BUY", "0.40"), outcomes: 2, bookPrice: "0.42", price: "0.42" },
    { name: "binary NO quote takes its complement", quote: q(1, "BUY", "0.35"), outcomes: 2, bookPrice: "0.63", price: "0.37" },
    { name: "multi-outcome outcome 1 takes the book price as is", quote: q(1, "SELL", "0.35"), outcomes: 3, bookPrice: "0.33", price: "0.33" },
  ])("$name", ({ quote, outcomes, bookPrice, price }) => {
    const moved = atBookPrice({ ...quote, level: 2, tag: "t" }, outcomes, m(bookPrice));
    expect(moved).toEqual({ ...quote, level: 2, tag: "t", price: m(price) });
  });

  it("round-trips with bookTerms on a binary NO quote", () => {
    const nq = q(1, "SELL", "0.71");
    const t = bookTerms(nq, 2);
    expect(atBookPrice(nq, 2, t.price)).toEqual(nq);
  });
});

describe("grid helpers", () => {
  it.each([
    { p: "0.001", grid: true },
    { p: "0.999", grid: true },
    { p: "0.5", grid: true },
    { p: "0", grid: false },
    { p: "1", grid: false },
    { p: "0.5005", grid: false },
    { p: "-0.001", grid: false },
  ])("onGrid($p) = $grid", ({ p, grid }) => {
    expect(onGrid(m(p))).toBe(grid);
  });

  it.each([
    { p: "0.4567", floor: "0.456", ceil: "0.457" },
    { p: "0.456", floor: "0.456", ceil: "0.456" },
    { p: "0.000001", floor: "0", ceil: "0.001" },
    { p: "-0.0005", floor: "-0.001", ceil: "0" },
  ])("floorTick / ceilTick of $p", ({ p, floor, ceil }) => {
    expect(floorTick(m(p))).toBe(m(floor));
    expect(ceilTick(m(p))).toBe(m(ceil));
  });

  it.each([
    { side: "bid" as const, price: "0.40", by: "0.02", away: "0.38", closerOf: ["0.40", "0.41"], closer: "0.41" },
    { side: "ask" as const, price: "0.60", by: "0.02", away: "0.62", closerOf: ["0.60", "0.59"], closer: "0.59" },
  ])("away / closer on the $side side", (r) => {
    expect(away(r.side, m(r.price), m(r.by))).toBe(m(r.away));
    expect(closer(r.side, m(r.closerOf[0]!), m(r.closerOf[1]!))).toBe(m(r.closer));
    expect(closer(r.side, m(r.closerOf[1]!), m(r.closerOf[0]!))).toBe(m(r.closer));
  });
});

describe("outcomeCountOf", () => {
  it("the market's count, or 2 when the snapshot has no market", () => {
    expect(outcomeCountOf({ market: { outcomeCount: 3, feeTakerBps: 0 } } as CycleSnapshot)).toBe(3);
    expect(outcomeCountOf({ market: undefined } as CycleSnapshot)).toBe(2);
  });
});

describe("groupBySide", () => {
  it("groups a binary's YES and NO quotes by the YES-book side, indexes in input order, top the most aggressive", () => {
    const quotes = [q(0, "BUY", "0.40"), q(0, "SELL", "0.60"), q(1, "SELL", "0.58"), q(0, "BUY", "0.39"), q(1, "BUY", "0.41")];
    const groups = groupBySide(quotes, 2);
    expect(groups.map((g) => ({ book: g.book, side: g.side, idx: g.idx, top: g.top }))).toEqual([
      // NO SELL at 0.58 is a YES bid at 0.42: the closest bid
      { book: 0, side: "bid", idx: [0, 2, 3], top: m("0.42") },
      // NO BUY at 0.41 is a YES ask at 0.59
      { book: 0, side: "ask", idx: [1, 4], top: m("0.59") },
    ]);
    expect(groups[0]!.terms.map((t) => t.price)).toEqual([m("0.40"), m("0.42"), m("0.39")]);
  });

  it("multi-outcome quotes form one group per (outcome, side)", () => {
    const groups = groupBySide([q(0, "BUY", "0.20"), q(1, "BUY", "0.30"), q(1, "BUY", "0.31"), q(2, "SELL", "0.50")], 3);
    expect(groups.map((g) => `${g.book}:${g.side}:${g.idx.join(",")}:${g.top}`)).toEqual(["0:bid:0:200000", "1:bid:1,2:310000", "2:ask:3:500000"]);
  });

  it("no quotes, no groups", () => {
    expect(groupBySide([], 2)).toEqual([]);
  });
});

describe("shiftGroup and compact", () => {
  it("moves every quote of the group toward the other side by delta (bids up, asks down), in each quote's own terms", () => {
    const quotes = [q(0, "BUY", "0.40"), q(1, "SELL", "0.58"), q(0, "SELL", "0.60"), q(1, "BUY", "0.41")];
    const [bids, asks] = groupBySide(quotes, 2);
    const out: (DesiredQuote | null)[] = [...quotes];
    expect(shiftGroup(out, bids!, m("0.01"), 2)).toBe(2);
    expect(shiftGroup(out, asks!, -m("0.02"), 2)).toBe(2);
    expect(out.map((x) => x?.price)).toEqual([
      m("0.41"), // YES bid up
      m("0.57"), // NO ask = YES bid 0.42 up to 0.43
      m("0.62"), // YES ask away by 0.02
      m("0.39"), // NO bid = YES ask 0.59 away to 0.61
    ]);
  });

  it("drops a quote that would leave the price grid and skips one already dropped", () => {
    const quotes = [q(0, "BUY", "0.002"), q(0, "BUY", "0.010")];
    const [g] = groupBySide(quotes, 2);
    const out: (DesiredQuote | null)[] = [...quotes];
    expect(shiftGroup(out, g!, -m("0.005"), 2)).toBe(2);
    expect(out[0]).toBeNull();
    expect(out[1]!.price).toBe(m("0.005"));
    expect(compact(out)).toEqual([{ ...quotes[1]!, price: m("0.005") }]);
    // the dropped one stays dropped; a shift is from the prices the group recorded, not cumulative
    expect(shiftGroup(out, g!, m("0.001"), 2)).toBe(2);
    expect(out[0]).toBeNull();
    expect(out[1]!.price).toBe(m("0.011"));
  });

  it("a zero delta changes nothing and reports 0", () => {
    const quotes = [q(0, "BUY", "0.40")];
    const out: (DesiredQuote | null)[] = [...quotes];
    expect(shiftGroup(out, groupBySide(quotes, 2)[0]!, 0n, 2)).toBe(0);
    expect(out[0]).toBe(quotes[0]);
  });
});
