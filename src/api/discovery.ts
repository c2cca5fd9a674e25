/**
 * Public reads beyond markets and events (spec 4.1, 4.4, 4.5, 4.9): matches, leaderboard, the
 * upcoming calendar, search, geo compliance, user activity and challenges; plus the partner feeds
 * (4.9, authenticated, partner-level: no wallet header). Shapes the spec does not show are the
 * choices in docs/spec-gaps.md (src/wire/public-reads.ts).
 */
import type {
  ActivityPage,
  ChallengesPage,
  ComplianceGeo,
  Leaderboard,
  Match,
  MatchesPage,
  MmKpis,
  PartnerTradesPage,
  ReconciliationSnapshot,
  SearchAll,
  SearchEventsPage,
  SearchMatchesPage,
  SearchUsersPage,
  Upcoming,
} from "../wire/index.js";
import {
  activityPage,
  challengesPage,
  complianceGeo,
  leaderboard,
  match,
  matchesPage,
  mmKpis,
  partnerTradesPage,
  reconciliationSnapshot,
  searchAll,
  searchEventsPage,
  searchMatchesPage,
  searchUsersPage,
  upcoming,
} from "../wire/index.js";
import type { ApiCore, CallSpec } from "./core.js";
import { readCall } from "./decode.js";
import { cursorPages } from "./paging.js";
import { path, withQuery } from "./query.js";
import type { CallOptions, Ok } from "./results.js";

function publicRead(p: string, opts?: CallOptions): CallSpec {
  return { method: "GET", path: p, auth: false, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) };
}

export interface OffsetQuery {
  limit?: number;
  offset?: number;
}

export interface CursorLimitQuery {
  cursor?: string;
  limit?: number;
}

/** Largest page of `GET /api/matches` (spec 4.1). */
export const MATCHES_MAX_LIMIT = 500;

export class MatchesApi {
  constructor(private readonly core: ApiCore) {}

  /** `limit` 1..500 (default 500), `offset`. */
  list(q: OffsetQuery = {}, opts?: CallOptions): Promise<Ok<MatchesPage>> {
    return readCall(this.core, publicRead(withQuery("/api/matches", { limit: q.limit, offset: q.offset }), opts), matchesPage);
  }

  /** Every match, stepping `offset` by the rows served until a short page. */
  async *iterate(q: OffsetQuery = {}, opts?: CallOptions): AsyncGenerator<Match, void, undefined> {
    const limit = q.limit ?? MATCHES_MAX_LIMIT;
    let offset = q.offset ?? 0;
    const seen = new Set<string>();
    for (;;) {
      const page = await this.list({ limit, offset }, opts);
      for (const m of page.data.matches) {
        if (seen.has(m.id)) continue;
        seen.add(m.id);
        yield m;
      }
      if (page.data.matches.length < limit || page.data.matches.length === 0) return;
      offset += page.data.matches.length;
    }
  }

  /** By canonical slug; 404 `match_not_found` (thrown) when unknown or without public markets. */
  get(slug: string, opts?: CallOptions): Promise<Ok<Match>> {
    return readCall(this.core, publicRead(path`/api/matches/${slug}`, opts), match);
  }
}

export type LeaderboardPeriod = "today" | "week" | "month" | "all";

export interface LeaderboardQuery {
  period?: LeaderboardPeriod;
  sort?: "pnl" | "volume";
  /** Case-insensitive prefix: wallet when it looks 0x-hex, username otherwise. */
  search?: string;
  /** 1..50, default 20. */
  limit?: number;
  cursor?: string;
}

/**
 * `GET /api/leaderboard`. On the client (no key) `me` is null; on a wallet view the key and
 * wallet are sent and `me` is the caller's entry (spec 4.4).
 */
export class LeaderboardApi {
  constructor(
    private readonly core: ApiCore,
    private readonly who: { wallet: string | undefined; auth: boolean },
  ) {}

