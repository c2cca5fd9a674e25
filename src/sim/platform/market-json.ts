/**
 * JSON of markets (spec 2.6), events (2.8) and tags (2.4) as the simulator serves them.
 *
 * Prices come from a QuoteSource the engine provides, per market and outcome index (for a
 * binary market the engine answers outcome 1 from the complement of the YES book):
 *   outcomePrices[i] = best ask, else last trade, else null
 *   chances[i]       = book midpoint when two-sided with spread <= 0.10, else last trade,
 *                      else 1/outcomeCount (before any trade)
 *
 * Three row views: "full" (events/{slug}, featured, GET /api/markets), "detail"
 * (GET /api/markets/{slug}: full without probabilityChange) and "list" (rows nested in
 * GET /api/events, spec 2.6 rule 1: without eventSlug, tags, homeCountry, awayCountry, sport,
 * tradingMode, notTradableReason and resolutionCriteria).
 */
import { formatMicros, SCALE, type Micros } from "../../core/money.js";
import { PlatformSetupError } from "./errors.js";
import type { Catalogue, CryptoRule, Market, SimEvent, Tag } from "./catalogue.js";
import { isTradable, notTradableReasonOf, tradingModeOf, type MarketStatus } from "./lifecycle.js";
import { isoOf, isoOrNull } from "./time.js";
import { uuidOf } from "./derive.js";
import { dayAllVoidedBeforeEnd } from "./updown.js";

export interface QuoteSource {
  bestBid(marketId: string, outcome: number): Micros | undefined;
  bestAsk(marketId: string, outcome: number): Micros | undefined;
  lastTradePrice(marketId: string, outcome: number): Micros | undefined;
  /** Traded notional in settlement micros; rows show `volumes: null` without it. */
  volume?(marketId: string): { total: Micros; last24h: Micros };
}

/** A source with no book and no trades (catalogue-only tests, markets not yet in the engine). */
export const NO_QUOTES: QuoteSource = {
  bestBid: () => undefined,
  bestAsk: () => undefined,
  lastTradePrice: () => undefined,
};

const MAX_MIDPOINT_SPREAD: Micros = 100_000n; // 0.10

export function outcomePrices(m: Market, q: QuoteSource): (string | null)[] {
  return m.outcomeLabels.map((_, i) => {
    const p = q.bestAsk(m.id, i) ?? q.lastTradePrice(m.id, i);
    return p === undefined ? null : formatMicros(p);
  });
}

export function chances(m: Market, q: QuoteSource): string[] {
  const uniform = formatMicros(SCALE / BigInt(m.outcomeCount));
  return m.outcomeLabels.map((_, i) => {
    const bid = q.bestBid(m.id, i);
    const ask = q.bestAsk(m.id, i);
    if (bid !== undefined && ask !== undefined && ask - bid <= MAX_MIDPOINT_SPREAD) return formatMicros((bid + ask) / 2n);
    const last = q.lastTradePrice(m.id, i);
    return last === undefined ? uniform : formatMicros(last);
  });
}

export interface TagSummaryJson {
  slug: string;
  name: string;
  color: string | null;
  iconUrl: string | null;
}

export function tagSummaryJson(t: Tag): TagSummaryJson {
  return { slug: t.slug, name: t.name, color: t.color, iconUrl: t.iconUrl };
}

/** The full tag record of GET /api/tags. */
export function tagJson(t: Tag): TagSummaryJson & { isFeatured: boolean } {
  return { ...tagSummaryJson(t), isFeatured: t.isFeatured };
}

