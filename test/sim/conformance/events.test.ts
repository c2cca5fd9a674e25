/**
 * Spec 4.2 (events list paging and filters, rules 1-7), 2.8 (event keys) and 2.6 rules 1-4
 * (slim list rows versus full rows), on the default scenario plus 150 generated events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boot, expectEnvelope, type Conformance, type Json } from "./harness.js";

const EXTRA = 150;
const EVENT_KEYS = [
  "slug", "title", "tags", "sport", "homeCountry", "awayCountry", "stage", "group", "match", "markets",
  "openMarketCount", "totalMarketCount", "cryptoSeries", "cryptoLongSeries", "resolutionCriteriaUrl",
];
const LIST_ONLY_OMITTED = ["eventSlug", "tags", "homeCountry", "awayCountry", "sport", "tradingMode", "notTradableReason", "resolutionCriteria"];

let c: Conformance;
beforeAll(async () => {
  c = await boot({
    edit: (doc: Json) => {
      for (let i = 0; i < EXTRA; i++) {
        doc.events.push({
          slug: `gen-${String(i).padStart(3, "0")}`,
          title: `Generated ${i}`,
          vertical: i % 2 === 0 ? "football" : "tennis",
          sport: i % 2 === 0 ? "football" : "tennis",
          tags: i % 3 === 0 ? ["la-liga"] : [],
          stage: i % 5 === 0 ? "group" : i % 5 === 1 ? "final" : null,
          group: i % 5 === 0 ? (i % 10 === 0 ? "A" : "B") : null,
          homeCountry: i % 7 === 0 ? "BRA" : null,
          awayCountry: i % 7 === 0 ? "ARG" : null,
          kickoff: `+${i + 1}d`,
          markets: [
            {
              title: `Generated market ${i}`,
              symbol: `GEN-${i}`,
              marketType: i % 4 === 0 ? "TOTALS" : "MATCH_WINNER",
              tradingWindow: { opensAt: "-1h", closesAt: `+${i + 1}d` },
              flow: { enabled: false },
            },
          ],
        });
      }
    },
  });
});
afterAll(async () => {
  await c.close();
});

const CAPPED = "x-events-window-capped";

async function list(q: string): Promise<{ body: Json; capped: string | null; slugs: string[] }> {
  const r = await c.send(`/api/events${q ? `?${q}` : ""}`);
  expect(r.status, `${q}: ${r.text.slice(0, 200)}`).toBe(200);
  return { body: r.body, capped: r.headers.get(CAPPED), slugs: (r.body.events as Json[]).map((e): string => String(e.slug)) };
}

async function bad(q: string, code: string): Promise<Json> {
  return expectEnvelope(await c.send(`/api/events?${q}`), 400, code);
}

describe("4.2 rule 1: at most 100 per response, page stepping", () => {
  it("no window: the first 100, capped header, totals", async () => {
    const all = await list("");
    expect(all.slugs).toHaveLength(100);
    expect(all.capped).toBe("100");
    expect(all.body.total).toBe(3 + EXTRA);
  });

  it("limit above 100 is served as 100, not rejected; pages step by the served size", async () => {
    const big = await list("limit=500");
    expect(big.slugs).toHaveLength(100);
    expect(big.capped).toBe("100");
    const p1 = await list("page=1&limit=100");
    const p2 = await list("page=2&limit=500");
    expect(p2.slugs).toHaveLength(3 + EXTRA - 100);
    expect(p2.slugs[0]).not.toBe(p1.slugs[0]);
    expect(new Set([...p1.slugs, ...p2.slugs]).size).toBe(3 + EXTRA);
    const p3 = await list("page=3&limit=500");
    expect(p3.slugs).toEqual([]);
  });

  it("walking page=1,2,... with limit=100 until empty covers every event once", async () => {
    const ids = new Set<string>();
    let n = 0;
    for (let page = 1; ; page++) {
      const r = await list(`page=${page}&limit=100`);
      if (r.body.events.length === 0) break;
      for (const e of r.body.events) ids.add(e.id);
      n += r.body.events.length;
    }
    expect(n).toBe(3 + EXTRA);
    expect(ids.size).toBe(3 + EXTRA);
  });

  it("a smaller limit pages by that size", async () => {
    const a = await list("page=2&limit=10");
    const all = await list("");
    expect(a.slugs).toEqual(all.slugs.slice(10, 20));
    expect(a.capped).toBeNull();
  });
});

describe("4.2 rules 2-5: parameter errors", () => {
  it("limit not digits or below 1: 400 invalid_limit without details.max", async () => {
    for (const v of ["abc", "0", "-1", "1.5", ""]) {
      const e = await bad(`limit=${v}`, "invalid_limit");
      expect(e.details?.max).toBeUndefined();
    }
  });

  it("a digits-only from/to span wider than 100 is cut to 100", async () => {
    const r = await list("from=0&to=1000");
    expect(r.slugs).toHaveLength(100);
    const r2 = await list("from=20&to=400");
    const all = await list("");
    expect(r2.slugs).toEqual([...all.slugs.slice(20), ...(await list("page=2&limit=100")).slugs].slice(0, 100));
  });

  it("ISO-8601 from/to combine with page/limit; any other from/to with page/limit is ambiguous_pagination", async () => {
    const iso = await list("from=2026-06-01&to=2026-12-31&page=1&limit=5");
    expect(iso.slugs.length).toBeLessThanOrEqual(5);
    expect(iso.slugs.length).toBeGreaterThan(0);
    await bad("from=0&page=1", "ambiguous_pagination");
    await bad("to=50&limit=10", "ambiguous_pagination");
    await bad("from=yesterday&limit=10", "ambiguous_pagination");
  });

  it("offset, cursor, skip, start, pageSize give 400", async () => {
    for (const p of ["offset", "cursor", "skip", "start", "pageSize"]) {
      const r = await c.send(`/api/events?${p}=1`);
      expect(r.status, p).toBe(400);
      expect(r.body.error.trace_id).toBe(r.headers.get("x-trace-id"));
    }
  });

  it("more than 20 distinct values per multi-value field: too_many_<field>; duplicates collapse; CSV and repeats mix", async () => {
    const v = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    await bad(`tag=${v(21).join(",")}`, "too_many_tag");
    await bad(`tag=${v(11).join(",")}&${v(21).slice(11).map((x) => `tag=${x}`).join("&")}`, "too_many_tag");
    await bad(`predictionType=${v(21).join(",")}`, "too_many_prediction_type");
    await bad(`vertical=${v(21).join(",")}`, "too_many_vertical");
    // 25 values but only 20 distinct: accepted
    const ok = await c.send(`/api/events?tag=${[...v(20), ...v(5)].join(",")}`);
    expect(ok.status).toBe(200);
  });

  it("unknown enum values are refused with 400 (stage) and unknown query parameters are ignored", async () => {
    const r = await c.send("/api/events?stage=semis");
    expect(r.status).toBe(400);
    expect((await list("frobnicate=1")).slugs).toHaveLength(100);
  });
});

describe("4.2 rules 6-7: capped header and first-page totals", () => {
  it("X-Events-Window-Capped only when more than 100 or no window was asked", async () => {
    expect((await list("limit=100")).capped).toBeNull();
    expect((await list("limit=101")).capped).toBe("100");
    expect((await list("page=2")).capped).toBeNull();
    expect((await list("from=0&to=99")).capped).toBeNull();
    expect((await list("from=0&to=100")).capped).toBe("100");
    // a page that is empty or short still describes the request, not the list
    expect((await list("page=9&limit=500")).capped).toBe("100");
  });

  it("the first page (page=1, from=0, no page) carries total/openMarketCount/totalMarketCount; later pages do not", async () => {
    for (const q of ["", "page=1", "page=1&limit=5", "from=0&to=9", "limit=5"]) {
      const r = await list(q);
      expect(r.body.total, q).toBe(3 + EXTRA);
      expect(typeof r.body.openMarketCount, q).toBe("number");
      expect(typeof r.body.totalMarketCount, q).toBe("number");
    }
    for (const q of ["page=2", "page=2&limit=5", "from=5&to=9"]) {
      const r = await list(q);
      expect(r.body.total, q).toBeUndefined();
      expect(r.body.openMarketCount, q).toBeUndefined();
      expect(r.body.totalMarketCount, q).toBeUndefined();
    }
  });

  it("with q every page carries the totals and facets", async () => {
    const p2 = await list("q=generated&page=2&limit=10");
    expect(p2.body.total).toBe(EXTRA);
    expect(p2.body.facets).toBeTypeOf("object");
    expect(typeof p2.body.openMarketCount).toBe("number");
  });

  it("filters AND across fields, OR within one; stage and group filter the event fields", async () => {
    const grp = await list("stage=group&limit=100");
    expect(grp.body.events.every((e: Json) => e.stage === "group")).toBe(true);
    expect(grp.body.total).toBe(EXTRA / 5);
    const a = await list("stage=group&group=A");
    expect(a.body.events.every((e: Json) => e.group === "A")).toBe(true);
    const either = await list("stage=group,final&limit=100");
    expect(either.body.total).toBe((EXTRA / 5) * 2);
    const mixed = await list("stage=group&stage=final&vertical=tennis&limit=100");
    expect(mixed.body.events.every((e: Json) => e.vertical === "tennis" && ["group", "final"].includes(e.stage))).toBe(true);
  });
});

describe("2.8 event keys and 2.6 list rows vs full rows", () => {
  it("every named event-level key is present on list, detail and featured events (null, not omitted)", async () => {
    const rows: Json[] = [
      ...(await list("")).body.events,
      (await c.send("/api/events/arsenal-vs-chelsea")).body,
      ...(await c.send("/api/events/featured")).body.events,
    ];
    expect(rows.length).toBeGreaterThan(100);
    for (const e of rows) for (const k of EVENT_KEYS) expect(e, `${e.slug}.${k}`).toHaveProperty(k);
    const gen = rows.find((e) => e.slug === "gen-001")!;
    expect(gen.match).toBeNull();
    expect(gen.cryptoSeries).toBeNull();
    expect(gen.cryptoLongSeries).toBeNull();
    expect(gen.resolutionCriteriaUrl).toBeNull();
    // stage / group on match-less fixtures too
    expect(rows.find((e) => e.slug === "gen-000")).toMatchObject({ stage: "group", group: "A" });
  });

  it("list rows omit the detail-only keys, keep additionalSources, prediction null", async () => {
    const ev = (await list("")).body.events.find((e: Json): boolean => e.slug === "arsenal-vs-chelsea");
    for (const m of ev.markets) {
      for (const k of LIST_ONLY_OMITTED) expect(m, k).not.toHaveProperty(k);
      expect(m).toHaveProperty("additionalSources");
      expect(m.prediction).toBeNull();
    }
  });

  it("detail, featured and GET /api/markets return full rows; GET /api/markets/{slug} has no probabilityChange", async () => {
    const detail = (await c.send("/api/events/arsenal-vs-chelsea")).body;
    const featured = (await c.send("/api/events/featured")).body.events.find((e: Json): boolean => e.slug === "arsenal-vs-chelsea");
    const bulk = (await c.send("/api/markets?limit=500")).body.markets.filter((m: Json) => m.eventSlug === "arsenal-vs-chelsea");
    for (const m of [...detail.markets, ...featured.markets, ...bulk]) {
      for (const k of LIST_ONLY_OMITTED) expect(m, k).toHaveProperty(k);
      expect(m.eventSlug).toBe("arsenal-vs-chelsea");
    }
    const one = (await c.send(`/api/markets/${detail.markets[0].slug}`)).body;
    expect(one).not.toHaveProperty("probabilityChange");
    for (const k of LIST_ONLY_OMITTED) expect(one, k).toHaveProperty(k);
  });

  it("counts: openMarketCount / totalMarketCount per event", async () => {
    const ev = (await c.send("/api/events/arsenal-vs-chelsea")).body;
    expect(ev.totalMarketCount).toBe(4);
    expect(ev.openMarketCount).toBe(4);
  });

  it("unknown event slug: 404 event_not_found", async () => {
    expectEnvelope(await c.send("/api/events/nope-nope"), 404, "event_not_found");
  });
});

describe("4.2: status=closed", () => {
  it("events with no tradeable market and at least one closed market; the open sum is 0 on the closed view", async () => {
    expect((await list("status=closed")).body.total).toBe(0);
    for (const s of ["ARS-CHE-ARS", "ARS-CHE-DRAW", "ARS-CHE-CHE", "ARS-CHE-GOAL5"]) {
      const r = await c.send(`/sim/markets/${s}/status`, { body: { trigger: "close" } });
      expect(r.status).toBe(200);
    }
    // kickoff is 3 h away: not in play, so it leaves the default list
    const closed = await list("status=closed");
    expect(closed.slugs).toEqual(["arsenal-vs-chelsea"]);
    expect(closed.body.openMarketCount).toBe(0);
    expect(closed.body.totalMarketCount).toBe(4);
    expect((await list("closed=true")).slugs).toEqual(["arsenal-vs-chelsea"]);
    expect((await list("limit=100")).slugs).not.toContain("arsenal-vs-chelsea");
    expect((await list("")).body.total).toBe(2 + EXTRA);
    expect((await c.send("/api/events?status=bogus")).status).toBe(400);
  });

  it("a fixture in play stays on the default list even when its markets are CLOSED, and is not on status=closed", async () => {
    await c.advance(4 * 3_600_000); // kickoff was at +3h
    expect((await list("limit=100")).slugs).toContain("arsenal-vs-chelsea");
    expect((await list("status=closed")).slugs).not.toContain("arsenal-vs-chelsea");
    // the in-play event's nested rows may be CLOSED
    const ev = (await list("limit=100")).body.events.find((e: Json): boolean => e.slug === "arsenal-vs-chelsea");
    expect(ev.markets.every((m: Json) => m.status === "CLOSED")).toBe(true);
  });
});
