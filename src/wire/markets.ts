/**
 * Market-side resources (spec 2.3, 2.4, 2.6, 2.7) and the market-data pages whose shapes the
 * spec leaves open (markets list, orderbook, price history: choices listed in the report /
 * docs/spec-gaps.md). All response objects are loose: extra keys from the platform pass through.
 */
import { z } from "zod";
import {
  cryptoDirection,
  marketStatus,
  marketType,
  notTradableReason,
  productType,
  tradingMode,
  vertical,
} from "./enums.js";
import {
  amountString,
  decimalString,
  int,
  isoDateTime,
  isUint256String,
  nonNegativeInt,
  priceString,
  uint256String,
  uuid,
} from "./primitives.js";
import { isAmount, isMicrosIn, isPlain, looseOutput, registerQuick } from "./quick.js";

/** Spec 2.3: all three keys required; `logo` null is normal for national teams. */
export const teamRef = z.looseObject({
  code: z.string(),
  label: z.string(),
  logo: z.string().nullable(),
});
export type TeamRef = z.infer<typeof teamRef>;

/** Spec 2.4. */
export const eventTagSummary = z.looseObject({
  slug: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  iconUrl: z.string().nullable(),
});
export type EventTagSummary = z.infer<typeof eventTagSummary>;

/** Full tag record of `GET /api/tags` (spec 2.4). */
export const tag = z.looseObject({
  ...eventTagSummary.shape,
  isFeatured: z.boolean(),
});
export type Tag = z.infer<typeof tag>;

/** `GET /api/tags` page. Shape not shown; chosen: `{tags: Tag[]}`. */
export const tagsList = z.looseObject({ tags: z.array(tag) });
export type TagsList = z.infer<typeof tagsList>;

/** Spec 2.7; fields after `instrumentId` are not shown and pass through. */
export const marketCryptoRule = z.looseObject({
  productType,
  direction: cryptoDirection.nullable(),
  targetPrice: decimalString.nullable(),
  instrumentId: z.string().nullable(),
});
export type MarketCryptoRule = z.infer<typeof marketCryptoRule>;

/** Spec 2.6: shape of `cryptoWindow` not shown; any object (or null) is kept as is. */
export const marketCryptoWindow = z.record(z.string(), z.unknown());
export type MarketCryptoWindow = z.infer<typeof marketCryptoWindow>;

/** Spec 2.6: all three keys always present, each ISO-8601 or null. */
export const tradingWindow = z.looseObject({
  preMarketStartsAt: isoDateTime.nullable(),
  opensAt: isoDateTime.nullable(),
  closesAt: isoDateTime.nullable(),
});
export type TradingWindow = z.infer<typeof tradingWindow>;

/** Spec 2.6 / 3.1: all four keys always present. */
export const marketLifecycle = z.looseObject({
  closedAt: isoDateTime.nullable(),
  pausedAt: isoDateTime.nullable(),
  resolvedAt: isoDateTime.nullable(),
  voidedAt: isoDateTime.nullable(),
});
export type MarketLifecycle = z.infer<typeof marketLifecycle>;

/**
 * Spec 2.6 MarketSummary. Named table keys are required (nullable where the spec says so);
 * `resolutionCriteria` is omitted on most events-list rows and `cryptoWindow` only exists on
 * Up/Down windows, so both are optional. The "other keys named on market rows" have no types in
 * the spec: they are optional and loosely typed. `outcomeTokenIds` is our extra key
 * (docs/spec-gaps.md): optional so a real platform row without it parses; null until deployed.
 */
