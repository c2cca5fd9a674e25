/**
 * Market-side wire schemas (spec 2.3, 2.4, 2.6, 2.7 and the shapes chosen in docs/spec-gaps.md for
 * the markets page, order book and price history): the spec's rows parse, extra keys pass through,
 * present-with-null keys must be present, amounts and prices are decimal strings (never numbers),
 * and a malformed row is refused naming the field.
 */
import { describe, expect, it } from "vitest";
import {
  bookLevel,
  eventTagSummary,
  marketCryptoRule,
  marketLifecycle,
  marketSummary,
  marketsPage,
  orderbook,
  priceHistory,
  tag,
  tagsList,
  teamRef,
  tradingWindow,
} from "../../src/wire/markets.js";
import { safeParseQuick } from "../../src/wire/quick.js";
import { MARKET_ID, SYMBOL, T0, YES_TOKEN, exampleCryptoMarket, exampleMarket, exampleTag, exampleTagSummary, exampleTeamRef } from "./fixtures.js";
import { expectInvalidAt, expectValid, issueAt, withPath } from "./helpers.js";

describe("TeamRef, tags (2.3, 2.4)", () => {
  it("a national team with a null logo, and a club with a crest", () => {
    expect(expectValid(teamRef, exampleTeamRef())).toEqual({ code: "ARG", label: "Argentina", logo: null });
    expectValid(teamRef, exampleTeamRef({ code: "RMA", label: "Real Madrid", logo: "https://cdn.example.com/rma.png" }));
  });

  it("all three TeamRef keys are required", () => {
    for (const key of ["code", "label", "logo"]) expectInvalidAt(teamRef, withPath(exampleTeamRef(), [key], undefined, true), key);
  });

  it("a tag summary's color and iconUrl may be null; the full tag adds isFeatured", () => {
    expectValid(eventTagSummary, exampleTagSummary({ color: null, iconUrl: null }));
    expectInvalidAt(eventTagSummary, exampleTagSummary({ name: 3 as never }), "name");
    expect(expectValid(tag, exampleTag()).isFeatured).toBe(true);
    expectInvalidAt(tag, exampleTagSummary(), "isFeatured");
    expectInvalidAt(tagsList, { tags: [exampleTag(), { ...exampleTag(), slug: null }] }, "tags[1].slug");
  });
});

describe("MarketCryptoRule (2.7)", () => {
  const rule = { productType: "THRESHOLD_BY_DEADLINE", direction: "ABOVE", targetPrice: "150000", instrumentId: "BTC-USD" };

  it("parses a touch product, a level-less product and keeps the unshown fields after instrumentId", () => {
    expectValid(marketCryptoRule, rule);
    expectValid(marketCryptoRule, { productType: "RANGE_BAND", direction: null, targetPrice: null, instrumentId: null });
    expect(expectValid(marketCryptoRule, { ...rule, strikeCurrency: "USD" }).strikeCurrency).toBe("USD");
  });

  it("targetPrice is a decimal string, never a number; direction is ABOVE, BELOW or null", () => {
    expect(issueAt(marketCryptoRule, { ...rule, targetPrice: 150000 }, "targetPrice")).toBe("Invalid input: expected string, received number");
    expect(issueAt(marketCryptoRule, { ...rule, targetPrice: "1.5e5" }, "targetPrice")).toBe('expected a decimal string such as "0.55"');
    expectInvalidAt(marketCryptoRule, { ...rule, direction: "UP" }, "direction");
    expectInvalidAt(marketCryptoRule, withPath(rule, ["instrumentId"], undefined, true), "instrumentId");
  });
});

describe("trading window and lifecycle (2.6, 3.1)", () => {
  it("each key an ISO-8601 date-time or null, all present", () => {
    expectValid(tradingWindow, { preMarketStartsAt: null, opensAt: "2026-11-10T00:00:00.000Z", closesAt: "2026-11-20T20:00:00+01:00" });
    expectValid(marketLifecycle, { closedAt: null, pausedAt: T0, resolvedAt: null, voidedAt: null });
    expectInvalidAt(tradingWindow, { preMarketStartsAt: null, opensAt: null }, "closesAt");
    expectInvalidAt(marketLifecycle, { closedAt: null, pausedAt: null, resolvedAt: null }, "voidedAt");
    expect(issueAt(tradingWindow, { preMarketStartsAt: null, opensAt: "2026-11-10", closesAt: null }, "opensAt")).toBe("expected an ISO-8601 date-time");
    expect(issueAt(marketLifecycle, { closedAt: 1_763_000_000_000, pausedAt: null, resolvedAt: null, voidedAt: null }, "closedAt")).toBe("expected an ISO-8601 date-time");
  });
});

