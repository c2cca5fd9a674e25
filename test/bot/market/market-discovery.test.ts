/**
 * Finding candidate markets and re-reading their rows (src/bot/market/market-discovery.ts), over a
 * scripted transport and the real client: the order and source of candidates, the 404 fallback to
 * the open list (read once per discovery), which failures are transient, the open-list row cap,
 * and refreshRows' detail reads for followed markets that left the open list.
 */
import { describe, expect, it } from "vitest";
import { discoverCandidates, readOpenList, refreshRows, type DiscoveryConfig } from "../../../src/bot/market/market-discovery.js";
import type { MarketSummary } from "../../../src/wire/index.js";
import { clientHarness, envelope, json, marketRow, type ClientHarness } from "../engine/fakes.js";

const NONE = { tag: [], vertical: [], stage: [] };

function cfg(over: Partial<DiscoveryConfig> = {}): DiscoveryConfig {
  return { slugs: [], eventSlugs: [], filters: NONE, maxMarkets: 10, ...over };
}

function event(slug: string, markets: MarketSummary[]) {
  return {
    id: "00000000-0000-4000-8000-00000000e001",
    slug,
    title: slug,
    tags: [],
    sport: null,
    homeCountry: null,
    awayCountry: null,
    stage: null,
    group: null,
    match: null,
    markets,
    openMarketCount: markets.length,
    totalMarketCount: markets.length,
    cryptoSeries: null,
    cryptoLongSeries: null,
    resolutionCriteriaUrl: null,
  };
}

/** An open list of `rows` served in pages of `pageSize`, and details by slug from `details` (404 otherwise). */
function platform(h: ClientHarness, rows: MarketSummary[], details: MarketSummary[] = rows, pageSize = 500) {
  h.transport.on("GET", /^\/api\/markets\?/, (r) => {
    const q = new URL(r.path, "http://x").searchParams;
    const offset = Number(q.get("offset") ?? 0);
    const page = rows.slice(offset, offset + pageSize);
    return json(200, { markets: page, hasMore: offset + page.length < rows.length });
  });
  h.transport.on("GET", /^\/api\/markets\/[^/?]+$/, (r) => {
    const slug = decodeURIComponent(r.path.split("/").pop()!);
    const row = details.find((x) => x.slug === slug);
    return row ? json(200, row) : envelope(404, "market_not_found");
  });
}

const symbols = (cs: { market: MarketSummary; source: string }[]) => cs.map((c) => `${c.source}:${c.market.symbol}`);

describe("discoverCandidates", () => {
  it("tries a wallet's names first, then the configured slugs, then events, each with its source", async () => {
    const h = clientHarness();
    platform(h, [marketRow({ symbol: "A" }), marketRow({ symbol: "B" }), marketRow({ symbol: "C" })]);
    h.transport.on("GET", /^\/api\/events\/ev$/, json(200, event("ev", [marketRow({ symbol: "E1" })])));
    const r = await discoverCandidates(h.client, cfg({ slugs: ["b"], eventSlugs: ["ev"] }), ["c", "a"]);
    expect(symbols(r.candidates)).toEqual(["wallet:C", "wallet:A", "slug:B", "event:E1"]);
    expect(r.problems).toEqual([]);
  });

  it("a name that is no slug is looked up by symbol or slug in the open list, read once for every such name", async () => {
    const h = clientHarness();
    const rows = [marketRow({ symbol: "BTC-UP", slug: "will-btc-go-up" }), marketRow({ symbol: "ETH-UP", slug: "will-eth-go-up" })];
    // Details are served by slug only: the symbols 404 there.
    platform(h, rows);
    const r = await discoverCandidates(h.client, cfg({ slugs: ["BTC-UP", "ETH-UP", "will-eth-go-up"] }), []);
    expect(symbols(r.candidates)).toEqual(["slug:BTC-UP", "slug:ETH-UP", "slug:ETH-UP"]);
    expect(h.transport.count("GET", /^\/api\/markets\?/)).toBe(1);
  });

  it("a name found nowhere is a problem that is not transient", async () => {
    const h = clientHarness();
    platform(h, [marketRow({ symbol: "A" })]);
    const r = await discoverCandidates(h.client, cfg({ slugs: ["nope", "a"] }), []);
    expect(symbols(r.candidates)).toEqual(["slug:A"]);
    expect(r.problems).toEqual([{ name: "nope", message: "no market with this slug or symbol", transient: false }]);
  });

  it("reads a market already followed under a symbol by its known slug", async () => {
    const h = clientHarness();
    const closed = marketRow({ symbol: "OLD", slug: "old-market", status: "CLOSED" });
    // Closed: no longer in the open list, only the detail by slug finds it.
    platform(h, [], [closed]);
    const r = await discoverCandidates(h.client, cfg({ slugs: ["OLD"] }), [], (name) => (name === "OLD" ? "old-market" : undefined));
    expect(symbols(r.candidates)).toEqual(["slug:OLD"]);
    expect(h.transport.requests.map((q) => q.path)).toEqual(["/api/markets/old-market"]);
  });

  it("a refused read (4xx other than 404) is a problem, not transient, and no fallback is tried", async () => {
    const h = clientHarness();
    h.transport.on("GET", /^\/api\/markets\/bad$/, envelope(400, "invalid_request"));
    h.transport.on("GET", /^\/api\/markets\?/, json(200, { markets: [marketRow({ symbol: "bad" })], hasMore: false }));
    const r = await discoverCandidates(h.client, cfg({ slugs: ["bad"] }), []);
    expect(r.candidates).toEqual([]);
    expect(r.problems).toMatchObject([{ name: "bad", transient: false }]);
    expect(h.transport.count("GET", /^\/api\/markets\?/)).toBe(0);
  });

  it("a failure that is not an API answer is transient: the name may well exist", async () => {
    const h = clientHarness();
    const boom = { markets: { get: () => Promise.reject(new Error("socket hang up")), iterate: h.client.markets.iterate.bind(h.client.markets) }, events: h.client.events };
    const r = await discoverCandidates(boom as unknown as typeof h.client, cfg({ slugs: ["x"] }), []);
    expect(r.problems).toEqual([{ name: "x", message: "socket hang up", transient: true }]);
  });

  it("an event that cannot be read is reported by its slug; the other sources proceed", async () => {
    const h = clientHarness();
    platform(h, [marketRow({ symbol: "A" })]);
    h.transport.on("GET", /^\/api\/events\/gone$/, envelope(404, "event_not_found"));
    const r = await discoverCandidates(h.client, cfg({ slugs: ["a"], eventSlugs: ["gone"] }), []);
    expect(symbols(r.candidates)).toEqual(["slug:A"]);
    expect(r.problems).toMatchObject([{ name: "gone", transient: false }]);
  });

  it("filters walk the events list with only the fields given; a failed walk is reported as markets.filters", async () => {
    const h = clientHarness();
    const queries: string[] = [];
    h.transport.on("GET", /^\/api\/events\?/, (r) => {
      queries.push(r.path);
      return envelope(400, "invalid_request");
    });
    const r = await discoverCandidates(h.client, cfg({ filters: { tag: [], vertical: ["crypto"], stage: [] } }), []);
    const q = new URL(queries[0]!, "http://x").searchParams;
    expect(q.get("vertical")).toBe("crypto");
    expect(q.has("tag")).toBe(false);
    expect(q.has("stage")).toBe(false);
    expect(r.problems).toMatchObject([{ name: "markets.filters", transient: false }]);
    // Filters configured: the open list is not a fallback.
    expect(h.transport.count("GET", /^\/api\/markets\?/)).toBe(0);
  });

  it("with nothing configured, selects from the open list (source all), reporting a failed read as markets list", async () => {
    const h = clientHarness();
    platform(h, [marketRow({ symbol: "A" }), marketRow({ symbol: "B" })]);
    expect(symbols((await discoverCandidates(h.client, cfg(), [])).candidates)).toEqual(["all:A", "all:B"]);

    const f = clientHarness();
    f.transport.on("GET", /^\/api\/markets\?/, envelope(403, "forbidden"));
    const r = await discoverCandidates(f.client, cfg(), []);
    expect(r.candidates).toEqual([]);
    expect(r.problems).toMatchObject([{ name: "markets list", transient: false }]);
  });

  it("a wallet's own list alone is enough configuration: the open list is not taken whole", async () => {
    const h = clientHarness();
    platform(h, [marketRow({ symbol: "A" }), marketRow({ symbol: "B" })]);
    expect(symbols((await discoverCandidates(h.client, cfg(), ["b"])).candidates)).toEqual(["wallet:B"]);
  });
});

