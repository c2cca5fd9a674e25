/** GET /api/events rows, detail, featured and stats on the default scenario. */
import { describe, expect, it } from "vitest";
import { errorEnvelopeSchema, event, eventsPage } from "../../../../src/wire/index.js";
import { eventStats } from "../../../../src/sim/http/routes/events.js";
import { ALICE, BOB, harness } from "./harness.js";

/** Keys spec 2.6 rule 1 removes from market rows nested in GET /api/events. */
const SLIM_OMITTED = ["eventSlug", "tags", "homeCountry", "awayCountry", "sport", "tradingMode", "notTradableReason", "resolutionCriteria"];
/** Keys every row keeps. */
const ALWAYS = ["id", "eventId", "symbol", "slug", "status", "outcomePrices", "chances", "tradingWindow", "lifecycle", "additionalSources", "prediction", "volumes"];

describe("GET /api/events on the default scenario", () => {
  it("lists the three events with slim market rows (spec 2.6 rule 1) and event-level keys present", async () => {
    const h = harness();
    const r = await h.get("/api/events");
    expect(r.status).toBe(200);
    const page = eventsPage.parse(r.body);
    expect(page.events.map((e) => e.slug)).toEqual(["arsenal-vs-chelsea", "barcelona-vs-real-madrid", "premier-league-winner"]);
    expect(page).toMatchObject({ total: 3, openMarketCount: 6, totalMarketCount: 6 });
    const raw = r.body.events[0];
    for (const k of ["slug", "title", "tags", "sport", "homeCountry", "awayCountry", "stage", "group", "match", "markets", "openMarketCount", "totalMarketCount", "cryptoSeries", "cryptoLongSeries", "resolutionCriteriaUrl"]) {
      expect(raw, k).toHaveProperty(k);
    }
    for (const m of r.body.events.flatMap((e: { markets: unknown[] }) => e.markets)) {
      for (const k of SLIM_OMITTED) expect(m, k).not.toHaveProperty(k);
      for (const k of ALWAYS) expect(m, k).toHaveProperty(k);
    }
    expect(raw.markets.map((m: { symbol: string }) => m.symbol)).toEqual(["ARS-CHE-ARS", "ARS-CHE-DRAW", "ARS-CHE-CHE", "ARS-CHE-GOAL5"]);
  });

  it("list rows carry live quotes from the engine", async () => {
    const h = harness();
    // BAR-RMA-BAR is in PRE_MARKET: post-only orders only.
    h.place(ALICE, "BAR-RMA-BAR", 0, "BUY", "0.50", "5", true);
    h.place(BOB, "BAR-RMA-BAR", 1, "BUY", "0.46", "5", true); // YES ask 0.54
    const page = eventsPage.parse((await h.get("/api/events")).body);
    const m = page.events[1]!.markets[0]!;
    expect(m.outcomePrices).toEqual(["0.54", "0.5"]);
    expect(m.chances).toEqual(["0.52", "0.48"]);
  });

  it("a market that closes stays nested; the event leaves the default list only when no market is open", async () => {
    const h = harness();
    await h.clock.advance(6 * 60_000);
    const page = eventsPage.parse((await h.get("/api/events")).body);
    const ars = page.events[0]!;
    expect(ars.openMarketCount).toBe(3);
    expect(ars.totalMarketCount).toBe(4);
    expect(ars.markets.find((m) => m.symbol === "ARS-CHE-GOAL5")?.status).toBe("CLOSED");
    expect(page.openMarketCount).toBe(5);
    expect(page.totalMarketCount).toBe(6);
    expect(eventsPage.parse((await h.get("/api/events?status=closed")).body).events).toEqual([]);
  });
});

describe("GET /api/events/:slug", () => {
  it("returns the event with full rows (probabilityChange key included)", async () => {
    const h = harness();
    const r = await h.get("/api/events/arsenal-vs-chelsea");
    expect(r.status).toBe(200);
    const e = event.parse(r.body);
    expect(e.slug).toBe("arsenal-vs-chelsea");
    expect(e.openMarketCount).toBe(4);
    for (const m of r.body.markets) {
      for (const k of [...SLIM_OMITTED, "probabilityChange"]) expect(m, k).toHaveProperty(k);
      expect(m.eventSlug).toBe("arsenal-vs-chelsea");
      expect(m.tags.map((t: { slug: string }) => t.slug)).toEqual(["football", "premier-league"]);
    }
  });

  it("is 404 event_not_found for an unknown slug", async () => {
    const h = harness();
    const r = await h.get("/api/events/no-such-event");
    expect(r.status).toBe(404);
    const env = errorEnvelopeSchema.parse(r.body);
    expect(env.error.code).toBe("event_not_found");
    expect(env.error.details).toEqual({ slug: "no-such-event" });
  });
});

describe("GET /api/events/featured and /stats", () => {
  it("featured: the literal path wins over :slug; events with a featured tag, full rows", async () => {
    const h = harness();
    const r = await h.get("/api/events/featured");
    expect(r.status).toBe(200);
    const page = eventsPage.parse(r.body);
    expect(page.events.map((e) => e.slug)).toEqual(["arsenal-vs-chelsea", "barcelona-vs-real-madrid", "premier-league-winner"]);
    expect(r.body.events[0].markets[0]).toHaveProperty("eventSlug");
  });

  it("stats: open/closed events and markets, per vertical", async () => {
    const h = harness();
    const r = await h.get("/api/events/stats");
    expect(r.status).toBe(200);
    const s = eventStats.parse(r.body);
    expect(s).toEqual({
      events: { open: 3, closed: 0 },
      markets: { open: 6, closed: 0, total: 6 },
      verticals: [{ vertical: "football", events: 3, openMarkets: 6 }],
      updatedAt: new Date(h.clock.now()).toISOString(),
    });
    await h.clock.advance(6 * 60_000);
    expect(eventStats.parse((await h.get("/api/events/stats")).body).markets).toEqual({ open: 5, closed: 1, total: 6 });
  });
});
