/**
 * The assumptions `mm conform` checks against a platform environment: what the client and the
 * simulator take for granted (spec sections 2, 4, 5, 7, 8, 9 and the choices in docs/spec-gaps.md)
 * that can be observed WITHOUT trading. Every probe is a GET; none places an order, cancels one or
 * moves funds. Deliberately bad requests (an unknown slug, a bad limit, a forbidden parameter, a
 * malformed key) are how the error envelopes are observed.
 *
 * Each check answers one verdict: `confirmed` (the platform behaves as assumed), `contradicted`
 * (it does not: the detail says what it did), or `unobservable` (this run cannot tell: no API key,
 * no market to probe, the endpoint answered something else first).
 */
import type { z } from "zod";
import { eventsPage, marketsPage, matchesPage, tagsList, platformContracts, feeConfig, openOrdersPage, upcoming, challengesPage } from "../wire/index.js";

export type Verdict = "confirmed" | "contradicted" | "unobservable";

export interface Probe {
  status: number;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string>>;
  text: string;
  /** Parsed JSON, undefined when the body is not JSON. */
  json: unknown;
}

export interface ProbeOptions {
  /** Send the API key (and X-User-Wallet when a wallet is configured). */
  auth?: boolean;
  /** Extra headers (a deliberately bad key, ...). */
  headers?: Record<string, string>;
}

/** What a check can do: GET a path (paced by the runner). */
export interface ConformContext {
  get(path: string, opts?: ProbeOptions): Promise<Probe>;
  /** Whether an API key was given. */
  hasKey: boolean;
  /** `<prefix>_<env>_` of the given key, to build a well-formed key the platform cannot know. */
  keyPrefixEnv: string | undefined;
  /** The X-User-Wallet sent with authenticated probes, if any. */
  wallet: string | undefined;
  /** Shared between checks (a market symbol found by one, used by another). */
  memo: Map<string, unknown>;
}

export interface CheckResult {
  verdict: Verdict;
  detail: string;
}

export interface Check {
  id: string;
  /** The assumption, in one sentence. */
  assumption: string;
  /** Where it comes from: a spec section or docs/spec-gaps.md. */
  source: string;
  run(ctx: ConformContext): Promise<CheckResult>;
}

const confirmed = (detail = ""): CheckResult => ({ verdict: "confirmed", detail });
const contradicted = (detail: string): CheckResult => ({ verdict: "contradicted", detail });
const unobservable = (detail: string): CheckResult => ({ verdict: "unobservable", detail });

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function short(p: Probe): string {
  return `HTTP ${p.status} ${p.text.replace(/\s+/g, " ").slice(0, 160)}`;
}

function schemaProblem(schema: z.ZodType, value: unknown): string | undefined {
  const r = schema.safeParse(value);
  if (r.success) return undefined;
  const first = r.error.issues[0];
  return first ? `${first.path.join(".") || "(root)"}: ${first.message}` : "does not match";
}

/** The spec 7.1 standard envelope with this status and code (and trace_id matching X-Trace-Id when both are there). */
function envelopeVerdict(p: Probe, status: number, code: string, extra?: (error: Record<string, unknown>) => string | undefined): CheckResult {
  if (p.status !== status) return contradicted(`expected HTTP ${status} ${code}, got ${short(p)}`);
  if (!isRecord(p.json) || !isRecord(p.json.error)) return contradicted(`expected the {status, error: {code, message}} envelope, got ${short(p)}`);
  const e = p.json.error;
  if (p.json.status !== status) return contradicted(`envelope status ${JSON.stringify(p.json.status)}, HTTP ${p.status}`);
  if (e.code !== code) return contradicted(`expected code ${code}, got ${JSON.stringify(e.code)}`);
  if (typeof e.message !== "string") return contradicted("error.message is not a string");
  const header = p.headers["x-trace-id"];
  if (typeof e.trace_id === "string" && header !== undefined && header !== e.trace_id) {
    return contradicted(`error.trace_id ${e.trace_id} differs from X-Trace-Id ${header}`);
  }
  const more = extra?.(e);
  return more === undefined ? confirmed() : contradicted(more);
}

