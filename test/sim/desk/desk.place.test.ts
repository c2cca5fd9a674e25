import { describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { diagnoseBadSignature, placeOrderBody } from "../../../src/signing/index.js";
import { errorEnvelopeSchema, orderRecord, placementResult, rejectedPlacement } from "../../../src/wire/index.js";
import { codeOf, parses, setup, T0, u } from "./harness.js";

const ARS = "ARS-CHE-ARS";

describe("POST /api/orders/place: accepted", () => {
  it("answers 201 OPEN, records the order with its EIP-712 hash, and publishes order_placed", async () => {
    const h = setup();
    const { body, built } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.40", quantity: "10", clientOrderId: "c-1" });
    const r = await h.call("POST", "/api/orders/place", { body });
    expect(r.status).toBe(201);
    const res = parses(placementResult, r.body);
    expect(res).toMatchObject({ status: "OPEN", filledQty: "0", remainingQty: "10", trades: [] });
    const id = (res as { orderId: string }).orderId;
    const rec = parses(orderRecord, (await h.call("GET", `/api/orders/${id}`)).body);
    expect(rec).toMatchObject({
      id, clientOrderId: "c-1", orderHash: built.orderHash.toLowerCase(), walletAddress: h.wallets[0]!.address, marketId: ARS,
      side: "BUY", price: "0.4", originalQuantity: "10", status: "OPEN", timeInForce: "GTC", type: "limit", expiration: "0",
    });
    expect(rec.createdAt).toBe(new Date(T0).toISOString());
    const placed = h.frames(0).filter((f) => f.type === "order_placed");
    expect(placed).toHaveLength(1);
    expect(placed[0]).toMatchObject({ orderId: id, clientOrderId: "c-1", originalQuantity: "10", status: "OPEN", serverTs: T0 });
  });

  it("accepts the wallet itself as the REST maker (5.5)", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.40", quantity: "1", maker: h.wallets[0]!.address.toUpperCase().replace("0X", "0x") });
    const r = await h.call("POST", "/api/orders/place", { body });
    expect((r.body as { status: string }).status).toBe("OPEN");
  });

  it("inherits the platform default fee on a market whose feeTakerBps is null", async () => {
    const h = setup();
    const { body, built } = await h.order(0, { symbol: "EPL-WINNER", outcome: 2, side: "BUY", price: "0.2", quantity: "3" });
    expect(built.struct.feeRateBps).toBe(100);
    expect((await h.call("POST", "/api/orders/place", { body })).body).toMatchObject({ status: "OPEN" });
  });
});

