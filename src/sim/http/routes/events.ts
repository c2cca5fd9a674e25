/**
 * Public event routes (spec 4.2): the capped, filtered list with its paging rules, detail by
 * slug, featured events and a small stats summary. Public: no key, a key is ignored.
 *
 * List rows nest the slim market rows of spec 2.6 rule 1; detail and featured nest full rows.
 * The list is in catalogue (scenario) order, which is stable across calls.
 */
import { z } from "zod";
import { nonNegativeInt, isoDateTime } from "../../../wire/index.js";
import { eventJson, isoOf, type Catalogue, type SimEvent } from "../../platform/index.js";
import { dayAllVoidedBeforeEnd } from "../../platform/updown.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { fail, ok } from "./public-common.js";
import { admittedMarkets, facetsOf, selectEvents } from "./public-events-filter.js";
import { EVENTS_WINDOW, parseEventsQuery } from "./public-events-query.js";
import { engineQuotes } from "./public-quotes.js";

export const WINDOW_CAPPED_HEADER = "X-Events-Window-Capped";

interface Counters {
  openMarketCount: number;
  totalMarketCount: number;
}

/** Spec 4.2 rule 7: sums over every matching event; with scope both hold the admitted markets. */
function countersOf(cat: Catalogue, events: readonly SimEvent[], scope: readonly string[] | undefined, closed: boolean): Counters {
  let open = 0;
  let total = 0;
  for (const e of events) {
    if (scope !== undefined) {
      const n = admittedMarkets(cat, e, scope).length;
      open += n;
      total += n;
    } else {
      const c = cat.eventCounts(e);
      open += c.openMarketCount;
      total += c.totalMarketCount;
    }
  }
  // With scope the spec makes both counters the same number, even on the closed view.
  return { openMarketCount: closed && scope === undefined ? 0 : open, totalMarketCount: total };
}

/** GET /api/events. */
function listEvents(req: SimRequest, ctx: RouteContext): SimResponse {
  const plan = parseEventsQuery(req, ctx);
  if (!plan.ok) return plan.response;
  const p = plan.value;
  const cat = ctx.sim.platform.catalogue;
  const matching = selectEvents(cat, p);
  const served = matching.slice(p.start, p.end);
  const quotes = engineQuotes(ctx.sim.engine, cat, ctx.nowMs);
  const scope = p.filters.scope;
  const events = served.map((e) => {
    const row = eventJson(cat, e, quotes, "list", ctx.nowMs, p.closed ? "closed" : "list");
    if (scope === undefined) return row;
    const admitted = new Set(admittedMarkets(cat, e, scope).map((m) => m.id));
    return { ...row, markets: row.markets.filter((m) => admitted.has(m.id)) };
  });
  const body: Record<string, unknown> = { events };
  if (p.firstPage || p.q !== undefined) {
    body.total = matching.length;
    Object.assign(body, countersOf(cat, matching, scope, p.closed));
  }
  if (p.q !== undefined) body.facets = facetsOf(cat, matching);
  return ok(body, p.windowCapped ? { [WINDOW_CAPPED_HEADER]: String(EVENTS_WINDOW) } : undefined);
}

/**
 * GET /api/events/:slug: full rows; 404 for unknown slugs, events with no listed market and (2.8)
 * an Up/Down day whose windows were all VOIDED before ending.
 */
function eventDetail(req: SimRequest, ctx: RouteContext): SimResponse {
  const slug = req.params.slug ?? "";
  const cat = ctx.sim.platform.catalogue;
  const e = cat.eventBySlug(slug);
  if (e === undefined || cat.eventMarkets(e).length === 0 || dayAllVoidedBeforeEnd(cat, e)) {
    return fail(ctx, 404, "event_not_found", `no event with slug ${JSON.stringify(slug)}`, { slug });
  }
  return ok(eventJson(cat, e, engineQuotes(ctx.sim.engine, cat, ctx.nowMs), "full", ctx.nowMs));
}

/** GET /api/events/featured: `{events}` of the default list carrying a featured tag, full rows. */
function featuredEvents(_req: SimRequest, ctx: RouteContext): SimResponse {
  const cat = ctx.sim.platform.catalogue;
  const featured = cat
    .events("open")
    .filter((e) => cat.eventTags(e).some((t) => t.isFeatured))
    .slice(0, EVENTS_WINDOW);
  const quotes = engineQuotes(ctx.sim.engine, cat, ctx.nowMs);
  return ok({ events: featured.map((e) => eventJson(cat, e, quotes, "full", ctx.nowMs)) });
}

/** `GET /api/events/stats` (shape not shown; this is the simulator's choice). */
export const eventStats = z.looseObject({
  events: z.looseObject({ open: nonNegativeInt, closed: nonNegativeInt }),
  markets: z.looseObject({ open: nonNegativeInt, closed: nonNegativeInt, total: nonNegativeInt }),
  verticals: z.array(z.looseObject({ vertical: z.string(), events: nonNegativeInt, openMarkets: nonNegativeInt })),
  updatedAt: isoDateTime,
});
export type EventStats = z.infer<typeof eventStats>;

function stats(_req: SimRequest, ctx: RouteContext): SimResponse {
  const cat = ctx.sim.platform.catalogue;
  const open = cat.events("open");
  const byVertical = new Map<string, { events: number; openMarkets: number }>();
  for (const e of open) {
    const key = e.vertical ?? "other";
    const v = byVertical.get(key) ?? { events: 0, openMarkets: 0 };
    v.events++;
    v.openMarkets += cat.eventCounts(e).openMarketCount;
    byVertical.set(key, v);
  }
  const openMarkets = cat.markets("open").length;
  const closedMarkets = cat.markets("closed").length;
  const body: EventStats = {
    events: { open: open.length, closed: cat.events("closed").length },
    markets: { open: openMarkets, closed: closedMarkets, total: openMarkets + closedMarkets },
    verticals: [...byVertical].map(([vertical, v]) => ({ vertical, ...v })),
    updatedAt: isoOf(ctx.nowMs),
  };
  return ok(body);
}

export const eventRoutes: RouteDef[] = [
  { method: "GET", pattern: "/api/events", auth: "public", handler: listEvents },
  // Literal segments win over `:slug` in the router, whatever the order here.
  { method: "GET", pattern: "/api/events/featured", auth: "public", handler: featuredEvents },
  { method: "GET", pattern: "/api/events/stats", auth: "public", handler: stats },
  { method: "GET", pattern: "/api/events/:slug", auth: "public", handler: eventDetail },
];
