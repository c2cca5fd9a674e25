/**
 * The query of `GET /api/events` (spec 4.2) parsed into a plan: which events (filters, status,
 * search, date range), which positions of that list (page/limit or a from/to position window),
 * and what the request asked for (for `X-Events-Window-Capped` and the first-page totals).
 *
 * Checks run in this order, the first failure answering: banned paging parameters, multi-value
 * filters (`too_many_<field>`, unknown stage), status/closed, limit, page, from/to.
 */
import { KNOWN_STAGES } from "../../../wire/index.js";
import type { RouteContext, SimRequest } from "../types.js";
import { digitsValue, fail, first, isDigits, looksIso, multiValues, parsed, parseIso, rejected, type Parsed } from "./public-common.js";

/** Spec 4.2 rule 1 / 8.3: events per response. */
export const EVENTS_WINDOW = 100;
/** Spec 4.2 / 8.3: distinct values per multi-value filter. */
export const MAX_FILTER_VALUES = 20;

export const EVENT_FILTER_FIELDS = [
  "stage",
  "group",
  "team",
  "tag",
  "vertical",
  "competition",
  "subcategory",
  "scope",
  "asset",
  "cadence",
  "frequency",
  "predictionType",
] as const;
export type EventFilterField = (typeof EVENT_FILTER_FIELDS)[number];

/** Spec 4.2 rule 5: other paging styles are refused, not ignored. */
export const BANNED_PAGING_PARAMS = ["offset", "cursor", "skip", "start", "pageSize"] as const;

