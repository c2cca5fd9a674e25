/**
 * Spec 4.6 POST /api/orders/place, 2.12 (signed-order rules), 5.5 and 7.3 (signing rejections):
 * always HTTP 201 with the placement result, rejections included. Bodies carry only what the
 * spec names (signed order, maker, clientOrderId) unless a test needs our documented extras.
 */
import { getAddress } from "viem";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boot, expectEnvelope, specOnlyBody, T0, WALLETS, type Conformance, type Json } from "./harness.js";

const STRUCT_FIELDS = ["salt", "maker", "signer", "taker", "tokenId", "makerAmount", "takerAmount", "expiration", "feeRateBps", "side", "signatureType"];

let c: Conformance;
beforeAll(async () => {
  c = await boot();
});
afterAll(async () => {
  await c.close();
});

beforeEach(async () => {
  // the place bucket is 20 per second per wallet (8.2): give every test a fresh window
  await c.advance(1_000);
});

async function place(body: Json, w = 0): Promise<Json> {
  const r = await c.send("/api/orders/place", { headers: c.auth(w), body });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

function expectRejected(res: Json, code: string): Json {
  expect(res).toMatchObject({ status: "REJECTED", code });
  expect(typeof res.message).toBe("string");
  expect(res).toHaveProperty("orderId");
  expect(res).toHaveProperty("filledQty");
  expect(res).toHaveProperty("remainingQty");
  expect(Array.isArray(res.trades)).toBe(true);
  return res.details;
}

describe("placement result (2.12, 7.1 rule 3)", () => {
  it("a body with only the signed order, maker and clientOrderId is placed: 201 OPEN", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.2", quantity: "3", clientOrderId: "spec-only-1" });
    const res = await place(specOnlyBody(body));
    expect(res).toMatchObject({ status: "OPEN", filledQty: "0", remainingQty: "3", trades: [] });
    expect(typeof res.orderId).toBe("string");
    // orderId on placement is `id` on reads (2.1)
    const read = await c.send(`/api/orders/${res.orderId}`, { headers: c.auth(0) });
    expect(read.body).toMatchObject({ id: res.orderId, status: "OPEN", price: "0.2", side: "BUY", clientOrderId: "spec-only-1" });
  });

  it("signed-order scalars accepted as JSON numbers or digit strings, signature beside the order", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 1, side: "SELL", price: "0.9", quantity: "1" });
    const o = body.order;
    const loose = {
      order: { ...o, expiration: 0, feeRateBps: String(o.feeRateBps), side: "SELL", signatureType: "1" },
      maker: body.maker,
    };
    delete loose.order.signature;
    (loose as Json).signature = o.signature;
    // SELL of NO without holding NO: refused by the matcher, but as a placement result (not a 400)
    const res = await place(loose);
    expect(res.status).toBe("REJECTED");
    expect(res.code).toBe("insufficient_funds");
  });

  it("a SELL derives its price from the FLOOR proceeds and fills against a resting BUY", async () => {
    // wallet 1 rests a YES bid; wallet 2 gets YES shares by crossing a NO bid, then sells them
    const bid = await c.order(1, { symbol: "ARS-CHE-CHE", outcome: 0, side: "BUY", price: "0.31", quantity: "7" });
    expect((await place(specOnlyBody(bid.body), 1)).status).toBe("OPEN");
    const noBid = await c.order(0, { symbol: "ARS-CHE-CHE", outcome: 1, side: "BUY", price: "0.6", quantity: "4" });
    expect((await place(specOnlyBody(noBid.body), 0)).status).toBe("OPEN");
    const buyYes = await c.order(2, { symbol: "ARS-CHE-CHE", outcome: 0, side: "BUY", price: "0.4", quantity: "4" });
    expect((await place(specOnlyBody(buyYes.body), 2)).status).toBe("FILLED");
    const sell = await c.order(2, { symbol: "ARS-CHE-CHE", outcome: 0, side: "SELL", price: "0.31", quantity: "4" });
    const res = await place(specOnlyBody(sell.body), 2);
    expect(res).toMatchObject({ status: "FILLED", filledQty: "4", remainingQty: "0" });
    expect(res.trades[0]).toMatchObject({ price: "0.31", quantity: "4" });
  });

  it("taker fee at price 0.5 is the peak feeTakerBps / 4 / 10000 per share; the trade row carries feeRateBps", async () => {
    // GOAL5 has feeTakerBps 200: peak 0.005 per share
    const bid = await c.order(0, { symbol: "ARS-CHE-GOAL5", outcome: 0, side: "BUY", price: "0.5", quantity: "10" });
    expect((await place(specOnlyBody(bid.body), 0)).status).toBe("OPEN");
    const take = await c.order(1, { symbol: "ARS-CHE-GOAL5", outcome: 1, side: "BUY", price: "0.5", quantity: "10" });
    const res = await place(specOnlyBody(take.body), 1);
    expect(res.status).toBe("FILLED");
    expect(res.trades[0]).toMatchObject({ price: "0.5", quantity: "10", fee: "0.05", feeRateBps: 200 });
  });

  it("insufficient_funds is a REJECTED placement (201) with a code", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.5", quantity: "100000" });
    expectRejected(await place(specOnlyBody(body)), "insufficient_funds");
  });

  it("clientOrderId dedupes: the same id answers the first result, one order", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.11", quantity: "1", clientOrderId: "dedupe-1" });
    const a = await place(specOnlyBody(body));
    const b = await place(specOnlyBody(body));
    expect(b).toEqual(a);
    const open = await c.send("/api/orders/open?marketId=ARS-CHE-DRAW&limit=500", { headers: c.auth(0) });
    expect(open.body.orders.filter((o: Json) => o.clientOrderId === "dedupe-1")).toHaveLength(1);
  });

  it("a malformed body is a 400 envelope naming the field (details.fields)", async () => {
    const r = await c.send("/api/orders/place", { headers: c.auth(0), body: { maker: WALLETS[0].address } });
    const e = expectEnvelope(r, 400, "invalid_request");
    expect(e.details.fields).toContain("order");
  });
});

