/**
 * Public reads the simulator has little or no data for, answered with the spec's codes and
 * paging rules so probes of them behave like the platform (shapes not shown: ours).
 *
 *   GET /api/matches?limit&offset      {matches} (limit 1..500, default 500): the scenario's
 *                                       fixtures grouped by match (src/sim/desk/matches.ts)
 *   GET /api/matches/{slug}            the match, or 404 match_not_found (spec 4.1)
 *   GET /api/search?q&limit&offset     {events, matches: [], users: [], total}
 *   GET /api/search/events|matches|users
 *                                       {events|matches|users, total}; limit default 50, max 50
 *   GET /api/upcoming?from&to          {upcoming: [entry]}: the scenario's competitions as
 *                                       announcements (src/sim/desk/upcoming.ts); window default
 *                                       now..now+90 days, a wider one than 400 days served as 400 (4.5)
 *   GET /api/compliance/geo            {blocked: false, country: null, region: null}: geo blocking
 *                                       does not apply to API-key requests (5.6)
 *   GET /api/crypto-series/{id}/windows the listed windows of an Up/Down series (every day's event
 *                                       whose cryptoSeries.id is `id`), earliest opening first:
 *                                       unsettled ones, or all with state=all; from/to (dates)
 *                                       keep windows overlapping [from, to]; limit 1..500 (default
 *                                       50, 500 with state=all), offset; {windows, hasMore, total};
 *                                       404 crypto_series_not_found for an unknown id (4.3)
 */
import { TERMINAL } from "../../platform/lifecycle.js";
import { eventJson, marketRowJson } from "../../platform/index.js";
import type { RouteContext, RouteDef, SimRequest, SimResponse } from "../types.js";
import { fail, first, limitOffset, ok, parseIso } from "./public-common.js";
import { matchesSearch } from "./public-events-filter.js";
import { engineQuotes } from "./public-quotes.js";
import { matchGroups, matchJson, publicMatches } from "../../desk/matches.js";
import { upcomingEntries } from "../../desk/upcoming.js";

export const MATCHES_MAX_LIMIT = 500;
export const SEARCH_DEFAULT_LIMIT = 50;
export const SEARCH_MAX_LIMIT = 50;
export const UPCOMING_DEFAULT_DAYS = 90;
/** Spec 4.5: "window capped at 400 days" (a wider window is served as 400 days, not refused). */
export const UPCOMING_MAX_DAYS = 400;
export const SERIES_WINDOWS_MAX_LIMIT = 500;
export const SERIES_WINDOWS_DEFAULT_LIMIT = 50;
/** Spec 4.3 names one value of `state`: `all` (settled windows too); omitted lists the live ones. */
export const SERIES_WINDOW_STATES = ["all"] as const;
const DAY_MS = 86_400_000;

function listMatches(req: SimRequest, ctx: RouteContext): SimResponse {
  const paging = limitOffset(req, ctx, MATCHES_MAX_LIMIT, MATCHES_MAX_LIMIT);
  if (!paging.ok) return paging.response;
  const { limit, offset } = paging.value;
  const cat = ctx.sim.platform.catalogue;
  const all = publicMatches(cat, engineQuotes(ctx.sim.engine, cat, ctx.nowMs), ctx.nowMs);
  return ok({ matches: all.slice(offset, offset + limit) });
}

function matchDetail(req: SimRequest, ctx: RouteContext): SimResponse {
  const slug = req.params.slug ?? "";
  const cat = ctx.sim.platform.catalogue;
  const events = matchGroups(cat).get(slug);
  const j = events && matchJson(cat, slug, events, engineQuotes(ctx.sim.engine, cat, ctx.nowMs), ctx.nowMs);
  if (!j) return fail(ctx, 404, "match_not_found", `no public match with slug ${JSON.stringify(slug)}`, { slug });
  return ok(j);
}

/** Events whose searchable text holds every word of `q` (all listed events when q is blank). */
function searchEvents(req: SimRequest, ctx: RouteContext): { rows: unknown[]; total: number } | SimResponse {
  const paging = limitOffset(req, ctx, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT);
  if (!paging.ok) return paging.response;
  const { limit, offset } = paging.value;
  const q = (first(req.query, "q") ?? "").trim();
  const cat = ctx.sim.platform.catalogue;
  const hits = cat.events("all").filter((e) => q === "" || matchesSearch(cat, e, q));
  const quotes = engineQuotes(ctx.sim.engine, cat, ctx.nowMs);
  return { rows: hits.slice(offset, offset + limit).map((e) => eventJson(cat, e, quotes, "list", ctx.nowMs)), total: hits.length };
}

function isResponse(v: unknown): v is SimResponse {
  return typeof v === "object" && v !== null && "status" in v && "body" in v;
}

function search(req: SimRequest, ctx: RouteContext): SimResponse {
  const r = searchEvents(req, ctx);
  if (isResponse(r)) return r;
  return ok({ events: r.rows, matches: [], users: [], total: r.total });
}

