/** Lenient place bodies (body.ts): the forms a spec-only caller may send, and the fields derived from the signed order. */
import { describe, expect, it } from "vitest";
import { floorBuyMakerAmount, orderAmounts } from "../../../src/core/amounts.js";
import { formatMicros, parseMicros } from "../../../src/core/money.js";
import { impliedPrice, normalisePlaceBody } from "../../../src/sim/desk/body.js";

const SIG = `0x${"ab".repeat(65)}`;

function signedOrder(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    salt: "1",
    maker: "0x00000000000000000000000000000000000000aa",
    signer: "0x00000000000000000000000000000000000000aa",
    taker: "0x0000000000000000000000000000000000000000",
    tokenId: "123",
    makerAmount: "4000000", // BUY 10 shares at 0.40
    takerAmount: "10000000",
    expiration: "0",
    nonce: "0",
    feeRateBps: 100,
    side: 0,
    signatureType: 2,
    signature: SIG,
    ...over,
  };
}

const normalised = (raw: unknown) => normalisePlaceBody(raw) as Record<string, unknown> & { order: Record<string, unknown> };

describe("impliedPrice", () => {
  it("reads back the grid price of every correctly signed order, BUY and SELL", () => {
    for (const qty of ["1", "10", "7.123457", "1000"].map((s) => parseMicros(s))) {
      for (let tick = 1n; tick <= 999n; tick += 7n) {
        const price = tick * 1000n;
        const buy = orderAmounts("BUY", price, qty);
        const sell = orderAmounts("SELL", price, qty);
        expect(impliedPrice(0, buy.makerAmount, buy.takerAmount)).toBe(price);
        expect(impliedPrice(1, sell.makerAmount, sell.takerAmount)).toBe(price);
      }
    }
  });

  it("a floor-rounded BUY makerAmount still reads as its price (so the checks can name the rounding)", () => {
    const qty = parseMicros("7.123457");
    const price = parseMicros("0.413");
    const floor = floorBuyMakerAmount(price, qty);
    expect(floor).not.toBe(orderAmounts("BUY", price, qty).makerAmount);
    expect(impliedPrice(0, floor, qty)).toBe(price);
  });

  it("has no price for an order of no shares", () => {
    expect(impliedPrice(0, 5n, 0n)).toBeUndefined();
    expect(impliedPrice(1, 0n, 5n)).toBeUndefined();
  });
});

describe("normalisePlaceBody", () => {
  it("leaves what is not a body with an order object as it is", () => {
    for (const raw of [null, "x", 5, [], { order: "x" }, { order: null }]) expect(normalisePlaceBody(raw)).toBe(raw);
  });

  it("fills in side, quantity, price and type from the signed order (spec-only body)", () => {
    const body = normalised({ order: signedOrder(), maker: "0x00000000000000000000000000000000000000aa", clientOrderId: "c1" });
    expect(body).toMatchObject({ side: "BUY", quantity: "10", price: "0.4", type: "limit", clientOrderId: "c1" });
    expect(body.timeInForce).toBeUndefined();
    const sell = normalised({ order: signedOrder({ side: 1, makerAmount: "5000000", takerAmount: "2999999" }) });
    expect(sell).toMatchObject({ side: "SELL", quantity: "5", price: formatMicros(parseMicros("0.6")) });
  });

  it("a non-zero expiration makes a derived limit order GTD", () => {
    expect(normalised({ order: signedOrder({ expiration: "1767225600" }) })).toMatchObject({ type: "limit", timeInForce: "GTD" });
    // A type given by the caller is theirs: nothing is derived.
    expect(normalised({ order: signedOrder({ expiration: "1767225600" }), type: "LIMIT" })).not.toHaveProperty("timeInForce");
  });

  it("never changes a field that is present", () => {
    const body = normalised({ order: signedOrder(), side: "sell", price: "0.9", quantity: "3", type: "MARKET", timeInForce: "ioc" });
    expect(body).toMatchObject({ side: "SELL", price: "0.9", quantity: "3", type: "market", timeInForce: "IOC" });
  });

  it("accepts both JSON forms of the signed scalars and any case of the side", () => {
    const o = normalised({ order: signedOrder({ salt: 77, tokenId: 123, makerAmount: 4_000_000, takerAmount: 10_000_000, expiration: 0, feeRateBps: "100", signatureType: "2", side: "buy" }) }).order;
    expect(o).toMatchObject({ salt: "77", tokenId: "123", makerAmount: "4000000", takerAmount: "10000000", expiration: "0", feeRateBps: 100, signatureType: 2, side: 0 });
    expect(normalised({ order: signedOrder({ side: " SELL " }) }).order.side).toBe(1);
    expect(normalised({ order: signedOrder({ side: "1" }) }).order.side).toBe(1);
    // What cannot be read is left for the schema to name.
    const bad = normalised({ order: signedOrder({ salt: -1, makerAmount: 1.5, feeRateBps: "1e2", side: "up" }) });
    expect(bad.order).toMatchObject({ salt: -1, makerAmount: 1.5, feeRateBps: "1e2", side: "up" });
    expect(bad.side).toBeUndefined();
  });

  it("moves a signature sent beside the order into it, and turns a non-hex one into a stand-in that recovers to nothing", () => {
    const { signature: _, ...unsigned } = signedOrder();
    const moved = normalised({ order: unsigned, signature: SIG });
    expect(moved.order.signature).toBe(SIG);
    expect(moved).not.toHaveProperty("signature");
    for (const junk of ["", "0x", "garbage", "0xabc"]) expect(normalised({ order: signedOrder({ signature: junk }) }).order.signature, junk).toBe("0x00");
    // One inside the order wins; the outer one is left for the schema.
    expect(normalised({ order: signedOrder(), signature: "0x11" })).toMatchObject({ signature: "0x11", order: { signature: SIG } });
  });

  it("does not touch the caller's objects", () => {
    const order = signedOrder({ salt: 5 });
    const raw = { order };
    normalisePlaceBody(raw);
    expect(raw).toEqual({ order });
    expect(order.salt).toBe(5);
  });
});
