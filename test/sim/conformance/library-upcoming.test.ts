/**
 * GET /api/upcoming (spec 2.11, 4.5) on configs/scenarios/catalogue-large.yaml at 12:00 UTC: one
 * announcement per competition (an event's last tag) built from the catalogue; ACTIVE counts that
 * agree with the events list; the coming-soon state (counts.events 0) of a competition whose markets
 * are not listed yet; the [from, to] window (default now..now+90 days, overlap, capped at 400 days).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upcoming as upcomingSchema } from "../../../src/wire/discovery.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { bootLibrary, type Library } from "./library-harness.js";
import { T0, type Json } from "./harness.js";

const DAY = 86_400_000;
let lib: Library;
beforeAll(async () => {
  lib = await bootLibrary("catalogue-large");
});
afterAll(async () => {
  await lib.close();
});

async function ok(path: string): Promise<Json> {
  const r = await lib.send(path);
  expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
  return r.body;
}

const bySlug = (body: Json, slug: string): Json => (body.upcoming as Json[]).find((u) => u.competition.slug === slug);

describe("catalogue-large.yaml: GET /api/upcoming", () => {
  it("answers the 2.11 shape with one entry per competition, earliest start first", async () => {
    const body = await ok("/api/upcoming");
    upcomingSchema.parse(body);
    const entries = body.upcoming as Json[];
    const slugs = entries.map((u): string => String(u.competition.slug));
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs).toEqual(expect.arrayContaining(["football", "tennis", "basketball", "politics", "crypto", "esports", "club-world-cup"]));
    const starts = entries.map((u): number => Date.parse(String(u.startsAt)));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    for (const u of entries) {
      expect(Date.parse(String(u.endsAt))).toBeGreaterThanOrEqual(Date.parse(String(u.startsAt)));
      for (const k of ["description", "imageUrl", "category"]) expect(u).toHaveProperty(k);
    }
  });

  it("counts are ACTIVE counts: the events with a tradeable market and those markets, as the events list counts them", async () => {
    const body = await ok("/api/upcoming");
    for (const slug of ["football", "politics", "crypto"]) {
      const u = bySlug(body, slug);
      const list = await ok(`/api/events?competition=${slug}&page=1&limit=1`);
      expect(u.counts, slug).toEqual({ events: list.total, markets: list.openMarketCount });
      expect(u.counts.events).toBeGreaterThan(0);
      expect(u.category).toBe(slug);
    }
  });

  it("a competition whose markets are not listed yet is coming soon (counts.events 0), announced from its pre-market start", async () => {
    const u = bySlug(await ok("/api/upcoming"), "club-world-cup");
    expect(u).toMatchObject({
      title: "Club World Cup",
      competition: { slug: "club-world-cup", name: "Club World Cup" },
      tag: { slug: "football", name: "Football" },
      category: "football",
      counts: { events: 0, markets: 0 },
      startsAt: new Date(T0 + 10 * DAY).toISOString(),
      endsAt: new Date(T0 + 12 * DAY).toISOString(),
    });
    // still not in any list
    expect((await lib.send("/api/markets/CWC-OPENER")).status).toBe(404);
  });

  it("the window: entries overlapping [from, to]; to before from is 400; a window over 400 days is served, capped", async () => {
    const iso = (ms: number): string => new Date(ms).toISOString();
    const later = await ok(`/api/upcoming?from=${iso(T0 + 13 * DAY)}&to=${iso(T0 + 20 * DAY)}`);
    expect(bySlug(later, "club-world-cup")).toBeUndefined();
    expect(bySlug(later, "football")).toBeDefined(); // the World Cup winner market runs to +60d
    const soon = await ok(`/api/upcoming?from=${iso(T0 + 11 * DAY)}&to=${iso(T0 + 11 * DAY)}`);
    expect(bySlug(soon, "club-world-cup")).toBeDefined();
    const before = await ok(`/api/upcoming?to=${iso(T0 + 5 * DAY)}`);
    expect(bySlug(before, "club-world-cup")).toBeUndefined();

    const wide = await lib.send(`/api/upcoming?from=${iso(T0)}&to=${iso(T0 + 1000 * DAY)}`);
    expect(wide.status).toBe(200);
    const backwards = await lib.send(`/api/upcoming?from=${iso(T0 + DAY)}&to=${iso(T0)}`);
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.code).toBe("invalid_request");
    const bad = await lib.send("/api/upcoming?from=tomorrow");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe("from");
  });

  it("the client's call reads it", async () => {
    const { createClient } = await import("../../../src/api/client.js");
    const client = createClient({ baseUrl: lib.url });
    const r = await client.upcoming.list();
    expect(r.data.upcoming.length).toBeGreaterThan(0);
  });
});

describe("GET /api/upcoming: the 400-day cap and settled competitions", () => {
  const scenario = `
start: "2026-06-01T12:00:00Z"
events:
  - { slug: far, title: Far, tags: [football, far-cup], markets: [{ title: F, symbol: FAR, tradingWindow: { opensAt: +500d, closesAt: +501d } }] }
  - { slug: done, title: Done, tags: [football, done-cup], markets: [{ title: D, symbol: DONE, tradingWindow: { opensAt: -3d, closesAt: -2d } }] }
  - { slug: live, title: Live, tags: [live-cup], markets: [{ title: L, symbol: LIVE, tradingWindow: { opensAt: -1h, closesAt: +1d } }] }
`;
  it("a window wider than 400 days is served as its first 400 days; a competition with every market settled is not announced", async () => {
    const sim = new Simulator(parseScenario(scenario, "t.yaml"), { clock: new VirtualClock(T0), flow: false });
    const pipeline = new Pipeline({ sim, routes: allRoutes() });
    const get = async (url: string): Promise<Json> => {
      const r = await pipeline.handle({ method: "GET", url, headers: {}, bodyText: "", remoteAddress: "127.0.0.1" });
      expect(r.status, r.bodyText).toBe(200);
      return JSON.parse(r.bodyText);
    };
    const slugs = (b: Json): string[] => (b.upcoming as Json[]).map((u): string => String(u.competition.slug)).sort();
    const iso = (days: number): string => new Date(T0 + days * DAY).toISOString();
    expect(slugs(await get(`/api/upcoming?from=${iso(0)}&to=${iso(1000)}`))).toEqual(["live-cup"]); // far-cup starts at +500 days
    expect(slugs(await get(`/api/upcoming?from=${iso(101)}&to=${iso(1000)}`))).toEqual(["far-cup"]);
    expect(slugs(await get(`/api/upcoming?from=${iso(-10)}`))).toEqual(["done-cup", "live-cup"]);
    // done-cup's market closed but is not settled: once voided, it is no longer announced
    expect(sim.platform.catalogue.transition(sim.platform.catalogue.marketBySymbol("DONE")!.id, "void").ok).toBe(true);
    expect(slugs(await get(`/api/upcoming?from=${iso(-10)}`))).toEqual(["live-cup"]);
    const live = (await get("/api/upcoming")).upcoming[0];
    expect(live).toMatchObject({ tag: { slug: "live-cup" }, competition: { slug: "live-cup" }, counts: { events: 1, markets: 1 }, category: null, imageUrl: null, description: null });
  });
});
