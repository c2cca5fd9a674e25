import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as w from "../../src/wire/index.js";
import * as f from "./fixtures.js";
import { expectInvalidAt, expectValid, withPath } from "./helpers.js";

interface Case {
  name: string;
  schema: z.ZodType;
  valid: () => unknown;
  /** Path to break, the bad value, and the formatted path the error must name. */
  bad: [path: (string | number)[], value: unknown, named: string];
}

const DEL = Symbol("delete");

const cases: Case[] = [
  { name: "TeamRef", schema: w.teamRef, valid: () => f.exampleTeamRef(), bad: [["logo"], DEL, "logo"] },
  { name: "EventTagSummary", schema: w.eventTagSummary, valid: () => f.exampleTagSummary(), bad: [["color"], 7, "color"] },
  { name: "Tag", schema: w.tag, valid: () => f.exampleTag(), bad: [["isFeatured"], "yes", "isFeatured"] },
  { name: "Tags list", schema: w.tagsList, valid: () => ({ tags: [f.exampleTag()] }), bad: [["tags", 0, "slug"], null, "tags[0].slug"] },
  {
    name: "MarketCryptoRule",
    schema: w.marketCryptoRule,
    valid: () => ({ productType: "THRESHOLD_BY_DEADLINE", direction: "ABOVE", targetPrice: "150000", instrumentId: "BTC-USD" }),
    bad: [["direction"], "SIDEWAYS", "direction"],
  },
  { name: "MarketSummary", schema: w.marketSummary, valid: () => f.exampleMarket(), bad: [["tradingWindow", "opensAt"], "tomorrow", "tradingWindow.opensAt"] },
  { name: "MarketSummary (crypto)", schema: w.marketSummary, valid: () => f.exampleCryptoMarket(), bad: [["crypto", "targetPrice"], 150000, "crypto.targetPrice"] },
  { name: "Markets page", schema: w.marketsPage, valid: () => ({ markets: [f.exampleMarket()], hasMore: false }), bad: [["markets", 0, "status"], "LIVE", "markets[0].status"] },
  {
    name: "Orderbook",
    schema: w.orderbook,
    valid: () => ({ marketId: f.SYMBOL, outcome: 0, tokenId: f.YES_TOKEN, bids: [{ price: "0.54", quantity: "120" }], asks: [{ price: "0.56", quantity: "80.5" }], updatedAt: f.T0 }),
    bad: [["asks", 0, "price"], 0.56, "asks[0].price"],
  },
  {
    name: "Price history",
    schema: w.priceHistory,
    valid: () => ({ marketId: f.SYMBOL, outcome: 0, points: [{ timestamp: f.T0, price: "0.5" }] }),
    bad: [["points", 0, "price"], "1.5", "points[0].price"],
  },
  { name: "MatchEvent", schema: w.matchEvent, valid: () => f.exampleMatchEvent(), bad: [["teamB", "code"], DEL, "teamB.code"] },
  { name: "Match", schema: w.match, valid: () => f.exampleMatch(), bad: [["scheduleStatus"], "DELAYED", "scheduleStatus"] },
  { name: "Matches page", schema: w.matchesPage, valid: () => ({ matches: [f.exampleMatch()] }), bad: [["matches", 0, "events", 0, "markets", 0, "lifecycle", "voidedAt"], DEL, "matches[0].events[0].markets[0].lifecycle.voidedAt"] },
  { name: "Event", schema: w.event, valid: () => f.exampleEvent(), bad: [["openMarketCount"], "1", "openMarketCount"] },
  {
    name: "Events page",
    schema: w.eventsPage,
    valid: () => ({ events: [f.exampleEvent()], total: 1, openMarketCount: 1, totalMarketCount: 1, facets: { tag: { "world-cup": 1 } } }),
    bad: [["events", 0, "cryptoSeries"], DEL, "events[0].cryptoSeries"],
  },
  { name: "Withdrawal", schema: w.withdrawal, valid: () => f.exampleWithdrawal(), bad: [["status"], "DONE", "status"] },
  { name: "Withdrawals page", schema: w.withdrawalsPage, valid: () => ({ withdrawals: [f.exampleWithdrawal()], nextCursor: null }), bad: [["withdrawals", 0, "amount"], "1e3", "withdrawals[0].amount"] },
  { name: "Leaderboard entry", schema: w.leaderboardEntry, valid: () => f.exampleLeaderboardEntry(), bad: [["rank"], null, "rank"] },
  { name: "Leaderboard", schema: w.leaderboard, valid: () => f.exampleLeaderboard(), bad: [["period"], "year", "period"] },
  { name: "Upcoming", schema: w.upcoming, valid: () => f.exampleUpcoming(), bad: [["upcoming", 0, "counts", "events"], -1, "upcoming[0].counts.events"] },
  { name: "Signed order", schema: w.signedOrder, valid: () => f.exampleSignedOrder(), bad: [["makerAmount"], "5.5", "makerAmount"] },
  { name: "Trade", schema: w.trade, valid: () => f.exampleTrade(), bad: [["makerWallet"], "0x123", "makerWallet"] },
  { name: "My trade", schema: w.myTrade, valid: () => ({ ...f.exampleTrade(), role: "maker", orderId: f.ORDER_ID }), bad: [["role"], "both", "role"] },
  { name: "Market trades page", schema: w.marketTradesPage, valid: () => ({ trades: [f.exampleTrade()], nextCursor: null }), bad: [["trades", 0, "fee"], "-1", "trades[0].fee"] },
  { name: "My trades page", schema: w.myTradesPage, valid: () => ({ trades: [{ ...f.exampleTrade(), role: "taker", orderId: f.ORDER_ID }], nextCursor: "abc" }), bad: [["trades", 0, "orderId"], DEL, "trades[0].orderId"] },
  { name: "Placement result (accepted)", schema: w.placementResult, valid: () => f.examplePlacement(), bad: [["filledQty"], 4, "filledQty"] },
  { name: "Placement result (rejected)", schema: w.placementResult, valid: () => f.exampleRejectedPlacement(), bad: [["code"], DEL, "code"] },
  { name: "Order record", schema: w.orderRecord, valid: () => f.exampleOrderRecord(), bad: [["status"], "LIVE", "status"] },
  { name: "Open-orders page", schema: w.openOrdersPage, valid: () => ({ walletAddress: f.WALLET, orders: [f.exampleOrderRecord()], nextCursor: "MTcxMjM0NTY3ODkwMDppZA" }), bad: [["orders", 0, "orderHash"], "0x12", "orders[0].orderHash"] },
  { name: "History page", schema: w.orderHistoryPage, valid: () => ({ walletAddress: f.WALLET, orders: [f.exampleOrderRecord({ status: "CANCELLED" })], nextCursor: null }), bad: [["nextCursor"], DEL, "nextCursor"] },
  { name: "Fills", schema: w.orderFills, valid: () => ({ orderId: f.ORDER_ID, fills: [f.exampleTrade()] }), bad: [["fills", 0, "createdAt"], "yesterday", "fills[0].createdAt"] },
  {
    name: "Fees summary",
    schema: w.orderFeesSummary,
    valid: () => ({ orderId: f.ORDER_ID, feesPaid: "0.02475", fillCount: 1, filledQty: "4", notional: "2.2" }),
    bad: [["fillCount"], 1.5, "fillCount"],
  },
  { name: "Cancel 200", schema: w.cancelResult, valid: () => ({ orderId: f.ORDER_ID, status: "CANCELLED", filledQty: "4", remainingQty: "6" }), bad: [["remainingQty"], DEL, "remainingQty"] },
  {
    name: "Cancel 202",
    schema: w.cancelResult,
    valid: () => ({ status: "cancel_pending", code: "cancel_pending", orderId: f.ORDER_ID, message: "cancel recorded", retryAfterSec: 5 }),
    bad: [["retryAfterSec"], "5", "retryAfterSec"],
  },
  { name: "Cancel-batch / cancel-all result", schema: w.cancelManyResult, valid: () => f.exampleCancelMany(), bad: [["notCancelled", 0, "code"], DEL, "notCancelled[0].code"] },
  {
    name: "Place-batch results",
    schema: w.placeBatchResult,
    valid: () => ({
      results: [
        { ...f.examplePlacement(), success: true },
        { success: false, code: "journal_intent_not_durable", message: "retry", details: { retryable: true }, clientOrderId: "mm1-abc-000002", status: "REJECTED" },
        { ...f.exampleRejectedPlacement({ code: "maker_mismatch", message: "maker mismatch" }), success: true },
      ],
    }),
    bad: [["results", 1, "code"], DEL, "results[1].code"],
  },
  { name: "Balances", schema: w.balances, valid: () => f.exampleBalances(), bad: [["collateral", "available"], "lots", "collateral.available"] },
  { name: "Positions page", schema: w.positionsPage, valid: () => f.examplePositions(), bad: [["positions", 0, "outcome"], -1, "positions[0].outcome"] },
  { name: "Vault info", schema: w.vaultInfo, valid: () => f.exampleVaultInfo(), bad: [["deployed"], "true", "deployed"] },
  { name: "Platform contracts", schema: w.platformContracts, valid: () => f.exampleContracts(), bad: [["exchange", "negRisk"], "0xnope", "exchange.negRisk"] },
  { name: "Fee config", schema: w.feeConfig, valid: () => ({ defaultFeeTakerBps: 100, maxFeeRateBps: 1000 }), bad: [["maxFeeRateBps"], "1000", "maxFeeRateBps"] },
  { name: "Platform status", schema: w.platformStatus, valid: () => ({ frozen: false, reason: null, updatedAt: f.T0 }), bad: [["reason"], DEL, "reason"] },
  {
    name: "Notices",
    schema: w.notices,
    valid: () => ({ notices: [{ id: "n1", severity: "maintenance", title: "Upgrade", message: "Matcher upgrade at 02:00 UTC", startsAt: f.T0, endsAt: null }] }),
    bad: [["notices", 0, "startsAt"], null, "notices[0].startsAt"],
  },
  { name: "Health", schema: w.health, valid: () => ({ status: "ok" }), bad: [["status"], 1, "status"] },
  { name: "Readiness", schema: w.readiness, valid: () => ({ ready: false, checks: { engine: true, ws: false } }), bad: [["checks", "ws"], "down", "checks.ws"] },
];

