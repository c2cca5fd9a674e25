/**
 * The public reads the simulator has little data for (src/sim/http/routes/public-extra.ts), on a
 * small catalogue: matches (grouped fixtures, public only with a listed market), search (every
 * word of q, the empty matches and users lists), the upcoming calendar (default and explicit
 * windows, the 400-day cap, bad bounds), geo, and an Up/Down series' windows (unsettled or all,
 * from/to overlap, paging, 404 for an unknown series); each paging or value error a 400.
 */
import { describe, expect, it } from "vitest";
import { extraPublicRoutes, MATCHES_MAX_LIMIT, SEARCH_MAX_LIMIT, UPCOMING_MAX_DAYS } from "../../../../src/sim/http/routes/public-extra.js";
import { matchIdOf } from "../../../../src/sim/platform/market-json.js";
import { scenarioPipeline, T0 } from "./scenario-pipeline.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

const SCENARIO = `
seed: 4
start: "2026-06-01T12:00:00Z"
events:
  - slug: ars-che-winner
    title: "Arsenal vs Chelsea: Winner"
    vertical: football
    tags: [football, premier-league]
    kickoff: +2h
    match: { slug: ars-che, title: ARS v CHE, teamA: { code: ARS, label: Arsenal }, teamB: { code: CHE, label: Chelsea } }
    markets: [{ title: Arsenal win?, symbol: ARS-W, tradingWindow: { opensAt: -1h, closesAt: +1d } }]
  - slug: ars-che-goals
    title: "Arsenal vs Chelsea: Goals"
    vertical: football
    tags: [football, premier-league]
    kickoff: +3h
    match: { slug: ars-che, teamA: { code: ARS, label: Arsenal }, teamB: { code: CHE, label: Chelsea } }
    markets: [{ title: Over 2.5 goals?, symbol: ARS-G, tradingWindow: { opensAt: -1h, closesAt: +1d } }]
  - slug: bar-rma
    title: Barcelona vs Real Madrid
    vertical: football
    tags: [football, la-liga]
    kickoff: +10d
    match: { slug: bar-rma, teamA: { code: BAR, label: Barcelona }, teamB: { code: RMA, label: Real Madrid } }
    markets: [{ title: Barcelona win?, symbol: BAR-W, tradingWindow: { preMarketStartsAt: +100d, opensAt: +101d, closesAt: +102d } }]
  - slug: election
    title: Election 2026
    vertical: politics
    tags: [politics]
    markets: [{ title: Will the incumbent win?, symbol: ELEC, tradingWindow: { opensAt: -2h, closesAt: +30d } }]
  - slug: far-cup
    title: Far Cup
    tags: [far-cup]
    markets: [{ title: Far?, symbol: FAR, tradingWindow: { opensAt: +450d } }]
generate:
  - { kind: updown, asset: BTC, cadenceMinutes: 15, days: [0], listedMinutesBefore: 60 }
`;

const setup = () => scenarioPipeline(SCENARIO, extraPublicRoutes);

describe("GET /api/matches and /api/matches/{slug}", () => {
  it("lists the public matches, each with its fixtures, teams and roll-up", async () => {
    const h = setup();
    const r = await h.get("/api/matches");
    expect(r.status).toBe(200);
    expect(r.body.matches).toHaveLength(1);
    expect(r.body.matches[0]).toMatchObject({
      id: matchIdOf("ars-che"),
      slug: "ars-che",
      title: "ARS v CHE",
      teamA: { code: "ARS", label: "Arsenal", logo: null },
      scheduleStatus: "SCHEDULED",
      kickoffAt: iso(T0 + 2 * HOUR),
    });
    expect(r.body.matches[0].events.map((e: { slug: string }) => e.slug)).toEqual(["ars-che-winner", "ars-che-goals"]);
  });

  it("pages with limit and offset, and refuses bad values", async () => {
    const h = setup();
    expect((await h.get("/api/matches?limit=1&offset=1")).body).toEqual({ matches: [] });
    expect((await h.get(`/api/matches?limit=${MATCHES_MAX_LIMIT}`)).status).toBe(200);
    expect((await h.get(`/api/matches?limit=${MATCHES_MAX_LIMIT + 1}`)).body.error).toMatchObject({ code: "invalid_limit", details: { max: 500 } });
    expect((await h.get("/api/matches?offset=-1")).body.error).toMatchObject({ code: "invalid_request", details: { field: "offset" } });
  });

  it("answers a match's detail, and 404 match_not_found for one without a listed market or unknown", async () => {
    const h = setup();
    expect((await h.get("/api/matches/ars-che")).body).toMatchObject({ slug: "ars-che", stage: null });
    for (const slug of ["bar-rma", "nope"]) {
      const r = await h.get(`/api/matches/${slug}`);
      expect(r.status, slug).toBe(404);
      expect(r.body.error).toMatchObject({ code: "match_not_found", details: { slug } });
    }
  });
});