/** `too_many_tag`, `too_many_prediction_type`. */
export function tooManyCode(field: EventFilterField): string {
  return `too_many_${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
}

export interface EventsQueryPlan {
  /** Lower-cased values per field that has any. */
  filters: Partial<Record<EventFilterField, string[]>>;
  closed: boolean;
  /** Search text (trimmed); undefined when absent or blank. */
  q: string | undefined;
  /** ISO date range on the event's kickoff: [fromMs, toMs) (toMs exclusive). */
  dateRange: { fromMs?: number; toMsExclusive?: number } | undefined;
  /** Positions served: [start, end). */
  start: number;
  end: number;
  /** Spec 4.2 rule 7. */
  firstPage: boolean;
  /** Spec 4.2 rule 6. */
  windowCapped: boolean;
}

function filtersOf(req: SimRequest, ctx: RouteContext): Parsed<EventsQueryPlan["filters"]> {
  const out: EventsQueryPlan["filters"] = {};
  for (const field of EVENT_FILTER_FIELDS) {
    const values = multiValues(req.query, field);
    if (values.length === 0) continue;
    if (values.length > MAX_FILTER_VALUES) {
      return rejected(
        fail(ctx, 400, tooManyCode(field), `at most ${MAX_FILTER_VALUES} distinct values of ${field}, got ${values.length}`, {
          field,
          max: MAX_FILTER_VALUES,
          got: values.length,
        }),
      );
    }
    if (field === "stage") {
      const bad = values.find((v) => !(KNOWN_STAGES as readonly string[]).includes(v));
      if (bad !== undefined) {
        return rejected(fail(ctx, 400, "invalid_stage", `unknown stage ${JSON.stringify(bad)}`, { field, allowed: [...KNOWN_STAGES] }));
      }
    }
    out[field] = values;
  }
  return parsed(out);
}

/** `status=closed|open` wins over the legacy `closed=true|false`. */
function closedOf(req: SimRequest, ctx: RouteContext): Parsed<boolean> {
  const status = first(req.query, "status");
  if (status !== undefined && status !== "") {
    const s = status.toLowerCase();
    if (s === "closed") return parsed(true);
    if (s === "open") return parsed(false);
    return rejected(fail(ctx, 400, "invalid_status", `unknown status ${JSON.stringify(status)}`, { field: "status", allowed: ["open", "closed"] }));
  }
  const closed = first(req.query, "closed");
  if (closed === undefined) return parsed(false);
  const c = closed.toLowerCase();
  if (c === "true") return parsed(true);
  if (c === "false") return parsed(false);
  return rejected(fail(ctx, 400, "invalid_request", "closed must be true or false", { field: "closed", fields: ["closed"] }));
}

type FromTo = { kind: "absent" } | { kind: "digits"; n: number } | { kind: "iso"; ms: number; dateOnly: boolean } | { kind: "other"; text: string };

function classify(text: string | undefined): FromTo {
  if (text === undefined) return { kind: "absent" };
  if (isDigits(text)) return { kind: "digits", n: digitsValue(text) };
  if (looksIso(text)) {
    const iso = parseIso(text);
    if (iso !== undefined) return { kind: "iso", ...iso };
  }
  return { kind: "other", text };
}

const DAY_MS = 86_400_000;

export function parseEventsQuery(req: SimRequest, ctx: RouteContext): Parsed<EventsQueryPlan> {
  const q = req.query;
  for (const p of BANNED_PAGING_PARAMS) {
    if (q.has(p)) {
      return rejected(
        fail(ctx, 400, "invalid_request", `${p} is not a paging parameter of this endpoint: use page and limit (at most ${EVENTS_WINDOW})`, {
          field: p,
          fields: [p],
        }),
      );
    }
  }
  const filters = filtersOf(req, ctx);
  if (!filters.ok) return filters;
  const closed = closedOf(req, ctx);
  if (!closed.ok) return closed;

  const limitText = first(q, "limit");
  let limit: number | undefined;
  if (limitText !== undefined) {
    if (!isDigits(limitText) || digitsValue(limitText) < 1) {
      return rejected(fail(ctx, 400, "invalid_limit", "limit must be a positive integer"));
    }
    limit = digitsValue(limitText);
  }
  const pageText = first(q, "page");
  let page: number | undefined;
  if (pageText !== undefined) {
    if (!isDigits(pageText) || digitsValue(pageText) < 1) {
      return rejected(fail(ctx, 400, "invalid_request", "page must be an integer >= 1", { field: "page", fields: ["page"] }));
    }
    page = digitsValue(pageText);
  }

  const from = classify(first(q, "from"));
  const to = classify(first(q, "to"));
  const paged = page !== undefined || limit !== undefined;
  const nonIso = [from, to].some((v) => v.kind === "digits" || v.kind === "other");
  if (paged && nonIso) {
    return rejected(fail(ctx, 400, "ambiguous_pagination", "from/to positions cannot be combined with page/limit; use one of them (ISO-8601 dates do combine)"));
  }
  for (const [key, v] of [["from", from], ["to", to]] as const) {
    if (v.kind === "other") {
      return rejected(fail(ctx, 400, "invalid_request", `${key} must be digits (a position) or an ISO-8601 date starting YYYY-MM-DD`, { field: key, fields: [key] }));
    }
  }
  const positional = from.kind === "digits" || to.kind === "digits";
  const dated = from.kind === "iso" || to.kind === "iso";
  if (positional && dated) {
    return rejected(fail(ctx, 400, "invalid_request", "from and to must both be positions or both be ISO-8601 dates", { fields: ["from", "to"] }));
  }

  let start = 0;
  let end = EVENTS_WINDOW;
  let askedMore = false;
  if (paged) {
    const size = Math.min(limit ?? EVENTS_WINDOW, EVENTS_WINDOW);
    askedMore = (limit ?? 0) > EVENTS_WINDOW;
    start = ((page ?? 1) - 1) * size;
    end = start + size;
  } else if (positional) {
    start = from.kind === "digits" ? from.n : 0;
    if (to.kind === "digits") {
      // `to` is inclusive, like "positions 200 to 299" of rule 1.
      if (to.n < start) {
        return rejected(fail(ctx, 400, "invalid_request", "to must not be below from", { fields: ["from", "to"] }));
      }
      askedMore = to.n - start + 1 > EVENTS_WINDOW;
      end = Math.min(to.n + 1, start + EVENTS_WINDOW);
    } else {
      end = start + EVENTS_WINDOW;
    }
  }
  // Rule 1: without page, limit or a numeric `to` nothing bounds the request.
  const bounded = paged || to.kind === "digits";

  let dateRange: EventsQueryPlan["dateRange"];
  if (dated) {
    dateRange = {};
    if (from.kind === "iso") dateRange.fromMs = from.ms;
    // A bare date as `to` includes that whole day.
    if (to.kind === "iso") dateRange.toMsExclusive = to.dateOnly ? to.ms + DAY_MS : to.ms + 1;
  }

  const qText = first(q, "q")?.trim();
  return parsed({
    filters: filters.value,
    closed: closed.value,
    q: qText === undefined || qText === "" ? undefined : qText,
    dateRange,
    start,
    end,
    firstPage: page !== undefined ? page === 1 : from.kind === "digits" ? from.n === 0 : true,
    windowCapped: !bounded || askedMore,
  });
}
