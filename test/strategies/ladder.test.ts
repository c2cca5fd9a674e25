/** `ladder`: fixed-spread levels around the reference price, which falls back from the book to trades to a fixed price. */
import { describe, expect, it } from "vitest";
import { ladderParamsSchema } from "../../strategies/ladder.js";
import { book, input, m, run, yes, yesView } from "./helpers.js";

describe("ladder", () => {
  it("puts the top bid and ask halfSpreadTicks from the mid (2 by default), one level of the default size", () => {
    expect(yesView(run("ladder", {}, input()).quotes)).toEqual({
      bids: [{ price: m("0.548"), size: m("10") }],
      asks: [{ price: m("0.552"), size: m("10") }],
    });
    const wide = yesView(run("ladder", { halfSpreadTicks: 20, size: "3" }, input()).quotes);
    expect(wide.bids).toEqual([{ price: m("0.53"), size: m("3") }]);
    expect(wide.asks).toEqual([{ price: m("0.57"), size: m("3") }]);
  });

  it("steps further levels away by levelSpacingTicks", () => {
    const v = yesView(run("ladder", { levels: 3, levelSpacingTicks: 5 }, input()).quotes);
    expect(v.bids.map((l) => l.price)).toEqual([m("0.548"), m("0.543"), m("0.538")]);
    expect(v.asks.map((l) => l.price)).toEqual([m("0.552"), m("0.557"), m("0.562")]);
  });

  it("quotes around the size-weighted microprice when asked to", () => {
    // 0.50 x 100 against 0.60 x 300: the microprice leans to the thin bid side, 0.525.
    const b = book([["0.50", "100"]], [["0.60", "300"]]);
    const v = yesView(run("ladder", { reference: "microprice" }, input({ book: b })).quotes);
    expect(v.bids[0]!.price).toBe(m("0.523"));
    expect(v.asks[0]!.price).toBe(m("0.527"));
    expect(yesView(run("ladder", {}, input({ book: b })).quotes).bids[0]!.price).toBe(m("0.548"));
  });

  it("without a two-sided book falls back to the last trade, then the newest public trade, then fallbackPrice", () => {
    const empty = book([], []);
    const trade = (price: string, ts: number) => ({ price: m(price), size: m("1"), side: "BUY" as const, ts });
    const top = (params: object, over: Parameters<typeof input>[0]) => yesView(run("ladder", params, input(over)).quotes).bids[0]?.price;
    expect(top({}, { book: book([], [], "0.30") })).toBe(m("0.298"));
    expect(top({}, { book: empty, recentTrades: [trade("0.70", 1), trade("0.40", 2)] })).toBe(m("0.398"));
    expect(top({ fallbackPrice: "0.2" }, { book: empty })).toBe(m("0.198"));
    expect(run("ladder", {}, input({ book: empty })).quotes).toEqual([]);
  });

  it("quotes nothing outside the quoting phases, post-only in pre-market", () => {
    expect(run("ladder", {}, input({ phase: "pull" })).quotes).toEqual([]);
    expect(run("ladder", {}, input({ phase: "stopped" })).quotes).toEqual([]);
    const pre = run("ladder", { postOnly: false }, input({ phase: "pre_market" })).quotes;
    expect(pre.length).toBeGreaterThan(0);
    expect(pre.every((q) => q.postOnly)).toBe(true);
  });

  it("sells held shares first on the ask side (inventory changes only how an ask is expressed)", () => {
    const q = run("ladder", {}, input({ inventory: yes("4") })).quotes;
    const asks = q.filter((x) => x.tag === "ask");
    expect(asks.map((x) => [x.outcome, x.side, x.price, x.size])).toEqual([
      [0, "SELL", m("0.552"), m("4")],
      [1, "BUY", m("0.448"), m("6")],
    ]);
    expect(yesView(q)).toEqual(yesView(run("ladder", {}, input()).quotes));
  });

  it("halfSpreadTicks is a whole number of ticks in [1, 500]", () => {
    expect(ladderParamsSchema.parse({}).halfSpreadTicks).toBe(2);
    for (const bad of [0, 501, 2.5, "2"]) expect(ladderParamsSchema.safeParse({ halfSpreadTicks: bad }).success, String(bad)).toBe(false);
    expect(ladderParamsSchema.safeParse({ halfSpread: 2 }).success).toBe(false);
  });
});
