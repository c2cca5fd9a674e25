/** join_penny (controls/join-penny.ts): level 0 to the others' best (or a tick better), within a limit, never crossing. */
import { describe, expect, it } from "vitest";
import { joinPenny } from "../../../../src/bot/quote/controls/join-penny.js";
import type { DesiredQuote } from "../../../../src/bot/quote/quotes.js";
import { m } from "../../risk/fixtures.js";
import { cycleSnapshot, quote, yesBook } from "./fixtures.js";

const pair = (bid: string, ask: string): DesiredQuote[] => [quote("BUY", bid), quote("BUY", (1 - Number(ask)).toFixed(3), { outcome: 1 })];
/** YES-book prices: bids as is, NO bids as YES asks. */
const yes = (qs: DesiredQuote[]) => qs.map((q) => (q.outcome === 1 ? `ask@${(1e6 - Number(q.price)) / 1e6}` : `bid@${Number(q.price) / 1e6}`));
const snap = (bid: string, ask: string) => cycleSnapshot({ books: new Map([[0, yesBook([[bid, "100"]], [[ask, "100"]])]]) });

describe("join_penny", () => {
  const rows: { name: string; mode: "join" | "penny"; max: number; book: [string, string]; quotes: DesiredQuote[]; want: string[]; changed: number }[] = [
    { name: "join: the bid 1 tick behind joins; the ask 20 ticks away stays", mode: "join", max: 3, book: ["0.47", "0.50"], quotes: pair("0.468", "0.52"), want: ["bid@0.47", "ask@0.52"], changed: 1 },
    { name: "penny: one tick better than the best bid", mode: "penny", max: 3, book: ["0.47", "0.50"], quotes: pair("0.468", "0.52"), want: ["bid@0.471", "ask@0.52"], changed: 1 },
    { name: "penny both sides within reach", mode: "penny", max: 5, book: ["0.470", "0.480"], quotes: pair("0.466", "0.484"), want: ["bid@0.471", "ask@0.479"], changed: 2 },
    { name: "a one-tick book: penny would cross, so it joins", mode: "penny", max: 5, book: ["0.470", "0.471"], quotes: pair("0.468", "0.473"), want: ["bid@0.47", "ask@0.471"], changed: 2 },
    { name: "two-tick book, penny both: our own quotes would meet, so both join", mode: "penny", max: 5, book: ["0.470", "0.472"], quotes: pair("0.468", "0.474"), want: ["bid@0.47", "ask@0.472"], changed: 2 },
    { name: "ahead of the book: moved back to a tick better than the best", mode: "penny", max: 3, book: ["0.47", "0.50"], quotes: pair("0.473", "0.60"), want: ["bid@0.471", "ask@0.6"], changed: 1 },
    { name: "too far: unchanged", mode: "join", max: 2, book: ["0.47", "0.50"], quotes: pair("0.44", "0.56"), want: ["bid@0.44", "ask@0.56"], changed: 0 },
  ];
  for (const r of rows) {
    it(r.name, () => {
      const out = joinPenny({ mode: r.mode, maxDistanceTicks: r.max }).apply(r.quotes, snap(...r.book));
      expect(yes(out.quotes)).toEqual(r.want);
      expect(out.changed).toBe(r.changed);
    });
  }
  it("our own resting order is not the best price to join", () => {
    const book = yesBook([["0.48", "10"], ["0.47", "100"]], [["0.50", "100"]]);
    book.own = [{ outcome: 0, side: "BUY", price: m("0.48"), remaining: m("10") }];
    const out = joinPenny({ mode: "penny", maxDistanceTicks: 5 }).apply([quote("BUY", "0.473")], cycleSnapshot({ books: new Map([[0, book]]) }));
    expect(yes(out.quotes)).toEqual(["bid@0.471"]);
  });
  it("no others on the side, or no book: unchanged", () => {
    const empty = cycleSnapshot({ books: new Map([[0, yesBook([], [["0.50", "1"]])]]) });
    expect(joinPenny({ mode: "join", maxDistanceTicks: 5 }).apply([quote("BUY", "0.46")], empty).changed).toBe(0);
    expect(joinPenny({ mode: "join", maxDistanceTicks: 5 }).apply([quote("BUY", "0.46")], cycleSnapshot({ books: new Map() })).changed).toBe(0);
  });
  it("a ladder moves with its level 0", () => {
    const out = joinPenny({ mode: "join", maxDistanceTicks: 5 }).apply([quote("BUY", "0.466"), quote("BUY", "0.464", { level: 1 })], snap("0.47", "0.50"));
    expect(yes(out.quotes)).toEqual(["bid@0.47", "bid@0.468"]);
  });
});
