/** Rules every strategy shares (strategies/build.ts), exercised through `ladder`. */
import { describe, expect, it } from "vitest";
import { buildQuotes } from "../../strategies/build.js";
import { commonParamsSchema } from "../../strategies/params.js";
import { book, input, m, no, run, yes, yesView } from "./helpers.js";

const LADDER = { halfSpreadTicks: 2, size: "10" };

describe("binary expression rule", () => {
  it("with no inventory: bids are BUY YES, asks are BUY NO at 1 - p", () => {
    const { quotes } = run("ladder", LADDER, input());
    expect(quotes).toEqual([
      { outcome: 0, side: "BUY", price: m("0.548"), size: m("10"), postOnly: true, level: 0, tag: "bid", reducesInventory: false },
      { outcome: 1, side: "BUY", price: m("0.448"), size: m("10"), postOnly: true, level: 0, tag: "ask", reducesInventory: false },
    ]);
  });

  it("sells held YES first and expresses only the rest of the ask as BUY NO", () => {
    const { quotes } = run("ladder", LADDER, input({ inventory: yes("4") }));
    const asks = quotes.filter((q) => q.tag === "ask");
    expect(asks).toEqual([
      { outcome: 0, side: "SELL", price: m("0.552"), size: m("4"), postOnly: true, level: 0, tag: "ask", reducesInventory: true },
      { outcome: 1, side: "BUY", price: m("0.448"), size: m("6"), postOnly: true, level: 0, tag: "ask", reducesInventory: true },
    ]);
  });

  it("spreads held YES over the levels closest first", () => {
    const { quotes } = run("ladder", { ...LADDER, levels: 3 }, input({ inventory: yes("25") }));
    const asks = quotes.filter((q) => q.tag === "ask").map((q) => [q.outcome, q.side, q.price, q.size]);
    expect(asks).toEqual([
      [0, "SELL", m("0.552"), m("10")],
      [0, "SELL", m("0.553"), m("10")],
      [0, "SELL", m("0.554"), m("5")],
      [1, "BUY", m("0.446"), m("5")],
    ]);
  });

  it("mirrors for bids: held NO is sold at 1 - p before buying YES", () => {
    const { quotes } = run("ladder", LADDER, input({ inventory: no("10") }));
    const bids = quotes.filter((q) => q.tag === "bid");
    expect(bids).toEqual([
      { outcome: 1, side: "SELL", price: m("0.452"), size: m("10"), postOnly: true, level: 0, tag: "bid", reducesInventory: true },
    ]);
  });

  it("drops pieces under minSize instead of quoting dust", () => {
    const { quotes } = run("ladder", { ...LADDER, minSize: "1" }, input({ inventory: yes("0.5") }));
    const asks = quotes.filter((q) => q.tag === "ask");
    expect(asks).toEqual([expect.objectContaining({ outcome: 1, side: "BUY", size: m("10") })]);
  });

  it("on a multi-outcome market asks are SELL up to holdings and there is no complement", () => {
    const flat = run("ladder", LADDER, input({ outcomeCount: 3 })).quotes;
    expect(flat.map((q) => [q.outcome, q.side])).toEqual([[0, "BUY"]]);
    const held = run("ladder", LADDER, input({ outcomeCount: 3, inventory: yes("3") })).quotes;
    expect(held.map((q) => [q.outcome, q.side, q.size])).toEqual([
      [0, "BUY", m("10")],
      [0, "SELL", m("3")],
    ]);
  });

  it("quotes another outcome when the engine says so", () => {
    const q = run("ladder", LADDER, input({ outcomeCount: 3, quoteOutcome: 2 })).quotes;
    expect(q.map((x) => [x.outcome, x.side, x.price])).toEqual([[2, "BUY", m("0.548")]]);
  });
});

describe("inventory caps", () => {
  it("caps the increasing side at maxInventory minus the net position", () => {
    const p = { ...LADDER, levels: 3, maxInventory: "20" };
    const v = yesView(run("ladder", p, input({ inventory: yes("15") })).quotes);
    expect(v.bids).toEqual([{ price: m("0.548"), size: m("5") }]);
    expect(v.asks.reduce((s, l) => s + l.size, 0n)).toBe(m("30"));
  });
  it("quotes no bids at the cap and no asks at the short cap (NO held)", () => {
    const p = { ...LADDER, maxInventory: "20" };
    expect(yesView(run("ladder", p, input({ inventory: yes("20") })).quotes).bids).toEqual([]);
    expect(yesView(run("ladder", p, input({ inventory: no("20") })).quotes).asks).toEqual([]);
  });
});

