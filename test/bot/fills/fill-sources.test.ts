/**
 * Each fill source turned into a Fill in our order's terms (src/bot/fills/fill-sources.ts): the
 * `user_fill` frame, the `/api/me/trades` row, and the taker-centric trade rows of placements and
 * order fill reads (spec 2.12 trades[], 6 user_fill; docs/spec-gaps.md: price and side of a trade
 * row are the taker's). fill-ledger.test.ts covers the main cases through the ledger's re-exports;
 * this file pins the edges: addresses, absent client ids, bad times, and which missing fields
 * make a row unreadable or are taken from our order.
 */
import { describe, expect, it } from "vitest";
import { fillFromMyTrade, fillFromOrderTrade, fillFromUserFill, readOrderTrade, readOrderTrades, type OwnOrderRef } from "../../../src/bot/fills/fill-sources.js";
import { parseMicros } from "../../../src/core/money.js";
import { userFillFrame } from "../../../src/wire/frames.js";
import type { MyTrade, Trade } from "../../../src/wire/orders.js";

const m = parseMicros;
const W = "0x" + "ab".repeat(20);
const WMIXED = "0x" + "aB".repeat(20);
const OTHER = "0x" + "cd".repeat(20);
const AT = "2026-03-01T10:00:00.250Z";
const AT_MS = Date.UTC(2026, 2, 1, 10, 0, 0, 250);

function frame(over: Record<string, unknown> = {}) {
  return userFillFrame.parse({
    type: "user_fill",
    channel: "user_orders",
    serverTs: 5_000,
    walletAddress: WMIXED,
    orderId: "o1",
    clientOrderId: null,
    marketId: "MKT",
    tradeId: "t1",
    tokenId: "1",
    outcome: 1,
    side: "SELL",
    price: "0.37",
    quantity: "2.5",
    fee: "0",
    role: "maker",
    orderStatus: "PARTIAL",
    filledQty: "2.5",
    remainingQty: "7.5",
    ...over,
  });
}

function row(over: Partial<Trade> = {}): Trade {
  return {
    id: "t1",
    marketId: "MKT",
    tokenId: "1",
    outcome: 0,
    side: "BUY",
    price: "0.42",
    quantity: "4",
    fee: "0.05",
    feeRateBps: 100,
    makerOrderId: "om",
    takerOrderId: "ot",
    makerWallet: OTHER,
    takerWallet: W,
    createdAt: AT,
    ...over,
  };
}

describe("fillFromUserFill", () => {
  it("lower-cases the wallet, stamps the server time, and leaves out a null clientOrderId", () => {
    const f = fillFromUserFill(frame());
    expect(f).toEqual({
      tradeId: "t1",
      wallet: W,
      orderId: "o1",
      marketId: "MKT",
      outcome: 1,
      side: "SELL",
      price: m("0.37"),
      qty: m("2.5"),
      fee: 0n,
      role: "maker",
      ts: 5_000,
      source: "stream",
    });
    expect("clientOrderId" in f).toBe(false);
  });
});

describe("fillFromMyTrade", () => {
  const mine = (over: Partial<MyTrade> = {}): MyTrade => ({ ...row(), role: "taker", orderId: "ot", ...over });

  it("takes the row's order, role, fee and time, the wallet lower-cased, and the client id only when given", () => {
    const f = fillFromMyTrade(WMIXED, mine());
    expect(f).toEqual({
      tradeId: "t1",
      wallet: W,
      orderId: "ot",
      marketId: "MKT",
      outcome: 0,
      side: "BUY",
      price: m("0.42"),
      qty: m("4"),
      fee: m("0.05"),
      role: "taker",
      ts: AT_MS,
      source: "trades_pull",
    });
    expect("clientOrderId" in f).toBe(false);
    expect(fillFromMyTrade(W, mine(), "c7").clientOrderId).toBe("c7");
  });

  it("throws on a trade time that does not parse, rather than filing a fill at NaN", () => {
    expect(() => fillFromMyTrade(W, mine({ createdAt: "not a time" }))).toThrow(/bad trade timestamp/);
  });
});

