// FOK in the paper account is all or none, as the simulator: an order the book cannot fill whole is
// accepted and ends CANCELLED without a fill; one it can fill, fills.
import { describe, expect, it } from "vitest";
import { parseMicros as m } from "../../src/core/money.js";
import { PaperAccount, type PlaceRequest } from "../../src/paper/account.js";

const W = "0x00000000000000000000000000000000000000aa";

function account(): PaperAccount {
  const a = new PaperAccount({ wallets: [W], startingCash: m("1000"), queue: { kind: "risk-averse" }, now: () => 1_000 });
  a.observeMarket({ symbol: "MKT", status: "OPEN", outcomeCount: 2, feeTakerBps: 0, negRiskEligible: false, tokenIds: ["11", "12"] });
  // YES asks 0.45 x 30, 0.50 x 20.
  a.observeBook("MKT", 0, [[m("0.40"), m("100")]], [[m("0.45"), m("30")], [m("0.50"), m("20")]]);
  return a;
}

function fok(over: Partial<PlaceRequest> = {}): PlaceRequest {
  return {
    wallet: W, orderHash: "0x" + "ab".repeat(32), clientOrderId: "f1", marketId: "MKT", outcome: 0, tokenId: "11",
    side: "BUY", price: m("0.50"), quantity: m("60"), type: "limit", timeInForce: "FOK", postOnly: false, expiration: "0", ...over,
  };
}

describe("paper account: FOK", () => {
  it("a FOK the book cannot fill whole fills nothing and ends CANCELLED; the book it did not take stays", () => {
    const a = account();
    const r = a.place(fok());
    expect(r).toMatchObject({ status: "OPEN", orderStatus: "CANCELLED", fills: [] });
    expect(a.fills(W)).toEqual([]);
    expect(a.cash(W)).toBe(m("1000"));
    expect(a.liveOrders(W)).toEqual([]);
    // Only up to 0.45 it is 30 shares: 31 is killed too, 30 fills.
    expect(a.place(fok({ clientOrderId: "f2", price: m("0.45"), quantity: m("31") }))).toMatchObject({ orderStatus: "CANCELLED", fills: [] });
    const all = a.place(fok({ clientOrderId: "f3", quantity: m("50") }));
    expect(all.status).toBe("FILLED");
    expect(a.fills(W).map((f) => [f.price, f.qty])).toEqual([[m("0.45"), m("30")], [m("0.50"), m("20")]]);
    // What our orders took from this book is gone for the next FOK.
    expect(a.place(fok({ clientOrderId: "f4", quantity: m("1") }))).toMatchObject({ orderStatus: "CANCELLED", fills: [] });
  });

  it("IOC still takes what it can and cancels the rest", () => {
    const a = account();
    const r = a.place(fok({ timeInForce: "IOC" }));
    expect(r).toMatchObject({ status: "PARTIAL", orderStatus: "CANCELLED" });
    expect(a.fills(W).reduce((s, f) => s + f.qty, 0n)).toBe(m("50"));
  });
});