function searchEventsRoute(req: SimRequest, ctx: RouteContext): SimResponse {
  const r = searchEvents(req, ctx);
  return isResponse(r) ? r : ok({ events: r.rows, total: r.total });
}

function emptySearch(key: "matches" | "users") {
  return (req: SimRequest, ctx: RouteContext): SimResponse => {
    const paging = limitOffset(req, ctx, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT);
    if (!paging.ok) return paging.response;
    return ok({ [key]: [], total: 0 });
  };
}

function upcoming(req: SimRequest, ctx: RouteContext): SimResponse {
  const bound = (key: "from" | "to"): number | null | SimResponse => {
    const text = first(req.query, key);
    if (text === undefined || text === "") return null;
    const iso = parseIso(text);
    if (iso === undefined) return fail(ctx, 400, "invalid_request", `${key} must be an ISO-8601 date or date-time`, { field: key, fields: [key] });
    return iso.ms;
  };
  const from = bound("from");
  if (isResponse(from)) return from;
  const to = bound("to");
  if (isResponse(to)) return to;
  const fromMs = from ?? ctx.nowMs;
  const toMs = to ?? fromMs + UPCOMING_DEFAULT_DAYS * DAY_MS;
  if (toMs < fromMs) return fail(ctx, 400, "invalid_request", "to must not be before from", { fields: ["from", "to"], field: "to" });
  const cappedToMs = Math.min(toMs, fromMs + UPCOMING_MAX_DAYS * DAY_MS);
  return ok({ upcoming: upcomingEntries(ctx.sim.platform.catalogue, fromMs, cappedToMs) });
}

function seriesWindows(req: SimRequest, ctx: RouteContext): SimResponse {
  const state = first(req.query, "state");
  if (state !== undefined && !(SERIES_WINDOW_STATES as readonly string[]).includes(state.toLowerCase())) {
    return fail(ctx, 400, "invalid_request", `unknown state ${JSON.stringify(state)}`, { field: "state", fields: ["state"], allowed: [...SERIES_WINDOW_STATES] });
  }
  const all = state !== undefined;
  const paging = limitOffset(req, ctx, all ? SERIES_WINDOWS_MAX_LIMIT : SERIES_WINDOWS_DEFAULT_LIMIT, SERIES_WINDOWS_MAX_LIMIT);
  if (!paging.ok) return paging.response;
  const bounds: { from?: number; to?: number } = {};
  for (const key of ["from", "to"] as const) {
    const text = first(req.query, key);
    if (text === undefined) continue;
    const iso = parseIso(text);
    if (iso === undefined) return fail(ctx, 400, "invalid_request", `${key} must be an ISO-8601 date`, { field: key, fields: [key] });
    bounds[key] = iso.ms;
  }
  const id = req.params.id ?? "";
  const cat = ctx.sim.platform.catalogue;
  const days = cat.allEvents().filter((e) => e.cryptoSeries !== null && e.cryptoSeries["id"] === id);
  if (days.length === 0) return fail(ctx, 404, "crypto_series_not_found", `no crypto series ${JSON.stringify(id)}`, { id });
  const windows = days
    .flatMap((e) => cat.eventMarkets(e))
    .map((m) => ({ m, st: cat.lifecycle(m.id) }))
    .filter(({ st }) => st.status !== "SCHEDULED" && (all || !TERMINAL.has(st.status)))
    .filter(({ st }) => (bounds.to === undefined || st.window.opensAtMs <= bounds.to) && (bounds.from === undefined || st.window.closesAtMs === null || st.window.closesAtMs >= bounds.from))
    .sort((a, b) => a.st.window.opensAtMs - b.st.window.opensAtMs);
  const { limit, offset } = paging.value;
  const page = windows.slice(offset, offset + limit);
  const quotes = engineQuotes(ctx.sim.engine, cat, ctx.nowMs);
  return ok({ windows: page.map(({ m }) => marketRowJson(cat, m, quotes, "full", ctx.nowMs)), hasMore: offset + page.length < windows.length, total: windows.length });
}

function geo(): SimResponse {
  return ok({ blocked: false, country: null, region: null });
}

export const extraPublicRoutes: RouteDef[] = [
  { method: "GET", pattern: "/api/matches", auth: "public", handler: listMatches },
  { method: "GET", pattern: "/api/matches/:slug", auth: "public", handler: matchDetail },
  { method: "GET", pattern: "/api/search", auth: "public", handler: search },
  { method: "GET", pattern: "/api/search/events", auth: "public", handler: searchEventsRoute },
  { method: "GET", pattern: "/api/search/matches", auth: "public", handler: emptySearch("matches") },
  { method: "GET", pattern: "/api/search/users", auth: "public", handler: emptySearch("users") },
  { method: "GET", pattern: "/api/upcoming", auth: "public", handler: upcoming },
  { method: "GET", pattern: "/api/compliance/geo", auth: "public", handler: geo },
  { method: "GET", pattern: "/api/crypto-series/:id/windows", auth: "public", handler: seriesWindows },
];
