/**
 * `/ws/user` frames of the user_orders channel built from desk orders and trades: every frame
 * carries the channel, serverTs, wallet, order and client order ids and market; order_placed shows
 * the order as accepted, order_cancelled / order_expired its final status and remainder, user_fill
 * the party's own view of the trade with the order's fill state.
 */
import { describe, expect, it } from "vitest";
import { orderEndedFrame, orderPlacedFrame, userFillFrame } from "../../../src/sim/desk/frames.js";
import { parseServerFrame } from "../../../src/wire/frames.js";
import { deskOrder, T0, TAKER, trade } from "./fixtures.js";

const NOW = T0 + 2_000;
const HEAD = {
  channel: "user_orders",
  serverTs: NOW,
  walletAddress: TAKER.toLowerCase(),
  orderId: "o9",
  clientOrderId: "mm-42",
  marketId: "TST",
};

describe("orderPlacedFrame", () => {
  it("shows the order as accepted: OPEN with its whole quantity remaining, whatever it has filled since", () => {
    const f = orderPlacedFrame(deskOrder(), NOW);
    expect(f).toEqual({
      type: "order_placed",
      ...HEAD,
      tokenId: "111",
      outcome: 0,
      side: "BUY",
      price: "0.61",
      originalQuantity: "20",
      remainingQty: "20",
      status: "OPEN",
    });
    expect(parseServerFrame(JSON.stringify(f)).kind).toBe("frame");
  });

  it("keeps a null clientOrderId", () => {
    expect(orderPlacedFrame(deskOrder({ clientOrderId: null }), NOW).clientOrderId).toBeNull();
  });
});

describe("orderEndedFrame", () => {
  it("defaults to the order's own status and remainder", () => {
    const o = deskOrder({ status: "CANCELLED", endReason: "user_cancel" });
    expect(orderEndedFrame("order_cancelled", o, NOW)).toEqual({ type: "order_cancelled", ...HEAD, originalQuantity: "20", remainingQty: "7.5", status: "CANCELLED" });
  });

  it("takes an explicit final status and remainder (a pending cancel that lost the race ends FILLED)", () => {
    expect(orderEndedFrame("order_cancelled", deskOrder(), NOW, "FILLED", 0n)).toMatchObject({ type: "order_cancelled", remainingQty: "0", status: "FILLED" });
  });

  it("builds order_expired the same way", () => {
    const f = orderEndedFrame("order_expired", deskOrder({ status: "EXPIRED", timeInForce: "GTD", expiration: "1780315200" }), NOW);
    expect(f).toMatchObject({ type: "order_expired", status: "EXPIRED", remainingQty: "7.5", serverTs: NOW });
    expect(parseServerFrame(JSON.stringify(f)).kind).toBe("frame");
  });
});

describe("userFillFrame", () => {
  it("a taker's fill: the taker's token, side, price and fee, with the order's fill state", () => {
    const f = userFillFrame(deskOrder(), trade(), "taker", NOW);
    expect(f).toEqual({
      type: "user_fill",
      ...HEAD,
      tradeId: "t7",
      tokenId: "111",
      outcome: 0,
      side: "BUY",
      price: "0.61",
      quantity: "12.5",
      fee: "0.094",
      role: "taker",
      orderStatus: "PARTIAL",
      filledQty: "12.5",
      remainingQty: "7.5",
    });
    expect(parseServerFrame(JSON.stringify(f)).kind).toBe("frame");
  });

  it("a maker's fill: the maker's token, outcome, side and price, and no fee", () => {
    const makerOrder = deskOrder({ id: "o3", clientOrderId: null, tokenId: "222", outcome: 1, price: 390_000n, quantity: 12_500_000n, filledQty: 12_500_000n, remainingQty: 0n, status: "FILLED" });
    expect(userFillFrame(makerOrder, trade(), "maker", NOW)).toMatchObject({
      orderId: "o3",
      clientOrderId: null,
      tokenId: "222",
      outcome: 1,
      side: "BUY",
      price: "0.39",
      fee: "0",
      role: "maker",
      orderStatus: "FILLED",
      filledQty: "12.5",
      remainingQty: "0",
    });
  });
});