/** A slug no platform has: unknown-resource probes. */
const NO_SUCH = "mm-conform-no-such-slug-7f3a";

async function firstMarketSymbol(ctx: ConformContext): Promise<string | undefined> {
  if (ctx.memo.has("symbol")) return ctx.memo.get("symbol") as string | undefined;
  const p = await ctx.get("/api/markets?limit=1");
  const rows = isRecord(p.json) && Array.isArray(p.json.markets) ? p.json.markets : [];
  const symbol = isRecord(rows[0]) && typeof rows[0].symbol === "string" ? rows[0].symbol : undefined;
  ctx.memo.set("symbol", symbol);
  return symbol;
}

/** docs/spec-gaps.md: the keys of a challenge row (spec 4.9 shape not shown). */
const CHALLENGE_KEYS = ["id", "marketId", "marketSymbol", "challenger", "proposedOutcome", "reason", "bond", "status", "createdAt", "resolvedAt"];

/**
 * Spec 2.8's exception, observed on the closed list: an Up/Down day (cryptoSeries set) whose
 * nested windows are all VOIDED, each before its end, and as many as its totalMarketCount.
 */
function allVoidedDay(e: unknown): boolean {
  if (!isRecord(e) || !isRecord(e.cryptoSeries) || !Array.isArray(e.markets) || e.markets.length === 0) return false;
  if (e.markets.length !== e.totalMarketCount) return false;
  return e.markets.every((m) => {
    if (!isRecord(m) || m.status !== "VOIDED" || !isRecord(m.lifecycle) || !isRecord(m.tradingWindow)) return false;
    const voided = Date.parse(String(m.lifecycle.voidedAt));
    const closesAt = m.tradingWindow.closesAt;
    const ends = typeof closesAt === "string" ? Date.parse(closesAt) : Infinity;
    return voided < ends;
  });
}

