/**
 * The placement checks (src/sim/desk/checks.ts) called directly on a schema-valid body: the
 * prepared order of a good one, the order in which the checks answer when several would (the order
 * of the header, which is the order the spec's codes take precedence in), the SELL amount rules,
 * the bounds on quantity and expiration, and structJson's wire form. desk.place.test.ts covers each
 * code through the HTTP route.
 */
import { describe, expect, it } from "vitest";
import { checkPlacement, structJson, type CheckResult } from "../../../src/sim/desk/checks.js";
import { placeBody, type PlaceBody } from "../../../src/wire/requests.js";
import { setup, T0, u, type Harness, type OrderSpec } from "./harness.js";

const ARS = "ARS-CHE-ARS";

async function body(h: Harness, o: Partial<OrderSpec> = {}, over: Record<string, unknown> = {}): Promise<PlaceBody> {
  const { body: b } = await h.order(0, { symbol: ARS, outcome: 0, side: "BUY", price: "0.40", quantity: "10", ...o });
  return placeBody.parse({ ...b, ...over });
}

function check(h: Harness, b: PlaceBody, nowMs = T0): CheckResult {
  return checkPlacement(b, { platform: h.sim.platform, wallet: h.wallets[0]!.address, partner: undefined, nowMs });
}

const codeOf = (r: CheckResult): string => (r.kind === "reject" ? r.result.code : r.kind === "http" ? `http:${r.failure.code}` : r.kind);

describe("a good order", () => {
  it("is prepared with the canonical struct, its market and outcome, amounts in micros, defaults applied", async () => {
    const h = setup();
    const b = await body(h, { clientOrderId: "c-1" });
    const r = check(h, b);
    expect(r.kind).toBe("ok");
    if (r.kind !== "ok") return;
    const p = r.prepared;
    expect(p).toMatchObject({ outcome: 0, side: "BUY", price: u("0.4"), quantity: u("10"), type: "limit", timeInForce: "GTC", postOnly: false, expiration: 0, clientOrderId: "c-1" });
    expect(p.market.symbol).toBe(ARS);
    expect(p.canonical.signer.toLowerCase()).toBe(h.wallets[0]!.address);
    expect(p.canonical.maker.toLowerCase()).toBe(h.wallets[0]!.vault.toLowerCase());
    expect(p.canonical.signatureType).toBe(1);
    expect(p.signature).toBe(b.order.signature);
  });

  it("a market order defaults to IOC; a GTD order keeps its expiration in seconds", async () => {
    const h = setup();
    const m = check(h, await body(h, { type: "market" }));
    expect(m.kind === "ok" && m.prepared.timeInForce).toBe("IOC");
    const exp = T0 / 1000 + 600;
    const g = check(h, await body(h, { timeInForce: "GTD", expiration: exp }));
    expect(g.kind === "ok" && g.prepared.expiration).toBe(exp);
  });
});

describe("which check answers first", () => {
  it("the market of the token comes before the maker and the fee", async () => {
    const h = setup();
    const b = await body(h, { tamper: (s) => ((s.tokenId = 999n), (s.feeRateBps = 5_000)) }, { maker: "0x" + "99".repeat(20) });
    expect(codeOf(check(h, b))).toBe("market_not_found");
  });

  it("the REST maker comes before the fee cap, the fee cap before the signature", async () => {
    const h = setup();
    const tooHigh = await body(h, { tamper: (s) => (s.feeRateBps = 1_001) });
    expect(codeOf(check(h, { ...tooHigh, maker: "0x" + "99".repeat(20) }))).toBe("maker_mismatch");
    expect(codeOf(check(h, tooHigh))).toBe("fee_too_high");
    expect(codeOf(check(h, await body(h, { tamper: (s) => (s.feeRateBps = 1_000) })))).toBe("bad_signature");
  });

  it("a struct that is not canonical is bad_signature before any amount or time check", async () => {
    const h = setup();
    const b = await body(h, { tamper: (s) => ((s.signatureType = 0), (s.makerAmount = 1n), (s.expiration = 1n)) });
    const r = check(h, b);
    expect(r.kind).toBe("bad_signature");
    // The prepared order still names what the platform verified.
    expect(r.kind === "bad_signature" && r.prepared.canonical.signatureType).toBe(1);
  });

  it("the body's side must be the signed side; then the amounts; then the expiration; then time in force", async () => {
    const h = setup();
    const ok = await body(h);
    expect(codeOf(check(h, { ...ok, side: "SELL" }))).toBe("invalid_request");
    const amounts = await body(h, { tamper: (s) => (s.makerAmount = 1n) });
    expect(codeOf(check(h, amounts))).toBe("invalid_amounts");
    // A past GTD expiration is "expired" even for a market order (invalid_tif would come after).
    const past = await body(h, { timeInForce: "GTD", expiration: T0 / 1000 - 1 });
    expect(codeOf(check(h, { ...past, type: "market" }))).toBe("expired");
  });
});

