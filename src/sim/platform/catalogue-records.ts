/**
 * Building the catalogue's immutable records from input: ids from a seeded Rng in input order,
 * unique kebab slugs, symbols, and on-chain ids derived by keccak from the market id, so one
 * scenario and seed always give the same records.
 */
import type { Rng } from "../../core/rng.js";
import { PlatformSetupError } from "./errors.js";
import { bytes32Of, kebab, outcomeTokenId, SlugAllocator } from "./derive.js";
import type { TradingWindow } from "./lifecycle.js";

export interface TagInput {
  slug: string;
  name: string;
  color?: string | null;
  iconUrl?: string | null;
  isFeatured?: boolean;
}

export interface Tag {
  readonly slug: string;
  readonly name: string;
  readonly color: string | null;
  readonly iconUrl: string | null;
  readonly isFeatured: boolean;
}

export interface MarketInput {
  title: string;
  groupItemTitle?: string | null;
  slug?: string;
  symbol?: string;
  /** Default ["Yes", "No"]. */
  outcomeLabels?: readonly string[];
  /** Null inherits the platform default (spec 2.6). */
  feeTakerBps?: number | null;
  negRiskEligible?: boolean;
  marketType?: string | null;
  resolutionWindowHours?: number | null;
  officialDataSource?: string | null;
  sourceMatchId?: string | null;
  resolutionCriteria?: string | null;
  isNewMarketType?: boolean;
  crypto?: CryptoRule | null;
  cryptoWindow?: Readonly<Record<string, unknown>> | null;
  /** Defaults to the event's kickoff. */
  kickoffMs?: number | null;
  window: TradingWindow;
}

/** Spec 2.7. */
export interface CryptoRule {
  readonly productType: string;
  readonly direction: "ABOVE" | "BELOW" | null;
  readonly targetPrice: string | null;
  readonly instrumentId: string | null;
}

export interface TeamRefInput {
  code: string;
  label?: string | undefined;
  logo?: string | null | undefined;
}

/** The match a fixture belongs to (spec 2.2). */
export interface EventMatchInput {
  slug: string;
  title?: string | undefined;
  teamA: TeamRefInput;
  teamB: TeamRefInput;
  /** This event's scheduled time when it differs from the kickoff. */
  scheduledAtMs?: number | null;
}

export interface EventMatch {
  readonly slug: string;
  readonly title: string;
  readonly teamA: { readonly code: string; readonly label: string; readonly logo: string | null };
  readonly teamB: { readonly code: string; readonly label: string; readonly logo: string | null };
  readonly scheduledAtMs: number | null;
}

export interface EventInput {
  match?: EventMatchInput | null;
  cryptoSeries?: Readonly<Record<string, unknown>> | null;
  cryptoLongSeries?: Readonly<Record<string, unknown>> | null;
  title: string;
  slug?: string;
  vertical?: string | null;
  sport?: string | null;
  tags?: readonly string[];
  stage?: string | null;
  group?: string | null;
  homeCountry?: string | null;
  awayCountry?: string | null;
  kickoffMs?: number | null;
  resolutionCriteriaUrl?: string | null;
  markets: readonly MarketInput[];
}

export interface Market {
  readonly id: string;
  readonly eventId: string;
  readonly symbol: string;
  readonly slug: string;
  readonly title: string;
  readonly groupItemTitle: string | null;
  readonly conditionId: string;
  readonly questionId: string;
  /** One ERC-1155 position id per outcome (uint256 decimal strings). */
  readonly outcomeTokenIds: readonly string[];
  /** Binary markets only; null otherwise. */
  readonly yesTokenId: string | null;
  readonly noTokenId: string | null;
  readonly outcomeLabels: readonly string[];
  readonly outcomeCount: number;
  readonly feeTakerBps: number | null;
  readonly negRiskEligible: boolean;
  readonly marketType: string | null;
  readonly vertical: string | null;
  readonly kickoffMs: number | null;
  readonly resolutionWindowHours: number | null;
  readonly officialDataSource: string | null;
  readonly sourceMatchId: string | null;
  readonly resolutionCriteria: string | null;
  readonly isNewMarketType: boolean;
  readonly crypto: CryptoRule | null;
  readonly cryptoWindow: Readonly<Record<string, unknown>> | null;
  readonly currentReviewRound: number;
  readonly createdAtMs: number;
}

