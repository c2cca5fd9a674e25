/**
 * Second pass over 2.1 / 2.12 / 5.5 on placement (the verifying contract differs between binary
 * and neg-risk markets, addresses in either case, feeRateBps exactly at the 1000 cap is not
 * fee_too_high, an out-of-range outcome), 2.10 `me` for a caller whose vault is not deployed,
 * 4.3 the crypto-series windows query, and the common headers on answers outside the routes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { API_KEY, boot, expectEnvelope, specOnlyBody, WALLETS, type Conformance, type Json } from "./harness.js";
import { WalletSigner } from "../../../src/signing/index.js";

let c: Conformance;
beforeAll(async () => {
  c = await boot();
});
afterAll(async () => {
  await c.close();
});
beforeEach(async () => {
  await c.advance(1_000);
});

async function place(body: Json, w = 0): Promise<Json> {
  const r = await c.send("/api/orders/place", { headers: c.auth(w), body });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe("2.12 the verifying contract differs between binary and neg-risk markets", () => {
  it("an order signed for the other exchange contract is bad_signature; the right one is placed", async () => {
    const contracts = (await c.send("/api/platform/contracts")).body;
    expect(contracts.exchange.binary.toLowerCase()).not.toBe(contracts.exchange.negRisk.toLowerCase());
    const signer = WalletSigner.fromPrivateKey(WALLETS[0].privateKey);
    // ARS-CHE-ARS is neg-risk, ARS-CHE-GOAL5 is binary
    for (const [symbol, wrong] of [["ARS-CHE-ARS", contracts.exchange.binary], ["ARS-CHE-GOAL5", contracts.exchange.negRisk]] as const) {
      const m = await c.market(symbol);
      const { body, built } = await c.order(0, { symbol, outcome: 0, side: "BUY", price: "0.05", quantity: "1" });
      const good = built.domain.verifyingContract.toLowerCase();
      expect(good).toBe((m.negRiskEligible ? contracts.exchange.negRisk : contracts.exchange.binary).toLowerCase());
      const { signature } = await signer.signOrder(built.struct, { ...built.domain, verifyingContract: wrong });
      const res = await place({ ...specOnlyBody(body), order: { ...body.order, signature } });
      expect(res, symbol).toMatchObject({ status: "REJECTED", code: "bad_signature" });
      expect((await place(specOnlyBody(body))).status, symbol).toBe("OPEN");
    }
  });
});

describe("2.1 / 5.5 addresses in either case", () => {
  it("REST maker and the signed maker / signer / taker are accepted lower-case, upper-case or EIP-55", async () => {
    const { body } = await c.order(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.01", quantity: "1" });
    const upper = (a: string): string => "0x" + a.slice(2).toUpperCase();
    const o = body.order;
    const res = await place({
      order: { ...o, maker: o.maker.toLowerCase(), signer: upper(o.signer), taker: upper(o.taker) },
      maker: upper(body.maker),
    });
    expect(res.status, JSON.stringify(res)).toBe("OPEN");
    const viaWallet = await c.order(0, { symbol: "EPL-WINNER", outcome: 1, side: "BUY", price: "0.01", quantity: "1" });
    expect((await place({ ...specOnlyBody(viaWallet.body), maker: upper(WALLETS[0].address) })).status).toBe("OPEN");
  });
});

describe("7.3 fee_too_high is only ABOVE 1000; invalid_outcome", () => {
  it("feeRateBps exactly 1000 is not fee_too_high (it is not the market's fee: bad_signature)", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.2", quantity: "1", tamper: (s) => (s.feeRateBps = 1000) });
    const res = await place(specOnlyBody(body));
    expect(res).toMatchObject({ status: "REJECTED", code: "bad_signature" });
    expect(res.details.platform_canonical_struct.feeRateBps).toBe(100);
  });

  it("an outcome index out of range for the market is invalid_outcome", async () => {
    const { body } = await c.order(0, { symbol: "ARS-CHE-DRAW", outcome: 0, side: "BUY", price: "0.2", quantity: "1" });
    const r = await c.send("/api/orders/place", { headers: c.auth(0), body: { ...body, outcome: 2 } });
    const code = r.status === 201 ? r.body.code : r.body.error?.code;
    expect(code, r.text).toBe("invalid_outcome");
    if (r.status === 201) expect(r.body.status).toBe("REJECTED");
    else expect(r.status).toBe(400);
  });
});

describe("2.10 leaderboard `me`", () => {
  it("null while the caller's vault is not deployed, filled once it is; anonymous and bad keys get null", async () => {
    const h = { "X-Api-Key": API_KEY, "X-User-Wallet": "0x" + "7e".repeat(20) };
    expect((await c.send("/api/leaderboard", { headers: h })).body.me).toBeNull();
    await c.advance(30_000); // onboarding deploys the vault (about 30 s, 5.3)
    const after = await c.send("/api/leaderboard", { headers: h });
    expect(after.body.me).toMatchObject({ rank: null, pnl: "0", volume: "0" });
    expect((await c.send("/api/leaderboard", { headers: { "X-Api-Key": "garbage" } })).body.me).toBeNull();
    expect((await c.send("/api/leaderboard")).body.me).toBeNull();
  });
});

describe("4.3 GET /api/crypto-series/{id}/windows", () => {
  it("limit 1..500, state accepts `all`, from/to are dates; an unknown series is 404", async () => {
    for (const q of ["limit=0", "limit=501", "limit=x"]) expectEnvelope(await c.send(`/api/crypto-series/btc-15m/windows?${q}`), 400, "invalid_limit");
    for (const q of ["state=bogus", "from=yesterday", "to=2026-13-01", "offset=-1"]) {
      const r = await c.send(`/api/crypto-series/btc-15m/windows?${q}`);
      expect(r.status, q).toBe(400);
    }
    const r = await c.send("/api/crypto-series/btc-15m/windows?state=all&limit=500&from=2026-06-01&to=2026-06-02");
    expect(r.status).toBe(404);
    expect(r.body.error.code).toMatch(/not_found$/);
  });
});

describe("4 / 9 common headers outside the routes", () => {
  it("a wrong method, an unknown path and an oversized body carry X-API-Version, X-Server-Time, X-Request-Id", async () => {
    const probes = [
      await c.send("/api/orders/place", { headers: c.auth(0) }),
      await c.send("/api/nope"),
      await c.send("/api/orders/place", { headers: { ...c.auth(0), "content-type": "application/json" }, raw: JSON.stringify({ pad: "x".repeat(1_100_000) }) }),
    ];
    expect(probes.map((r) => r.status)).toEqual([405, 404, 413]);
    for (const r of probes) {
      expect(r.headers.get("x-api-version")).toBe("2026-10-09");
      expect(r.headers.get("x-server-time")).toMatch(/^\d+$/);
      expect(r.headers.get("x-request-id")).toBeTruthy();
      expect(r.body.status).toBe(r.status);
      expect(r.body.error.trace_id).toBe(r.headers.get("x-trace-id"));
    }
  });
});