describe("7.3 signing rejections (201 REJECTED placement results)", () => {
  it("bad_signature: details.recovered (EIP-55), expected_signer (EIP-55), platform_canonical_struct (11 fields)", async () => {
    // signed with a fee that is not the market's feeTakerBps: the most common cause
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2", tamper: (s) => (s.feeRateBps = 50) });
    const d = expectRejected(await place(specOnlyBody(body)), "bad_signature");
    expect(d.expected_signer).toBe(getAddress(WALLETS[0].address));
    expect(d.recovered).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(d.recovered).toBe(getAddress(d.recovered));
    expect(d.recovered).not.toBe(d.expected_signer);
    expect(Object.keys(d.platform_canonical_struct).sort()).toEqual([...STRUCT_FIELDS].sort());
    expect(d.platform_canonical_struct.feeRateBps).toBe(100);
    expect(d.platform_canonical_struct.signatureType).toBe(1);
    expect(d.platform_canonical_struct.signer.toLowerCase()).toBe(WALLETS[0].address.toLowerCase());
  });

  it("bad_signature: recovered is null when the signature is not valid EIP-712 at all", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2" });
    body.order.signature = "0x" + "00".repeat(65);
    const d = expectRejected(await place(specOnlyBody(body)), "bad_signature");
    expect(d.recovered).toBeNull();
    expect(d.expected_signer).toBe(getAddress(WALLETS[0].address));
    for (const signature of ["0x", "", "not-a-signature", "0x123"]) {
      const r = await place({ ...specOnlyBody(body), order: { ...body.order, signature } });
      expect(expectRejected(r, "bad_signature").recovered, signature).toBeNull();
    }
  });

  it("body enums (side, type, timeInForce) are read in any case", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.13", quantity: "1" });
    expect((await place({ ...body, side: "buy", type: "LIMIT", timeInForce: "gtc" })).status).toBe("OPEN");
  });

  it("bad_signature for signatureType 0, for maker = the wallet instead of its vault, and for another wallet's signature", async () => {
    const t0 = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2", tamper: (s) => (s.signatureType = 0) });
    expectRejected(await place(specOnlyBody(t0.body)), "bad_signature");
    const mk = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2", tamper: (s) => (s.maker = s.signer) });
    expectRejected(await place(specOnlyBody(mk.body)), "bad_signature");
    // wallet 1's correctly signed order sent as wallet 0
    const other = await c.order(1, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2" });
    const d = expectRejected(await place({ ...specOnlyBody(other.body), maker: WALLETS[0].address }, 0), "bad_signature");
    expect(d.expected_signer).toBe(getAddress(WALLETS[0].address));
  });

  it("order_signed_with_floor_notional: a floor-rounded BUY makerAmount, with the four details", async () => {
    // 1.000001 shares at 0.5: exact notional 500000.5 micros; CEIL 500001, FLOOR 500000
    const { body } = await c.order(0, {
      symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.5", quantity: "1.000001",
      tamper: (s) => (s.makerAmount = 500_000n),
    });
    const d = expectRejected(await place(specOnlyBody(body)), "order_signed_with_floor_notional");
    expect(d).toMatchObject({ signedMakerAmountWei: "500000", expectedCeilMakerAmountWei: "500001" });
    expect(d.signedRounding).toMatch(/floor/i);
    expect(d.expectedRounding).toMatch(/ceil/i);
    // the same with our documented extra fields (explicit price and quantity)
    expectRejected(await place(body), "order_signed_with_floor_notional");
  });

  it("fee_too_high: feeRateBps above 1000", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2", tamper: (s) => (s.feeRateBps = 1001) });
    expectRejected(await place(specOnlyBody(body)), "fee_too_high");
  });

  it("expired: an expiration in the past", async () => {
    const past = Math.floor(T0 / 1000) - 60;
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2", timeInForce: "GTD", expiration: past });
    expectRejected(await place(specOnlyBody(body)), "expired");
  });

  it("maker_mismatch: REST maker neither the effective wallet nor its vault; the wallet itself is accepted", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.12", quantity: "2" });
    expectRejected(await place({ ...specOnlyBody(body), maker: WALLETS[1].address }), "maker_mismatch");
    const again = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.12", quantity: "2" });
    expect((await place({ ...specOnlyBody(again.body), maker: WALLETS[0].address.toLowerCase() })).status).toBe("OPEN");
  });

  it("invalid_tif: a market order with GTC", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2" });
    const res = await c.send("/api/orders/place", { headers: c.auth(0), body: { ...body, type: "market", timeInForce: "GTC" } });
    const code = res.status === 201 ? res.body.code : res.body.error.code;
    expect(code).toBe("invalid_tif");
  });

  it("invalid_amounts: price <= 0 or bad format", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.3", quantity: "2" });
    for (const price of ["0", "-0.3", "abc"]) {
      const res = await c.send("/api/orders/place", { headers: c.auth(0), body: { ...body, price } });
      const code = res.status === 201 ? res.body.code : res.body.error.code;
      expect(code, price).toBe("invalid_amounts");
    }
  });
});

describe("5.3 onboarding codes for a first-seen wallet (requirePerWalletKyc false)", () => {
  it("vault_not_deployed until the vault exists, kyc_blocked while limits confirm, then usable", async () => {
    const w = c.addWallet("0x" + "5a".repeat(32));
    const vault = await c.send("/api/me/vault", { headers: c.auth(w) });
    expect(vault.status).toBe(200);
    const attempt = async (): Promise<Json> => {
      const { body } = await c.order(w, { symbol: "EPL-WINNER", outcome: 0, side: "BUY", price: "0.2", quantity: "1" });
      const r = await c.send("/api/orders/place", { headers: c.auth(w), body: specOnlyBody(body) });
      expect(r.status).toBe(201);
      return r.body;
    };
    expectRejected(await attempt(), "vault_not_deployed");
    await c.advance(10_000);
    expectRejected(await attempt(), "kyc_blocked");
    await c.advance(15_000);
    // usable end to end: now only the (empty) balance stops it
    expectRejected(await attempt(), "insufficient_funds");
  });
});
