/**
 * From a desired quote to an order ready to send (src/bot/orders/order-maker.ts): ids, GTC/GTD,
 * the pre-signed cache used only when it fits, and pre-signing one wanted order at a time.
 */
import { describe, expect, it } from "vitest";
import { ClientOrderIds } from "../../../src/bot/orders/ids.js";
import { OrderMaker, type OrderMakerDeps } from "../../../src/bot/orders/order-maker.js";
import { PresignCache } from "../../../src/bot/orders/presign.js";
import type { DesiredQuote } from "../../../src/bot/quote/quotes.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { Rng } from "../../../src/core/rng.js";
import { WalletSigner, buildOrder, rngSaltSource, type SigningMarket } from "../../../src/signing/index.js";

const signer = WalletSigner.fromPrivateKey(`0x${"11".repeat(32)}`);
const VAULT = "0x2222222222222222222222222222222222222222";
const OTHER_VAULT = "0x3333333333333333333333333333333333333333";
const MARKET: SigningMarket = { symbol: "MKT", yesTokenId: "11", noTokenId: "12", outcomeTokenIds: ["11", "12"], feeTakerBps: 100, negRiskEligible: false };
const CONTRACTS = { chainId: 31337, domain: { name: "PartnerExchange", version: "1" }, exchange: { binary: VAULT, negRisk: VAULT } };
const ACCOUNT = { vault: VAULT, contracts: CONTRACTS, defaultFeeRateBps: 100 };
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0, 700);

const quote = (over: Partial<DesiredQuote> = {}): DesiredQuote => ({ outcome: 0, side: "BUY", price: 400_000n, size: 10_000_000n, postOnly: true, ...over });
const keyOf = (q: DesiredQuote) => ({ marketId: MARKET.symbol!, outcome: q.outcome, side: q.side, price: q.price, size: q.size, postOnly: q.postOnly });

function maker(over: Partial<OrderMakerDeps> = {}, account = true) {
  const clock = new VirtualClock(T0);
  const ids = new ClientOrderIds("t1", 0, "sess");
  const m = new OrderMaker({ signer, ids, clock, saltSource: rngSaltSource(new Rng(7)), ...over });
  if (account) m.useAccount(ACCOUNT);
  return { m, ids, clock };
}

/** An order for `q` signed ahead of time for `vault`, as the cache holds it. */
function presigned(q: DesiredQuote, vault = VAULT) {
  const built = buildOrder({
    contracts: CONTRACTS,
    market: MARKET,
    intent: { outcome: q.outcome, side: q.side, price: q.price, quantity: q.size, postOnly: q.postOnly },
    wallet: signer.address,
    vault,
    saltSource: rngSaltSource(new Rng(99)),
    defaultFeeRateBps: 100,
  });
  return { built, signature: signer.signBuiltOrderNow(built).signature };
}

describe("OrderMaker.make", () => {
  it("before the account is known: refused with a fresh id, and not ready", () => {
    const { m, ids } = maker({}, false);
    expect(m.ready).toBe(false);
    const r = m.make(quote(), "MKT", MARKET);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.clientOrderId).toBe("t1-0-sess-1");
    expect(String((r.error as Error).message)).toMatch(/no signing account/);
    expect(ids.issued).toBe(1);
    m.useAccount(ACCOUNT);
    expect(m.ready).toBe(true);
  });

  it.each([
    { name: "GTC without an expiry", expirySec: undefined, tif: "GTC", expiration: 0n },
    // T0 is 12:00:00.700: the expiry counts from the whole second
    { name: "GTD orderExpirySec after now (whole seconds)", expirySec: 60, tif: "GTD", expiration: BigInt(Math.floor(T0 / 1000) + 60) },
  ])("built, signed and bodied: $name", ({ expirySec, tif, expiration }) => {
    const { m } = maker({ orderExpirySec: expirySec });
    const q = quote({ side: "SELL", price: 610_000n, size: 5_000_000n, postOnly: false, level: 1, tag: "ask" });
    const r = m.make(q, "MKT", MARKET);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const o = r.order;
    expect(o.quote).toBe(q);
    expect(o.built.struct.maker.toLowerCase()).toBe(VAULT);
    expect(o.built.struct.signer).toBe(signer.address);
    expect(o.built).toMatchObject({ side: "SELL", price: 610_000n, quantity: 5_000_000n, postOnly: false, timeInForce: tif, outcome: 0, marketId: "MKT" });
    expect(BigInt(o.built.struct.expiration)).toBe(expiration);
    expect(o.body).toMatchObject({ clientOrderId: o.clientOrderId, side: "SELL", price: "0.61", quantity: "5", timeInForce: tif, postOnly: false });
    expect(o.body.order.signature).toBe(signer.signBuiltOrderNow(o.built).signature);
  });

  it("each order gets the next id", () => {
    const { m } = maker();
    const a = m.make(quote(), "MKT", MARKET);
    const b = m.make(quote({ price: 390_000n }), "MKT", MARKET);
    expect([a, b].map((r) => (r.ok ? r.order.clientOrderId : r.clientOrderId))).toEqual(["t1-0-sess-1", "t1-0-sess-2"]);
  });

  it.each([
    { name: "an outcome the market has no token for", q: quote({ outcome: 5 }), market: MARKET },
    { name: "a price off the grid", q: quote({ price: 400_500n }), market: MARKET },
  ])("a quote that cannot be signed: not ok, with its id and the error ($name)", ({ q, market }) => {
    const { m } = maker();
    const r = m.make(q, "MKT", market);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.clientOrderId).toBe("t1-0-sess-1");
    expect(r.error).toBeInstanceOf(Error);
  });
});

