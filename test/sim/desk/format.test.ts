/**
 * Wire forms the desk hands out: the trade row in the taker's token and as each party sees it (a
 * maker's token, side and price, no fee), which side a wallet was on, REJECTED placements (from a
 * code or a platform failure, retry hints moved into details) and the failure envelope.
 */
import { describe, expect, it } from "vitest";
import { amount, envelopeOf, partyTradeJson, rejected, rejectedFromFailure, roleOf, tradeJson } from "../../../src/sim/desk/format.js";
import { failure } from "../../../src/sim/platform/errors.js";
import { MAKER, TAKER, trade } from "./fixtures.js";

const TAKER_ROW = {
  id: "t7",
  marketId: "TST",
  tokenId: "111",
  outcome: 0,
  side: "BUY",
  price: "0.61",
  quantity: "12.5",
  fee: "0.094",
  feeRateBps: 200,
  makerOrderId: "o3",
  takerOrderId: "o9",
  makerWallet: MAKER,
  takerWallet: TAKER,
  createdAt: "2026-06-01T12:00:01.500Z",
};

describe("tradeJson", () => {
  it("is the taker-centric row: decimal strings, ISO time, EIP-55 wallets as recorded, no engine-only fields", () => {
    const row = tradeJson(trade());
    expect(row).toEqual(TAKER_ROW);
    expect(Object.keys(row)).not.toContain("takerCash");
    expect(Object.keys(row)).not.toContain("kind");
  });

  it("formats whole and zero amounts canonically", () => {
    expect(tradeJson(trade({ quantity: 3_000_000n, fee: 0n, price: 1_000n }))).toMatchObject({ quantity: "3", fee: "0", price: "0.001" });
  });
});

describe("partyTradeJson", () => {
  it("the taker's view is the row plus its role and its order", () => {
    expect(partyTradeJson(trade(), "taker")).toEqual({ ...TAKER_ROW, role: "taker", orderId: "o9" });
  });

  it("the maker's view has the maker's token, outcome, side and price, and no fee", () => {
    expect(partyTradeJson(trade(), "maker")).toEqual({
      ...TAKER_ROW,
      tokenId: "222",
      outcome: 1,
      side: "BUY",
      price: "0.39",
      fee: "0",
      role: "maker",
      orderId: "o3",
    });
  });

  it("a transfer trade shows the maker on the opposite side of the same token", () => {
    const t = trade({ kind: "transfer", makerOutcome: 0, makerTokenId: "111", makerSide: "SELL", makerPrice: 610_000n });
    expect(partyTradeJson(t, "maker")).toMatchObject({ tokenId: "111", outcome: 0, side: "SELL", price: "0.61", fee: "0" });
  });
});

describe("roleOf", () => {
  it("is taker for the taker wallet in any case, maker otherwise", () => {
    expect(roleOf(trade(), TAKER.toLowerCase())).toBe("taker");
    expect(roleOf(trade(), TAKER.toUpperCase().replace("0X", "0x"))).toBe("taker");
    expect(roleOf(trade(), MAKER.toLowerCase())).toBe("maker");
  });
});

describe("rejected", () => {
  it("is a REJECTED placement with nothing filled and no order id by default", () => {
    const r = rejected("post_only_would_cross", "a post-only order would cross");
    expect(r).toEqual({ orderId: null, status: "REJECTED", filledQty: "0", remainingQty: "0", trades: [], code: "post_only_would_cross", message: "a post-only order would cross" });
    expect("details" in r).toBe(false);
  });

  it("carries details and an order id when recorded", () => {
    expect(rejected("insufficient_funds", "not enough", { available: "1" }, "o5")).toMatchObject({ orderId: "o5", details: { available: "1" } });
  });
});

describe("rejectedFromFailure", () => {
  it("moves retryable and retryAfterSec into details next to the failure's own details", () => {
    const f = failure(503, "trading_temporarily_unavailable", "try again", { marketId: "TST" }, { retryable: true, retryAfterSec: 2 });
    expect(rejectedFromFailure(f)).toEqual({
      orderId: null,
      status: "REJECTED",
      filledQty: "0",
      remainingQty: "0",
      trades: [],
      code: "trading_temporarily_unavailable",
      message: "try again",
      details: { marketId: "TST", retryable: true, retryAfterSec: 2 },
    });
  });

  it("has no details when the failure has neither details nor hints", () => {
    expect("details" in rejectedFromFailure(failure(403, "market_not_open", "closed"))).toBe(false);
  });

  it("does not share the failure's details object", () => {
    const details = { a: 1 };
    const r = rejectedFromFailure(failure(400, "x", "y", details, { retryable: false }));
    expect(r.details).toEqual({ a: 1, retryable: false });
    expect(details).toEqual({ a: 1 });
  });
});

describe("envelopeOf", () => {
  it("is the 7.1 envelope of the failure with its details and hints", () => {
    const f = failure(429, "rate_limited", "slow down", { bucket: "orders" }, { retryable: true, retryAfterSec: 4 });
    expect(envelopeOf(f)).toEqual({ status: 429, error: { code: "rate_limited", message: "slow down", details: { bucket: "orders" }, retryable: true, retryAfterSec: 4 } });
  });

  it("leaves absent fields out", () => {
    expect(envelopeOf(failure(404, "order_not_found", "no such order"))).toEqual({ status: 404, error: { code: "order_not_found", message: "no such order" } });
  });
});

describe("amount", () => {
  it("is the canonical decimal string of micros", () => {
    expect([amount(0n), amount(1n), amount(1_500_000n), amount(-250_000n), amount(10_000_000_000n)]).toEqual(["0", "0.000001", "1.5", "-0.25", "10000"]);
  });
});