describe("GET /api/search", () => {
  const slugs = (body: { events: { slug: string }[] }) => body.events.map((e) => e.slug);

  it("finds the listed events holding every word of q, with empty matches and users", async () => {
    const h = setup();
    const r = await h.get("/api/search?q=arsenal");
    expect(slugs(r.body)).toEqual(["ars-che-winner", "ars-che-goals"]);
    expect(r.body).toMatchObject({ matches: [], users: [], total: 2 });
    expect(slugs((await h.get("/api/search?q=ARSENAL%20goals")).body)).toEqual(["ars-che-goals"]);
    expect((await h.get("/api/search?q=nothing-like-this")).body).toEqual({ events: [], matches: [], users: [], total: 0 });
  });

  it("a blank q lists every listed event; limit and offset page them; total counts them all", async () => {
    const h = setup();
    const all = await h.get("/api/search?q=%20");
    expect(slugs(all.body)).toEqual(["ars-che-winner", "ars-che-goals", "election", "btc-up-down-15m-day-0"]);
    const page = await h.get("/api/search?limit=1&offset=2");
    expect(slugs(page.body)).toEqual(["election"]);
    expect(page.body.total).toBe(4);
    expect((await h.get(`/api/search?limit=${SEARCH_MAX_LIMIT + 1}`)).body.error.code).toBe("invalid_limit");
  });

  it("/api/search/events answers events and total only; /matches and /users are always empty but check paging", async () => {
    const h = setup();
    expect(Object.keys((await h.get("/api/search/events?q=election")).body).sort()).toEqual(["events", "total"]);
    expect((await h.get("/api/search/events?q=election")).body.total).toBe(1);
    expect((await h.get("/api/search/matches?q=arsenal")).body).toEqual({ matches: [], total: 0 });
    expect((await h.get("/api/search/users?q=x")).body).toEqual({ users: [], total: 0 });
    expect((await h.get("/api/search/users?limit=0")).body.error.code).toBe("invalid_limit");
    expect((await h.get("/api/search/events?offset=x")).body.error.code).toBe("invalid_request");
  });
});

describe("GET /api/upcoming", () => {
  const titles = (body: { upcoming: { competition: { slug: string } }[] }) => body.upcoming.map((u) => u.competition.slug);

  it("by default announces the active competitions overlapping the next 90 days, earliest start first", async () => {
    const h = setup();
    const r = await h.get("/api/upcoming");
    expect(r.status).toBe(200);
    expect(titles(r.body)).toEqual(["crypto", "politics", "premier-league"]);
    const pl = r.body.upcoming[2];
    expect(pl).toMatchObject({
      category: "football",
      tag: { slug: "football" },
      startsAt: iso(T0 - HOUR),
      endsAt: iso(T0 + DAY),
      counts: { events: 2, markets: 2 },
    });
  });

  it("takes an explicit window; a competition with nothing listed yet is announced with zero counts", async () => {
    const h = setup();
    const r = await h.get(`/api/upcoming?from=${iso(T0 + 50 * DAY)}&to=${iso(T0 + 120 * DAY)}`);
    expect(titles(r.body)).toEqual(["la-liga"]);
    expect(r.body.upcoming[0]).toMatchObject({ startsAt: iso(T0 + 100 * DAY), endsAt: iso(T0 + 102 * DAY), counts: { events: 0, markets: 0 } });
    expect(titles((await h.get("/api/upcoming?from=&to=")).body)).toEqual(["crypto", "politics", "premier-league"]);
  });

  it(`serves a window wider than ${UPCOMING_MAX_DAYS} days as ${UPCOMING_MAX_DAYS} days from its start`, async () => {
    const h = setup();
    // From +40 days the cap ends the window at +440 days, before the Far Cup opens (+450 days).
    expect(titles((await h.get(`/api/upcoming?from=${iso(T0 + 40 * DAY)}&to=${iso(T0 + 500 * DAY)}`)).body)).toEqual(["la-liga"]);
    expect(titles((await h.get(`/api/upcoming?from=${iso(T0 + 300 * DAY)}&to=${iso(T0 + 500 * DAY)}`)).body)).toEqual(["far-cup"]);
  });

  it("refuses a bound that is not ISO-8601, and a `to` before `from`", async () => {
    const h = setup();
    const bad = await h.get("/api/upcoming?from=tomorrow");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", message: "from must be an ISO-8601 date or date-time", details: { field: "from" } });
    expect((await h.get("/api/upcoming?to=2026-02-30")).body.error.details).toMatchObject({ field: "to" });
    const reversed = await h.get("/api/upcoming?from=2026-06-10&to=2026-06-09");
    expect(reversed.body.error).toMatchObject({ code: "invalid_request", message: "to must not be before from", details: { fields: ["from", "to"] } });
  });
});

