/**
 * The contract that lets the client skip its re-check of our own place bodies (wire/vouched.ts):
 * every body `placeOrderBody` vouches for passes the wire schema, whatever order `buildOrder` built;
 * a body is vouched only when made from a built order with a signature, clientOrderId and maker of
 * the right form, and it cannot change afterwards.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError, PartnerClient } from "../../src/api/index.js";
import { buildOrder, placeOrderBody, preparePlaceBody, type BuiltOrder, type OrderIntent } from "../../src/signing/index.js";
import { checkPlaceBody, isVouched } from "../../src/wire/index.js";
import { BINARY_MARKET, CONTRACTS, NEG_RISK_MARKET } from "./fixtures.js";

const WALLET = "0x1111111111111111111111111111111111111111";
const VAULT = "0x2222222222222222222222222222222222222222";
const SIG = ("0x" + "ab".repeat(65)) as `0x${string}`;

const intent = fc.record({
  outcome: fc.nat(2),
  side: fc.constantFrom("BUY" as const, "SELL" as const),
  price: fc.integer({ min: 1, max: 999 }).map((t) => BigInt(t) * 1000n),
  quantity: fc.integer({ min: 1, max: 5_000_000 }).map((q) => BigInt(q) * 10n),
  type: fc.constantFrom("limit" as const, "market" as const),
  tif: fc.constantFrom(undefined, "GTC" as const, "GTD" as const, "IOC" as const, "FOK" as const),
  postOnly: fc.boolean(),
  neg: fc.boolean(),
});

describe("vouched place bodies", () => {
  it("every body vouched for passes the wire schema (random orders the builder accepts)", () => {
    let vouched = 0;
    fc.assert(
      fc.property(intent, fc.nat(), (i, n) => {
        const market = i.neg ? NEG_RISK_MARKET : BINARY_MARKET;
        const oi: OrderIntent = { outcome: i.neg ? i.outcome : i.outcome % 2, side: i.side, price: i.price, quantity: i.quantity, type: i.type, postOnly: i.postOnly };
        if (i.tif !== undefined) oi.timeInForce = i.tif;
        if (i.tif === "GTD") oi.expiration = 1_900_000_000n;
        let built: BuiltOrder;
        try {
          built = buildOrder({ contracts: CONTRACTS, market, intent: oi, wallet: WALLET, vault: VAULT, saltSource: () => BigInt(n) });
        } catch {
          return; // refused by the builder: nothing to send
        }
        const body = placeOrderBody(built, { signature: SIG, clientOrderId: `c-${n}` });
        expect(isVouched(body)).toBe(true);
        vouched++;
        const check = checkPlaceBody(body);
        expect(check.ok ? "ok" : check.message).toBe("ok");
      }),
      { seed: 20261126, numRuns: 2000 },
    );
    expect(vouched).toBeGreaterThan(500);
  });

  it("is not vouched for when made from a hand-made order or with a malformed signature, clientOrderId or maker", () => {
    const built = buildOrder({ contracts: CONTRACTS, market: BINARY_MARKET, intent: { outcome: 0, side: "BUY", price: 500_000n, quantity: 10_000_000n }, wallet: WALLET, vault: VAULT });
    expect(isVouched(placeOrderBody(built, { signature: SIG }))).toBe(true);
    expect(isVouched(placeOrderBody({ ...built }, { signature: SIG }))).toBe(false);
    expect(isVouched(placeOrderBody(built, { signature: "0xabc" }))).toBe(false);
    expect(isVouched(placeOrderBody(built, { signature: SIG, clientOrderId: "has space" }))).toBe(false);
    expect(isVouched(placeOrderBody(built, { signature: SIG, maker: "0x12" }))).toBe(false);
    expect(isVouched({ ...placeOrderBody(built, { signature: SIG }) })).toBe(false);
  });

  it("cannot change after it was vouched for, nor can the order it was made from", () => {
    const built = buildOrder({ contracts: CONTRACTS, market: BINARY_MARKET, intent: { outcome: 0, side: "BUY", price: 500_000n, quantity: 10_000_000n }, wallet: WALLET, vault: VAULT });
    const body = placeOrderBody(built, { signature: SIG });
    expect(() => ((body as { price: string }).price = "0.5005")).toThrow(TypeError);
    expect(() => ((body.order as { makerAmount: string }).makerAmount = "1")).toThrow(TypeError);
    expect(() => ((built as { price: bigint }).price = 1n)).toThrow(TypeError);
    expect(() => ((built.struct as { makerAmount: bigint }).makerAmount = 1n)).toThrow(TypeError);
  });

  it("a body not vouched for is still checked in full before sending", async () => {
    const built = buildOrder({ contracts: CONTRACTS, market: BINARY_MARKET, intent: { outcome: 0, side: "BUY", price: 500_000n, quantity: 10_000_000n }, wallet: WALLET, vault: VAULT });
    const bad = { ...placeOrderBody(built, { signature: SIG }), price: "0.5005" };
    let sent = 0;
    const client = new PartnerClient({
      apiKey: "pmk_test_0000000000000000_x",
      transport: { request: () => (sent++, Promise.resolve({ status: 500, headers: {}, body: "{}" })) },
    });
    const err = await client.forWallet(WALLET).orders.place(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("invalid_amounts");
    expect(sent).toBe(0);
  });

  it("a body prepared ahead (pre-signing) is the same bytes as one made at once, for each clientOrderId", () => {
    const make = () => buildOrder({ contracts: CONTRACTS, market: BINARY_MARKET, intent: { outcome: 1, side: "SELL", price: 420_000n, quantity: 7_500_000n }, wallet: WALLET, vault: VAULT, saltSource: () => 77n });
    const ahead = make();
    preparePlaceBody(ahead, SIG);
    const first = placeOrderBody(ahead, { signature: SIG, clientOrderId: "mm-0-abc-1" });
    const second = placeOrderBody(ahead, { signature: SIG, clientOrderId: "mm-0-abc-2" });
    expect(JSON.stringify(first)).toBe(JSON.stringify(placeOrderBody(make(), { signature: SIG, clientOrderId: "mm-0-abc-1" })));
    expect(second.clientOrderId).toBe("mm-0-abc-2");
    expect(isVouched(first) && isVouched(second)).toBe(true);
    // Another signature for the same order is not served the prepared one.
    const other = ("0x" + "cd".repeat(65)) as `0x${string}`;
    expect(placeOrderBody(ahead, { signature: other }).order.signature).toBe(other);
  });
});