describe("readOpenList", () => {
  it("walks the pages and stops at maxRows", async () => {
    const h = clientHarness();
    const rows = Array.from({ length: 7 }, (_, i) => marketRow({ symbol: `M${i}` }));
    platform(h, rows, rows, 3);
    expect((await readOpenList(h.client, 100)).map((r) => r.symbol)).toEqual(rows.map((r) => r.symbol));
    expect(h.transport.count("GET", /^\/api\/markets\?/)).toBe(3);
    const g = clientHarness();
    platform(g, rows, rows, 3);
    expect((await readOpenList(g.client, 4)).map((r) => r.symbol)).toEqual(["M0", "M1", "M2", "M3"]);
    expect(g.transport.count("GET", /^\/api\/markets\?/)).toBe(2);
  });
});

describe("refreshRows", () => {
  it("reads nothing when nothing is followed", async () => {
    const h = clientHarness();
    expect(await refreshRows(h.client, [])).toEqual({ rows: [], failed: [] });
    expect(h.transport.requests).toEqual([]);
  });

  it("takes followed markets from the open list, stopping once all are seen, without the others", async () => {
    const h = clientHarness();
    const rows = Array.from({ length: 6 }, (_, i) => marketRow({ symbol: `M${i}` }));
    platform(h, rows, rows, 2);
    const out = await refreshRows(h.client, [rows[3]!, rows[1]!]);
    expect(out.rows.map((r) => r.symbol)).toEqual(["M1", "M3"]);
    expect(out.failed).toEqual([]);
    // M3 is on the second page of three: the third is not read.
    expect(h.transport.count("GET", /^\/api\/markets\?/)).toBe(2);
  });

  it("reads the detail of a followed market missing from the open list; a failed detail is named, not thrown", async () => {
    const h = clientHarness();
    const open = marketRow({ symbol: "OPEN" });
    const settled = marketRow({ symbol: "SETTLED", status: "RESOLVED" });
    const vanished = marketRow({ symbol: "GONE" });
    platform(h, [open], [open, settled]);
    const out = await refreshRows(h.client, [open, settled, vanished]);
    expect(out.rows.map((r) => [r.symbol, r.status])).toEqual([
      ["OPEN", "OPEN"],
      ["SETTLED", "RESOLVED"],
    ]);
    expect(out.failed).toEqual(["GONE"]);
    expect(h.transport.requests.filter((r) => !r.path.includes("?")).map((r) => r.path)).toEqual(["/api/markets/settled", "/api/markets/gone"]);
  });
});
