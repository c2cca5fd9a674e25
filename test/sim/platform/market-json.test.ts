/**
 * Market, event and tag JSON (src/sim/platform/market-json.ts) beyond what catalogue.test.ts
 * checks: the chance rules at their edges, row values (volumes, settlement, times), the two
 * crypto exceptions of rule 1 (a long-dated crypto market keeps resolutionCriteria on list rows,
 * an Up/Down window gets startsAt / endsAt), tag JSON, match ids, and which windows an Up/Down
 * day nests in each view, the all-VOIDED day included.
 */
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros, type Micros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import { Catalogue, type MarketInput } from "../../../src/sim/platform/catalogue.js";
import { uuidOf } from "../../../src/sim/platform/derive.js";
import { chances, eventJson, marketRowJson, matchIdOf, nestedMarkets, NO_QUOTES, outcomePrices, tagJson, tagSummaryJson, type QuoteSource } from "../../../src/sim/platform/market-json.js";
import { T0 } from "./fixtures.js";

const MIN = 60_000;
const u = (s: string): Micros => parseMicros(s);
const iso = (ms: number) => new Date(ms).toISOString();

/** A quote source from per-outcome decimal strings (every market alike). */
function quotes(per: Record<number, { bid?: string; ask?: string; last?: string }>, volume?: { total: string; last24h: string }): QuoteSource {
  const get = (k: "bid" | "ask" | "last") => (_m: string, o: number) => {
    const v = per[o]?.[k];
    return v === undefined ? undefined : u(v);
  };
  return { bestBid: get("bid"), bestAsk: get("ask"), lastTradePrice: get("last"), ...(volume ? { volume: () => ({ total: u(volume.total), last24h: u(volume.last24h) }) } : {}) };
}

const win = (symbol: string, opensMin: number, closesMin: number | null, preMin: number | null = null): MarketInput => ({
  title: symbol,
  symbol,
  window: { preMarketStartsAtMs: preMin === null ? null : T0 + preMin * MIN, opensAtMs: T0 + opensMin * MIN, closesAtMs: closesMin === null ? null : T0 + closesMin * MIN },
});

function build() {
  const clock = new VirtualClock(T0);
  const cat = new Catalogue({
    clock,
    rng: new Rng(1),
    defaultFeeTakerBps: 50,
    createdAtMs: T0 - 60 * MIN,
    tags: [{ slug: "crypto", name: "Crypto", color: "#f90", iconUrl: "https://x/c.png", isFeatured: true }],
    events: [
      {
        title: "Match",
        slug: "match",
        kickoffMs: T0 + 30 * MIN,
        match: { slug: "ars-che", title: "ARS v CHE", teamA: { code: "ARS" }, teamB: { code: "CHE" } },
        markets: [{ ...win("BIN", -10, 60), resolutionCriteria: "Yes if it happens." }, { ...win("TRI", -10, 60), outcomeLabels: ["A", "B", "C"] }],
      },
      {
        title: "BTC above 100k",
        slug: "btc-long",
        tags: ["crypto"],
        markets: [{ ...win("LONG", -10, null), resolutionCriteria: "Above at the end.", crypto: { productType: "PRICE_EVENT", direction: "ABOVE", targetPrice: "100000", instrumentId: "BTC-USD" } }],
      },
      {
        // An Up/Down day: four windows to settle, one awaiting settlement, one open, one listed ahead, one not listed yet.
        title: "BTC day",
        slug: "btc-day",
        cryptoSeries: { id: "btc-up-down-15m" },
        markets: [win("S1", -90, -75), win("S2", -75, -60), win("S3", -60, -45), win("S4", -45, -30), win("A1", -30, -15), win("O1", -5, 10), win("P1", 10, 25, -50), win("U1", 100, 115, 40)].map((m, k) => ({
          ...m,
          crypto: { productType: "UP_DOWN_WINDOW", direction: null, targetPrice: null, instrumentId: "BTC-USD" },
          cryptoWindow: { seriesId: "btc-up-down-15m", index: k },
          resolutionCriteria: "Up if higher.",
        })),
      },
      { title: "Voided day", slug: "voided-day", cryptoSeries: { id: "btc-up-down-15m" }, markets: [win("V1", -5, 10), win("V2", -2, 13)] },
    ],
  });
  const m = (symbol: string) => cat.marketBySymbol(symbol, true)!;
  return { clock, cat, m, ev: (slug: string) => cat.eventBySlug(slug)! };
}

