import { encodePacked, hexToBigInt, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import type { Micros } from "../../../src/core/money.js";
import { Rng } from "../../../src/core/rng.js";
import { Catalogue, type EventInput } from "../../../src/sim/platform/catalogue.js";
import { chances, eventJson, marketRowJson, NO_QUOTES, outcomePrices, type QuoteSource } from "../../../src/sim/platform/market-json.js";
import { T0 } from "./fixtures.js";

const MIN = 60_000;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function events(): EventInput[] {
  return [
    {
      title: "Arsenal vs Chelsea",
      vertical: "football",
      sport: "football",
      tags: ["football", "Premier League"],
      kickoffMs: T0 + 180 * MIN,
      markets: [
        { title: "Will Arsenal win?", groupItemTitle: "Arsenal", feeTakerBps: 100, window: { preMarketStartsAtMs: null, opensAtMs: T0 - MIN, closesAtMs: T0 + 180 * MIN } },
        { title: "Will Arsenal win?", groupItemTitle: "Arsenal", symbol: "DUP-SLUG", window: { preMarketStartsAtMs: null, opensAtMs: T0 - MIN, closesAtMs: null } },
        { title: "Early goal?", feeTakerBps: null, window: { preMarketStartsAtMs: null, opensAtMs: T0 - MIN, closesAtMs: T0 + 5 * MIN } },
      ],
    },
    {
      title: "Winner",
      slug: "league-winner",
      markets: [
        {
          title: "Who wins?",
          symbol: "WIN",
          outcomeLabels: ["A", "B", "C"],
          window: { preMarketStartsAtMs: T0 + 10 * MIN, opensAtMs: T0 + 20 * MIN, closesAtMs: null },
        },
      ],
    },
  ];
}

function build(seed = 1, clock = new VirtualClock(T0)) {
  return { clock, cat: new Catalogue({ clock, rng: new Rng(seed), defaultFeeTakerBps: 50, events: events() }) };
}

describe("ids and derived identifiers", () => {
  it("are deterministic for a seed and differ across seeds", () => {
    const a = build(1).cat.markets("all", true);
    const b = build(1).cat.markets("all", true);
    const c = build(2).cat.markets("all", true);
    expect(a.map((m) => [m.id, m.conditionId, m.outcomeTokenIds])).toEqual(b.map((m) => [m.id, m.conditionId, m.outcomeTokenIds]));
    expect(a[0]!.id).not.toBe(c[0]!.id);
    for (const m of a) {
      expect(m.id).toMatch(UUID_V4);
      expect(m.eventId).toMatch(UUID_V4);
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.questionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(m.questionId).not.toBe(m.conditionId);
    }
  });

  it("token ids are keccak256(conditionId, index) as uint256 decimal strings", () => {
    const { cat } = build();
    const m = cat.marketBySymbol("WIN", true)!;
    expect(m.outcomeTokenIds).toHaveLength(3);
    m.outcomeTokenIds.forEach((t, i) => {
      expect(t).toMatch(/^\d+$/);
      expect(t).toBe(hexToBigInt(keccak256(encodePacked(["bytes32", "uint256"], [m.conditionId as `0x${string}`, BigInt(i)]))).toString());
    });
    expect(m.yesTokenId).toBeNull();
    expect(m.noTokenId).toBeNull();
    const bin = cat.markets()[0]!;
    expect([bin.yesTokenId, bin.noTokenId]).toEqual(bin.outcomeTokenIds);
  });

  it("slugs are lowercase kebab from event slug, groupItemTitle and title, unique", () => {
    const { cat } = build();
    const slugs = cat.markets("all", true).map((m) => m.slug);
    expect(slugs).toEqual([
      "arsenal-vs-chelsea-arsenal-will-arsenal-win",
      "arsenal-vs-chelsea-arsenal-will-arsenal-win-2",
      "arsenal-vs-chelsea-early-goal",
      "league-winner-who-wins",
    ]);
    expect(cat.markets()[0]!.symbol).toBe("ARSENAL-VS-CHELSEA-ARSENAL-WILL-ARSENAL-WIN");
    expect(cat.tags().map((t) => t.slug)).toEqual(["football", "premier-league"]);
  });

  it("refuses duplicate explicit slugs and symbols, and bad windows", () => {
    const clock = new VirtualClock(T0);
    const w = { preMarketStartsAtMs: null, opensAtMs: T0, closesAtMs: null };
    const mk = (evs: EventInput[]) => () => new Catalogue({ clock, rng: new Rng(1), defaultFeeTakerBps: 0, events: evs });
    expect(mk([{ title: "a", slug: "x", markets: [{ title: "m", window: w }] }, { title: "b", slug: "x", markets: [{ title: "m", window: w }] }])).toThrow(/slug/);
    expect(mk([{ title: "a", markets: [{ title: "m", symbol: "S", window: w }, { title: "n", symbol: "S", window: w }] }])).toThrow(/symbol/);
    expect(mk([{ title: "a", markets: [{ title: "m", window: { ...w, closesAtMs: T0 } }] }])).toThrow(/closesAt/);
    expect(mk([{ title: "a", markets: [{ title: "m", window: { ...w, preMarketStartsAtMs: T0 } }] }])).toThrow(/preMarketStartsAt/);
  });
});

describe("lookups and listing", () => {
  it("finds markets by id, slug, symbol and token id", () => {
    const { cat } = build();
    const m = cat.markets()[0]!;
    expect(cat.market(m.id)).toBe(m);
    expect(cat.marketBySlug(m.slug)).toBe(m);
    expect(cat.marketBySymbol(m.symbol)).toBe(m);
    expect(cat.marketByToken(m.outcomeTokenIds[1]!)).toEqual({ market: m, outcome: 1 });
    expect(cat.marketBySlug("nope")).toBeUndefined();
    expect(cat.eventBySlug("league-winner")?.title).toBe("Winner");
  });

  it("hides a market until its first window, then lists it", async () => {
    const { cat, clock } = build();
    expect(cat.marketBySymbol("WIN")).toBeUndefined();
    expect(cat.marketBySymbol("WIN", true)).toBeDefined();
    expect(cat.events("all").map((e) => e.slug)).toEqual(["arsenal-vs-chelsea"]);
    await clock.advance(10 * MIN);
    expect(cat.status(cat.marketBySymbol("WIN")!.id)).toBe("PRE_MARKET");
    expect(cat.events("open").map((e) => e.slug)).toEqual(["arsenal-vs-chelsea", "league-winner"]);
  });

  it("default lists hold the open set; closed lists the post-trading statuses", async () => {
    const { cat, clock } = build();
    const [a, b, goal] = cat.markets();
    expect(cat.transition(a!.id, "pause").ok).toBe(true);
    expect(cat.transition(b!.id, "suspend").ok).toBe(true);
    await clock.advance(5 * MIN);
    expect(cat.status(goal!.id)).toBe("CLOSED");
    expect(cat.markets("open").map((m) => m.id)).toEqual([a!.id]);
    expect(cat.markets("closed").map((m) => m.id)).toEqual([b!.id, goal!.id]);
    const ev = cat.eventBySlug("arsenal-vs-chelsea")!;
    expect(cat.eventCounts(ev)).toEqual({ openMarketCount: 1, totalMarketCount: 3 });
  });

  it("closed events exclude fixtures in play; in-play events stay on the default list", async () => {
    const { cat, clock } = build();
    const ev = cat.eventBySlug("arsenal-vs-chelsea")!;
    for (const m of cat.eventMarkets(ev)) if (cat.status(m.id) === "OPEN") cat.transition(m.id, "close");
    expect(cat.events("closed").map((e) => e.slug)).toEqual(["arsenal-vs-chelsea"]);
    await clock.advance(181 * MIN); // past kickoff: in play
    expect(cat.events("closed")).toEqual([]);
    expect(cat.events("open").map((e) => e.slug)).toContain("arsenal-vs-chelsea");
  });
});

describe("lifecycle through the catalogue", () => {
  it("timers fire transitions at the window boundaries and listeners hear them", async () => {
    const { cat, clock } = build();
    const heard: [string, string, number][] = [];
    cat.onTransition((m, t) => heard.push([m.symbol, t.to, clock.now()]));
    cat.startTimers();
    await clock.advance(30 * MIN);
    expect(heard).toEqual([
      ["ARSENAL-VS-CHELSEA-EARLY-GOAL", "CLOSED", T0 + 5 * MIN],
      ["WIN", "PRE_MARKET", T0 + 10 * MIN],
      ["WIN", "OPEN", T0 + 20 * MIN],
    ]);
    cat.stopTimers();
  });

  it("refused administrative moves are counted and change nothing", () => {
    const { cat } = build();
    const m = cat.markets()[0]!;
    expect(cat.transition(m.id, "resume")).toMatchObject({ ok: false, code: "invalid_transition" });
    expect(cat.refusedTransitions).toBe(1);
    expect(cat.status(m.id)).toBe("OPEN");
    cat.transition(m.id, "void");
    expect(cat.transition(m.id, "resolve", { payoutNumerators: [1, 0] }).ok).toBe(false);
    expect(cat.refusedTransitions).toBe(2);
    expect(cat.lifecycle(m.id)).toMatchObject({ status: "VOIDED", resolvedAtMs: null });
  });

  it("admission goes through the lifecycle at the clock's time", async () => {
    const { cat, clock } = build();
    await clock.advance(10 * MIN);
    const win = cat.marketBySymbol("WIN")!;
    expect(cat.admitOrder(win.id, { postOnly: false })).toMatchObject({ answer: "reject", details: { postOnlyRequired: true } });
    expect(cat.admitOrder(win.id, { postOnly: true }).ok).toBe(true);
    await clock.advance(10 * MIN);
    expect(cat.admitOrder(win.id, { postOnly: false }).ok).toBe(true);
  });

  it("reschedule moves the window", () => {
    const { cat, clock } = build();
    const m = cat.markets()[0]!;
    cat.transition(m.id, "postpone");
    cat.reschedule(m.id, { preMarketStartsAtMs: null, opensAtMs: clock.now() + 60 * MIN, closesAtMs: null });
    expect(cat.transition(m.id, "resume").ok).toBe(true);
    expect(cat.status(m.id)).toBe("SCHEDULED");
  });

  it("effective fee: the market's feeTakerBps, else the platform default", () => {
    const { cat } = build();
    const [a, , goal] = cat.markets();
    expect(cat.effectiveFeeTakerBps(a!)).toBe(100);
    expect(cat.effectiveFeeTakerBps(goal!)).toBe(50);
  });
});

function quotes(book: Record<number, { bid?: string; ask?: string; last?: string }>): QuoteSource {
  const m = (s: string | undefined): Micros | undefined => (s === undefined ? undefined : BigInt(Math.round(Number(s) * 1000)) * 1000n);
  return {
    bestBid: (_id, o) => m(book[o]?.bid),
    bestAsk: (_id, o) => m(book[o]?.ask),
    lastTradePrice: (_id, o) => m(book[o]?.last),
  };
}

describe("outcomePrices and chances (spec 2.6)", () => {
  const { cat } = build();
  const bin = cat.markets()[0]!;

  it("outcomePrices: best ask, else last trade, else null", () => {
    expect(outcomePrices(bin, quotes({ 0: { ask: "0.55", last: "0.5" }, 1: { last: "0.47" } }))).toEqual(["0.55", "0.47"]);
    expect(outcomePrices(bin, NO_QUOTES)).toEqual([null, null]);
  });

  it("chances: midpoint when two-sided with spread <= 0.10", () => {
    expect(chances(bin, quotes({ 0: { bid: "0.4", ask: "0.5", last: "0.9" }, 1: { bid: "0.5", ask: "0.6" } }))).toEqual(["0.45", "0.55"]);
  });

  it("chances: last trade when the spread is wider or the book one-sided; 1/n before any trade", () => {
    expect(chances(bin, quotes({ 0: { bid: "0.3", ask: "0.41", last: "0.33" }, 1: { ask: "0.6", last: "0.66" } }))).toEqual(["0.33", "0.66"]);
    expect(chances(bin, quotes({ 0: { bid: "0.3", ask: "0.5" } }))).toEqual(["0.5", "0.5"]);
    const three = cat.marketBySymbol("WIN", true)!;
    expect(chances(three, NO_QUOTES)).toEqual(["0.333333", "0.333333", "0.333333"]);
  });
});

describe("JSON rows", () => {
  const LIST_OMITS = ["eventSlug", "tags", "homeCountry", "awayCountry", "sport", "tradingMode", "notTradableReason", "resolutionCriteria"];

  it("full rows carry every named key, with the lifecycle and window objects complete", () => {
    const { cat, clock } = build();
    const m = cat.markets()[0]!;
    cat.transition(m.id, "pause");
    const row = marketRowJson(cat, m, NO_QUOTES, "full", clock.now());
    for (const k of [...LIST_OMITS, "probabilityChange", "outcomeTokenIds", "additionalSources", "volumes", "prediction", "resolution", "crypto"]) {
      expect(row, k).toHaveProperty(k);
    }
    expect(Object.keys(row.tradingWindow)).toEqual(["preMarketStartsAt", "opensAt", "closesAt"]);
    expect(Object.keys(row.lifecycle)).toEqual(["closedAt", "pausedAt", "resolvedAt", "voidedAt"]);
    expect(row).toMatchObject({
      status: "PAUSED",
      tradable: false,
      tradingMode: "paused",
      notTradableReason: "paused",
      eventSlug: "arsenal-vs-chelsea",
      lifecycle: { pausedAt: new Date(T0).toISOString(), closedAt: null },
      tradingWindow: { preMarketStartsAt: null },
      tags: [{ slug: "football", name: "Football", color: null, iconUrl: null }, { slug: "premier-league", name: "Premier League", color: null, iconUrl: null }],
    });
  });

  it("detail rows drop probabilityChange; list rows drop the keys of rule 1", () => {
    const { cat, clock } = build();
    const m = cat.markets()[0]!;
    expect(marketRowJson(cat, m, NO_QUOTES, "detail", clock.now())).not.toHaveProperty("probabilityChange");
    const list = marketRowJson(cat, m, NO_QUOTES, "list", clock.now());
    for (const k of LIST_OMITS) expect(list, k).not.toHaveProperty(k);
    expect(list).toHaveProperty("additionalSources");
    expect(list).toHaveProperty("chances");
  });

  it("event JSON has every event-level key, nullable ones null, and the counters", () => {
    const { cat, clock } = build();
    const ev = cat.eventBySlug("arsenal-vs-chelsea")!;
    const json = eventJson(cat, ev, NO_QUOTES, "list", clock.now());
    for (const k of ["slug", "title", "tags", "sport", "homeCountry", "awayCountry", "stage", "group", "match", "markets", "openMarketCount", "totalMarketCount", "cryptoSeries", "cryptoLongSeries", "resolutionCriteriaUrl"]) {
      expect(json, k).toHaveProperty(k);
    }
    expect(json).toMatchObject({ match: null, stage: null, group: null, cryptoSeries: null, cryptoLongSeries: null, openMarketCount: 3, totalMarketCount: 3 });
    expect(json.markets[0]).not.toHaveProperty("eventSlug");
    expect(eventJson(cat, ev, NO_QUOTES, "full", clock.now()).markets[0]).toHaveProperty("eventSlug");
  });

  it("unlisted markets cannot be rendered", () => {
    const { cat, clock } = build();
    expect(() => marketRowJson(cat, cat.marketBySymbol("WIN", true)!, NO_QUOTES, "full", clock.now())).toThrow(/not listed/);
  });
});
