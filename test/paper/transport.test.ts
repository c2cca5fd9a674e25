/**
 * The paper REST seam (paper/transport.ts) on a virtual clock and a scripted platform: keyed
 * routes and anything but a GET answered from the paper account after the entry and response
 * latencies, a caller that is not one of its wallets refused; public reads forwarded (each counted
 * by route) and observed on the way back: market rows, books (answered with our resting paper
 * orders in them, a binary market's other outcome at the complement), public trades (history
 * before the run fills nothing), the contracts (the order hash becomes the EIP-712 digest); an
 * answer that is not a 200 or not JSON passed on as it came. (Request ids: transport.ids.test.ts.)
 */
import { describe, expect, it, vi } from "vitest";
import { VirtualClock, flushMicrotasks } from "../../src/core/clock.js";
import { parseMicros as m } from "../../src/core/money.js";
import { Rng } from "../../src/core/rng.js";
import { constantLatency } from "../../src/backtest/models/latency.js";
import { hashOrderStruct, orderDigest, orderDomain, type OrderStruct } from "../../src/signing/index.js";
import type { HttpRequest, HttpResponse } from "../../src/wire/transport.js";
import { COUNTERPARTY, PaperAccount } from "../../src/paper/account.js";
import { PaperTransport } from "../../src/paper/transport.js";
import { W, paperPlaceBody } from "./fixtures.js";

const T0 = Date.UTC(2026, 0, 1, 12);
const EXCHANGE = "0x00000000000000000000000000000000000000e1";
const CONTRACTS = { chainId: 8453, domain: { name: "Exchange", version: "1" }, exchange: { binary: EXCHANGE, negRisk: "0x00000000000000000000000000000000000000e2" }, vaultFactory: W, collateral: W };

const ROW = { symbol: "MKT", status: "OPEN", outcomeCount: 2, feeTakerBps: 200, negRiskEligible: false, yesTokenId: "11", noTokenId: "12", outcomeLabels: ["Up", "Down"] };
const BOOK = { outcome: 0, bids: [{ price: "0.40", quantity: "100" }], asks: [{ price: "0.45", quantity: "50" }, { price: "0.47", quantity: "5" }] };

function setup(answers: Record<string, unknown> = {}) {
  const clock = new VirtualClock(T0);
  const account = new PaperAccount({ wallets: [W], startingCash: m("1000"), queue: { kind: "risk-averse" }, now: () => clock.now() });
  const seen: HttpRequest[] = [];
  const upstream = {
    request: (req: HttpRequest): Promise<HttpResponse> => {
      seen.push(req);
      const a = answers[req.path.split("?")[0]!];
      if (a !== undefined && typeof a === "object" && a !== null && "status" in a && "body" in a) return Promise.resolve(a as HttpResponse);
      return Promise.resolve({ status: 200, headers: { "x-up": "1" }, body: JSON.stringify(a ?? {}) });
    },
  };
  const t = new PaperTransport({ upstream, account, clock, latency: constantLatency(20, 30), rng: new Rng(1), vaultOf: () => "0x00000000000000000000000000000000000000ee", startMs: T0 });
  const send = async (req: Omit<HttpRequest, "headers"> & { headers?: Record<string, string> }): Promise<HttpResponse & { at: number }> => {
    let res: HttpResponse | undefined;
    void t.request({ headers: {}, ...req }).then((r) => (res = r));
    for (let i = 0; i < 100; i++) {
      await flushMicrotasks();
      if (res !== undefined) break;
      await clock.advance(5);
    }
    return { ...res!, at: clock.now() - T0 };
  };
  return { clock, account, t, seen, send };
}

const json = (r: HttpResponse): Record<string, unknown> => JSON.parse(r.body) as Record<string, unknown>;

/** The shared place body as this test sends it: salt 7 (STRUCT below), no clientOrderId. */
function placeBody(over: Record<string, unknown> = {}): string {
  return JSON.stringify(paperPlaceBody({ clientOrderId: undefined, ...over }, { salt: "7" }));
}

const STRUCT: OrderStruct = { salt: 7n, maker: W, signer: W, taker: COUNTERPARTY, tokenId: 11n, makerAmount: 4_100_000n, takerAmount: 10_000_000n, expiration: 0n, feeRateBps: 200, side: 0, signatureType: 2 };

