/** The event group of one market as a cycle receives it (src/bot/risk/event-group-view.ts): the group, and the siblings the strategy is shown. */
import { describe, expect, it } from "vitest";
import type { BookView, PositionView } from "../../../src/bot/quote/quotes.js";
import { cycleEvent, type EventReads, type EventRow } from "../../../src/bot/risk/event-group-view.js";
import { eventGroupOf } from "../../../src/bot/risk/event-group.js";
import { m, NOW } from "./fixtures.js";

const row = (symbol: string, eventId: string, over: Partial<EventRow> = {}): EventRow => ({ symbol, eventId, negRiskEligible: true, outcomeCount: 2, groupItemTitle: `${symbol} label`, ...over });

const ROWS: EventRow[] = [
  row("A", "E"),
  row("B", "E", { groupItemTitle: null }),
  row("C", "E"),
  // same event, not neg-risk eligible: not a sibling
  row("X", "E", { negRiskEligible: false }),
  // another event
  row("F1", "F"),
  row("F2", "F"),
  // not binary: never in a neg-risk group
  row("L", "E", { outcomeCount: 3 }),
  // alone in its event: a group of one, no siblings
  row("S", "G"),
];

const book = (bid: string): BookView => ({ bids: [{ price: m(bid), size: m("10") }], asks: [], updatedAtMs: NOW });
const BOOKS = new Map<string, BookView>([
  ["A", book("0.30")],
  ["C", book("0.50")],
  ["F2", book("0.20")],
]);
const POSITIONS = new Map<string, PositionView[]>([["C", [{ outcome: 1, qty: m("5"), avgCost: m("0.4") }]]]);

function reads(asked: string[] = []): EventReads {
  return {
    book: (s) => (asked.push(`book:${s}`), BOOKS.get(s)),
    positions: (s) => (asked.push(`positions:${s}`), POSITIONS.get(s) ?? []),
  };
}

describe("cycleEvent", () => {
  it.each([
    { name: "A: B and C with their labels, books and positions", symbol: "A", siblings: ["B", "C"] },
    { name: "B: A and C", symbol: "B", siblings: ["A", "C"] },
    { name: "F1: only F2 (the other event is not mixed in)", symbol: "F1", siblings: ["F2"] },
    { name: "S: alone in its event, no siblings", symbol: "S", siblings: [] },
  ])("$name", ({ symbol, siblings }) => {
    const asked: string[] = [];
    const ev = cycleEvent(ROWS, symbol, reads(asked))!;
    const group = eventGroupOf(ROWS, symbol)!;
    expect(ev.group).toEqual(group);
    expect(ev.view.eventId).toBe(group.eventId);
    expect(ev.view.siblings).toEqual(
      siblings.map((s) => ({
        marketId: s,
        label: ROWS.find((r) => r.symbol === s)!.groupItemTitle,
        book: BOOKS.get(s),
        inventory: POSITIONS.get(s) ?? [],
      })),
    );
    // the market's own book and positions are never read here
    expect(asked.filter((a) => a.endsWith(`:${symbol}`))).toEqual([]);
  });

  it("a null label stays null; a book not read yet is undefined", () => {
    const ev = cycleEvent(ROWS, "A", reads())!;
    const b = ev.view.siblings.find((s) => s.marketId === "B")!;
    expect(b.label).toBeNull();
    expect(b.book).toBeUndefined();
  });

  it.each([
    { name: "a market with three outcomes", symbol: "L" },
    { name: "a market not neg-risk eligible", symbol: "X" },
    { name: "a market not among the rows", symbol: "Z" },
  ])("$name: undefined, nothing read", ({ symbol }) => {
    const asked: string[] = [];
    expect(cycleEvent(ROWS, symbol, reads(asked))).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
