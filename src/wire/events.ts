/**
 * Events and matches (spec 2.2, 2.5, 2.8) and their list pages. Event-level nullable keys are
 * present-with-null (spec 2.1), hence `.nullable()` without `.optional()`.
 */
import { z } from "zod";
import { scheduleStatus, stage } from "./enums.js";
import { eventTagSummary, marketSummary, teamRef } from "./markets.js";
import { isoDateTime, nonNegativeInt, uuid } from "./primitives.js";

/** Spec 2.5: an event nested in a match. */
export const matchEvent = z.looseObject({
  id: uuid,
  slug: z.string(),
  title: z.string(),
  group: z.string().nullable(),
  stage: stage.nullable(),
  teamA: teamRef,
  teamB: teamRef,
  tags: z.array(eventTagSummary),
  scheduledAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  markets: z.array(marketSummary),
});
export type MatchEvent = z.infer<typeof matchEvent>;

/** Spec 2.2. */
export const match = z.looseObject({
  id: uuid,
  slug: z.string(),
  title: z.string(),
  teamA: teamRef,
  teamB: teamRef,
  group: z.string().nullable(),
  tags: z.array(eventTagSummary),
  stage: stage.nullable(),
  kickoffAt: isoDateTime.nullable(),
  state: z.string(),
  scheduleStatus,
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  events: z.array(matchEvent),
});
export type Match = z.infer<typeof match>;

/** `GET /api/matches` ("list of matches", shape not shown). Chosen: `{matches: Match[]}`. */
export const matchesPage = z.looseObject({ matches: z.array(match) });
export type MatchesPage = z.infer<typeof matchesPage>;

/**
 * Spec 2.8: the named event keys. `id` is not in the named list but the list rules
 * de-duplicate by it (4.2 rule 1). `match`, `cryptoSeries`, `cryptoLongSeries` have no shown
 * shape: any object or null. Other event keys pass through.
 */
export const event = z.looseObject({
  id: uuid,
  slug: z.string(),
  title: z.string(),
  tags: z.array(eventTagSummary),
  sport: z.string().nullable(),
  homeCountry: z.string().nullable(),
  awayCountry: z.string().nullable(),
  stage: stage.nullable(),
  group: z.string().nullable(),
  match: z.record(z.string(), z.unknown()).nullable(),
  markets: z.array(marketSummary),
  openMarketCount: nonNegativeInt,
  totalMarketCount: nonNegativeInt,
  cryptoSeries: z.record(z.string(), z.unknown()).nullable(),
  cryptoLongSeries: z.record(z.string(), z.unknown()).nullable(),
  resolutionCriteriaUrl: z.string().nullable(),
});
export type Event = z.infer<typeof event>;

/**
 * `GET /api/events` page (shape not shown). Chosen: `{events, total?, openMarketCount?,
 * totalMarketCount?, facets?}`; the counters only on a first page or with `q` (4.2 rule 7).
 */
export const eventsPage = z.looseObject({
  events: z.array(event),
  total: nonNegativeInt.optional(),
  openMarketCount: nonNegativeInt.optional(),
  totalMarketCount: nonNegativeInt.optional(),
  facets: z.record(z.string(), z.unknown()).optional(),
});
export type EventsPage = z.infer<typeof eventsPage>;
