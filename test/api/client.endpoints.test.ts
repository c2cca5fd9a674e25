/** Every typed method: the request it sends and the answer it parses. */
import { describe, expect, it } from "vitest";
import type { PartnerClient } from "../../src/api/index.js";
import {
  exampleBalances,
  exampleContracts,
  exampleEvent,
  exampleMarket,
  exampleOrderRecord,
  exampleTag,
  exampleTrade,
  exampleVaultInfo,
  ORDER_ID,
  SYMBOL,
  T0,
  WALLET,
} from "../wire/fixtures.js";
import { envelope, json, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

type Case = [name: string, call: (c: PartnerClient) => Promise<{ ok: boolean; data?: unknown }>, expected: string, answer: unknown, auth: boolean];

const book = { marketId: SYMBOL, outcome: 1, bids: [{ price: "0.5", quantity: "10" }], asks: [{ price: "0.52", quantity: "3" }] };
const history = { marketId: SYMBOL, outcome: 0, points: [{ timestamp: T0, price: "0.5" }] };

const cases: Case[] = [
  ["markets.get", (c) => c.markets.get("arg-fra-winner"), "GET /api/markets/arg-fra-winner", exampleMarket(), false],
  ["markets.orderbook", (c) => c.markets.orderbook(SYMBOL, 1), `GET /api/markets/${SYMBOL}/orderbook?outcome=1`, book, false],
  ["markets.trades", (c) => c.markets.trades(SYMBOL, { after: "2026-01-01" }), `GET /api/markets/${SYMBOL}/trades?after=2026-01-01`, { trades: [exampleTrade()], nextCursor: null }, false],
  ["markets.priceHistory", (c) => c.markets.priceHistory(SYMBOL, { outcome: 0 }), `GET /api/markets/${SYMBOL}/price-history?outcome=0`, history, false],
  ["markets.traders", (c) => c.markets.traders(SYMBOL, { limit: 5 }), `GET /api/markets/${SYMBOL}/traders?limit=5`, { traders: [] }, false],
  ["markets.tradersByOutcome", (c) => c.markets.tradersByOutcome(SYMBOL), `GET /api/markets/${SYMBOL}/traders/by-outcome`, { outcomes: [] }, false],
  ["markets.ohlc", (c) => c.markets.ohlc(SYMBOL, { interval: "1h" }), `GET /api/markets/${SYMBOL}/ohlc?interval=1h`, { candles: [] }, false],
  ["events.list", (c) => c.events.list({ status: "closed", page: 2 }), "GET /api/events?status=closed&page=2", { events: [exampleEvent()] }, false],
  ["events.get", (c) => c.events.get("arg-fra"), "GET /api/events/arg-fra", exampleEvent(), false],
  ["events.featured (object)", (c) => c.events.featured(), "GET /api/events/featured", { events: [exampleEvent()] }, false],
  ["events.featured (array)", (c) => c.events.featured(), "GET /api/events/featured", [exampleEvent()], false],
  ["events.stats", (c) => c.events.stats(), "GET /api/events/stats", { total: 3 }, false],
  ["tags.list", (c) => c.tags.list(), "GET /api/tags", { tags: [exampleTag()] }, false],
  ["platform.contracts", (c) => c.platform.contracts(), "GET /api/platform/contracts", exampleContracts(), false],
  ["platform.feeConfig", (c) => c.platform.feeConfig(), "GET /api/platform/fee-config", { defaultFeeTakerBps: 100, maxFeeRateBps: 1000 }, false],
  ["platform.status", (c) => c.platform.status(), "GET /api/platform/status", { frozen: false, reason: null, updatedAt: T0 }, false],
  ["platform.notices", (c) => c.platform.notices(), "GET /api/platform/notices", { notices: [] }, false],
  ["health", (c) => c.health(), "GET /health", { status: "ok" }, false],
  ["ready", (c) => c.ready(), "GET /ready", { ready: true }, false],
  ["orders.get", (c) => c.forWallet(WALLET).orders.get(ORDER_ID), `GET /api/orders/${ORDER_ID}`, exampleOrderRecord(), true],
  ["orders.fills", (c) => c.forWallet(WALLET).orders.fills(ORDER_ID), `GET /api/orders/${ORDER_ID}/fills`, { orderId: ORDER_ID, fills: [exampleTrade()] }, true],
  [
    "orders.feesSummary",
    (c) => c.forWallet(WALLET).orders.feesSummary(ORDER_ID),
    `GET /api/orders/${ORDER_ID}/fees-summary`,
    { orderId: ORDER_ID, feesPaid: "0.02", fillCount: 1, filledQty: "4", notional: "2.2" },
    true,
  ],
  ["portfolio.vault", (c) => c.forWallet(WALLET).portfolio.vault(), "GET /api/me/vault", exampleVaultInfo(), true],
  ["portfolio.balances", (c) => c.forWallet(WALLET).portfolio.balances(), "GET /api/me/balances", exampleBalances(), true],
  ["portfolio.fees", (c) => c.forWallet(WALLET).portfolio.fees({ limit: 10 }), "GET /api/me/fees?limit=10", { fees: [], nextCursor: null }, true],
  ["portfolio.feeTier", (c) => c.forWallet(WALLET).portfolio.feeTier(), "GET /api/me/fee-tier", { tier: "VIP" }, true],
  ["portfolio.depositLimits", (c) => c.forWallet(WALLET).portfolio.depositLimits(), "GET /api/me/deposit-limits", { daily: "1000" }, true],
  ["vault.deploySign", (c) => c.forWallet(WALLET).vault.deploySign({}), "POST /api/me/vault/deploy/sign", { typedData: { a: 1 } }, true],
  ["vault.deploySubmit", (c) => c.forWallet(WALLET).vault.deploySubmit({ signature: "0x01" }), "POST /api/me/vault/deploy/submit", { txHash: "0xab" }, true],
];

describe("endpoints", () => {
  for (const [name, call, expected, answer, auth] of cases) {
    it(`${name}: ${expected}`, async () => {
      const { clock, transport, client } = harness();
      transport.enqueue(json(200, answer));
      const res = await settle(clock, call(client));
      expect(res.ok).toBe(true);
      expect(transport.paths()).toEqual([expected]);
      const req = transport.requests[0]!;
      expect(req.headers["x-api-key"] !== undefined).toBe(auth);
      expect(req.headers["x-user-wallet"]).toBe(auth ? WALLET : undefined);
    });
  }

  it("ready: a 503 {ready:false} is an answer, not retried", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(503, { ready: false, checks: { matcher: false } }));
    const res = await settle(clock, client.ready());
    expect(res.data.ready).toBe(false);
    expect(transport.requests).toHaveLength(1);
    expect(client.breaker.stats().windowFailures).toBe(0);
  });

  it("vault deploy: a business refusal is a Rejected result; a 5xx throws with an unknown outcome", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { code: "wallet_banned", message: "banned" }), envelope(500, "internal"));
    const r = await settle(clock, client.vault.deploySign({}));
    expect(r).toMatchObject({ ok: false, code: "wallet_banned", handling: "business_reject" });
    await expect(settle(clock, client.vault.deploySign({}))).rejects.toMatchObject({ handling: "unknown_outcome" });
    expect(transport.requests).toHaveLength(2);
  });
});
