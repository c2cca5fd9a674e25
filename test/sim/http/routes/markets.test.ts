import { describe, expect, it } from "vitest";
import { errorEnvelopeSchema, marketSummary, marketsPage } from "../../../../src/wire/index.js";
import { parseScenario } from "../../../../src/sim/platform/index.js";
import { generatedScenario, harness } from "./harness.js";

const OPEN_SYMBOLS = ["ARS-CHE-ARS", "ARS-CHE-DRAW", "ARS-CHE-CHE", "ARS-CHE-GOAL5", "BAR-RMA-BAR", "EPL-WINNER"];

function symbols(body: unknown): string[] {
  return marketsPage.parse(body).markets.map((m) => m.symbol);
}

function slugOf(h: ReturnType<typeof harness>, symbol: string): string {
  return h.sim.platform.catalogue.marketBySymbol(symbol, true)!.slug;
}

describe("GET /api/markets", () => {
  it("defaults to the open set (PRE_MARKET/OPEN/PAUSED/POSTPONED), 50 full rows, hasMore false", async () => {
    const h = harness();
    const r = await h.get("/api/markets");
    expect(r.status).toBe(200);
    const page = marketsPage.parse(r.body);
    expect(page.markets.map((m) => m.symbol)).toEqual(OPEN_SYMBOLS);
    expect(page.hasMore).toBe(false);
    const bar = page.markets.find((m) => m.symbol === "BAR-RMA-BAR")!;
    expect(bar.status).toBe("PRE_MARKET");
    // Full rows: every detail key, probabilityChange included.
    for (const m of page.markets) {
      for (const k of ["eventSlug", "tags", "homeCountry", "awayCountry", "sport", "tradingMode", "notTradableReason", "resolutionCriteria", "probabilityChange"]) {
        expect(m, k).toHaveProperty(k);
      }
    }
    expect(bar.tradingMode).toBe("pre_market_post_only");
    expect(bar.eventSlug).toBe("barcelona-vs-real-madrid");
  });

  it("pages with limit and offset; hasMore says whether rows remain", async () => {
    const h = harness();
    const p1 = marketsPage.parse((await h.get("/api/markets?limit=2")).body);
    expect(p1.markets.map((m) => m.symbol)).toEqual(OPEN_SYMBOLS.slice(0, 2));
    expect(p1.hasMore).toBe(true);
    const p2 = marketsPage.parse((await h.get("/api/markets?limit=2&offset=4")).body);
    expect(p2.markets.map((m) => m.symbol)).toEqual(OPEN_SYMBOLS.slice(4, 6));
    expect(p2.hasMore).toBe(false);
    const p3 = marketsPage.parse((await h.get("/api/markets?limit=2&offset=3")).body);
    expect(p3.hasMore).toBe(true);
    const past = marketsPage.parse((await h.get("/api/markets?offset=6")).body);
    expect(past).toEqual({ markets: [], hasMore: false });
    expect(symbols((await h.get("/api/markets?limit=500")).body)).toEqual(OPEN_SYMBOLS);
  });

  it("serves 50 rows by default and up to 500 with limit, walking offsets to the end", async () => {
    const h = harness(generatedScenario(500).scenario);
    const open = h.sim.platform.catalogue.markets("open").map((m) => m.symbol);
    expect(open.length).toBeGreaterThan(500);
    const first = marketsPage.parse((await h.get("/api/markets")).body);
    expect(first.markets.map((m) => m.symbol)).toEqual(open.slice(0, 50));
    expect(first.hasMore).toBe(true);
    const big = marketsPage.parse((await h.get("/api/markets?limit=500")).body);
    expect(big.markets).toHaveLength(500);
    expect(big.hasMore).toBe(true);
    const rest = marketsPage.parse((await h.get("/api/markets?limit=500&offset=500")).body);
    expect([...big.markets, ...rest.markets].map((m) => m.symbol)).toEqual(open);
    expect(rest.hasMore).toBe(false);
  });

  it("refuses a limit outside 1..500 with invalid_limit and a bad offset with invalid_request", async () => {
    const h = harness();
    for (const bad of ["0", "501", "abc", "-1", "1.5", ""]) {
      const r = await h.get(`/api/markets?limit=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(errorEnvelopeSchema.parse(r.body).error.code, bad).toBe("invalid_limit");
    }
    for (const bad of ["-1", "x", "1.5"]) {
      const r = await h.get(`/api/markets?offset=${bad}`);
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe("invalid_request");
      expect(r.body.error.details.field).toBe("offset");
    }
  });

  it("closed=true lists post-trading markets; status= filters by the named statuses", async () => {
    const h = harness();
    expect(symbols((await h.get("/api/markets?closed=true")).body)).toEqual([]);
    expect(symbols((await h.get("/api/markets?status=pre_market")).body)).toEqual(["BAR-RMA-BAR"]);
    expect(symbols((await h.get("/api/markets?status=OPEN")).body)).toEqual(OPEN_SYMBOLS.filter((s) => s !== "BAR-RMA-BAR"));
    await h.clock.advance(5 * 60_000); // ARS-CHE-GOAL5 closes at +5m, BAR-RMA-BAR opened at +20s
    expect(symbols((await h.get("/api/markets?closed=true")).body)).toEqual(["ARS-CHE-GOAL5"]);
    expect(symbols((await h.get("/api/markets")).body)).toEqual(OPEN_SYMBOLS.filter((s) => s !== "ARS-CHE-GOAL5"));
    expect(symbols((await h.get("/api/markets?status=CLOSED")).body)).toEqual(["ARS-CHE-GOAL5"]);
    expect(symbols((await h.get("/api/markets?status=pre_market")).body)).toEqual([]);
    // CSV and repeated keys, mixable, any case.
    const both = symbols((await h.get("/api/markets?status=PRE_MARKET,closed&status=Open")).body);
    expect(both).toEqual(OPEN_SYMBOLS);
    // An explicit status list wins over closed=true.
    expect(symbols((await h.get("/api/markets?closed=true&status=PRE_MARKET")).body)).toEqual([]);
    expect(symbols((await h.get("/api/markets?closed=false")).body)).toHaveLength(5);
  });

  it("an unknown status is 400 invalid_status listing the allowed values; a bad closed is invalid_request", async () => {
    const h = harness();
    const r = await h.get("/api/markets?status=OPEN,LIVE");
    expect(r.status).toBe(400);
    const env = errorEnvelopeSchema.parse(r.body);
    expect(env.error.code).toBe("invalid_status");
    expect(env.error.details?.allowed).toContain("PENDING_RESOLUTION");
    expect(env.error.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const c = await h.get("/api/markets?closed=yes");
    expect(c.status).toBe(400);
    expect(c.body.error.code).toBe("invalid_request");
  });

  it("ignores unknown query parameters", async () => {
    const h = harness();
    const r = await h.get("/api/markets?foo=bar&limit=1");
    expect(r.status).toBe(200);
    expect(symbols(r.body)).toEqual(["ARS-CHE-ARS"]);
  });
});

describe("GET /api/markets/:slug", () => {
  it("returns the full row without probabilityChange", async () => {
    const h = harness();
    const slug = slugOf(h, "ARS-CHE-ARS");
    const r = await h.get(`/api/markets/${slug}`);
    expect(r.status).toBe(200);
    const m = marketSummary.parse(r.body);
    expect(m.symbol).toBe("ARS-CHE-ARS");
    expect(m.slug).toBe(slug);
    expect(r.body).not.toHaveProperty("probabilityChange");
    for (const k of ["eventSlug", "tags", "homeCountry", "awayCountry", "sport", "tradingMode", "notTradableReason", "resolutionCriteria"]) {
      expect(r.body, k).toHaveProperty(k);
    }
    expect(m.eventSlug).toBe("arsenal-vs-chelsea");
    expect(m.feeTakerBps).toBe(100);
    expect(m.outcomeTokenIds).toEqual([m.yesTokenId, m.noTokenId]);
  });

  it("is 404 market_not_found for an unknown slug, and a symbol is not a slug", async () => {
    const h = harness();
    for (const p of ["/api/markets/no-such-market", "/api/markets/ARS-CHE-ARS"]) {
      const r = await h.get(p);
      expect(r.status).toBe(404);
      const env = errorEnvelopeSchema.parse(r.body);
      expect(env.error.code).toBe("market_not_found");
    }
  });

  it("hides markets that are not listed yet (SCHEDULED) until their window starts", async () => {
    const scenario = parseScenario(
      JSON.stringify({
        start: "now",
        events: [{ slug: "later", title: "Later", markets: [{ title: "Later market", symbol: "LATER", tradingWindow: { opensAt: "+1h" } }] }],
      }),
      "later.yaml",
    );
    const h = harness(scenario);
    const slug = slugOf(h, "LATER");
    expect(slug).toBeDefined();
    expect((await h.get(`/api/markets/${slug}`)).status).toBe(404);
    expect((await h.get("/api/markets/LATER/orderbook")).status).toBe(404);
    expect(symbols((await h.get("/api/markets")).body)).toEqual([]);
    await h.clock.advance(3_600_000);
    expect((await h.get(`/api/markets/${slug}`)).status).toBe(200);
    expect(symbols((await h.get("/api/markets")).body)).toEqual(["LATER"]);
  });
});