describe("POST /api/orders/place: rejections are 201 placement results with the spec code", () => {
  async function rejectOf(h: ReturnType<typeof setup>, body: unknown, wallet = 0) {
    const r = await h.call("POST", "/api/orders/place", { body, wallet });
    expect(r.status).toBe(201);
    return parses(rejectedPlacement, r.body);
  }

  it("maker_mismatch when the REST maker is neither the wallet nor its vault", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", maker: h.wallets[1]!.vault });
    const r = await rejectOf(h, body);
    expect(r).toMatchObject({ code: "maker_mismatch", orderId: null, filledQty: "0", remainingQty: "0", trades: [] });
    expect(h.sim.desk.records.size).toBe(0);
  });

  it("fee_too_high above 1000 bps", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", tamper: (s) => (s.feeRateBps = 1001) });
    expect((await rejectOf(h, body)).code).toBe("fee_too_high");
  });

  it("bad_signature when feeRateBps is not the market's: details carry the canonical struct the platform verified", async () => {
    const h = setup();
    const { body, built } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", tamper: (s) => (s.feeRateBps = 50) });
    const r = await rejectOf(h, body);
    expect(r.code).toBe("bad_signature");
    const d = r.details as Record<string, unknown>;
    expect(d.expected_signer).toBe(getAddress(h.wallets[0]!.address));
    expect(typeof d.recovered).toBe("string");
    expect((d.recovered as string).toLowerCase()).not.toBe(h.wallets[0]!.address);
    expect(d.platform_canonical_struct).toMatchObject({ feeRateBps: 100, signatureType: 1, signer: h.wallets[0]!.address });
    const diag = diagnoseBadSignature(built.struct, d);
    expect(diag.differences.map((x) => x.field)).toEqual(["feeRateBps"]);
  });

  it("bad_signature for signatureType 0, and for an order signed by another wallet", async () => {
    const h = setup();
    const t0 = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", tamper: (s) => (s.signatureType = 0) });
    expect((await rejectOf(h, t0.body)).code).toBe("bad_signature");
    // wallet 1 signs its own order but the request acts for wallet 0 (REST maker = wallet 0 passes maker check)
    const other = await h.order(1, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", maker: h.wallets[0]!.address });
    const r = await rejectOf(h, other.body);
    expect(r.code).toBe("bad_signature");
    expect(diagnoseBadSignature(other.built.struct, r.details).differences.map((x) => x.field).sort()).toEqual(["maker", "signer"]);
  });

  it("bad_signature when the right struct is signed with the wrong key (recovery check)", async () => {
    const h = setup();
    const { built } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    const sig = await h.wallets[1]!.signer.signDigest(built.orderHash);
    const r = await rejectOf(h, placeOrderBody(built, { signature: sig }));
    expect(r.code).toBe("bad_signature");
    expect((r.details as { recovered: string }).recovered).toBe(getAddress(h.wallets[1]!.address));
    // With verification off the same order is accepted (backtests), but a wrong fee still is not.
    const fast = setup({ sim: { verifySignatures: false } });
    const again = await fast.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    const sig2 = await fast.wallets[1]!.signer.signDigest(again.built.orderHash);
    expect((await fast.call("POST", "/api/orders/place", { body: placeOrderBody(again.built, { signature: sig2 }) })).body).toMatchObject({ status: "OPEN" });
    const fee = await fast.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", tamper: (s) => (s.feeRateBps = 0) });
    expect(codeOf((await fast.call("POST", "/api/orders/place", { body: fee.body })).body)).toBe("bad_signature");
  });

  it("a signature that is not EIP-712 at all recovers to null", async () => {
    const h = setup();
    const { built } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    const r = await rejectOf(h, placeOrderBody(built, { signature: "0x1234" }));
    expect(r).toMatchObject({ code: "bad_signature", details: { recovered: null } });
  });

  it("order_signed_with_floor_notional for a floor-rounded BUY makerAmount; other mismatches are invalid_amounts", async () => {
    const h = setup();
    // 0.333 * 1.000001 = 0.333000333: ceil 333001, floor 333000
    const floor = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.333", quantity: "1.000001", tamper: (s) => (s.makerAmount = 333000n) });
    const r = await rejectOf(h, floor.body);
    expect(r).toMatchObject({
      code: "order_signed_with_floor_notional",
      details: { signedMakerAmountWei: "333000", expectedCeilMakerAmountWei: "333001", signedRounding: "floor", expectedRounding: "ceil" },
    });
    const off = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.333", quantity: "1.000001", tamper: (s) => (s.makerAmount = 333100n) });
    expect((await rejectOf(h, off.body)).code).toBe("invalid_amounts");
    const qty = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "2", tamper: (s) => (s.takerAmount = 3_000_000n) });
    expect((await rejectOf(h, qty.body)).code).toBe("invalid_amounts");
  });

  it("expired when a GTD expiration is in the past", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", timeInForce: "GTD", expiration: T0 / 1000 - 5 });
    expect((await rejectOf(h, body)).code).toBe("expired");
  });

  it("invalid_tif: market + GTC, GTC with an expiration, post-only IOC", async () => {
    const h = setup();
    const m = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", type: "market" });
    expect((await rejectOf(h, { ...m.body, timeInForce: "GTC" })).code).toBe("invalid_tif");
    const exp = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", tamper: (s) => (s.expiration = BigInt(T0 / 1000 + 600)) });
    expect((await rejectOf(h, exp.body)).code).toBe("invalid_tif");
    const po = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", timeInForce: "IOC" });
    expect((await rejectOf(h, { ...po.body, postOnly: true })).code).toBe("invalid_tif");
  });

  it("market_not_found for a token of no market; marketId / outcome must agree with the token", async () => {
    const h = setup();
    const t = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1", tamper: (s) => (s.tokenId = 12345n) });
    expect((await rejectOf(h, t.body)).code).toBe("market_not_found");
    const ok = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    expect((await rejectOf(h, { ...ok.body, marketId: "ARS-CHE-CHE" })).code).toBe("invalid_request");
    expect((await rejectOf(h, { ...ok.body, outcome: 1 })).code).toBe("invalid_outcome");
  });

  it("insufficient_funds is a REJECTED result of a recorded order (it has an id)", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.5", quantity: "100000", clientOrderId: "big" });
    const r = await rejectOf(h, body);
    expect(r.code).toBe("insufficient_funds");
    expect(typeof r.orderId).toBe("string");
    expect(parses(orderRecord, (await h.call("GET", `/api/orders/${r.orderId!}`)).body).status).toBe("REJECTED");
  });

  it("post_only_would_cross for a post-only order that would take", async () => {
    const h = setup();
    const ask = await h.order(1, { symbol: ARS, outcome: 1, side: "BUY", price: "0.55", quantity: "5" }); // YES ask at 0.45
    expect((await h.call("POST", "/api/orders/place", { body: ask.body, wallet: 1 })).body).toMatchObject({ status: "OPEN" });
    const po = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.46", quantity: "1", postOnly: true });
    expect((await rejectOf(h, po.body)).code).toBe("post_only_would_cross");
  });

  it("vault_not_deployed, then kyc_blocked, then trading, for a sub-account seen for the first time", async () => {
    const h = setup();
    const w = h.addWallet("0x" + "1f".repeat(32));
    const place = async () => {
      const { body } = await h.order(w, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
      return (await h.call("POST", "/api/orders/place", { body, wallet: w })).body;
    };
    expect(await place()).toMatchObject({ status: "REJECTED", code: "vault_not_deployed", details: { retryable: true } });
    await h.clock.advance(10_000);
    expect(await place()).toMatchObject({ status: "REJECTED", code: "kyc_blocked" });
    await h.clock.advance(15_000);
    h.sim.fund(h.wallets[w]!.address, u("100"));
    expect(await place()).toMatchObject({ status: "OPEN" });
  });
});

