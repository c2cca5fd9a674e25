import { describe, expect, it } from "vitest";
import { maxTakerFee, takerFee } from "../../src/core/amounts.js";
import { notional, parseMicros as m } from "../../src/core/money.js";
import { PaperAccount, type PaperMarket, type PlaceRequest } from "../../src/paper/account.js";

const W = "0x00000000000000000000000000000000000000aa";
const TOKENS = ["11", "12"];

function account(cash = "1000"): { a: PaperAccount; frames: Record<string, unknown>[]; t: { now: number } } {
  const t = { now: 1_000 };
  const a = new PaperAccount({ wallets: [W], startingCash: m(cash), queue: { kind: "risk-averse" }, now: () => t.now });
  const frames: Record<string, unknown>[] = [];
  a.onFrame = (_w, f) => void frames.push(f);
  return { a, frames, t };
}

function market(status: string, over: Partial<PaperMarket> = {}): PaperMarket {
  return { symbol: "MKT", status, outcomeCount: 2, feeTakerBps: 200, negRiskEligible: false, tokenIds: TOKENS, ...over };
}

function order(over: Partial<PlaceRequest> = {}): PlaceRequest {
  return {
    wallet: W, orderHash: "0x" + "ab".repeat(32), clientOrderId: "c1", marketId: "MKT", outcome: 0, tokenId: "11",
    side: "BUY", price: m("0.40"), quantity: m("10"), type: "limit", timeInForce: "GTC", postOnly: true, expiration: "0", ...over,
  };
}

/** YES book: bids 0.40 x 100, asks 0.45 x 50. */
function book(a: PaperAccount): void {
  a.observeBook("MKT", 0, [[m("0.40"), m("100")]], [[m("0.45"), m("50")]]);
}

describe("paper account", () => {
  it("PRE_MARKET: a post-only order that would cross is refused post_only_would_cross; one that rests is accepted", () => {
    const { a } = account();
    a.observeMarket(market("PRE_MARKET"));
    book(a);
    const cross = a.place(order({ price: m("0.45") }));
    expect(cross).toMatchObject({ status: "REJECTED", code: "post_only_would_cross" });
    const rests = a.place(order({ price: m("0.41"), clientOrderId: "c2" }));
    expect(rests.status).toBe("OPEN");
    expect(a.counts.rejectCodes).toEqual({ post_only_would_cross: 1 });
  });

  it("PRE_MARKET refuses an order that is not post-only (market_not_open); a closed market refuses everything", () => {
    const { a } = account();
    a.observeMarket(market("PRE_MARKET"));
    book(a);
    expect(a.place(order({ postOnly: false }))).toMatchObject({ status: "REJECTED", code: "market_not_open" });
    a.observeMarket(market("CLOSED"));
    expect(a.place(order())).toMatchObject({ status: "REJECTED", code: "market_not_open" });
  });

  it("OPEN: a crossing order takes the book at its levels and pays the taker fee; cash and position follow exactly", () => {
    const { a, frames } = account();
    a.observeMarket(market("OPEN"));
    book(a);
    const r = a.place(order({ price: m("0.46"), postOnly: false, quantity: m("20") }));
    expect(r.status).toBe("FILLED");
    const fee = takerFee(m("0.45"), m("20"), 200);
    expect(fee).toBeGreaterThan(0n);
    expect(a.cash(W)).toBe(m("1000") - notional(m("0.45"), m("20"), "ceil") - fee);
    expect(a.positions(W)).toMatchObject([{ marketId: "MKT", outcome: 0, qty: m("20") }]);
    expect(frames.map((f) => f["type"])).toEqual(["order_placed", "user_fill"]);
    expect(frames[1]).toMatchObject({ role: "taker", price: "0.45", quantity: "20", orderStatus: "FILLED" });
  });

  it("a resting bid fills as maker (no fee) when a book crosses it; sells need shares", () => {
    const { a } = account();
    a.observeMarket(market("OPEN"));
    book(a);
    expect(a.place(order({ side: "SELL", price: m("0.50") }))).toMatchObject({ status: "REJECTED", code: "insufficient_funds" });
    const r = a.place(order({ price: m("0.42") }));
    expect(r.status).toBe("OPEN");
    expect(a.lockedCash(W)).toBe(notional(m("0.42"), m("10"), "ceil") + maxTakerFee(m("10"), 200));
    a.observeBook("MKT", 0, [[m("0.38"), m("100")]], [[m("0.41"), m("50")]]);
    expect(a.liveOrders(W)).toEqual([]);
    expect(a.fills(W)).toMatchObject([{ role: "maker", fee: 0n, price: m("0.42"), qty: m("10") }]);
    expect(a.cash(W)).toBe(m("1000") - m("4.2"));
    expect(a.lockedCash(W)).toBe(0n);
    // Now it holds 10 YES and may sell them.
    expect(a.place(order({ side: "SELL", price: m("0.60"), clientOrderId: "c3" })).status).toBe("OPEN");
    expect(a.positions(W)[0]?.locked).toBe(m("10"));
  });

  it("a public trade at our price fills us only after the queue ahead (risk-averse)", () => {
    const { a } = account();
    a.observeMarket(market("OPEN"));
    book(a);
    a.place(order({ price: m("0.40") })); // behind 100 displayed shares
    a.observeTrade("MKT", { id: "t1", at: 2_000, outcome: 0, side: "SELL", price: m("0.40"), quantity: m("100") });
    expect(a.fills(W)).toEqual([]);
    a.observeTrade("MKT", { id: "t2", at: 2_001, outcome: 0, side: "SELL", price: m("0.40"), quantity: m("4") });
    expect(a.fills(W).map((f) => f.qty)).toEqual([m("4")]);
    // The same trade id again changes nothing.
    a.observeTrade("MKT", { id: "t2", at: 2_001, outcome: 0, side: "SELL", price: m("0.40"), quantity: m("4") });
    expect(a.fills(W)).toHaveLength(1);
  });

  it("a binary market's NO book is the complement of the YES book read", () => {
    const { a } = account();
    a.observeMarket(market("OPEN"));
    book(a);
    // NO asks at 1 - 0.40 = 0.60: a post-only NO bid at 0.60 would cross.
    expect(a.place(order({ outcome: 1, tokenId: "12", price: m("0.60") }))).toMatchObject({ code: "post_only_would_cross" });
    expect(a.place(order({ outcome: 1, tokenId: "12", price: m("0.54") })).status).toBe("OPEN");
  });

  it("insufficient cash for a buy is refused", () => {
    const { a } = account("3");
    a.observeMarket(market("OPEN"));
    book(a);
    expect(a.place(order({ price: m("0.40") }))).toMatchObject({ status: "REJECTED", code: "insufficient_funds" });
  });

  it("cancel ends the order once; a second cancel is not_cancellable, an unknown id order_not_found", () => {
    const { a, frames } = account();
    a.observeMarket(market("OPEN"));
    book(a);
    const r = a.place(order({ price: m("0.39") }));
    if (r.status === "REJECTED") throw new Error("refused");
    expect(a.cancel(W, r.order.id)).toMatchObject({ ok: true });
    expect(a.cancel(W, r.order.id)).toMatchObject({ ok: false, code: "not_cancellable" });
    expect(a.cancel(W, "nope")).toMatchObject({ ok: false, code: "order_not_found" });
    expect(frames.at(-1)).toMatchObject({ type: "order_cancelled", status: "CANCELLED", remainingQty: "10" });
  });
});
