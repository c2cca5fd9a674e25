/** Events (spec 4.2, public), tags (4.9) and the full walk of the events list (4.2 rule 1). */
import { z } from "zod";
import type { Event, EventsPage, TagsList } from "../wire/index.js";
import { event, eventsPage, tagsList } from "../wire/index.js";
import type { ApiCore, CallSpec } from "./core.js";
import { readCall } from "./decode.js";
import { path, withQuery, type QueryParams } from "./query.js";
import type { CallOptions, Ok, UnknownRecord } from "./results.js";
import { unknownRecord } from "./results.js";

type Multi = string | readonly string[];

/** Filters of the list. Multi-value filters are sent as repeated keys (at most 20 values each). */
export interface EventsFilters {
  stage?: Multi;
  group?: Multi;
  team?: Multi;
  tag?: Multi;
  vertical?: Multi;
  competition?: Multi;
  subcategory?: Multi;
  scope?: Multi;
  asset?: Multi;
  cadence?: Multi;
  frequency?: Multi;
  predictionType?: Multi;
  /** `closed` lists events with no tradeable market and at least one closed one. */
  status?: "closed";
  q?: string;
  /** ISO-8601 date range (combines with page/limit); digits-only positions do not. */
  from?: string | number;
  to?: string | number;
}

export interface EventsListQuery extends EventsFilters {
  page?: number;
  /** Served as at most 100. */
  limit?: number;
}

export interface EventsWalkOptions extends CallOptions {
  /** Safety stop for a platform that never returns an empty page. Default 10 000. */
  maxPages?: number;
}

/** Most events one response carries (spec 4.2 rule 1, 8.3). */
export const EVENTS_PAGE_SIZE = 100;

/**
 * `/featured` shape is not shown: `{events}` (like a list page) or a bare array are both accepted.
 * The shape is picked first, so a bad answer names its bad field (`events[0].openMarketCount`), not
 * only that neither shape matched.
 */
const featuredEvents = z.preprocess((v) => (Array.isArray(v) ? { events: v } : v), eventsPage);

function filterParams(f: EventsFilters): QueryParams {
  return {
    stage: f.stage,
    group: f.group,
    team: f.team,
    tag: f.tag,
    vertical: f.vertical,
    competition: f.competition,
    subcategory: f.subcategory,
    scope: f.scope,
    asset: f.asset,
    cadence: f.cadence,
    frequency: f.frequency,
    predictionType: f.predictionType,
    status: f.status,
    q: f.q,
    from: f.from,
    to: f.to,
  };
}

function readSpec(p: string, opts?: CallOptions): CallSpec {
  return { method: "GET", path: p, auth: false, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) };
}

export class EventsApi {
  constructor(private readonly core: ApiCore) {}

  list(q: EventsListQuery = {}, opts?: CallOptions): Promise<Ok<EventsPage>> {
    const p = withQuery("/api/events", { ...filterParams(q), page: q.page, limit: q.limit });
    return readCall(this.core, readSpec(p, opts), eventsPage);
  }

  get(slug: string, opts?: CallOptions): Promise<Ok<Event>> {
    return readCall(this.core, readSpec(path`/api/events/${slug}`, opts), event);
  }

  featured(opts?: CallOptions): Promise<Ok<EventsPage>> {
    return readCall(this.core, readSpec("/api/events/featured", opts), featuredEvents);
  }

  /** Shape not shown: passed through. */
  stats(opts?: CallOptions): Promise<Ok<UnknownRecord>> {
    return readCall(this.core, readSpec("/api/events/stats", opts), unknownRecord);
  }

  /**
   * Every event matching the filters (spec 4.2 rule 1): pages of limit=100 from page=1 until a
   * page is empty, each event once (de-duplicated by `id`: the list can shift between pages).
   */
  async *walk(filters: EventsFilters = {}, opts: EventsWalkOptions = {}): AsyncGenerator<Event, void, undefined> {
    const seen = new Set<string>();
    const maxPages = opts.maxPages ?? 10_000;
    for (let page = 1; page <= maxPages; page++) {
      const res = await this.list({ ...filters, page, limit: EVENTS_PAGE_SIZE }, opts);
      if (res.data.events.length === 0) return;
      for (const e of res.data.events) {
        if (seen.has(e.id)) continue;
        seen.add(e.id);
        yield e;
      }
    }
  }
}

export class TagsApi {
  constructor(private readonly core: ApiCore) {}

  list(opts?: CallOptions): Promise<Ok<TagsList>> {
    return readCall(this.core, readSpec("/api/tags", opts), tagsList);
  }
}