describe("keyed requests", () => {
  it("are answered here after the entry and response latencies, never sent upstream", async () => {
    const { send, seen, t } = setup();
    const r = await send({ method: "GET", path: "/api/me/balances?x=1", headers: { "X-User-Wallet": W.toUpperCase().replace("0X", "0x"), "x-api-key": "stand-in" } });
    expect(r.status).toBe(200);
    expect(r.at).toBe(50);
    expect(r.headers).toEqual({ "content-type": "application/json", "x-server-time": String(T0 + 20), "x-request-id": "paper-1", "x-api-version": "paper" });
    expect(json(r)).toMatchObject({ walletAddress: W, collateral: { total: "1000" } });
    expect(seen).toEqual([]);
    expect(Object.fromEntries(t.answered)).toEqual({ "GET /api/me/balances": 1 });
  });

  it("refuse a caller that is not one of the account's wallets", async () => {
    const { send } = setup();
    for (const headers of [{}, { "x-user-wallet": "0x12" }, { "x-user-wallet": "0x00000000000000000000000000000000000000bb" }] as Record<string, string>[]) {
      const r = await send({ method: "GET", path: "/api/orders/open", headers });
      expect([r.status, json(r)]).toEqual([403, { status: 403, error: { code: "wallet_not_linked", message: "X-User-Wallet is not one of the paper account's wallets" } }]);
    }
  });

  it("include anything that is not a GET, whatever its path", async () => {
    const { send, seen, t } = setup();
    const r = await send({ method: "POST", path: "/api/markets", headers: { "x-user-wallet": W }, body: "{}" });
    expect([r.status, (json(r).error as { code: string }).code]).toEqual([501, "not_implemented"]);
    expect(seen).toEqual([]);
    expect(Object.fromEntries(t.answered)).toEqual({ "POST /api/markets": 1 });
  });
});