describe("MarketSummary (2.6)", () => {
  it("parses a full binary row and a crypto Up/Down window, keeping extra keys", () => {
    const parsed = expectValid(marketSummary, { ...exampleMarket(), liquidity: { depth: "1000" } });
    expect(parsed.symbol).toBe(SYMBOL);
    expect(parsed.yesTokenId).toBe(YES_TOKEN);
    expect(parsed.liquidity).toEqual({ depth: "1000" });
    expect(expectValid(marketSummary, exampleCryptoMarket()).cryptoWindow).toEqual({ startsAt: "2026-11-20T18:00:00.000Z", endsAt: "2026-11-20T18:15:00.000Z", cadenceMinutes: 15 });
  });

  it("a market before deployment: null condition, question and token ids, null fee (platform default)", () => {
    expectValid(marketSummary, exampleMarket({ conditionId: null, questionId: null, yesTokenId: null, noTokenId: null, feeTakerBps: null, outcomeTokenIds: null }));
  });

  it("a resolved market: payoutNumerators as strings or numbers, outcomePrices may hold null, chances never", () => {
    expectValid(marketSummary, exampleMarket({ status: "RESOLVED", payoutNumerators: ["1", "0"], outcomePrices: [null, "0.01"] }));
    expectValid(marketSummary, exampleMarket({ payoutNumerators: [1, 0] }));
    expectInvalidAt(marketSummary, exampleMarket({ chances: ["0.5", null as never] }), "chances[1]");
  });

  it.each([
    ["id", { id: "not-a-uuid" }, "expected a uuid"],
    ["eventId", { eventId: MARKET_ID.slice(1) }, "expected a uuid"],
    ["yesTokenId", { yesTokenId: "0x1f" }, "expected an unsigned integer as a decimal string"],
    ["noTokenId", { noTokenId: "1".repeat(79) }, "exceeds uint256"],
    ["feeTakerBps", { feeTakerBps: -1 }, "expected an integer >= 0"],
    ["outcomeCount", { outcomeCount: 2.5 }, "expected an integer"],
    ["createdAt", { createdAt: "yesterday" }, "expected an ISO-8601 date-time"],
    ["outcomePrices[0]", { outcomePrices: [0.55, "0.46"] as never }, "Invalid input: expected string, received number"],
    ["outcomeTokenIds[1]", { outcomeTokenIds: [YES_TOKEN, "-3"] }, "expected an unsigned integer as a decimal string"],
  ] as [string, Record<string, unknown>, string][])("refuses a bad %s, naming it", (path, patch, message) => {
    expect(issueAt(marketSummary, exampleMarket(patch), path)).toBe(message);
  });

  it("refuses a status outside 3.1 and a missing present-with-null key", () => {
    expectInvalidAt(marketSummary, exampleMarket({ status: "LIVE" as never }), "status");
    for (const key of ["groupItemTitle", "kickoff", "payoutNumerators", "crypto", "tradingWindow", "lifecycle"]) {
      expectInvalidAt(marketSummary, withPath(exampleMarket(), [key], undefined, true), key);
    }
  });

  it("names a nested bad field by its whole path", () => {
    expectInvalidAt(marketSummary, withPath(exampleMarket(), ["lifecycle", "resolvedAt"], "soon"), "lifecycle.resolvedAt");
    expectInvalidAt(marketSummary, withPath(exampleCryptoMarket(), ["crypto", "direction"], "UP"), "crypto.direction");
    expectInvalidAt(marketsPage, { markets: [exampleMarket(), exampleMarket({ slug: 7 as never })], hasMore: true }, "markets[1].slug");
  });

  it("the markets page needs hasMore", () => {
    expectValid(marketsPage, { markets: [], hasMore: false });
    expectInvalidAt(marketsPage, { markets: [exampleMarket()] }, "hasMore");
  });
});

describe("order book and price history (docs/spec-gaps.md)", () => {
  const book = {
    marketId: SYMBOL,
    outcome: 0,
    tokenId: YES_TOKEN,
    bids: [{ price: "0.54", quantity: "120" }, { price: "0.53", quantity: "0.000001" }],
    asks: [{ price: "0.56", quantity: "80.5" }],
    updatedAt: T0,
  };

  it("parses one outcome's book; tokenId and updatedAt may be left out", () => {
    expect(expectValid(orderbook, book)).toEqual(book);
    expectValid(orderbook, { marketId: SYMBOL, outcome: 1, bids: [], asks: [] });
    expectValid(orderbook, { ...book, tokenId: null });
  });

  it.each([
    [["bids", 0, "price"], "1.5", "bids[0].price", "expected a price between 0 and 1"],
    [["asks", 0, "price"], "-0.1", "asks[0].price", "expected a price between 0 and 1"],
    [["bids", 1, "quantity"], "-1", "bids[1].quantity", "expected a non-negative amount"],
    [["asks", 0, "quantity"], "0.0000001", "asks[0].quantity", 'expected a decimal string with at most 6 decimals, such as "12.5"'],
    [["outcome"], -1, "outcome", "expected an integer >= 0"],
    [["tokenId"], "abc", "tokenId", "expected an unsigned integer as a decimal string"],
    [["updatedAt"], "now", "updatedAt", "expected an ISO-8601 date-time"],
  ] as [(string | number)[], unknown, string, string][])("refuses %j = %j, naming %s", (path, bad, named, message) => {
    expect(issueAt(orderbook, withPath(book, path, bad), named)).toBe(message);
  });

  it("a price given as a number is refused", () => {
    expectInvalidAt(bookLevel, { price: 0.54, quantity: "1" }, "price");
  });

  it("the order book's quick check agrees with the schema on the example and on a bad level", () => {
    expect(safeParseQuick(orderbook, book)).toEqual({ success: true, data: orderbook.parse(book) });
    expect(safeParseQuick(orderbook, withPath(book, ["bids", 0, "price"], "1.5")).success).toBe(false);
  });

  it("price history: points of timestamp and price, oldest first", () => {
    const history = { marketId: SYMBOL, outcome: 0, points: [{ timestamp: "2026-11-19T00:00:00.000Z", price: "0.5" }, { timestamp: T0, price: "0.545" }] };
    expect(expectValid(priceHistory, history)).toEqual(history);
    expect(issueAt(priceHistory, withPath(history, ["points", 1, "price"], "1.01"), "points[1].price")).toBe("expected a price between 0 and 1");
    expectInvalidAt(priceHistory, withPath(history, ["points", 0, "timestamp"], undefined, true), "points[0].timestamp");
  });
});