describe("phases", () => {
  it("pre_market makes every quote post-only even when params say otherwise", () => {
    const q = run("ladder", { ...LADDER, postOnly: false, levels: 2 }, input({ phase: "pre_market", inventory: yes("5") })).quotes;
    expect(q.length).toBeGreaterThan(0);
    expect(q.every((x) => x.postOnly)).toBe(true);
  });
  it("open honours postOnly: false", () => {
    const q = run("ladder", { ...LADDER, postOnly: false }, input()).quotes;
    expect(q.every((x) => !x.postOnly)).toBe(true);
  });
  it("pull and stopped quote nothing", () => {
    expect(run("ladder", LADDER, input({ phase: "pull" })).quotes).toEqual([]);
    expect(run("ladder", LADDER, input({ phase: "stopped" })).quotes).toEqual([]);
  });
});

describe("band, grid and crossing", () => {
  it("clamps the bid into the band and drops an ask above it", () => {
    const v = yesView(run("ladder", { ...LADDER, band: { min: "0.3", max: "0.5" } }, input()).quotes);
    expect(v.bids.map((l) => l.price)).toEqual([m("0.5")]);
    expect(v.asks).toEqual([]);
  });
  it("stops the ladder at the edge of the grid", () => {
    const edge = book([["0.001", "5"]], [["0.004", "5"]]);
    const v = yesView(run("ladder", { halfSpreadTicks: 1, levels: 5 }, input({ book: edge })).quotes);
    expect(v.bids.map((l) => l.price)).toEqual([m("0.001")]);
    expect(v.asks.map((l) => l.price)).toEqual([m("0.004"), m("0.005"), m("0.006"), m("0.007"), m("0.008")]);
  });
  it("a post-only bid never crosses the best ask, even when the reference is above it", () => {
    // One-sided book: the reference is the last trade (0.6), above the only ask (0.5).
    const oneSided = book([], [["0.500", "5"]], "0.6");
    const post = yesView(run("ladder", { halfSpreadTicks: 2 }, input({ book: oneSided })).quotes);
    expect(post.bids[0]!.price).toBe(m("0.499"));
    expect(post.asks[0]!.price).toBe(m("0.602"));
    const taking = yesView(run("ladder", { halfSpreadTicks: 2, postOnly: false }, input({ book: oneSided })).quotes);
    expect(taking.bids[0]!.price).toBe(m("0.598"));
  });
  it("a post-only ask never crosses the best bid", () => {
    const oneSided = book([["0.500", "5"]], [], "0.4");
    const v = yesView(run("ladder", { halfSpreadTicks: 2 }, input({ book: oneSided })).quotes);
    expect(v.asks[0]!.price).toBe(m("0.501"));
    expect(v.bids[0]!.price).toBe(m("0.398"));
  });
  it("a one-price band keeps the bid that wants to be higher and drops the ask", () => {
    const v = yesView(run("ladder", { halfSpreadTicks: 1, band: { min: "0.55", max: "0.55" } }, input({ book: book([["0.55", "1"]], [["0.57", "1"]]) })).quotes);
    expect(v.bids.map((l) => l.price)).toEqual([m("0.55")]);
    expect(v.asks).toEqual([]);
  });
  it("a zero-width model never produces our own bid at or over our ask", () => {
    const params = commonParamsSchema.parse({});
    const v = yesView(buildQuotes({ ...input(), params }, { bid: 0.555, ask: 0.555 }));
    expect(v.bids[0]!.price).toBe(m("0.555"));
    expect(v.asks[0]!.price).toBe(m("0.556"));
  });
  it("empty book: falls back to the last trade, then fallbackPrice, else quotes nothing", () => {
    expect(run("ladder", LADDER, input({ book: book([], []) })).quotes).toEqual([]);
    expect(yesView(run("ladder", LADDER, input({ book: book([], [], "0.3") })).quotes).bids[0]!.price).toBe(m("0.298"));
    expect(yesView(run("ladder", { ...LADDER, fallbackPrice: "0.7" }, input({ book: book([], []) })).quotes).asks[0]!.price).toBe(
      m("0.702"),
    );
  });
});