describe("POST /api/orders/place: market status", () => {
  it("409 market_not_open envelope when the market is paused or past closesAt", async () => {
    const h = setup();
    expect(h.sim.setMarketStatus(ARS, "pause").ok).toBe(true);
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    const r = await h.call("POST", "/api/orders/place", { body });
    expect(r.status).toBe(409);
    expect(parses(errorEnvelopeSchema, r.body).error.code).toBe("market_not_open");
    await h.clock.advance(5 * 60_000 + 1);
    const g = await h.order(0, { symbol: "ARS-CHE-GOAL5", outcome: 0, side: "BUY", price: "0.1", quantity: "1" });
    expect((await h.call("POST", "/api/orders/place", { body: g.body })).status).toBe(409);
  });

  it("PRE_MARKET admits post-only orders only; at opensAt full matching starts", async () => {
    const h = setup();
    const plain = await h.order(0, { symbol: "BAR-RMA-BAR", outcome: 0, side: "BUY", price: "0.5", quantity: "1" });
    const r = await h.call("POST", "/api/orders/place", { body: plain.body });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "REJECTED", code: "market_not_open", details: { status: "PRE_MARKET", postOnlyRequired: true } });
    const po = await h.order(0, { symbol: "BAR-RMA-BAR", outcome: 0, side: "BUY", price: "0.5", quantity: "1", postOnly: true });
    expect((await h.call("POST", "/api/orders/place", { body: po.body })).body).toMatchObject({ status: "OPEN" });
    await h.clock.advance(20_000);
    const later = await h.order(0, { symbol: "BAR-RMA-BAR", outcome: 0, side: "BUY", price: "0.5", quantity: "1" });
    expect((await h.call("POST", "/api/orders/place", { body: later.body })).body).toMatchObject({ status: "OPEN" });
  });
});

describe("POST /api/orders/place: malformed bodies are 400 envelopes", () => {
  it("names the field and its code", async () => {
    const h = setup();
    const { body } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.4", quantity: "1" });
    const cases: [unknown, string, string][] = [
      [{ ...body, price: "0.4005" }, "invalid_amounts", "price"],
      [{ ...body, quantity: "0" }, "invalid_amounts", "quantity"],
      [{ ...body, outcome: -1 }, "invalid_outcome", "outcome"],
      [{ ...body, extra: 1 }, "invalid_request", "extra"],
      [{ ...body, order: undefined }, "invalid_request", "order"],
      ["nope", "invalid_request", "(root)"],
    ];
    for (const [b, code, field] of cases) {
      const r = await h.call("POST", "/api/orders/place", { body: b });
      expect(r.status, JSON.stringify(b).slice(0, 60)).toBe(400);
      const env = parses(errorEnvelopeSchema, r.body);
      expect(env.error.code).toBe(code);
      expect(env.error.details?.field).toBe(field);
    }
    expect(h.sim.desk.records.size).toBe(0);
  });
});
