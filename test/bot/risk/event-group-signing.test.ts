/**
 * Orders on neg-risk markets are signed against the neg-risk verifying contract on every path the
 * daemon has: signed on the hot path (GTC and GTD) and pre-signed (presign.ts, taken from the cache
 * by OrderMaker.make). Each signature recovers to the wallet under the neg-risk domain, and not
 * under the binary exchange's domain.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { WalletSigner, orderDomain, recoverOrderSigner, rngSaltSource, type SigningMarket } from "../../../src/signing/index.js";
import { OrderMaker, type Pending } from "../../../src/bot/orders/order-maker.js";
import { ClientOrderIds } from "../../../src/bot/orders/ids.js";
import { PresignCache } from "../../../src/bot/orders/presign.js";
import { signingMarketOf } from "../../../src/bot/market/market-registry.js";
import type { DesiredQuote } from "../../../src/bot/quote/quotes.js";
import type { MarketSummary } from "../../../src/wire/index.js";
import { CONTRACTS, testKey } from "../../signing/fixtures.js";
import { m } from "./fixtures.js";

const VAULT = "0x1111111111111111111111111111111111111111";
const SYMBOL = "ARS-CHE-DRAW";
const NEG_RISK_BINARY: SigningMarket = {
  symbol: SYMBOL,
  yesTokenId: "1001",
  noTokenId: "1002",
  feeTakerBps: 100,
  negRiskEligible: true,
};

const signer = WalletSigner.fromPrivateKey(testKey(1414));
const NEG = orderDomain(CONTRACTS, { negRiskEligible: true });
const BIN = orderDomain(CONTRACTS, { negRiskEligible: false });

function maker(over: { presign?: PresignCache; orderExpirySec?: number } = {}): OrderMaker {
  const mk = new OrderMaker({ signer, ids: new ClientOrderIds("t1", 0, "sess"), clock: new VirtualClock(1_700_000_000_000), saltSource: rngSaltSource(new Rng(3)), ...over });
  mk.useAccount({ vault: VAULT, contracts: CONTRACTS, defaultFeeRateBps: 100 });
  return mk;
}

const quote = (outcome: number, side: "BUY" | "SELL", price: string): DesiredQuote => ({ outcome, side, price: m(price), size: m("10"), postOnly: true });

async function expectNegRiskSigned(p: Pending): Promise<void> {
  expect(p.built.domain.verifyingContract.toLowerCase()).toBe(CONTRACTS.exchange.negRisk.toLowerCase());
  const sig = p.body.order.signature;
  expect((await recoverOrderSigner(p.built.struct, sig, NEG, { cache: null }))?.toLowerCase()).toBe(signer.address.toLowerCase());
  expect((await recoverOrderSigner(p.built.struct, sig, BIN, { cache: null }))?.toLowerCase()).not.toBe(signer.address.toLowerCase());
}

function made(r: ReturnType<OrderMaker["make"]>): Pending {
  if (!r.ok) throw r.error instanceof Error ? r.error : new Error(String(r.error));
  return r.order;
}

describe("neg-risk orders are signed against the neg-risk exchange on every path", () => {
  it("the registry's signing view keeps negRiskEligible from the market row", () => {
    const row = { symbol: "S", yesTokenId: "1", noTokenId: "2", outcomeCount: 2, outcomeLabels: ["Yes", "No"], feeTakerBps: 100, negRiskEligible: true } as unknown as MarketSummary;
    expect(signingMarketOf(row).negRiskEligible).toBe(true);
  });

  it("signed on the hot path: GTC and GTD, YES and NO, BUY and SELL", async () => {
    for (const mk of [maker(), maker({ orderExpirySec: 300 })]) {
      for (const q of [quote(0, "BUY", "0.27"), quote(1, "BUY", "0.70"), quote(0, "SELL", "0.30")]) await expectNegRiskSigned(made(mk.make(q, SYMBOL, NEG_RISK_BINARY)));
    }
  });

  it("pre-signed: the cache's order, taken by make, recovers under the neg-risk domain", async () => {
    const cache = new PresignCache(256, { budgetStart: 100 });
    const mk = maker({ presign: cache });
    const q = quote(0, "BUY", "0.27");
    cache.plan(SYMBOL, [q]);
    let n = 0;
    while (mk.presignNext((s) => (s === SYMBOL ? NEG_RISK_BINARY : undefined)) && n < 100) n++;
    expect(cache.counters.signed).toBeGreaterThan(0);
    // The cache signs the neighbours of a planned quote (where the next one is likely to go).
    const p = made(mk.make({ ...q, price: m("0.268") }, SYMBOL, NEG_RISK_BINARY));
    expect(cache.counters.hits).toBe(1);
    await expectNegRiskSigned(p);
  });
});