describe("readOrderTrade", () => {
  const taker: OwnOrderRef = { orderId: "ot", clientOrderId: "c1", outcome: 0, side: "BUY", marketId: "MKT" };
  const maker: OwnOrderRef = { orderId: "om", outcome: 0, side: "SELL" };

  it("as taker: the row as is, its fee ours, the client id from our order", () => {
    expect(readOrderTrade(WMIXED, row(), taker, "placement")).toEqual({
      tradeId: "t1",
      wallet: W,
      orderId: "ot",
      clientOrderId: "c1",
      marketId: "MKT",
      outcome: 0,
      side: "BUY",
      price: m("0.42"),
      qty: m("4"),
      fee: m("0.05"),
      role: "taker",
      ts: AT_MS,
      source: "placement",
    });
  });

  it("as maker: the fee on the row is the taker's, ours is 0", () => {
    const f = readOrderTrade(W, row({ fee: "0.3" }), maker, "order_read");
    expect(f).toMatchObject({ role: "maker", fee: 0n, side: "SELL", outcome: 0, price: m("0.42"), source: "order_read" });
  });

  it("as maker on the complement: our price is 1 - the taker's, to the micro", () => {
    const f = readOrderTrade(W, row({ outcome: 1, price: "0.333" }), { orderId: "om", outcome: 0, side: "BUY" }, "order_read");
    expect(f).toMatchObject({ outcome: 0, side: "BUY", price: m("0.667") });
  });

  it("as taker, outcome, side and market the row lacks are our order's", () => {
    const { outcome: _o, side: _s, marketId: _m, ...thin } = row();
    expect(readOrderTrade(W, thin, { ...taker, outcome: 1, side: "SELL", marketId: "OWN" }, "placement")).toMatchObject({
      outcome: 1,
      side: "SELL",
      marketId: "OWN",
    });
  });

  it("a row without a market is unreadable when our order does not know its market either", () => {
    const { marketId: _m, ...thin } = row();
    expect(readOrderTrade(W, thin, { orderId: "ot", outcome: 0, side: "BUY" }, "placement")).toBe("unreadable");
  });

  it("a row naming other orders on both sides is not ours; one whose other side does not read is unreadable", () => {
    expect(readOrderTrade(W, row({ makerOrderId: "x", takerOrderId: "y" }), taker, "placement")).toBe("not_ours");
    const { takerOrderId: _t, ...noTaker } = row({ makerOrderId: "x" });
    expect(readOrderTrade(W, noTaker, taker, "placement")).toBe("unreadable");
    const { makerOrderId: _mk, ...noMaker } = row({ takerOrderId: "y" });
    expect(readOrderTrade(W, noMaker, maker, "placement")).toBe("unreadable");
    // Our order on the side that did read is enough.
    const { makerOrderId: _mk2, ...noMakerOurs } = row();
    expect(readOrderTrade(W, noMakerOurs, taker, "placement")).toMatchObject({ role: "taker", orderId: "ot" });
    expect(readOrderTrade(W, noTaker, { ...maker, orderId: "x" }, "placement")).toMatchObject({ role: "maker", orderId: "x" });
  });

  it("a row without a price or time is unreadable whichever side we are", () => {
    const { price: _p, ...noPrice } = row();
    const { createdAt: _c, ...noTime } = row();
    for (const order of [taker, maker]) {
      expect(readOrderTrade(W, noPrice, order, "placement")).toBe("unreadable");
      expect(readOrderTrade(W, noTime, order, "placement")).toBe("unreadable");
    }
  });

  it("an id or quantity that does not read makes the row unreadable, never a throw", () => {
    expect(readOrderTrade(W, row({ id: "" }), taker, "placement")).toBe("unreadable");
    expect(readOrderTrade(W, { ...row(), quantity: -1 }, taker, "placement")).toBe("unreadable");
    expect(readOrderTrade(W, null, taker, "placement")).toBe("unreadable");
    expect(fillFromOrderTrade(W, 42, taker, "placement")).toBeUndefined();
  });
});

describe("readOrderTrades", () => {
  it("returns the fills in row order and counts the rows it could not use", () => {
    const rows = [row({ id: "a" }), row({ id: "b", takerOrderId: "zz", makerOrderId: "yy" }), row({ id: "c", quantity: "1" }), "junk"];
    const out = readOrderTrades(W, rows, { orderId: "ot", outcome: 0, side: "BUY", marketId: "MKT" }, "order_read");
    expect(out.fills.map((f) => [f.tradeId, f.qty, f.source])).toEqual([
      ["a", m("4"), "order_read"],
      ["c", m("1"), "order_read"],
    ]);
    expect(out.notOurs).toBe(1);
    expect(out.unreadable).toBe(1);
  });

  it("an empty list reads as nothing", () => {
    expect(readOrderTrades(W, [], { orderId: "ot", outcome: 0, side: "BUY" }, "placement")).toEqual({ fills: [], notOurs: 0, unreadable: 0 });
  });
});