export interface MarketRowJson {
  id: string;
  eventId: string;
  symbol: string;
  slug: string;
  title: string;
  groupItemTitle: string | null;
  conditionId: string | null;
  questionId: string | null;
  yesTokenId: string | null;
  noTokenId: string | null;
  /** docs/spec-gaps.md: one token id per outcome. */
  outcomeTokenIds: string[];
  status: MarketStatus;
  currentReviewRound: number;
  outcomeCount: number;
  outcomeLabels: string[];
  feeTakerBps: number | null;
  tradingWindow: { preMarketStartsAt: string | null; opensAt: string | null; closesAt: string | null };
  kickoff: string | null;
  resolutionWindowHours: number | null;
  lifecycle: { closedAt: string | null; pausedAt: string | null; resolvedAt: string | null; voidedAt: string | null };
  payoutNumerators: number[] | null;
  officialDataSource: string | null;
  sourceMatchId: string | null;
  resolutionCriteria?: string | null;
  negRiskEligible: boolean;
  isNewMarketType: boolean;
  createdAt: string;
  updatedAt: string;
  outcomePrices: (string | null)[];
  chances: string[];
  vertical: string | null;
  marketType: string | null;
  crypto: CryptoRule | null;
  cryptoWindow?: Record<string, unknown>;
  tradable: boolean;
  resolution: null;
  volumes: { total: string; last24h: string } | null;
  prediction: null;
  probabilityChange?: null;
  additionalSources: string[];
  eventSlug?: string;
  tags?: TagSummaryJson[];
  homeCountry?: string | null;
  awayCountry?: string | null;
  sport?: string | null;
  tradingMode?: string | null;
  notTradableReason?: string | null;
}

export type RowView = "full" | "detail" | "list";

export function marketRowJson(cat: Catalogue, m: Market, quotes: QuoteSource, view: RowView, nowMs: number): MarketRowJson {
  const st = cat.lifecycle(m.id);
  if (st.status === "SCHEDULED") throw new PlatformSetupError(`market ${m.slug} is not listed yet`);
  const ev = cat.eventOf(m);
  const vol = quotes.volume?.(m.id);
  const row: MarketRowJson = {
    id: m.id,
    eventId: m.eventId,
    symbol: m.symbol,
    slug: m.slug,
    title: m.title,
    groupItemTitle: m.groupItemTitle,
    conditionId: m.conditionId,
    questionId: m.questionId,
    yesTokenId: m.yesTokenId,
    noTokenId: m.noTokenId,
    outcomeTokenIds: [...m.outcomeTokenIds],
    status: st.status,
    currentReviewRound: m.currentReviewRound,
    outcomeCount: m.outcomeCount,
    outcomeLabels: [...m.outcomeLabels],
    feeTakerBps: m.feeTakerBps,
    tradingWindow: {
      preMarketStartsAt: isoOrNull(st.window.preMarketStartsAtMs),
      opensAt: isoOf(st.window.opensAtMs),
      closesAt: isoOrNull(st.window.closesAtMs),
    },
    kickoff: isoOrNull(m.kickoffMs),
    resolutionWindowHours: m.resolutionWindowHours,
    lifecycle: {
      closedAt: isoOrNull(st.closedAtMs),
      pausedAt: isoOrNull(st.pausedAtMs),
      resolvedAt: isoOrNull(st.resolvedAtMs),
      voidedAt: isoOrNull(st.voidedAtMs),
    },
    payoutNumerators: st.payoutNumerators ? [...st.payoutNumerators] : null,
    officialDataSource: m.officialDataSource,
    sourceMatchId: m.sourceMatchId,
    negRiskEligible: m.negRiskEligible,
    isNewMarketType: m.isNewMarketType,
    createdAt: isoOf(m.createdAtMs),
    updatedAt: isoOf(Math.max(m.createdAtMs, st.updatedAtMs)),
    outcomePrices: outcomePrices(m, quotes),
    chances: chances(m, quotes),
    vertical: m.vertical,
    marketType: m.marketType,
    crypto: m.crypto ? { ...m.crypto } : null,
    tradable: isTradable(st, nowMs),
    resolution: null,
    volumes: vol ? { total: formatMicros(vol.total), last24h: formatMicros(vol.last24h) } : null,
    prediction: null,
    additionalSources: [],
  };
  if (m.cryptoWindow) row.cryptoWindow = { ...m.cryptoWindow, startsAt: isoOf(st.window.opensAtMs), endsAt: isoOrNull(st.window.closesAtMs) };
  // 2.6 rule 1: list rows keep resolutionCriteria on long-dated crypto markets only.
  if (view === "list") return m.crypto && !m.cryptoWindow ? { ...row, resolutionCriteria: m.resolutionCriteria } : row;
  row.resolutionCriteria = m.resolutionCriteria;
  if (view === "full") row.probabilityChange = null;
  row.eventSlug = ev.slug;
  row.tags = cat.eventTags(ev).map(tagSummaryJson);
  row.homeCountry = ev.homeCountry;
  row.awayCountry = ev.awayCountry;
  row.sport = ev.sport;
  row.tradingMode = tradingModeOf(st, nowMs);
  row.notTradableReason = notTradableReasonOf(st, nowMs);
  return row;
}