export const CHECKS: readonly Check[] = [
  {
    id: "health",
    assumption: "GET /health answers 200",
    source: "spec 4.9",
    async run(ctx) {
      const p = await ctx.get("/health");
      return p.status === 200 ? confirmed() : contradicted(short(p));
    },
  },
  {
    id: "common-headers",
    assumption: "every response carries X-API-Version, X-Server-Time (ms epoch) and X-Request-Id",
    source: "spec 4 (common rules), 6, 9",
    async run(ctx) {
      const missing: string[] = [];
      for (const path of ["/api/markets?limit=1", `/api/events/${NO_SUCH}`]) {
        const p = await ctx.get(path);
        for (const h of ["x-api-version", "x-server-time", "x-request-id"]) if (p.headers[h] === undefined) missing.push(`${h} on ${path} (HTTP ${p.status})`);
        const t = p.headers["x-server-time"];
        if (t !== undefined && !/^\d{12,14}$/.test(t)) return contradicted(`X-Server-Time ${JSON.stringify(t)} is not a millisecond epoch`);
      }
      return missing.length === 0 ? confirmed() : contradicted(`missing ${missing.join(", ")}`);
    },
  },
  {
    id: "api-version-date",
    assumption: "X-API-Version is a date string (YYYY-MM-DD)",
    source: "spec 9",
    async run(ctx) {
      const v = (await ctx.get("/api/tags")).headers["x-api-version"];
      if (v === undefined) return unobservable("no X-API-Version header");
      return /^\d{4}-\d{2}-\d{2}$/.test(v) ? confirmed(v) : contradicted(`X-API-Version ${JSON.stringify(v)}`);
    },
  },
  {
    id: "ratelimit-headers",
    assumption: "rate-limit headers on a public read; X-RateLimit-Reset is delta-seconds, not an epoch",
    source: "spec 8.1",
    async run(ctx) {
      const p = await ctx.get("/api/markets?limit=1");
      const limit = p.headers["x-ratelimit-limit"];
      const remaining = p.headers["x-ratelimit-remaining"];
      const reset = p.headers["x-ratelimit-reset"];
      if (limit === undefined || remaining === undefined || reset === undefined) return contradicted(`missing X-RateLimit-* (got limit=${limit}, remaining=${remaining}, reset=${reset})`);
      const r = Number(reset);
      if (!Number.isFinite(r) || r < 0 || r > 3600) return contradicted(`X-RateLimit-Reset ${JSON.stringify(reset)} is not delta-seconds`);
      return confirmed(`limit ${limit}, reset ${reset}s`);
    },
  },
  {
    id: "markets-page",
    assumption: "GET /api/markets rows match the MarketSummary schema and the page carries hasMore",
    source: "spec 2.6, 4.3",
    async run(ctx) {
      const p = await ctx.get("/api/markets?limit=5");
      if (p.status !== 200) return contradicted(short(p));
      const problem = schemaProblem(marketsPage, p.json);
      if (problem) return contradicted(problem);
      return isRecord(p.json) && typeof p.json.hasMore === "boolean" ? confirmed() : contradicted("no boolean hasMore");
    },
  },
  {
    id: "markets-unknown-param-ignored",
    assumption: "an unknown query parameter is ignored on GET /api/markets",
    source: "spec 4 (common rules)",
    async run(ctx) {
      const p = await ctx.get("/api/markets?limit=1&mmConformUnknown=1");
      return p.status === 200 ? confirmed() : contradicted(short(p));
    },
  },
  {
    id: "market-not-found",
    assumption: "an unknown market slug is 404 market_not_found in the standard envelope",
    source: "spec 7.1, 7.3",
    async run(ctx) {
      return envelopeVerdict(await ctx.get(`/api/markets/${NO_SUCH}`), 404, "market_not_found");
    },
  },
  {
    id: "ohlc-invalid-interval",
    assumption: "an unknown ohlc interval is 400 invalid_interval with the accepted values in details.allowed",
    source: "spec 4.3",
    async run(ctx) {
      const symbol = await firstMarketSymbol(ctx);
      if (symbol === undefined) return unobservable("no market listed to probe");
      const p = await ctx.get(`/api/markets/${encodeURIComponent(symbol)}/ohlc?interval=mm-conform-bogus`);
      return envelopeVerdict(p, 400, "invalid_interval", (e) =>
        isRecord(e.details) && Array.isArray(e.details.allowed) ? undefined : "error.details.allowed is not an array",
      );
    },
  },
  {
    id: "events-page",
    assumption: "GET /api/events events match the Event schema (every named key present, null not omitted)",
    source: "spec 2.8, 4.2",
    async run(ctx) {
      const p = await ctx.get("/api/events?page=1&limit=5");
      if (p.status !== 200) return contradicted(short(p));
      const problem = schemaProblem(eventsPage, p.json);
      return problem ? contradicted(problem) : confirmed();
    },
  },
  {
    id: "events-window-capped",
    assumption: "GET /api/events without a window serves at most 100 events and sends X-Events-Window-Capped: 100",
    source: "spec 4.2 rules 1, 6",
    async run(ctx) {
      const p = await ctx.get("/api/events");
      if (p.status !== 200 || !isRecord(p.json) || !Array.isArray(p.json.events)) return contradicted(short(p));
      if (p.json.events.length > 100) return contradicted(`${p.json.events.length} events in one response`);
      const h = p.headers["x-events-window-capped"];
      return h === "100" ? confirmed(`${p.json.events.length} events`) : contradicted(`X-Events-Window-Capped ${JSON.stringify(h)}`);
    },
  },
  {
    id: "events-limit-over-100",
    assumption: "limit above 100 on GET /api/events is served as 100, not rejected",
    source: "spec 4.2 rule 1",
    async run(ctx) {
      const p = await ctx.get("/api/events?page=1&limit=500");
      if (p.status !== 200 || !isRecord(p.json) || !Array.isArray(p.json.events)) return contradicted(short(p));
      if (p.json.events.length > 100) return contradicted(`${p.json.events.length} events`);
      return p.headers["x-events-window-capped"] === "100" ? confirmed() : contradicted("no X-Events-Window-Capped: 100 on limit=500");
    },
  },
  {
    id: "events-first-page-totals",
    assumption: "the first events page carries total/openMarketCount/totalMarketCount, later pages do not",
    source: "spec 4.2 rule 7",
    async run(ctx) {
      const one = await ctx.get("/api/events?page=1&limit=1");
      if (one.status !== 200 || !isRecord(one.json)) return contradicted(short(one));
      if (one.json.total === undefined) return unobservable("no total on the first page (the spec allows it when not computable in time)");
      if (typeof one.json.total !== "number" || one.json.total < 2) return unobservable(`total ${JSON.stringify(one.json.total)}: too few events for a second page`);
      const two = await ctx.get("/api/events?page=2&limit=1");
      if (two.status !== 200 || !isRecord(two.json)) return contradicted(short(two));
      const leaked = ["total", "openMarketCount", "totalMarketCount"].filter((k) => isRecord(two.json) && two.json[k] !== undefined);
      return leaked.length === 0 ? confirmed(`total ${one.json.total}`) : contradicted(`page 2 carries ${leaked.join(", ")}`);
    },
  },
  {
    id: "events-invalid-limit",
    assumption: "a limit that is not digits is 400 invalid_limit without details.max",
    source: "spec 4.2 rule 2",
    async run(ctx) {
      return envelopeVerdict(await ctx.get("/api/events?limit=abc"), 400, "invalid_limit", (e) =>
        isRecord(e.details) && e.details.max !== undefined ? "details.max is present" : undefined,
      );
    },
  },
  {
    id: "events-offset-refused",
    assumption: "offset, cursor, skip, start and pageSize on GET /api/events are 400",
    source: "spec 4.2 rule 5",
    async run(ctx) {
      const bad: string[] = [];
      for (const k of ["offset", "cursor"]) {
        const p = await ctx.get(`/api/events?${k}=10`);
        if (p.status !== 400) bad.push(`${k}: HTTP ${p.status}`);
      }
      return bad.length === 0 ? confirmed("offset, cursor probed") : contradicted(bad.join("; "));
    },
  },
  {
    id: "events-ambiguous-pagination",
    assumption: "digits-only from/to together with page/limit is 400 ambiguous_pagination",
    source: "spec 4.2 rule 4",
    async run(ctx) {
      return envelopeVerdict(await ctx.get("/api/events?from=0&to=10&page=1"), 400, "ambiguous_pagination");
    },
  },
  {
    id: "events-too-many-values",
    assumption: "more than 20 distinct values of one multi-value filter is 400 too_many_<field>",
    source: "spec 4.2",
    async run(ctx) {
      const tags = Array.from({ length: 21 }, (_, i) => `mm-conform-tag-${i}`).join(",");
      return envelopeVerdict(await ctx.get(`/api/events?tag=${tags}`), 400, "too_many_tag");
    },
  },
  {
    id: "event-not-found",
    assumption: "an unknown event slug is 404 event_not_found",
    source: "spec 7.3",
    async run(ctx) {
      return envelopeVerdict(await ctx.get(`/api/events/${NO_SUCH}`), 404, "event_not_found");
    },
  },
  {
    id: "matches-page",
    assumption: "GET /api/matches answers {matches: Match[]} (shape not shown; our choice)",
    source: "docs/spec-gaps.md, spec 2.2",
    async run(ctx) {
      const p = await ctx.get("/api/matches?limit=5");
      if (p.status !== 200) return contradicted(short(p));
      const problem = schemaProblem(matchesPage, p.json);
      return problem ? contradicted(problem) : confirmed();
    },
  },
  {
    id: "match-not-found",
    assumption: "an unknown match slug is 404 match_not_found",
    source: "spec 4.1",
    async run(ctx) {
      return envelopeVerdict(await ctx.get(`/api/matches/${NO_SUCH}`), 404, "match_not_found");
    },
  },
  {
    id: "upcoming",
    assumption: "GET /api/upcoming answers {upcoming: [entry]} with the 2.11 fields (counts of events and markets as integers)",
    source: "spec 2.11, 4.5",
    async run(ctx) {
      const p = await ctx.get("/api/upcoming");
      if (p.status !== 200) return contradicted(short(p));
      const problem = schemaProblem(upcoming, p.json);
      if (problem) return contradicted(problem);
      const n = isRecord(p.json) && Array.isArray(p.json.upcoming) ? p.json.upcoming.length : 0;
      return n === 0 ? unobservable("no announcement in the default window: the entry fields cannot be seen") : confirmed(`${n} entries`);
    },
  },
  {
    id: "upcoming-window",
    assumption: "GET /api/upcoming serves a window wider than 400 days (capped, not refused) and refuses to before from with 400 invalid_request",
    source: "spec 4.5, docs/spec-gaps.md",
    async run(ctx) {
      const wide = await ctx.get("/api/upcoming?from=2026-01-01&to=2028-12-31");
      if (wide.status !== 200) return contradicted(`a 1095-day window: ${short(wide)}`);
      return envelopeVerdict(await ctx.get("/api/upcoming?from=2027-01-02&to=2027-01-01"), 400, "invalid_request");
    },
  },
  {
    id: "challenges-page",
    assumption: "GET /api/challenges answers {challenges, nextCursor} (rows with the keys of docs/spec-gaps.md)",
    source: "spec 4.9, docs/spec-gaps.md",
    async run(ctx) {
      const p = await ctx.get("/api/challenges?limit=5");
      if (p.status !== 200) return contradicted(short(p));
      const problem = schemaProblem(challengesPage, p.json);
      if (problem) return contradicted(problem);
      const rows = isRecord(p.json) && Array.isArray(p.json.challenges) ? p.json.challenges : [];
      if (rows.length === 0) return confirmed("empty page: the envelope only");
      for (const r of rows) {
        const missing = CHALLENGE_KEYS.filter((k) => !isRecord(r) || !(k in r));
        if (missing.length > 0) return contradicted(`a challenge row lacks ${missing.join(", ")}`);
      }
      return confirmed(`${rows.length} rows`);
    },
  },
  {
    id: "market-challenges-not-found",
    assumption: "challenges of an unknown market symbol are 404 market_not_found",
    source: "spec 4.9, 7.3, docs/spec-gaps.md",
    async run(ctx) {
      return envelopeVerdict(await ctx.get(`/api/markets/${NO_SUCH}/challenges`), 404, "market_not_found");
    },
  },
  {
    id: "updown-all-voided-day",
    assumption: "an Up/Down day whose windows were all VOIDED before ending nests all of them on status=closed, and its detail is 404",
    source: "spec 2.8",
    async run(ctx) {
      const p = await ctx.get("/api/events?status=closed&page=1&limit=100");
      if (p.status !== 200 || !isRecord(p.json) || !Array.isArray(p.json.events)) return contradicted(short(p));
      const day: unknown = p.json.events.find(allVoidedDay);
      if (!isRecord(day) || typeof day.slug !== "string") return unobservable("no Up/Down day with every window voided before its end on the first closed page");
      return envelopeVerdict(await ctx.get(`/api/events/${encodeURIComponent(day.slug)}`), 404, "event_not_found");
    },
  },
  {
    id: "tags",
    assumption: "GET /api/tags answers {tags: [...]} with slug, name, color, iconUrl, isFeatured",
    source: "spec 2.4, docs/spec-gaps.md",
    async run(ctx) {
      const p = await ctx.get("/api/tags");
      if (p.status !== 200) return contradicted(short(p));
      const problem = schemaProblem(tagsList, p.json);
      return problem ? contradicted(problem) : confirmed();
    },
  },
  {
    id: "platform-contracts",
    assumption: "GET /api/platform/contracts and /fee-config match the shapes signing relies on",
    source: "docs/spec-gaps.md",
    async run(ctx) {
      const c = await ctx.get("/api/platform/contracts");
      if (c.status !== 200) return contradicted(`contracts: ${short(c)}`);
      const cp = schemaProblem(platformContracts, c.json);
      if (cp) return contradicted(`contracts: ${cp}`);
      const f = await ctx.get("/api/platform/fee-config");
      if (f.status !== 200) return contradicted(`fee-config: ${short(f)}`);
      const fp = schemaProblem(feeConfig, f.json);
      return fp ? contradicted(`fee-config: ${fp}`) : confirmed();
    },
  },
  {
    id: "auth-required",
    assumption: "an authenticated endpoint without a key is 401 auth_required",
    source: "spec 5.2 step 1",
    async run(ctx) {
      return envelopeVerdict(await ctx.get("/api/orders/open"), 401, "auth_required");
    },
  },
  {
    id: "auth-bad-format",
    assumption: "a key that is not <prefix>_<env>_<keyId>_<secret> is 401 api_key_bad_format",
    source: "spec 5.2 step 1",
    async run(ctx) {
      return envelopeVerdict(await ctx.get("/api/orders/open", { headers: { "x-api-key": "not-a-key" } }), 401, "api_key_bad_format");
    },
  },
  {
    id: "auth-unknown-key",
    assumption: "a well-formed key with an unknown keyId is 401 api_key_unknown_key",
    source: "spec 5.2 step 2",
    async run(ctx) {
      if (ctx.keyPrefixEnv === undefined) return unobservable("needs --api-key-file (for the key prefix and environment)");
      const key = `${ctx.keyPrefixEnv}0mmconform0unknown0_0mmconform0secret0`;
      return envelopeVerdict(await ctx.get("/api/orders/open", { headers: { "x-api-key": key } }), 401, "api_key_unknown_key");
    },
  },
  {
    id: "public-ignores-key",
    assumption: "a public endpoint ignores a key, even a malformed one",
    source: "spec 5.1",
    async run(ctx) {
      const p = await ctx.get("/api/markets?limit=1", { headers: { "x-api-key": "not-a-key" } });
      return p.status === 200 ? confirmed() : contradicted(short(p));
    },
  },
  {
    id: "key-accepted",
    assumption: "the given key is accepted on GET /api/orders/open (multi_wallet: with X-User-Wallet)",
    source: "spec 5.2, 5.3",
    async run(ctx) {
      if (!ctx.hasKey) return unobservable("no --api-key-file");
      const p = await ctx.get("/api/orders/open?limit=1", { auth: true });
      if (p.status === 401 && isRecord(p.json) && isRecord(p.json.error) && p.json.error.code === "api_key_user_wallet_required") {
        return unobservable("multi_wallet key: give --wallet to probe the wallet reads");
      }
      if (p.status !== 200) return contradicted(short(p));
      ctx.memo.set("keyWorks", true);
      const problem = schemaProblem(openOrdersPage, p.json);
      return problem ? contradicted(problem) : confirmed();
    },
  },
  {
    id: "orders-open-undefined-param",
    assumption: "GET /api/orders/open rejects an undefined query parameter with 400 invalid_request",
    source: "spec 4 (common rules)",
    async run(ctx) {
      if (ctx.memo.get("keyWorks") !== true) return unobservable("needs a working key (and --wallet for multi_wallet)");
      return envelopeVerdict(await ctx.get("/api/orders/open?mmConformUnknown=1", { auth: true }), 400, "invalid_request");
    },
  },
];
