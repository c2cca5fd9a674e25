/**
 * Which events and markets the events list admits: the multi-value filters (AND across fields,
 * OR within one), the search text, the kickoff date range, and the facet counts of `q` pages.
 *
 * What each filter compares in the simulator (the catalogue has no competition, crypto or
 * prediction records; values compare lower-cased):
 *   stage, group, vertical   the event's field of that name
 *   team                     the event's homeCountry / awayCountry
 *   tag, competition         the event's tag slugs (competitions are curated tags here)
 *   subcategory              the event's sport
 *   scope                    the marketType of the event's listed markets; it also narrows the
 *                            nested markets and the list counters to those markets
 *   asset, cadence, frequency, predictionType
 *                            nothing in the simulator carries them: a filter on them admits no event
 */
import type { Catalogue, Market, SimEvent } from "../../platform/index.js";
import type { EventFilterField, EventsQueryPlan } from "./public-events-query.js";

function lower(v: string | null | undefined): string[] {
  return v === null || v === undefined || v === "" ? [] : [v.toLowerCase()];
}

/** The values an event carries for a filter field (lower-cased). */
export function eventValues(cat: Catalogue, e: SimEvent, field: EventFilterField): string[] {
  switch (field) {
    case "stage":
      return lower(e.stage);
    case "group":
      return lower(e.group);
    case "vertical":
      return lower(e.vertical);
    case "team":
      return [...lower(e.homeCountry), ...lower(e.awayCountry)];
    case "tag":
    case "competition":
      return e.tagSlugs.map((t) => t.toLowerCase());
    case "subcategory":
      return lower(e.sport);
    case "scope":
      return cat.eventMarkets(e).flatMap((m) => lower(m.marketType));
    case "asset":
    case "cadence":
    case "frequency":
    case "predictionType":
      return [];
  }
}

export function matchesFilters(cat: Catalogue, e: SimEvent, filters: EventsQueryPlan["filters"]): boolean {
  for (const [field, wanted] of Object.entries(filters) as [EventFilterField, string[]][]) {
    const have = eventValues(cat, e, field);
    if (!wanted.some((w) => have.includes(w))) return false;
  }
  return true;
}

/** Markets of the event a scope filter admits (all listed markets without one). */
export function admittedMarkets(cat: Catalogue, e: SimEvent, scope: readonly string[] | undefined): Market[] {
  const ms = cat.eventMarkets(e);
  if (scope === undefined) return ms;
  return ms.filter((m) => m.marketType !== null && scope.includes(m.marketType.toLowerCase()));
}

/** Every whitespace-separated term must appear (case-insensitive) in the event's searchable text. */
export function matchesSearch(cat: Catalogue, e: SimEvent, q: string): boolean {
  const hay = [
    e.title,
    e.slug,
    e.sport ?? "",
    e.homeCountry ?? "",
    e.awayCountry ?? "",
    ...cat.eventTags(e).flatMap((t) => [t.slug, t.name]),
    ...cat.eventMarkets(e).flatMap((m) => [m.title, m.groupItemTitle ?? "", m.symbol]),
  ]
    .join("\n")
    .toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== "")
    .every((t) => hay.includes(t));
}

/** Kickoff inside [fromMs, toMsExclusive); events without a kickoff are outside every range. */
export function inDateRange(e: SimEvent, range: NonNullable<EventsQueryPlan["dateRange"]>): boolean {
  if (e.kickoffMs === null) return false;
  if (range.fromMs !== undefined && e.kickoffMs < range.fromMs) return false;
  if (range.toMsExclusive !== undefined && e.kickoffMs >= range.toMsExclusive) return false;
  return true;
}

/** Every event of the view matching the plan, in catalogue order. */
export function selectEvents(cat: Catalogue, plan: EventsQueryPlan): SimEvent[] {
  const scope = plan.filters.scope;
  return cat.events(plan.closed ? "closed" : "open").filter(
    (e) =>
      matchesFilters(cat, e, plan.filters) &&
      (plan.q === undefined || matchesSearch(cat, e, plan.q)) &&
      (plan.dateRange === undefined || inDateRange(e, plan.dateRange)) &&
      (scope === undefined || admittedMarkets(cat, e, scope).length > 0),
  );
}

export type Facets = Record<"vertical" | "tag" | "stage" | "group" | "sport", Record<string, number>>;

/** Counts of events per value over the matching events (only on `q` pages). */
export function facetsOf(cat: Catalogue, events: readonly SimEvent[]): Facets {
  const facets: Facets = { vertical: {}, tag: {}, stage: {}, group: {}, sport: {} };
  const bump = (f: Record<string, number>, v: string | null): void => {
    if (v !== null && v !== "") f[v] = (f[v] ?? 0) + 1;
  };
  for (const e of events) {
    bump(facets.vertical, e.vertical);
    bump(facets.stage, e.stage);
    bump(facets.group, e.group);
    bump(facets.sport, e.sport);
    for (const t of e.tagSlugs) bump(facets.tag, t);
  }
  return facets;
}
