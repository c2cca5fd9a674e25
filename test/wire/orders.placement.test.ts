/**
 * Placement results: the `orderStatus` of an order that ended within the call, and `trades[]` rows
 * read one by one (the spec never defines them), while the endpoints whose trade shape we decided
 * stay strict.
 */
import { describe, expect, it } from "vitest";
import * as w from "../../src/wire/index.js";
import * as f from "./fixtures.js";
import { expectInvalidAt, expectValid } from "./helpers.js";

describe("placement result orderStatus", () => {
  it("declares the order's own status: PARTIAL + CANCELLED (IOC remainder) is kept, typed", () => {
    const r = expectValid(w.placementResult, f.examplePlacement({ orderStatus: "CANCELLED" }));
    expect(r).toMatchObject({ status: "PARTIAL", orderStatus: "CANCELLED" });
    const batch = expectValid(w.placeBatchResult, { results: [{ ...f.examplePlacement({ orderStatus: "EXPIRED" }), success: true }] });
    expect(batch.results[0]).toMatchObject({ orderStatus: "EXPIRED" });
  });

  it("is optional, and an unreadable value is dropped rather than refusing the answer", () => {
    expect(expectValid(w.placementResult, f.examplePlacement())).not.toHaveProperty("orderStatus", expect.anything());
    const r = expectValid(w.placementResult, { ...f.examplePlacement(), orderStatus: "cancelled-ish" });
    expect(r.status).toBe("PARTIAL");
    expect(r.status !== "REJECTED" && r.orderStatus).toBeUndefined();
  });
});

describe("placement trades[] are read leniently", () => {
  it("an answer whose trade rows differ from our trade shape still parses", () => {
    const { feeRateBps: _a, makerWallet: _b, tokenId: _c, ...partial } = f.exampleTrade({ quantity: "4" });
    const odd = [{ ...partial, createdAt: 1767225600000, extra: { nested: true } }, "garbage", null];
    const r = expectValid(w.placementResult, f.examplePlacement({ trades: odd }));
    expect(r.status !== "REJECTED" && r.trades).toHaveLength(3);
    // Rejected answers too.
    expectValid(w.placementResult, f.exampleRejectedPlacement({ trades: [{ id: 1 }] }));
    // But `trades` itself must still be an array.
    expectInvalidAt(w.placementResult, { ...f.examplePlacement(), trades: "none" }, "trades");
  });

  it("placementTradeRow needs an id and a quantity; any other field that does not read is undefined", () => {
    const full = w.placementTradeRow.parse(f.exampleTrade());
    expect(full).toMatchObject({ id: f.exampleTrade().id, quantity: f.exampleTrade().quantity, price: f.exampleTrade().price, createdAt: f.exampleTrade().createdAt });
    const odd = w.placementTradeRow.parse({ id: "t1", quantity: "2", price: 0.5, side: "buy", createdAt: "yesterday", outcome: -1 });
    expect(odd).toMatchObject({ id: "t1", quantity: "2" });
    expect([odd.price, odd.side, odd.createdAt, odd.outcome, odd.fee]).toEqual([undefined, undefined, undefined, undefined, undefined]);
    for (const bad of [{ id: "t1" }, { quantity: "2" }, { id: "", quantity: "2" }, { id: "t1", quantity: "-1" }, "t1", null]) {
      expect(w.placementTradeRow.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("keeps the decided trade shape strict where we decided it (/api/me/trades, market trades, order fills)", () => {
    const { feeRateBps: _x, ...row } = f.exampleTrade();
    expectInvalidAt(w.myTradesPage, { trades: [{ ...row, role: "taker", orderId: f.ORDER_ID }], nextCursor: null }, "trades[0].feeRateBps");
    expectInvalidAt(w.marketTradesPage, { trades: [row] }, "trades[0].feeRateBps");
    expectInvalidAt(w.orderFills, { orderId: f.ORDER_ID, fills: [row] }, "fills[0].feeRateBps");
  });
});