describe("every resource schema", () => {
  for (const c of cases) {
    it(`${c.name}: accepts a valid example and names the bad path of an invalid one`, () => {
      const value = c.valid();
      expectValid(c.schema, value);
      const [path, bad, named] = c.bad;
      const broken = bad === DEL ? withPath(value, path, undefined, true) : withPath(value, path, bad);
      expectInvalidAt(c.schema, broken, named);
    });
  }
});

describe("leniency on platform additions", () => {
  it("keeps unknown extra market keys and parses loosely typed named extras", () => {
    const row = {
      ...f.exampleMarket(),
      volumes: { total: "12345.5", h24: "300" },
      prediction: { version: 2, kind: "over_under", line: "2.5", threshold: null, endsAt: f.T0 },
      probabilityChange: { outcomes: [{ change: "1.25" }, { change: null }] },
      additionalSources: ["https://www.fifa.com"],
      resolution: null,
      tags: [f.exampleTagSummary()],
      tradingMode: "pre_market_post_only",
      notTradableReason: "brand_new_reason",
      someFutureKey: { nested: true },
    };
    const parsed = expectValid(w.marketSummary, row);
    expect(parsed.someFutureKey).toEqual({ nested: true });
    expect(parsed.notTradableReason).toBe("brand_new_reason");
  });

  it("parses an events-list row that omits the detail-only keys", () => {
    const { eventSlug: _a, homeCountry: _b, awayCountry: _c, sport: _d, resolutionCriteria: _e, tradable: _t, outcomeTokenIds: _o, ...listRow } = f.exampleMarket();
    expect(() => expectValid(w.marketSummary, listRow)).not.toThrow();
  });

  it("accepts an unknown productType, vertical, marketType and stage", () => {
    const m = f.exampleCryptoMarket({
      crypto: { productType: "ETF_FLOW_WEEKLY", direction: null, targetPrice: null, instrumentId: null, strikeCurrency: "USD" },
      vertical: "esports",
      marketType: "MAP_WINNER",
    });
    const parsed = expectValid(w.marketSummary, m);
    expect(parsed.crypto?.productType).toBe("ETF_FLOW_WEEKLY");
    expect(parsed.crypto?.strikeCurrency).toBe("USD");
    expect(w.isKnown(w.KNOWN_PRODUCT_TYPES, parsed.crypto!.productType)).toBe(false);
    expect(w.isKnown(w.KNOWN_PRODUCT_TYPES, "UP_DOWN_WINDOW")).toBe(true);
    expectValid(w.event, f.exampleEvent({ stage: "copa_libertadores" }));
  });

  it("accepts any object or null as cryptoWindow, but not a string", () => {
    expectValid(w.marketSummary, f.exampleCryptoMarket({ cryptoWindow: null }));
    expectInvalidAt(w.marketSummary, { ...f.exampleCryptoMarket(), cryptoWindow: "15m" }, "cryptoWindow");
  });

  it("keeps closed enums strict: an unknown market status fails", () => {
    expectInvalidAt(w.marketSummary, f.exampleMarket({ status: "HALTED" as never }), "status");
    expectInvalidAt(w.orderRecord, f.exampleOrderRecord({ status: "NEW" as never }), "status");
  });

  it("treats nullable keys as present-with-null: omitting one fails", () => {
    expectInvalidAt(w.event, withPath(f.exampleEvent(), ["match"], undefined, true), "match");
    expectInvalidAt(w.marketSummary, withPath(f.exampleMarket(), ["feeTakerBps"], undefined, true), "feeTakerBps");
    expectValid(w.event, f.exampleEvent({ match: null, sport: null }));
  });

  it("leaderboard me has a nullable rank but entries do not", () => {
    expectValid(w.leaderboard, f.exampleLeaderboard());
    expectInvalidAt(w.leaderboard, withPath(f.exampleLeaderboard(), ["entries", 0, "rank"], null), "entries[0].rank");
  });

  it("outcomeTokenIds is optional (a real platform row without it parses) but typed when present", () => {
    const { outcomeTokenIds: _x, ...row } = f.exampleMarket();
    expectValid(w.marketSummary, row);
    expectInvalidAt(w.marketSummary, f.exampleMarket({ outcomeTokenIds: ["0x12"] }), "outcomeTokenIds[0]");
  });

  it("signed order refuses extra keys and a side other than 0/1", () => {
    const r = w.signedOrder.safeParse({ ...f.exampleSignedOrder(), nonce: "1" });
    expect(r.success).toBe(false);
    expect(r.error?.message).toContain("nonce");
    expectInvalidAt(w.signedOrder, f.exampleSignedOrder({ side: 2 as never }), "side");
    expect(w.SIGNED_ORDER_FIELD_NAMES).toEqual([
      "salt", "maker", "signer", "taker", "tokenId", "makerAmount", "takerAmount", "expiration", "feeRateBps", "side", "signatureType",
    ]);
  });
});
