/**
 * Matches (spec 2.2, 2.5, 3.4, 4.1) built from the scenario's fixtures: events that name the same
 * `match.slug` form one match, in catalogue order. Shapes the spec leaves open are recorded in
 * docs/spec-gaps.md:
 *
 * - an event's schedule status: CANCELLED when every listed market is VOIDED, POSTPONED when one
 *   is POSTPONED, PLAYED when every listed market is past trading (CLOSED, PENDING_RESOLUTION,
 *   DELAYED, DISPUTED, RESOLVED, VOIDED), SCHEDULED otherwise;
 * - the match's `scheduleStatus` is the 3.4 roll-up of those (CANCELLED, then POSTPONED, then
 *   PLAYED when all are played, then SCHEDULED);
 * - a match is public while one of its events has a listed market; otherwise 404 match_not_found;
 * - `kickoffAt` is the earliest event kickoff; `group` the first event's group when the stage is
 *   `group`; `tags` the union of the events' tags; nested markets are full rows.
 */
import type { Catalogue, SimEvent } from "../platform/catalogue.js";
import { isoOf, isoOrNull } from "../platform/time.js";
import { marketRowJson, matchIdOf, tagSummaryJson, type QuoteSource, type TagSummaryJson } from "../platform/market-json.js";
import type { MarketStatus } from "../platform/lifecycle.js";

export const SCHEDULE_STATUSES = ["SCHEDULED", "POSTPONED", "CANCELLED", "PLAYED"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

const PLAYED_SET: ReadonlySet<string> = new Set(["CLOSED", "PENDING_RESOLUTION", "DELAYED", "DISPUTED", "RESOLVED", "VOIDED"]);

export function eventScheduleStatus(cat: Catalogue, e: SimEvent): ScheduleStatus {
  const statuses = cat.eventMarkets(e).map((m) => cat.status(m.id) as MarketStatus);
  if (statuses.length > 0 && statuses.every((s) => s === "VOIDED")) return "CANCELLED";
  if (statuses.some((s) => s === "POSTPONED")) return "POSTPONED";
  if (statuses.length > 0 && statuses.every((s) => PLAYED_SET.has(s))) return "PLAYED";
  return "SCHEDULED";
}

/** Spec 3.4. */
export function rollUp(children: readonly ScheduleStatus[]): ScheduleStatus {
  if (children.includes("CANCELLED")) return "CANCELLED";
  if (children.includes("POSTPONED")) return "POSTPONED";
  if (children.length > 0 && children.every((s) => s === "PLAYED")) return "PLAYED";
  return "SCHEDULED";
}

/** Events grouped by match slug, in catalogue order (every event, listed or not). */
export function matchGroups(cat: Catalogue): Map<string, SimEvent[]> {
  const out = new Map<string, SimEvent[]>();
  for (const e of cat.allEvents()) {
    if (!e.match) continue;
    const list = out.get(e.match.slug);
    if (list) list.push(e);
    else out.set(e.match.slug, [e]);
  }
  return out;
}

function tagsOf(cat: Catalogue, events: readonly SimEvent[]): TagSummaryJson[] {
  const seen = new Map<string, TagSummaryJson>();
  for (const e of events) for (const t of cat.eventTags(e)) if (!seen.has(t.slug)) seen.set(t.slug, tagSummaryJson(t));
  return [...seen.values()];
}

/** The match JSON, or undefined when it has no public-status market (4.1: 404). */
export function matchJson(cat: Catalogue, slug: string, all: readonly SimEvent[], quotes: QuoteSource, nowMs: number): Record<string, unknown> | undefined {
  const events = all.filter((e) => cat.eventMarkets(e).length > 0);
  if (events.length === 0) return undefined;
  const head = events[0]!;
  const m = head.match!;
  const kickoffs = events.map((e) => e.kickoffMs).filter((k): k is number => k !== null);
  const updated = events.reduce((acc, e) => cat.eventMarkets(e).reduce((a, mk) => Math.max(a, cat.updatedAtMs(mk.id)), acc), head.createdAtMs);
  const tags = tagsOf(cat, events);
  return {
    id: matchIdOf(slug),
    slug,
    title: m.title,
    teamA: m.teamA,
    teamB: m.teamB,
    group: head.stage === "group" ? head.group : null,
    tags,
    stage: head.stage,
    kickoffAt: kickoffs.length > 0 ? isoOf(Math.min(...kickoffs)) : null,
    state: "LIVE",
    scheduleStatus: rollUp(events.map((e) => eventScheduleStatus(cat, e))),
    createdAt: isoOf(head.createdAtMs),
    updatedAt: isoOf(updated),
    events: events.map((e) => ({
      id: e.id,
      slug: e.slug,
      title: e.title,
      group: e.stage === "group" ? e.group : null,
      stage: e.stage,
      teamA: e.match!.teamA,
      teamB: e.match!.teamB,
      tags: cat.eventTags(e).map(tagSummaryJson),
      scheduledAt: isoOrNull(e.match!.scheduledAtMs),
      createdAt: isoOf(e.createdAtMs),
      updatedAt: isoOf(cat.eventMarkets(e).reduce((a, mk) => Math.max(a, cat.updatedAtMs(mk.id)), e.createdAtMs)),
      markets: cat.eventMarkets(e).map((mk) => marketRowJson(cat, mk, quotes, "full", nowMs)),
    })),
  };
}

/** Every public match, in catalogue order. */
export function publicMatches(cat: Catalogue, quotes: QuoteSource, nowMs: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [slug, events] of matchGroups(cat)) {
    const j = matchJson(cat, slug, events, quotes, nowMs);
    if (j) out.push(j);
  }
  return out;
}