describe("OrderMaker.make with the pre-sign cache", () => {
  it("a cached order for exactly this quote is used as it is, under a new id", () => {
    const cache = new PresignCache();
    const q = quote();
    const p = presigned(q);
    cache.put(keyOf(q), p);
    const { m } = maker({ presign: cache });
    const r = m.make(q, "MKT", MARKET);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.order.built).toBe(p.built);
    expect(r.order.body.order.signature).toBe(p.signature);
    expect(r.order.body.clientOrderId).toBe(r.order.clientOrderId);
    expect(cache.counters.hits).toBe(1);
    // taken out: the next make of the same quote signs anew
    const again = m.make(q, "MKT", MARKET);
    expect(again.ok && again.order.built).not.toBe(p.built);
  });

  it("a cached order signed for another vault is not used", () => {
    const cache = new PresignCache();
    const q = quote();
    const p = presigned(q, OTHER_VAULT);
    cache.put(keyOf(q), p);
    const r = maker({ presign: cache }).m.make(q, "MKT", MARKET);
    expect(r.ok && r.order.built).not.toBe(p.built);
    expect(r.ok && r.order.built.struct.maker.toLowerCase()).toBe(VAULT);
  });

  it("GTD orders never come from the cache (it is not even asked)", () => {
    const cache = new PresignCache();
    const q = quote();
    cache.put(keyOf(q), presigned(q));
    const r = maker({ presign: cache, orderExpirySec: 30 }).m.make(q, "MKT", MARKET);
    expect(r.ok && r.order.built.timeInForce).toBe("GTD");
    expect(cache.counters).toMatchObject({ hits: 0, misses: 0 });
  });
});

describe("OrderMaker.presignNext", () => {
  const planned = () => {
    const cache = new PresignCache();
    cache.plan("MKT", [{ outcome: 0, side: "BUY", price: 400_000n, size: 10_000_000n, postOnly: true }]);
    return cache;
  };

  it.each([
    { name: "no cache", cache: false, account: true, expirySec: undefined },
    { name: "no account yet", cache: true, account: false, expirySec: undefined },
    { name: "GTD orders", cache: true, account: true, expirySec: 30 },
  ])("nothing to do: $name", ({ cache, account, expirySec }) => {
    const c = planned();
    const { m } = maker({ presign: cache ? c : undefined, orderExpirySec: expirySec }, account);
    expect(m.presignNext(() => MARKET)).toBe(false);
    expect(c.counters.signed).toBe(0);
  });

  it("nothing wanted: false", () => {
    const { m } = maker({ presign: new PresignCache() });
    expect(m.presignNext(() => MARKET)).toBe(false);
  });

  it("signs one wanted order per call; the quote it was for is then a hit", () => {
    const cache = planned();
    const { m } = maker({ presign: cache });
    const seen: string[] = [];
    expect(m.presignNext((s) => (seen.push(s), MARKET))).toBe(true);
    expect(seen).toEqual(["MKT"]);
    expect(cache.counters.signed).toBe(1);
    // keep signing until the wish list is done
    let n = 1;
    while (m.presignNext(() => MARKET)) n++;
    expect(cache.counters.signed).toBe(n);
    // one of the neighbours: 0.399 (offset -1 tick)
    const r = m.make(quote({ price: 399_000n }), "MKT", MARKET);
    expect(cache.counters.hits).toBe(1);
    expect(r.ok && r.order.built.price).toBe(399_000n);
  });

  it("a market no longer signable: the wanted order is skipped (true: work was done), nothing put", () => {
    const cache = planned();
    const { m } = maker({ presign: cache });
    expect(m.presignNext(() => undefined)).toBe(true);
    expect(cache.counters.signed).toBe(0);
  });

  it("a wanted order that cannot be signed is skipped without throwing", () => {
    const cache = planned();
    const { m } = maker({ presign: cache });
    const noTokens: SigningMarket = { ...MARKET, yesTokenId: null, noTokenId: null, outcomeTokenIds: [] };
    expect(m.presignNext(() => noTokens)).toBe(true);
    expect(cache.counters.signed).toBe(0);
  });
});