export interface SimEvent {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly vertical: string | null;
  readonly sport: string | null;
  readonly tagSlugs: readonly string[];
  readonly stage: string | null;
  readonly group: string | null;
  readonly homeCountry: string | null;
  readonly awayCountry: string | null;
  readonly kickoffMs: number | null;
  readonly resolutionCriteriaUrl: string | null;
  readonly match: EventMatch | null;
  readonly cryptoSeries: Readonly<Record<string, unknown>> | null;
  readonly cryptoLongSeries: Readonly<Record<string, unknown>> | null;
  readonly marketIds: readonly string[];
  readonly createdAtMs: number;
}

export interface CatalogueRecords {
  tags: Tag[];
  events: SimEvent[];
  /** In input order, each with its trading window. */
  markets: { market: Market; window: TradingWindow }[];
}

function teamOf(t: TeamRefInput): EventMatch["teamA"] {
  return Object.freeze({ code: t.code, label: t.label ?? t.code, logo: t.logo ?? null });
}

function matchOf(ev: EventInput): EventMatch | null {
  const m = ev.match;
  if (!m) return null;
  const teamA = teamOf(m.teamA);
  const teamB = teamOf(m.teamB);
  return Object.freeze({
    slug: m.slug,
    title: m.title ?? `${teamA.label} vs ${teamB.label}`,
    teamA,
    teamB,
    scheduledAtMs: m.scheduledAtMs ?? ev.kickoffMs ?? null,
  });
}

function titleCase(slug: string): string {
  return slug
    .split("-")
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(" ");
}

function tagOf(t: TagInput): Tag {
  const slug = kebab(t.slug);
  if (!slug) throw new PlatformSetupError(`bad tag slug ${JSON.stringify(t.slug)}`);
  return Object.freeze({ slug, name: t.name, color: t.color ?? null, iconUrl: t.iconUrl ?? null, isFeatured: t.isFeatured ?? false });
}

function slugFor(alloc: SlugAllocator, explicit: string | undefined, base: string, where: string): string {
  if (explicit === undefined) return alloc.take(base);
  if (!alloc.claim(explicit)) throw new PlatformSetupError(`${where}.slug ${JSON.stringify(explicit)} is taken or not lowercase kebab-case`);
  return explicit;
}

function checkWindow(w: TradingWindow, where: string): void {
  if (w.closesAtMs !== null && w.closesAtMs <= w.opensAtMs) throw new PlatformSetupError(`${where}: closesAt must be after opensAt`);
  if (w.preMarketStartsAtMs !== null && w.preMarketStartsAtMs >= w.opensAtMs) {
    throw new PlatformSetupError(`${where}: preMarketStartsAt must be before opensAt`);
  }
}

interface MarketCtx {
  rng: Rng;
  eventId: string;
  eventSlug: string;
  ev: EventInput;
  marketSlugs: SlugAllocator;
  symbols: Set<string>;
  createdAtMs: number;
  where: string;
}