/** An event's `match` key (shape not shown, docs/spec-gaps.md): the match's id, slug and title. */
export interface EventMatchRefJson {
  id: string;
  slug: string;
  title: string;
}

export function matchIdOf(slug: string): string {
  return uuidOf(`match:${slug}`);
}

export interface EventJson {
  id: string;
  slug: string;
  title: string;
  vertical: string | null;
  sport: string | null;
  tags: TagSummaryJson[];
  homeCountry: string | null;
  awayCountry: string | null;
  stage: string | null;
  group: string | null;
  kickoff: string | null;
  match: EventMatchRefJson | null;
  markets: MarketRowJson[];
  openMarketCount: number;
  totalMarketCount: number;
  cryptoSeries: Record<string, unknown> | null;
  cryptoLongSeries: Record<string, unknown> | null;
  resolutionCriteriaUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Where an event is shown: the default list, the `status=closed` list, or detail/featured. */
export type EventView = "list" | "closed" | "detail";

/** Up/Down windows awaiting settlement (2.8). */
const AWAITING: ReadonlySet<string> = new Set(["CLOSED", "PENDING_RESOLUTION", "DELAYED", "DISPUTED"]);
const OPEN_STATUSES: ReadonlySet<string> = new Set(["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"]);
const SETTLED_NESTED = 3;

/**
 * Spec 2.8: an Up/Down day nests only windows around now. Default list: the tradeable windows;
 * detail: tradeable, awaiting settlement, and the three latest-ending settled; closed list: every
 * window awaiting settlement and at most three settled. Other events nest every listed market.
 * Exception (updown.ts): a day whose windows were all VOIDED before ending nests all of them on
 * both lists (its detail is a 404, routes/events.ts).
 */
export function nestedMarkets(cat: Catalogue, e: SimEvent, view: EventView): Market[] {
  const markets = cat.eventMarkets(e);
  if (e.cryptoSeries === null) return markets;
  if (view !== "detail" && dayAllVoidedBeforeEnd(cat, e)) return markets;
  const status = (m: Market): string => cat.status(m.id);
  const open = markets.filter((m) => OPEN_STATUSES.has(status(m)));
  if (view === "list") return open;
  const awaiting = markets.filter((m) => AWAITING.has(status(m)));
  const endOf = (m: Market): number => cat.lifecycle(m.id).window.closesAtMs ?? 0;
  const settled = new Set(
    markets
      .filter((m) => status(m) === "RESOLVED" || status(m) === "VOIDED")
      .sort((a, b) => endOf(b) - endOf(a))
      .slice(0, SETTLED_NESTED)
      .map((m) => m.id),
  );
  const keep = new Set([...(view === "detail" ? open : []), ...awaiting].map((m) => m.id));
  return markets.filter((m) => keep.has(m.id) || settled.has(m.id));
}

/** Event JSON (2.8): every key present; nested rows "list" on GET /api/events, "full" on detail. */
export function eventJson(cat: Catalogue, e: SimEvent, quotes: QuoteSource, rows: "list" | "full", nowMs: number, view?: EventView): EventJson {
  const markets = nestedMarkets(cat, e, view ?? (rows === "list" ? "list" : "detail"));
  const updated = markets.reduce((acc, m) => Math.max(acc, cat.updatedAtMs(m.id)), e.createdAtMs);
  return {
    id: e.id,
    slug: e.slug,
    title: e.title,
    vertical: e.vertical,
    sport: e.sport,
    tags: cat.eventTags(e).map(tagSummaryJson),
    homeCountry: e.homeCountry,
    awayCountry: e.awayCountry,
    stage: e.stage,
    group: e.group,
    kickoff: isoOrNull(e.kickoffMs),
    match: e.match ? { id: matchIdOf(e.match.slug), slug: e.match.slug, title: e.match.title } : null,
    markets: markets.map((m) => marketRowJson(cat, m, quotes, rows, nowMs)),
    ...cat.eventCounts(e),
    cryptoSeries: e.cryptoSeries ? { ...e.cryptoSeries } : null,
    cryptoLongSeries: e.cryptoLongSeries ? { ...e.cryptoLongSeries } : null,
    resolutionCriteriaUrl: e.resolutionCriteriaUrl,
    createdAt: isoOf(e.createdAtMs),
    updatedAt: isoOf(updated),
  };
}