export const marketSummary = z.looseObject({
  id: uuid,
  eventId: uuid,
  symbol: z.string(),
  slug: z.string(),
  title: z.string(),
  groupItemTitle: z.string().nullable(),
  conditionId: z.string().nullable(),
  questionId: z.string().nullable(),
  yesTokenId: uint256String.nullable(),
  noTokenId: uint256String.nullable(),
  status: marketStatus,
  currentReviewRound: int,
  outcomeCount: nonNegativeInt,
  outcomeLabels: z.array(z.string()),
  feeTakerBps: nonNegativeInt.nullable(),
  tradingWindow,
  kickoff: isoDateTime.nullable(),
  resolutionWindowHours: int.nullable(),
  lifecycle: marketLifecycle,
  payoutNumerators: z.array(z.union([z.string(), z.number()])).nullable(),
  officialDataSource: z.string().nullable(),
  sourceMatchId: z.string().nullable(),
  resolutionCriteria: z.string().nullable().optional(),
  negRiskEligible: z.boolean(),
  isNewMarketType: z.boolean(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  outcomePrices: z.array(decimalString.nullable()),
  chances: z.array(decimalString),
  vertical: vertical.nullable(),
  marketType: marketType.nullable(),
  crypto: marketCryptoRule.nullable(),
  cryptoWindow: marketCryptoWindow.nullable().optional(),
  // Other keys named on market rows (types not shown, some absent on events-list rows).
  tradable: z.boolean().optional(),
  resolution: z.unknown().optional(),
  volumes: z.unknown().optional(),
  prediction: z.unknown().optional(),
  probabilityChange: z.unknown().optional(),
  additionalSources: z.unknown().optional(),
  eventSlug: z.string().optional(),
  tags: z.array(z.unknown()).optional(),
  homeCountry: z.string().nullish(),
  awayCountry: z.string().nullish(),
  sport: z.string().nullish(),
  tradingMode: tradingMode.nullish(),
  notTradableReason: notTradableReason.nullish(),
  // Ours (docs/spec-gaps.md): one ERC-1155 position id per outcome, in outcome order.
  outcomeTokenIds: z.array(uint256String).nullable().optional(),
});
export type MarketSummary = z.infer<typeof marketSummary>;

/** `GET /api/markets` page (spec 4.3 names `hasMore`). Chosen: `{markets, hasMore}`. */
export const marketsPage = z.looseObject({
  markets: z.array(marketSummary),
  hasMore: z.boolean(),
});
export type MarketsPage = z.infer<typeof marketsPage>;

export const bookLevel = z.looseObject({ price: priceString, quantity: amountString });
export type BookLevel = z.infer<typeof bookLevel>;

/**
 * `GET /api/markets/{symbol}/orderbook?outcome=N` (shape not shown). Chosen: one outcome's book,
 * bids best (highest) first, asks best (lowest) first, aggregated per price level.
 */
export const orderbook = z.looseObject({
  marketId: z.string(),
  outcome: nonNegativeInt,
  tokenId: uint256String.nullable().optional(),
  bids: z.array(bookLevel),
  asks: z.array(bookLevel),
  updatedAt: isoDateTime.optional(),
});
export type Orderbook = z.infer<typeof orderbook>;

// Read on every book poll, just before a quote cycle: a quick check (quick.ts) beside the schema.
const BOOK_SHAPE = ["marketId", "outcome", "tokenId", "bids", "asks", "updatedAt"] as const;
const LEVEL_SHAPE = ["price", "quantity"] as const;

function quickLevels(v: unknown): Record<string, unknown>[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: Record<string, unknown>[] = [];
  for (const l of v) {
    if (!isPlain(l) || !isMicrosIn(l["price"], 0n, 1_000_000n) || !isAmount(l["quantity"])) return undefined;
    out.push(looseOutput(l, LEVEL_SHAPE));
  }
  return out;
}

registerQuick(orderbook, (v) => {
  if (!isPlain(v) || typeof v["marketId"] !== "string") return undefined;
  const outcome = v["outcome"];
  if (typeof outcome !== "number" || !Number.isSafeInteger(outcome) || outcome < 0) return undefined;
  if ("tokenId" in v && v["tokenId"] !== null && !isUint256String(v["tokenId"])) return undefined;
  if ("updatedAt" in v && !isoDateTime.safeParse(v["updatedAt"]).success) return undefined;
  const bids = quickLevels(v["bids"]);
  const asks = quickLevels(v["asks"]);
  if (bids === undefined || asks === undefined) return undefined;
  return looseOutput(v, BOOK_SHAPE, { bids, asks });
});

export const pricePoint = z.looseObject({ timestamp: isoDateTime, price: priceString });
export type PricePoint = z.infer<typeof pricePoint>;

/** `GET /api/markets/{symbol}/price-history?outcome=N` (shape not shown). Oldest point first. */
export const priceHistory = z.looseObject({
  marketId: z.string(),
  outcome: nonNegativeInt,
  points: z.array(pricePoint),
});
export type PriceHistory = z.infer<typeof priceHistory>;
