/**
 * The paging rules of GET /api/events (spec 4.2 rules 1-7) on a generated catalogue of 300
 * events (270 open, 30 closed) plus one fixture in play.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { errorEnvelopeSchema, eventsPage } from "../../../../src/wire/index.js";
import { generatedScenario, harness, T0, type GeneratedShape, type Harness } from "./harness.js";

let h: Harness;
let shape: GeneratedShape;
/** Default-list totals, computed from the catalogue independently of the route. */
let expected: { total: number; open: number; markets: number };

beforeAll(() => {
  const g = generatedScenario(300);
  shape = g.shape;
  h = harness(g.scenario);
  const cat = h.sim.platform.catalogue;
  let open = 0;
  let markets = 0;
  for (const slug of shape.defaultSlugs) {
    const ms = cat.eventMarkets(cat.eventBySlug(slug)!);
    markets += ms.length;
    open += ms.filter((m) => ["PRE_MARKET", "OPEN", "PAUSED", "POSTPONED"].includes(cat.status(m.id))).length;
  }
  expected = { total: shape.defaultSlugs.length, open, markets };
});

const CAPPED = "x-events-window-capped";

async function list(q: string) {
  const r = await h.get(`/api/events${q === "" ? "" : `?${q}`}`);
  expect(r.status, q).toBe(200);
  const page = eventsPage.parse(r.body);
  return { page, slugs: page.events.map((e) => e.slug), capped: r.headers[CAPPED], body: r.body as Record<string, unknown> };
}

async function error(q: string) {
  const r = await h.get(`/api/events?${q}`);
  expect(r.status, q).toBe(400);
  return errorEnvelopeSchema.parse(r.body).error;
}