describe("outcomePrices and chances at their edges", () => {
  const { m } = build();

  it("chances: the midpoint at a spread of exactly 0.10, the last trade just above, rounded down to the micro", () => {
    expect(chances(m("BIN"), quotes({ 0: { bid: "0.4", ask: "0.5", last: "0.9" } }))[0]).toBe("0.45");
    expect(chances(m("BIN"), quotes({ 0: { bid: "0.4", ask: "0.500001", last: "0.9" } }))[0]).toBe("0.9");
    expect(chances(m("BIN"), quotes({ 0: { bid: "0.4", ask: "0.400001" } }))[0]).toBe("0.4");
  });

  it("chances of a multi-outcome market before any trade: 1/n each", () => {
    expect(chances(m("TRI"), NO_QUOTES)).toEqual(["0.333333", "0.333333", "0.333333"]);
  });

  it("outcomePrices: a bid alone is no price", () => {
    expect(outcomePrices(m("TRI"), quotes({ 1: { bid: "0.2" }, 2: { ask: "0.3" } }))).toEqual([null, null, "0.3"]);
  });
});

describe("marketRowJson values", () => {
  it("volumes as decimal strings when the quote source has them, else null", () => {
    const { cat, clock, m } = build();
    expect(marketRowJson(cat, m("BIN"), quotes({}, { total: "12.5", last24h: "0.5" }), "full", clock.now()).volumes).toEqual({ total: "12.5", last24h: "0.5" });
    expect(marketRowJson(cat, m("BIN"), NO_QUOTES, "full", clock.now()).volumes).toBeNull();
  });

  it("ids, times, fee and a settlement as the catalogue has them", async () => {
    const { cat, clock, m } = build();
    const bin = m("BIN");
    await clock.advance(5 * MIN);
    expect(cat.transition(bin.id, "resolve", { payoutNumerators: [0, 1] }).ok).toBe(true);
    const row = marketRowJson(cat, bin, NO_QUOTES, "full", clock.now());
    expect(row).toMatchObject({
      id: bin.id,
      symbol: "BIN",
      status: "RESOLVED",
      feeTakerBps: null,
      outcomeTokenIds: [...bin.outcomeTokenIds],
      yesTokenId: bin.outcomeTokenIds[0],
      kickoff: iso(T0 + 30 * MIN),
      tradingWindow: { preMarketStartsAt: null, opensAt: iso(T0 - 10 * MIN), closesAt: iso(T0 + 60 * MIN) },
      lifecycle: { resolvedAt: iso(T0 + 5 * MIN), voidedAt: null },
      payoutNumerators: [0, 1],
      createdAt: iso(T0 - 60 * MIN),
      updatedAt: iso(T0 + 5 * MIN),
      tradable: false,
      resolution: null,
      prediction: null,
      additionalSources: [],
      resolutionCriteria: "Yes if it happens.",
    });
    expect(row.outcomeTokenIds).not.toBe(bin.outcomeTokenIds);
  });

  it("a long-dated crypto market keeps resolutionCriteria on list rows; other markets drop it", () => {
    const { cat, clock, m } = build();
    expect(marketRowJson(cat, m("LONG"), NO_QUOTES, "list", clock.now())).toMatchObject({ resolutionCriteria: "Above at the end.", crypto: { productType: "PRICE_EVENT" } });
    expect(marketRowJson(cat, m("O1"), NO_QUOTES, "list", clock.now())).not.toHaveProperty("resolutionCriteria");
    expect(marketRowJson(cat, m("BIN"), NO_QUOTES, "list", clock.now())).not.toHaveProperty("resolutionCriteria");
  });

  it("an Up/Down window's cryptoWindow gains its start and end", () => {
    const { cat, clock, m } = build();
    expect(marketRowJson(cat, m("O1"), NO_QUOTES, "detail", clock.now()).cryptoWindow).toEqual({ seriesId: "btc-up-down-15m", index: 5, startsAt: iso(T0 - 5 * MIN), endsAt: iso(T0 + 10 * MIN) });
    expect(marketRowJson(cat, m("BIN"), NO_QUOTES, "detail", clock.now())).not.toHaveProperty("cryptoWindow");
  });
});