describe("amounts and bounds", () => {
  it("SELL: makerAmount is the quantity and takerAmount floor(price x qty)", async () => {
    const h = setup();
    const sell = { side: "SELL" as const, price: "0.333", quantity: "1.000001" };
    expect(check(h, await body(h, sell)).kind).toBe("ok");
    const maker = check(h, await body(h, { ...sell, tamper: (s) => (s.makerAmount = 1_000_000n) }));
    expect(maker.kind === "reject" && maker.result).toMatchObject({ code: "invalid_amounts", message: "SELL makerAmount must equal the quantity in micros" });
    // ceil instead of floor is refused for a SELL (the seller would be paid a micro too much).
    const taker = check(h, await body(h, { ...sell, tamper: (s) => (s.takerAmount = 333_001n) }));
    expect(taker.kind === "reject" && taker.result).toMatchObject({
      code: "invalid_amounts",
      message: "SELL takerAmount must be floor(price * qty / 1e6)",
      details: { field: "order.takerAmount", signed: "333001", expected: "333000" },
    });
  });

  it("a quantity above 1,000,000 shares is invalid_amounts", async () => {
    const h = setup();
    const b = await body(h, { price: "0.001", quantity: "1000000.000001" });
    const r = check(h, b);
    expect(r.kind === "reject" && r.result).toMatchObject({ code: "invalid_amounts", message: "quantity must be at most 1000000" });
    expect(codeOf(check(h, await body(h, { price: "0.001", quantity: "1000000" })))).toBe("ok");
  });

  it("an expiration beyond year 5138 is refused before it can overflow a safe integer", async () => {
    const h = setup();
    const b = await body(h, { timeInForce: "GTD", expiration: 100_000_000_001 });
    expect(codeOf(check(h, b))).toBe("invalid_request");
    expect(codeOf(check(h, await body(h, { timeInForce: "GTD", expiration: 100_000_000_000 })))).toBe("ok");
  });

  it("an expiration exactly now is already past", async () => {
    const h = setup();
    const exp = T0 / 1000 + 60;
    const b = await body(h, { timeInForce: "GTD", expiration: exp });
    expect(codeOf(check(h, b, exp * 1000 - 1))).toBe("ok");
    expect(codeOf(check(h, b, exp * 1000))).toBe("expired");
  });
});

describe("structJson", () => {
  it("writes the 11 fields as the wire does: uint256 as decimal strings, addresses lower-cased, small ints as numbers", async () => {
    const h = setup();
    const r = check(h, await body(h));
    if (r.kind !== "ok") throw new Error(codeOf(r));
    const j = structJson(r.prepared.canonical);
    expect(Object.keys(j)).toEqual(["salt", "maker", "signer", "taker", "tokenId", "makerAmount", "takerAmount", "expiration", "feeRateBps", "side", "signatureType"]);
    expect(j).toMatchObject({ makerAmount: "4000000", takerAmount: "10000000", expiration: "0", side: 0, signatureType: 1 });
    expect(j.signer).toBe(h.wallets[0]!.address);
    expect(typeof j.salt).toBe("string");
    expect(j.maker).toBe(String(j.maker).toLowerCase());
  });
});