  page(q: LeaderboardQuery = {}, opts?: CallOptions): Promise<Ok<Leaderboard>> {
    const p = withQuery("/api/leaderboard", { period: q.period, sort: q.sort, search: q.search, limit: q.limit, cursor: q.cursor });
    const spec: CallSpec = { ...publicRead(p, opts), auth: this.who.auth, ...(this.who.auth && this.who.wallet !== undefined ? { wallet: this.who.wallet } : {}) };
    return readCall(this.core, spec, leaderboard);
  }

  /** Every page of one period, following `nextCursor`. */
  pages(q: LeaderboardQuery = {}, opts?: CallOptions): AsyncGenerator<Ok<Leaderboard>, void, undefined> {
    return cursorPages((cursor) => this.page({ ...q, cursor }, opts), { method: "GET", path: "/api/leaderboard" }, q.cursor);
  }
}

export class UpcomingApi {
  constructor(private readonly core: ApiCore) {}

  /** Window `[from, to]` (ISO-8601); default now to now + 90 days, capped at 400 days (spec 4.5). */
  list(q: { from?: string; to?: string } = {}, opts?: CallOptions): Promise<Ok<Upcoming>> {
    return readCall(this.core, publicRead(withQuery("/api/upcoming", { from: q.from, to: q.to }), opts), upcoming);
  }
}

export interface SearchQuery extends OffsetQuery {
  q?: string;
}

/** Search (spec 4.9): `limit` default 50, max 50, `offset` default 0. */
export class SearchApi {
  constructor(private readonly core: ApiCore) {}

  private p(base: string, q: SearchQuery): string {
    return withQuery(base, { q: q.q, limit: q.limit, offset: q.offset });
  }

  all(q: SearchQuery = {}, opts?: CallOptions): Promise<Ok<SearchAll>> {
    return readCall(this.core, publicRead(this.p("/api/search", q), opts), searchAll);
  }

  events(q: SearchQuery = {}, opts?: CallOptions): Promise<Ok<SearchEventsPage>> {
    return readCall(this.core, publicRead(this.p("/api/search/events", q), opts), searchEventsPage);
  }

  matches(q: SearchQuery = {}, opts?: CallOptions): Promise<Ok<SearchMatchesPage>> {
    return readCall(this.core, publicRead(this.p("/api/search/matches", q), opts), searchMatchesPage);
  }

  users(q: SearchQuery = {}, opts?: CallOptions): Promise<Ok<SearchUsersPage>> {
    return readCall(this.core, publicRead(this.p("/api/search/users", q), opts), searchUsersPage);
  }
}

export class ComplianceApi {
  constructor(private readonly core: ApiCore) {}

  /** `GET /api/compliance/geo` (geo blocking does not apply to API-key requests, spec 5.6). */
  geo(opts?: CallOptions): Promise<Ok<ComplianceGeo>> {
    return readCall(this.core, publicRead("/api/compliance/geo", opts), complianceGeo);
  }
}

/** Public activity of a user (spec 4.9): `cursor`, `limit` default 20, max 100. */
export class UsersApi {
  constructor(private readonly core: ApiCore) {}

  activityPage(address: string, q: CursorLimitQuery = {}, opts?: CallOptions): Promise<Ok<ActivityPage>> {
    return readCall(this.core, publicRead(withQuery(path`/api/users/${address}/activity`, { cursor: q.cursor, limit: q.limit }), opts), activityPage);
  }

  activityByVaultPage(vault: string, q: CursorLimitQuery = {}, opts?: CallOptions): Promise<Ok<ActivityPage>> {
    return readCall(this.core, publicRead(withQuery(path`/api/users/by-vault/${vault}/activity`, { cursor: q.cursor, limit: q.limit }), opts), activityPage);
  }

  /** Every activity row of a wallet, following `nextCursor`. */
  async *activity(address: string, q: CursorLimitQuery = {}, opts?: CallOptions): AsyncGenerator<ActivityPage["activity"][number], void, undefined> {
    const pages = cursorPages((cursor) => this.activityPage(address, { ...q, cursor }, opts), { method: "GET", path: "/api/users/{address}/activity" }, q.cursor);
    for await (const page of pages) yield* page.data.activity;
  }