describe("GET /api/compliance/geo", () => {
  it("never blocks API-key traffic", async () => {
    expect((await setup().get("/api/compliance/geo")).body).toEqual({ blocked: false, country: null, region: null });
  });
});

describe("GET /api/crypto-series/{id}/windows", () => {
  // Day 0 has 96 windows of 15 minutes from 00:00 UTC, each listed an hour before it opens. At
  // 12:00: windows 0..47 have ended (CLOSED), 48 is OPEN, 49..52 PRE_MARKET, 53.. not listed yet.
  const URL = "/api/crypto-series/btc-up-down-15m/windows";
  const symbols = (body: { windows: { symbol: string }[] }) => body.windows.map((w) => w.symbol);
  const sym = (k: number) => `BTC-UD15-DP0-${String(k).padStart(3, "0")}`;

  it("lists the listed, unsettled windows, earliest opening first, 50 by default", async () => {
    const h = setup();
    const r = await h.get(URL);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ hasMore: true, total: 53 });
    expect(symbols(r.body)).toEqual(Array.from({ length: 50 }, (_, k) => sym(k)));
    expect(r.body.windows[0]).toMatchObject({ status: "CLOSED", cryptoWindow: { seriesId: "btc-up-down-15m", index: 0 } });
    const last = await h.get(`${URL}?limit=2&offset=51`);
    expect(symbols(last.body)).toEqual([sym(51), sym(52)]);
    expect(last.body).toMatchObject({ hasMore: false, total: 53 });
  });

  it("leaves settled windows out unless state=all", async () => {
    const h = setup();
    expect(h.sim.voidMarket(sym(0)).ok).toBe(true);
    expect((await h.get(`${URL}?limit=1`)).body).toMatchObject({ total: 52, hasMore: true });
    expect(symbols((await h.get(`${URL}?limit=1`)).body)).toEqual([sym(1)]);
    const all = await h.get(`${URL}?state=ALL`);
    expect(all.body).toMatchObject({ total: 53, hasMore: false });
    expect(all.body.windows[0]).toMatchObject({ symbol: sym(0), status: "VOIDED" });
  });

  it("keeps the windows overlapping [from, to]", async () => {
    const h = setup();
    expect(symbols((await h.get(`${URL}?to=2026-06-01T00:30:00Z`)).body)).toEqual([sym(0), sym(1), sym(2)]);
    expect(symbols((await h.get(`${URL}?from=2026-06-01T12:50:00Z`)).body)).toEqual([sym(51), sym(52)]);
  });

  it("refuses an unknown state, a bad limit or bound, and 404s an unknown series", async () => {
    const h = setup();
    const state = await h.get(`${URL}?state=settled`);
    expect(state.status).toBe(400);
    expect(state.body.error).toMatchObject({ code: "invalid_request", details: { field: "state", allowed: ["all"] } });
    expect((await h.get(`${URL}?limit=501`)).body.error.code).toBe("invalid_limit");
    expect((await h.get(`${URL}?from=noon`)).body.error).toMatchObject({ code: "invalid_request", details: { field: "from" } });
    const missing = await h.get("/api/crypto-series/eth-up-down-5m/windows");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "crypto_series_not_found", details: { id: "eth-up-down-5m" } });
  });
});
