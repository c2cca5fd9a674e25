// Public trades in the paper account: one trade's size is consumed once across a binary market's
// YES and NO books, and a trade already applied is never applied again (per-market watermark).
import { describe, expect, it } from "vitest";
import { parseMicros as m } from "../../src/core/money.js";
import { PaperAccount, type PlaceRequest } from "../../src/paper/account.js";

const W = "0x00000000000000000000000000000000000000aa";
const T0 = 1_700_000_000_000;

function account(): PaperAccount {
  const a = new PaperAccount({ wallets: [W], startingCash: m("1000"), queue: { kind: "risk-averse" }, now: () => T0 });
  for (const symbol of ["MKT", "BUSY"]) a.observeMarket({ symbol, status: "OPEN", outcomeCount: 2, feeTakerBps: 0, negRiskEligible: false, tokenIds: ["11", "12"] });
  return a;
}

function order(over: Partial<PlaceRequest>): PlaceRequest {
  return {
    wallet: W, orderHash: "0x" + "ab".repeat(32), clientOrderId: "c1", marketId: "MKT", outcome: 0, tokenId: "11",
    side: "BUY", price: m("0.40"), quantity: m("10"), type: "limit", timeInForce: "GTC", postOnly: true, expiration: "0", ...over,
  };
}

describe("paper account: public trades", () => {
  it("one 10-share trade fills at most 10 shares across our SELL YES 0.55 and BUY NO 0.45 (the same YES ask)", () => {
    const a = account();
    a.observeBook("MKT", 0, [[m("0.40"), m("5")]], [[m("0.60"), m("100")]]);
    expect(a.place(order({ clientOrderId: "buy", side: "BUY", price: m("0.60"), postOnly: false })).status).toBe("FILLED");
    expect(a.place(order({ clientOrderId: "sy", side: "SELL", price: m("0.55") })).status).toBe("OPEN");
    expect(a.place(order({ clientOrderId: "bn", outcome: 1, tokenId: "12", side: "BUY", price: m("0.45") })).status).toBe("OPEN");
    const before = a.fills(W).length;
    a.observeTrade("MKT", { id: "t1", at: T0 + 1, outcome: 0, side: "BUY", price: m("0.55"), quantity: m("10") });
    const got = a.fills(W).slice(before);
    expect(got.reduce((s, f) => s + f.qty, 0n)).toBe(m("10"));
    // The trade's own outcome first: our SELL YES takes the 10 shares, the NO bid nothing.
    expect(got.map((f) => [f.clientOrderId, f.qty])).toEqual([["sy", m("10")]]);
    // The next trade, told in NO terms (a SELL NO at 0.45 = a BUY YES at 0.55), fills the NO bid.
    a.observeTrade("MKT", { id: "t2", at: T0 + 2, outcome: 1, side: "SELL", price: m("0.45"), quantity: m("4") });
    expect(a.fills(W).slice(before + 1).map((f) => [f.clientOrderId, f.qty])).toEqual([["bn", m("4")]]);
  });

  it("what one book's orders did not take goes on to the other book", () => {
    const a = account();
    a.observeBook("MKT", 0, [[m("0.40"), m("5")]], [[m("0.60"), m("100")]]);
    a.place(order({ clientOrderId: "buy", side: "BUY", price: m("0.60"), quantity: m("3"), postOnly: false }));
    a.place(order({ clientOrderId: "sy", side: "SELL", price: m("0.55"), quantity: m("3") }));
    a.place(order({ clientOrderId: "bn", outcome: 1, tokenId: "12", side: "BUY", price: m("0.45") }));
    const before = a.fills(W).length;
    a.observeTrade("MKT", { id: "t1", at: T0 + 1, outcome: 0, side: "BUY", price: m("0.55"), quantity: m("10") });
    expect(a.fills(W).slice(before).map((f) => [f.clientOrderId, f.qty])).toEqual([["sy", m("3")], ["bn", m("7")]]);
  });

  it("an old trade still listed is not applied again after many other trades (watermark, not a count of ids)", () => {
    const a = account();
    a.observeBook("MKT", 0, [[m("0.40"), m("5")]], [[m("0.60"), m("5")]]);
    a.place(order({ price: m("0.50"), quantity: m("100") }));
    const t = { id: "quiet-t1", at: T0 + 1, outcome: 0, side: "SELL" as const, price: m("0.50"), quantity: m("10") };
    a.observeTrade("MKT", t);
    expect(a.fills(W)).toHaveLength(1);
    const cash = a.cash(W);
    for (let i = 0; i < 20_001; i++) a.observeTrade("BUSY", { id: `b${i}`, at: T0 + 2 + i, outcome: 0, side: "BUY", price: m("0.99"), quantity: m("1") });
    a.observeTrade("MKT", t);
    expect(a.fills(W)).toHaveLength(1);
    expect(a.cash(W)).toBe(cash);
  });

  it("per market: a trade at or before the newest applied is ignored; new ids in the same millisecond are not", () => {
    const a = account();
    a.observeBook("MKT", 0, [[m("0.40"), m("5")]], [[m("0.60"), m("5")]]);
    a.place(order({ price: m("0.50"), quantity: m("100") }));
    const tr = (id: string, at: number): void => a.observeTrade("MKT", { id, at, outcome: 0, side: "SELL", price: m("0.50"), quantity: m("1") });
    tr("b", T0 + 10);
    tr("a", T0 + 10); // same millisecond, another trade: applied
    tr("b", T0 + 10); // seen
    tr("z", T0 + 5); // older than the newest applied: history
    expect(a.fills(W).map((f) => f.qty)).toEqual([m("1"), m("1")]);
    // History skipped before the run also moves the watermark without filling.
    a.skipTrade("MKT", { id: "h", at: T0 + 20 });
    tr("h", T0 + 20);
    tr("y", T0 + 19);
    expect(a.fills(W)).toHaveLength(2);
    tr("n", T0 + 21);
    expect(a.fills(W)).toHaveLength(3);
  });
});