  async *activityByVault(vault: string, q: CursorLimitQuery = {}, opts?: CallOptions): AsyncGenerator<ActivityPage["activity"][number], void, undefined> {
    const pages = cursorPages((cursor) => this.activityByVaultPage(vault, { ...q, cursor }, opts), { method: "GET", path: "/api/users/by-vault/{vault}/activity" }, q.cursor);
    for await (const page of pages) yield* page.data.activity;
  }
}

/** Resolution challenges (spec 4.9): `cursor`, `limit` default 50. */
export class ChallengesApi {
  constructor(private readonly core: ApiCore) {}

  page(q: CursorLimitQuery = {}, opts?: CallOptions): Promise<Ok<ChallengesPage>> {
    return readCall(this.core, publicRead(withQuery("/api/challenges", { cursor: q.cursor, limit: q.limit }), opts), challengesPage);
  }

  marketPage(symbol: string, q: CursorLimitQuery = {}, opts?: CallOptions): Promise<Ok<ChallengesPage>> {
    return readCall(this.core, publicRead(withQuery(path`/api/markets/${symbol}/challenges`, { cursor: q.cursor, limit: q.limit }), opts), challengesPage);
  }

  async *all(q: CursorLimitQuery = {}, opts?: CallOptions): AsyncGenerator<Record<string, unknown>, void, undefined> {
    const pages = cursorPages((cursor) => this.page({ ...q, cursor }, opts), { method: "GET", path: "/api/challenges" }, q.cursor);
    for await (const page of pages) yield* page.data.challenges;
  }

  async *ofMarket(symbol: string, q: CursorLimitQuery = {}, opts?: CallOptions): AsyncGenerator<Record<string, unknown>, void, undefined> {
    const pages = cursorPages((cursor) => this.marketPage(symbol, { ...q, cursor }, opts), { method: "GET", path: "/api/markets/{symbol}/challenges" }, q.cursor);
    for await (const page of pages) yield* page.data.challenges;
  }
}

/**
 * Partner feeds (spec 4.9): partner-level, authenticated by the key alone (no wallet header).
 * These endpoints refuse undefined query parameters (`400 invalid_request`), so only the named
 * ones are ever sent.
 */
export class PartnerFeedsApi {
  constructor(private readonly core: ApiCore) {}

  private spec(p: string, opts?: CallOptions): CallSpec {
    return { method: "GET", path: p, auth: true, policy: "read", ...(opts?.signal ? { signal: opts.signal } : {}) };
  }

  /** `limit` default 50, max 300. */
  tradesPage(q: CursorLimitQuery = {}, opts?: CallOptions): Promise<Ok<PartnerTradesPage>> {
    return readCall(this.core, this.spec(withQuery("/api/v1/partner/trades", { cursor: q.cursor, limit: q.limit }), opts), partnerTradesPage);
  }

  /** Every partner trade row once (by trade id and wallet), newest first. */
  async *trades(q: CursorLimitQuery = {}, opts?: CallOptions): AsyncGenerator<PartnerTradesPage["trades"][number], void, undefined> {
    const seen = new Set<string>();
    const pages = cursorPages((cursor) => this.tradesPage({ ...q, cursor }, opts), { method: "GET", path: "/api/v1/partner/trades" }, q.cursor);
    for await (const page of pages) {
      for (const t of page.data.trades) {
        const key = `${t.id}\n${t.walletAddress.toLowerCase()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        yield t;
      }
    }
  }

  /** `limit` default 500, max 1000. */
  mmKpis(q: { limit?: number } = {}, opts?: CallOptions): Promise<Ok<MmKpis>> {
    return readCall(this.core, this.spec(withQuery("/api/v1/partner/mm-kpis", { limit: q.limit }), opts), mmKpis);
  }

  reconciliationSnapshot(opts?: CallOptions): Promise<Ok<ReconciliationSnapshot>> {
    return readCall(this.core, this.spec("/api/v1/partner/reconciliation/snapshot", opts), reconciliationSnapshot);
  }
}