describe("tags and matches", () => {
  it("tag JSON: the summary without isFeatured, the full record with it", () => {
    const { cat } = build();
    const t = cat.tag("crypto")!;
    expect(tagSummaryJson(t)).toEqual({ slug: "crypto", name: "Crypto", color: "#f90", iconUrl: "https://x/c.png" });
    expect(tagJson(t)).toEqual({ slug: "crypto", name: "Crypto", color: "#f90", iconUrl: "https://x/c.png", isFeatured: true });
  });

  it("a match id is the uuid derived from its slug, and events refer to their match by it", () => {
    const { cat, clock, ev } = build();
    expect(matchIdOf("ars-che")).toBe(uuidOf("match:ars-che"));
    expect(matchIdOf("ars-che")).not.toBe(matchIdOf("bar-rma"));
    expect(eventJson(cat, ev("match"), NO_QUOTES, "full", clock.now()).match).toEqual({ id: matchIdOf("ars-che"), slug: "ars-che", title: "ARS v CHE" });
  });

  it("an event's updatedAt is the latest change of its nested markets", async () => {
    const { cat, clock, ev, m } = build();
    await clock.advance(7 * MIN);
    cat.transition(m("TRI").id, "pause");
    const j = eventJson(cat, ev("match"), NO_QUOTES, "list", clock.now());
    expect(j.createdAt).toBe(iso(T0 - 60 * MIN));
    expect(j.updatedAt).toBe(iso(T0 + 7 * MIN));
    expect(j.markets.map((r) => r.symbol)).toEqual(["BIN", "TRI"]);
  });
});

describe("nestedMarkets of an Up/Down day", () => {
  /** S1..S3 resolved, S4 voided, A1 awaiting settlement, O1 open, P1 pre-market, U1 not listed. */
  function settled() {
    const b = build();
    for (const s of ["S1", "S2", "S3"]) expect(b.cat.transition(b.m(s).id, "resolve", { payoutNumerators: [1, 0] }).ok).toBe(true);
    expect(b.cat.transition(b.m("S4").id, "void").ok).toBe(true);
    return b;
  }
  const symbols = (list: { symbol: string }[]) => list.map((x) => x.symbol);

  it("list: the tradeable windows; detail: those, the ones awaiting settlement and the three latest-ending settled; closed: the last two", () => {
    const { cat, ev } = settled();
    expect(symbols(nestedMarkets(cat, ev("btc-day"), "list"))).toEqual(["O1", "P1"]);
    expect(symbols(nestedMarkets(cat, ev("btc-day"), "detail"))).toEqual(["S2", "S3", "S4", "A1", "O1", "P1"]);
    expect(symbols(nestedMarkets(cat, ev("btc-day"), "closed"))).toEqual(["S2", "S3", "S4", "A1"]);
  });

  it("eventJson nests the list view for list rows and the detail view for full ones", () => {
    const { cat, clock, ev } = settled();
    expect(symbols(eventJson(cat, ev("btc-day"), NO_QUOTES, "list", clock.now()).markets)).toEqual(["O1", "P1"]);
    expect(symbols(eventJson(cat, ev("btc-day"), NO_QUOTES, "full", clock.now()).markets)).toEqual(["S2", "S3", "S4", "A1", "O1", "P1"]);
    expect(symbols(eventJson(cat, ev("btc-day"), NO_QUOTES, "list", clock.now(), "closed").markets)).toEqual(["S2", "S3", "S4", "A1"]);
  });

  it("a day whose windows were all voided before ending nests all of them on the lists", () => {
    const { cat, ev, m } = build();
    for (const s of ["V1", "V2"]) cat.transition(m(s).id, "void");
    expect(symbols(nestedMarkets(cat, ev("voided-day"), "list"))).toEqual(["V1", "V2"]);
    expect(symbols(nestedMarkets(cat, ev("voided-day"), "closed"))).toEqual(["V1", "V2"]);
  });

  it("other events nest every listed market in every view", () => {
    const { cat, ev } = build();
    for (const view of ["list", "closed", "detail"] as const) expect(symbols(nestedMarkets(cat, ev("match"), view))).toEqual(["BIN", "TRI"]);
  });
});