describe("public reads", () => {
  it("go upstream with the platform key only, counted by route, and come back as they were", async () => {
    const { send, seen, t } = setup({ "/api/tags": { tags: [] }, "/api/events": { status: 503, headers: {}, body: "busy" } });
    const r = await send({ method: "GET", path: "/api/tags?x=1", headers: { accept: "application/json", "x-api-key": "stand-in", "X-User-Wallet": W } });
    expect(r).toMatchObject({ status: 200, body: '{"tags":[]}', headers: { "x-up": "1" }, at: 0 });
    expect(seen[0]!.headers).toEqual({ accept: "application/json" });
    expect(await send({ method: "GET", path: "/api/events" })).toMatchObject({ status: 503, body: "busy" });
    await send({ method: "GET", path: "/api/tags" });
    expect(Object.fromEntries(t.forwarded)).toEqual({ "GET /api/tags": 2, "GET /api/events": 1 });
    const keyed = new PaperTransport({ upstream: { request: (req) => (seen.push(req), Promise.resolve({ status: 200, headers: {}, body: "not json" })) }, account: new PaperAccount({ wallets: [W], startingCash: 0n, queue: { kind: "risk-averse" }, now: () => 0 }), clock: new VirtualClock(T0), latency: constantLatency(0, 0), rng: new Rng(1), vaultOf: () => W, apiKey: "pmk_real" });
    expect(await keyed.request({ method: "GET", path: "/api/markets/MKT/orderbook", headers: { "x-api-key": "stand-in" } })).toMatchObject({ body: "not json" });
    expect(seen.at(-1)!.headers).toEqual({ "x-api-key": "pmk_real" });
  });

  it("teach the account the market rows, a listing's and a single one's", async () => {
    const { send, account } = setup({ "/api/markets": { markets: [ROW, { symbol: "TRI", status: "PRE_MARKET", outcomeCount: 3, outcomeTokenIds: ["1", "2", "3"] }, { symbol: "bad" }], hasMore: false }, "/api/markets/OTHER": { ...ROW, symbol: "OTHER", status: "CLOSED", negRiskEligible: true } });
    await send({ method: "GET", path: "/api/markets?limit=10" });
    await send({ method: "GET", path: "/api/markets/OTHER" });
    expect(Object.fromEntries(account.markets)).toEqual({
      MKT: { symbol: "MKT", status: "OPEN", outcomeCount: 2, feeTakerBps: 200, negRiskEligible: false, labels: ["Up", "Down"], tokenIds: ["11", "12"] },
      TRI: { symbol: "TRI", status: "PRE_MARKET", outcomeCount: 3, feeTakerBps: 0, negRiskEligible: false, tokenIds: ["1", "2", "3"] },
      OTHER: { symbol: "OTHER", status: "CLOSED", outcomeCount: 2, feeTakerBps: 200, negRiskEligible: true, labels: ["Up", "Down"], tokenIds: ["11", "12"] },
    });
  });

  it("show a book with our resting paper orders in it, the other outcome's at the complement", async () => {
    const { send, account } = setup({ "/api/markets": { markets: [ROW] }, "/api/markets/MKT/orderbook": BOOK });
    await send({ method: "GET", path: "/api/markets" });
    await send({ method: "GET", path: "/api/markets/MKT/orderbook?outcome=0" });
    expect(account.counts.books).toBe(1);
    // a YES bid of 10 at 0.41 and a NO bid of 3 at 0.5 (a YES ask at 0.5)
    expect((await send({ method: "POST", path: "/api/orders/place", headers: { "x-user-wallet": W }, body: placeBody() })).status).toBe(201);
    const no = placeBody({ outcome: 1, price: "0.5", quantity: "3", order: { ...JSON.parse(placeBody()).order, tokenId: "12", makerAmount: "1500000", takerAmount: "3000000" } });
    expect(json(await send({ method: "POST", path: "/api/orders/place", headers: { "x-user-wallet": W }, body: no }))).toMatchObject({ status: "OPEN" });
    const book = json(await send({ method: "GET", path: "/api/markets/MKT/orderbook?outcome=0" }));
    expect(book).toEqual({
      outcome: 0,
      bids: [
        { price: "0.41", quantity: "10" },
        { price: "0.4", quantity: "100" },
      ],
      asks: [
        { price: "0.45", quantity: "50" },
        { price: "0.47", quantity: "5" },
        { price: "0.5", quantity: "3" },
      ],
    });
  });

  it("apply public trades from the run's start, oldest first, each once; older ones are history", async () => {
    const trade = (id: string, at: number, over: Record<string, unknown> = {}) => ({ id, outcome: 0, side: "SELL", price: "0.40", quantity: "1", createdAt: new Date(at).toISOString(), ...over });
    const page = { trades: [trade("t3", T0 + 2_000), trade("t0", T0 - 60_000), trade("t2", T0 + 1_000), trade("bad", T0 + 3_000, { price: 0.4 }), trade("t1", T0 + 1_000)] };
    const { send, account } = setup({ "/api/markets": { markets: [ROW] }, "/api/markets/MKT/trades": page });
    // Every trade the transport hands the account, and those the account applied (its count moved).
    const handed: string[] = [];
    const applied: string[] = [];
    const observe = account.observeTrade.bind(account);
    vi.spyOn(account, "observeTrade").mockImplementation((symbol, t) => {
      handed.push(t.id);
      const before = account.counts.trades;
      observe(symbol, t);
      if (account.counts.trades > before) applied.push(t.id);
    });
    await send({ method: "GET", path: "/api/markets" });
    await send({ method: "GET", path: "/api/markets/MKT/trades" });
    // t1 and t2 share a time: ties by id. t0 predates the run, "bad" has a numeric price.
    expect(handed).toEqual(["t1", "t2", "t3"]);
    await send({ method: "GET", path: "/api/markets/MKT/trades" });
    expect(handed).toEqual(["t1", "t2", "t3", "t1", "t2", "t3"]);
    expect(applied).toEqual(["t1", "t2", "t3"]);
    expect(account.counts.trades).toBe(3);
  });

  it("make the order hash the EIP-712 digest once the contracts are known", async () => {
    const { send, account } = setup({ "/api/markets": { markets: [ROW] }, "/api/markets/MKT/orderbook": BOOK, "/api/platform/contracts": CONTRACTS });
    await send({ method: "GET", path: "/api/markets" });
    await send({ method: "GET", path: "/api/markets/MKT/orderbook?outcome=0" });
    await send({ method: "POST", path: "/api/orders/place", headers: { "x-user-wallet": W }, body: placeBody({ clientOrderId: "before" }) });
    await send({ method: "GET", path: "/api/platform/contracts" });
    await send({ method: "POST", path: "/api/orders/place", headers: { "x-user-wallet": W }, body: placeBody({ clientOrderId: "after" }) });
    expect(account.find(W, { clientOrderId: "before" })!.orderHash).toBe(hashOrderStruct(STRUCT).toLowerCase());
    expect(account.find(W, { clientOrderId: "after" })!.orderHash).toBe(orderDigest(STRUCT, orderDomain(CONTRACTS as never, { negRiskEligible: false })).toLowerCase());
  });
});