describe("GET /api/events paging", () => {
  it("the scenario is big enough: more than 200 events in the default list", () => {
    expect(expected.total).toBe(271);
    expect(shape.defaultSlugs.at(-1)).toBe("in-play");
    expect(expected.open).toBeLessThan(expected.markets); // the in-play market is CLOSED
  });

  it("no window at all: the first 100 events, totals, and X-Events-Window-Capped: 100", async () => {
    const { page, slugs, capped } = await list("");
    expect(slugs).toEqual(shape.defaultSlugs.slice(0, 100));
    expect(capped).toBe("100");
    expect(page.total).toBe(expected.total);
    expect(page.openMarketCount).toBe(expected.open);
    expect(page.totalMarketCount).toBe(expected.markets);
    expect(page.facets).toBeUndefined();
  });

  it("limit above 100 is served as 100, not rejected, and flagged as capped", async () => {
    const { slugs, capped, page } = await list("limit=500");
    expect(slugs).toEqual(shape.defaultSlugs.slice(0, 100));
    expect(capped).toBe("100");
    expect(page.total).toBe(expected.total);
  });

  it("pages step by the served size: page=3&limit=500 is positions 200..299", async () => {
    const { slugs, capped, body } = await list("page=3&limit=500");
    expect(slugs).toEqual(shape.defaultSlugs.slice(200, 300));
    expect(slugs).toHaveLength(71);
    expect(capped).toBe("100");
    for (const k of ["total", "openMarketCount", "totalMarketCount"]) expect(body).not.toHaveProperty(k);
  });

  it("a later page without q carries no totals; a bounded request is not flagged", async () => {
    const p2 = await list("page=2");
    expect(p2.slugs).toEqual(shape.defaultSlugs.slice(100, 200));
    expect(p2.capped).toBeUndefined();
    expect(p2.body).not.toHaveProperty("total");
    const small = await list("page=2&limit=10");
    expect(small.slugs).toEqual(shape.defaultSlugs.slice(10, 20));
    expect(small.capped).toBeUndefined();
  });

  it("page=1 is a first page: totals present, independent of the page size", async () => {
    const { slugs, capped, page } = await list("page=1&limit=10");
    expect(slugs).toEqual(shape.defaultSlugs.slice(0, 10));
    expect(capped).toBeUndefined();
    expect(page.total).toBe(expected.total);
    expect(page.totalMarketCount).toBe(expected.markets);
    const limitOnly = await list("limit=100");
    expect(limitOnly.capped).toBeUndefined();
    expect(limitOnly.page.total).toBe(expected.total);
  });

  it("a page past the end is empty; walking page=1,2,... until empty yields every event once", async () => {
    expect((await list("page=4")).slugs).toEqual([]);
    const all: string[] = [];
    for (let p = 1; ; p++) {
      const { slugs } = await list(`page=${p}&limit=100`);
      if (slugs.length === 0) break;
      all.push(...slugs);
    }
    expect(all).toEqual(shape.defaultSlugs);
  });

  it("limit that is not digits or below 1 is 400 invalid_limit without details.max", async () => {
    for (const bad of ["0", "-1", "abc", "1.5", "", "10e2"]) {
      const e = await error(`limit=${bad}`);
      expect(e.code, bad).toBe("invalid_limit");
      expect(e.details?.max, bad).toBeUndefined();
    }
  });

  it("offset, cursor, skip, start and pageSize are refused with 400 invalid_request", async () => {
    for (const p of ["offset", "cursor", "skip", "start", "pageSize"]) {
      const e = await error(`${p}=10`);
      expect(e.code, p).toBe("invalid_request");
      expect(e.details?.field).toBe(p);
    }
  });

  it("digits-only from/to is a position window (to inclusive); from=0 is a first page", async () => {
    const w = await list("from=0&to=49");
    expect(w.slugs).toEqual(shape.defaultSlugs.slice(0, 50));
    expect(w.capped).toBeUndefined();
    expect(w.page.total).toBe(expected.total);
    const mid = await list("from=150&to=159");
    expect(mid.slugs).toEqual(shape.defaultSlugs.slice(150, 160));
    expect(mid.body).not.toHaveProperty("total");
    expect(mid.capped).toBeUndefined();
  });

  it("a digits-only span wider than 100 is cut to 100 and flagged as capped", async () => {
    const w = await list("from=10&to=400");
    expect(w.slugs).toEqual(shape.defaultSlugs.slice(10, 110));
    expect(w.capped).toBe("100");
    expect(w.body).not.toHaveProperty("total");
  });

  it("from alone serves 100 from there (unbounded: capped); to alone is a first page", async () => {
    const f = await list("from=150");
    expect(f.slugs).toEqual(shape.defaultSlugs.slice(150, 250));
    expect(f.capped).toBe("100");
    expect(f.body).not.toHaveProperty("total");
    const t = await list("to=9");
    expect(t.slugs).toEqual(shape.defaultSlugs.slice(0, 10));
    expect(t.capped).toBeUndefined();
    expect(t.page.total).toBe(expected.total);
  });

  it("non-ISO from/to together with page or limit is 400 ambiguous_pagination", async () => {
    for (const q of ["from=5&page=1", "to=10&limit=5", "from=0&to=10&page=2", "from=abc&limit=3", "to=2026/01/01&page=1"]) {
      expect((await error(q)).code, q).toBe("ambiguous_pagination");
    }
    for (const q of ["from=abc", "to=10-01-2026", "from=2026-02-31"]) {
      const e = await error(q);
      expect(e.code, q).toBe("invalid_request");
    }
    expect((await error("from=20&to=10")).code).toBe("invalid_request");
    expect((await error("from=2026-06-01&to=50")).code).toBe("invalid_request");
  });

  it("ISO from/to is a kickoff date range and combines with page/limit", async () => {
    // Event i (open) kicks off at T0 + (24 + i) h. T0 = 2026-06-01T12:00Z.
    const day = (d: number) => new Date(T0 + d * 86_400_000).toISOString().slice(0, 10);
    // 2026-06-03 (whole day, `to` as a bare date includes it): kickoffs 00:00..23:00 -> i = 12..35.
    const r = await list(`from=${day(2)}&to=${day(2)}`);
    const want = shape.defaultSlugs.filter((s) => {
      const i = Number(s.slice(3));
      return Number.isFinite(i) && i >= 12 && i <= 35;
    });
    expect(r.slugs).toEqual(want);
    expect(r.capped).toBe("100"); // a date range bounds no window
    expect(r.page.total).toBe(want.length);
    const paged = await list(`from=${day(2)}&to=${day(2)}&page=2&limit=5`);
    expect(paged.slugs).toEqual(want.slice(5, 10));
    expect(paged.body).not.toHaveProperty("total");
    const instant = await list(`from=${new Date(T0 + 30 * 3_600_000).toISOString()}&to=${new Date(T0 + 32 * 3_600_000).toISOString()}&limit=50`);
    expect(instant.slugs).toEqual(["ev-006", "ev-007", "ev-008"]);
  });

  it("q search: every page carries total, counters and facets", async () => {
    const p1 = await list("q=alpha");
    const alpha = shape.defaultSlugs.filter((s) => /^ev-\d+$/.test(s) && Number(s.slice(3)) % 2 === 0);
    expect(p1.page.total).toBe(alpha.length);
    expect(p1.slugs).toEqual(alpha.slice(0, 100));
    const p2 = await list("q=alpha&page=2");
    expect(p2.slugs).toEqual(alpha.slice(100, 200));
    expect(p2.page.total).toBe(alpha.length);
    expect(p2.page.openMarketCount).toBeGreaterThan(0);
    expect(p2.page.totalMarketCount).toBeGreaterThanOrEqual(p2.page.openMarketCount!);
    const facets = p2.page.facets as { vertical: Record<string, number>; tag: Record<string, number> };
    expect(facets.vertical).toEqual({ football: alpha.length });
    expect(Object.values(facets.tag).reduce((a, b) => a + b, 0)).toBe(alpha.length);
    // Multi-term search ANDs the terms, any case.
    expect((await list("q=EVENT%20007")).slugs).toEqual(["ev-007"]);
    expect((await list("q=%20")).body).not.toHaveProperty("facets"); // blank q is no search
  });

  it("status=closed (and legacy closed=true) lists events with no tradeable market, without the fixture in play", async () => {
    const c = await list("status=closed");
    expect(c.slugs).toEqual(shape.closedSlugs);
    expect(c.page.total).toBe(30);
    expect(c.page.openMarketCount).toBe(0);
    expect(c.page.totalMarketCount).toBeGreaterThanOrEqual(30);
    expect(c.slugs).not.toContain("in-play");
    expect((await list("closed=true")).slugs).toEqual(shape.closedSlugs);
    expect((await list("status=CLOSED")).slugs).toEqual(shape.closedSlugs);
    // The default list holds the fixture in play although its only market is CLOSED.
    const last = await list("page=3");
    expect(last.slugs.at(-1)).toBe("in-play");
    const inPlay = last.page.events.at(-1)!;
    expect(inPlay.markets.map((m) => m.status)).toEqual(["CLOSED"]);
    expect(inPlay.openMarketCount).toBe(0);
    expect((await error("status=archived")).code).toBe("invalid_status");
    expect((await error("closed=maybe")).code).toBe("invalid_request");
  });

  it("scope: both list counters hold the number of admitted markets; nested rows are narrowed", async () => {
    const r = await list("scope=totals");
    const want = shape.defaultSlugs.filter((s) => /^ev-\d+$/.test(s) && Number(s.slice(3)) % 4 === 0);
    expect(r.page.total).toBe(want.length);
    expect(r.slugs).toEqual(want.slice(0, 100));
    expect(r.page.openMarketCount).toBe(want.length);
    expect(r.page.totalMarketCount).toBe(want.length);
    for (const e of r.page.events) expect(e.markets.map((m) => m.marketType)).toEqual(["TOTALS"]);
    const both = await list("scope=totals,match_winner");
    expect(both.page.openMarketCount).toBe(both.page.totalMarketCount);
    expect(both.page.totalMarketCount).toBe(expected.markets);
  });
});