function buildMarket(mi: MarketInput, ctx: MarketCtx): Market {
  const id = ctx.rng.uuid();
  const labels = mi.outcomeLabels ?? ["Yes", "No"];
  if (labels.length < 2) throw new PlatformSetupError(`${ctx.where}.outcomeLabels needs at least 2 labels`);
  const base = [ctx.eventSlug, mi.groupItemTitle ?? "", mi.title].filter((s) => s !== "").join(" ");
  const slug = slugFor(ctx.marketSlugs, mi.slug, base, ctx.where);
  const symbol = mi.symbol ?? slug.toUpperCase();
  if (ctx.symbols.has(symbol)) throw new PlatformSetupError(`${ctx.where}.symbol ${symbol} is not unique`);
  ctx.symbols.add(symbol);
  checkWindow(mi.window, ctx.where);
  const conditionId = bytes32Of(`condition:${id}`);
  const tokenIds = labels.map((_, i) => outcomeTokenId(conditionId, i));
  const binary = labels.length === 2;
  return Object.freeze({
    id,
    eventId: ctx.eventId,
    symbol,
    slug,
    title: mi.title,
    groupItemTitle: mi.groupItemTitle ?? null,
    conditionId,
    questionId: bytes32Of(`question:${id}`),
    outcomeTokenIds: Object.freeze(tokenIds),
    yesTokenId: binary ? tokenIds[0]! : null,
    noTokenId: binary ? tokenIds[1]! : null,
    outcomeLabels: Object.freeze([...labels]),
    outcomeCount: labels.length,
    feeTakerBps: mi.feeTakerBps ?? null,
    negRiskEligible: mi.negRiskEligible ?? false,
    marketType: mi.marketType ?? null,
    vertical: ctx.ev.vertical ?? null,
    kickoffMs: mi.kickoffMs !== undefined ? mi.kickoffMs : (ctx.ev.kickoffMs ?? null),
    resolutionWindowHours: mi.resolutionWindowHours ?? null,
    officialDataSource: mi.officialDataSource ?? null,
    sourceMatchId: mi.sourceMatchId ?? null,
    resolutionCriteria: mi.resolutionCriteria ?? null,
    isNewMarketType: mi.isNewMarketType ?? false,
    crypto: mi.crypto ? Object.freeze({ ...mi.crypto }) : null,
    cryptoWindow: mi.cryptoWindow ? Object.freeze({ ...mi.cryptoWindow }) : null,
    currentReviewRound: 0,
    createdAtMs: ctx.createdAtMs,
  });
}

export function buildCatalogueRecords(input: {
  rng: Rng;
  tags?: readonly TagInput[];
  events: readonly EventInput[];
  createdAtMs: number;
}): CatalogueRecords {
  const rng = input.rng.fork("catalogue");
  const tags = new Map<string, Tag>();
  for (const t of input.tags ?? []) {
    const tag = tagOf(t);
    tags.set(tag.slug, tag);
  }
  const eventSlugs = new SlugAllocator();
  const marketSlugs = new SlugAllocator();
  const symbols = new Set<string>();
  const events: SimEvent[] = [];
  const markets: CatalogueRecords["markets"] = [];
  input.events.forEach((ev, ei) => {
    const eventId = rng.uuid();
    const slug = slugFor(eventSlugs, ev.slug, ev.title, `events[${ei}]`);
    const tagSlugs = (ev.tags ?? []).map((t) => kebab(t));
    for (const t of tagSlugs) if (!tags.has(t)) tags.set(t, tagOf({ slug: t, name: titleCase(t) }));
    const marketIds: string[] = [];
    ev.markets.forEach((mi, mj) => {
      const where = `events[${ei}].markets[${mj}]`;
      const market = buildMarket(mi, { rng, eventId, eventSlug: slug, ev, marketSlugs, symbols, createdAtMs: input.createdAtMs, where });
      markets.push({ market, window: mi.window });
      marketIds.push(market.id);
    });
    events.push(
      Object.freeze({
        id: eventId,
        slug,
        title: ev.title,
        vertical: ev.vertical ?? null,
        sport: ev.sport ?? null,
        tagSlugs: Object.freeze(tagSlugs),
        stage: ev.stage ?? null,
        group: ev.group ?? null,
        homeCountry: ev.homeCountry ?? null,
        awayCountry: ev.awayCountry ?? null,
        kickoffMs: ev.kickoffMs ?? null,
        resolutionCriteriaUrl: ev.resolutionCriteriaUrl ?? null,
        match: matchOf(ev),
        cryptoSeries: ev.cryptoSeries ? Object.freeze({ ...ev.cryptoSeries }) : null,
        cryptoLongSeries: ev.cryptoLongSeries ? Object.freeze({ ...ev.cryptoLongSeries }) : null,
        marketIds: Object.freeze(marketIds),
        createdAtMs: input.createdAtMs,
      }),
    );
  });
  return { tags: [...tags.values()], events, markets };
}
