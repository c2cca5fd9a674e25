import { createLogger } from "../../../src/log/index.js";
import { describe, expect, it } from "vitest";
import { assignMarkets, selectMarkets, type Candidate } from "../../../src/bot/market/market-selection.js";
import { MarketRegistry } from "../../../src/bot/market/market-registry.js";
import { NOOP_OBSERVER } from "../../../src/bot/observer.js";
import { T0, clientHarness, envelope, json, marketRow, silentLogger } from "../engine/fakes.js";

const opts = { maxMarkets: 3, nowMs: T0, pullBeforeCloseMs: 60_000, defaultFeeTakerBps: 100 };

describe("selectMarkets", () => {
  it("ranks wallet lists, then slugs, events and filters, and caps the rest at maxMarkets", () => {
    const c: Candidate[] = [
      { market: marketRow({ symbol: "F1" }), source: "filter" },
      { market: marketRow({ symbol: "E1" }), source: "event" },
      { market: marketRow({ symbol: "S1" }), source: "slug" },
      { market: marketRow({ symbol: "W1" }), source: "wallet" },
      { market: marketRow({ symbol: "F2" }), source: "filter" },
    ];
    const r = selectMarkets(c, opts);
    expect(r.selected.map((x) => x.market.symbol)).toEqual(["W1", "S1", "E1"]);
    expect(r.skipped).toEqual([
      { symbol: "F1", reason: "cap" },
      { symbol: "F2", reason: "cap" },
    ]);
  });

  it("never cuts wallet-listed markets and keeps one entry per market (best source wins)", () => {
    const w = ["W1", "W2", "W3", "W4"].map((s): Candidate => ({ market: marketRow({ symbol: s }), source: "wallet" }));
    const dup: Candidate = { market: marketRow({ symbol: "W2" }), source: "filter" };
    const r = selectMarkets([dup, ...w], opts);
    expect(r.selected.map((x) => x.market.symbol)).toEqual(["W2", "W1", "W3", "W4"]);
    expect(r.selected.find((x) => x.market.symbol === "W2")!.source).toBe("wallet");
  });

  it("skips stopped, undeployed and fee-less markets with a reason", () => {
    const c: Candidate[] = [
      { market: marketRow({ symbol: "CLOSED", status: "CLOSED" }), source: "slug" },
      { market: marketRow({ symbol: "RES", status: "OPEN", lifecycle: { closedAt: null, pausedAt: null, resolvedAt: new Date(T0).toISOString(), voidedAt: null } }), source: "slug" },
      { market: marketRow({ symbol: "NOTOK", yesTokenId: null, noTokenId: null, outcomeTokenIds: null }), source: "slug" },
      { market: marketRow({ symbol: "NOFEE", feeTakerBps: null }), source: "slug" },
      { market: marketRow({ symbol: "PAUSED", status: "PAUSED" }), source: "slug" },
    ];
    const r = selectMarkets(c, { ...opts, defaultFeeTakerBps: null });
    expect(r.selected.map((x) => x.market.symbol)).toEqual(["PAUSED"]);
    expect(Object.fromEntries(r.skipped.map((s) => [s.symbol, s.reason]))).toEqual({ CLOSED: "stopped", RES: "stopped", NOTOK: "not_deployed", NOFEE: "fee_unknown" });
    // With a platform default the fee-less market is quotable.
    expect(selectMarkets(c, opts).selected.map((x) => x.market.symbol)).toContain("NOFEE");
  });
});

describe("assignMarkets", () => {
  const m = (s: string) => ({ symbol: s, slug: s.toLowerCase() });

  it("gives listed markets to their wallet (by symbol or slug) and spreads the rest over free wallets", () => {
    const wallets = [{ index: 0, markets: ["A", "b"] }, { index: 1 }, { index: 2 }];
    const a = assignMarkets([m("A"), m("B"), m("C"), m("D"), m("E")], wallets);
    expect(Object.fromEntries(a)).toEqual({ A: 0, B: 0, C: 1, D: 2, E: 1 });
  });

  it("is sticky across refreshes so resting orders never change wallet", () => {
    const wallets = [{ index: 0 }, { index: 1 }];
    const first = assignMarkets([m("A"), m("B"), m("C")], wallets);
    expect(Object.fromEntries(first)).toEqual({ A: 0, B: 1, C: 0 });
    // A leaves, D arrives: C stays on 0, D goes to the lighter wallet.
    const second = assignMarkets([m("B"), m("C"), m("D")], wallets, first);
    expect(Object.fromEntries(second)).toEqual({ B: 1, C: 0, D: 0 });
  });

  it("leaves unlisted markets unquoted when every wallet has its own list", () => {
    const a = assignMarkets([m("A"), m("Z")], [{ index: 0, markets: ["A"] }]);
    expect(Object.fromEntries(a)).toEqual({ A: 0 });
  });
});

describe("MarketRegistry refresh", () => {
  it("selects by slug, falls back to the symbol in the open list, and reports unknown names", async () => {
    const { clock, transport, client } = clientHarness();
    const rows = [marketRow({ symbol: "AAA" }), marketRow({ symbol: "BBB" }), marketRow({ symbol: "CCC" })];
    transport.on("GET", /^\/api\/markets\?/, () => json(200, { markets: rows, hasMore: false }));
    transport.on("GET", /^\/api\/markets\/[^/?]+$/, (r) => {
      const slug = r.path.split("/").pop()!;
      const row = rows.find((x) => x.slug === slug);
      return row ? json(200, row) : envelope(404, "market_not_found");
    });
    const reg = new MarketRegistry({
      api: client,
      clock,
      log: silentLogger(),
      observer: NOOP_OBSERVER,
      markets: { slugs: ["aaa", "BBB", "nope"], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 5 },
      wallets: [{ index: 0 }, { index: 1 }],
      pullBeforeCloseMs: 60_000,
      defaultFeeTakerBps: () => 100,
    });
    const seen: string[] = [];
    reg.onChange((s, what) => seen.push(`${what}:${s}`));
    const change = await reg.refreshSelection();
    expect(change.added).toEqual(["AAA", "BBB"]);
    expect(change.problems.map((p) => p.name)).toEqual(["nope"]);
    expect(reg.marketsOf(0)).toEqual(["AAA"]);
    expect(reg.marketsOf(1)).toEqual(["BBB"]);
    expect(seen).toEqual(["selected:AAA", "selected:BBB"]);

    // Status refresh: BBB is paused on the platform now.
    rows[1] = { ...rows[1]!, status: "PAUSED" };
    await reg.refreshStatus();
    expect(reg.get("BBB")!.row.status).toBe("PAUSED");
    expect(reg.phase("BBB")!.phase).toBe("pull");
    expect(seen).toContain("row:BBB");
  });

  it("with no names or filters selects from the open list; phases follow the clock to the pull time", async () => {
    const { clock, transport, client } = clientHarness();
    const closesAt = T0 + 120_000;
    const rows = [marketRow({ symbol: "AAA", tradingWindow: { preMarketStartsAt: null, opensAt: new Date(T0 - 1000).toISOString(), closesAt: new Date(closesAt).toISOString() } })];
    transport.on("GET", /^\/api\/markets\?/, json(200, { markets: rows, hasMore: false }));
    const reg = new MarketRegistry({
      api: client,
      clock,
      log: silentLogger(),
      observer: NOOP_OBSERVER,
      markets: { slugs: [], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 5 },
      wallets: [{ index: 0 }],
      pullBeforeCloseMs: 60_000,
      defaultFeeTakerBps: () => 100,
    });
    await reg.refreshSelection();
    expect(reg.phase("AAA")!.phase).toBe("open");
    expect(reg.maySend("AAA", true, 0)).toEqual({ ok: true });
    // Assigned to wallet 0: another wallet may not place there (a refresh can move a market).
    expect(reg.maySend("AAA", true, 1)).toEqual({ ok: false, reason: "not_assigned" });
    expect(reg.nextBoundary("AAA")).toBe(closesAt - 60_000);
    await clock.advanceTo(closesAt - 60_000);
    expect(reg.phase("AAA")!.phase).toBe("pull");
    expect(reg.maySend("AAA", true)).toEqual({ ok: false, reason: "closing" });
    expect(reg.nextBoundary("AAA")).toBe(closesAt);
  });
});

describe("discovery by event slugs and filters", () => {
  it("takes an event's markets and the markets of events matching tag AND vertical AND stage", async () => {
    const { clock, transport, client } = clientHarness();
    const ev = (slug: string, markets: ReturnType<typeof marketRow>[]) => ({
      id: `00000000-0000-4000-8000-${slug.padStart(12, "0").slice(-12).replace(/[^0-9a-f]/g, "a")}`,
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
    });
    transport.on("GET", /^\/api\/events\/derby$/, json(200, ev("derby", [marketRow({ symbol: "D-1" }), marketRow({ symbol: "D-2" })])));
    const listQueries: string[] = [];
    transport.on("GET", /^\/api\/events\?/, (req) => {
      listQueries.push(req.path);
      const page = new URL(req.path, "http://x").searchParams.get("page");
      return json(200, { events: page === "1" ? [ev("cup", [marketRow({ symbol: "F-1" })])] : [] });
    });
    const reg = new MarketRegistry({
      api: client,
      clock,
      log: silentLogger(),
      observer: NOOP_OBSERVER,
      markets: { slugs: [], eventSlugs: ["derby"], filters: { tag: ["football", "cups"], vertical: ["football"], stage: ["final"] }, maxMarkets: 10 },
      wallets: [{ index: 0 }],
      pullBeforeCloseMs: 60_000,
      defaultFeeTakerBps: () => 100,
    });
    const change = await reg.refreshSelection();
    expect(change.added).toEqual(["D-1", "D-2", "F-1"]);
    const q = new URL(listQueries[0]!, "http://x").searchParams;
    expect(q.getAll("tag").join(",")).toContain("football");
    expect(q.getAll("tag").join(",")).toContain("cups");
    expect(q.get("vertical")).toBe("football");
    expect(q.get("stage")).toBe("final");
    // The open list is not consulted when names or filters are configured.
    expect(transport.count("GET", /^\/api\/markets\?/)).toBe(0);
  });
});

describe("MarketRegistry refresh when reads fail", () => {
  it("keeps the selection while names cannot be read (5xx), drops a market only once it is really gone", async () => {
    const { clock, transport, client } = clientHarness();
    const rows = [marketRow({ symbol: "AAA" }), marketRow({ symbol: "BBB" })];
    let failing = false;
    transport.on("GET", /^\/api\/markets\?/, () => (failing ? envelope(503, "exchange_unavailable") : json(200, { markets: rows, hasMore: false })));
    transport.on("GET", /^\/api\/markets\/[^/?]+$/, (r) => {
      if (failing) return envelope(503, "exchange_unavailable");
      const row = rows.find((x) => x.slug === r.path.split("/").pop());
      return row ? json(200, row) : envelope(404, "market_not_found");
    });
    const reg = new MarketRegistry({
      api: client,
      clock,
      log: silentLogger(),
      observer: NOOP_OBSERVER,
      markets: { slugs: ["aaa", "bbb"], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 5 },
      wallets: [{ index: 0 }],
      pullBeforeCloseMs: 60_000,
      defaultFeeTakerBps: () => 100,
    });
    const settleOn = async <T>(p: Promise<T>): Promise<T> => {
      let done = false;
      void p.finally(() => (done = true)).catch(() => undefined);
      for (let i = 0; i < 200 && !done; i++) await clock.advance(250);
      return p;
    };
    expect((await settleOn(reg.refreshSelection())).added).toEqual(["AAA", "BBB"]);
    failing = true;
    const during = await settleOn(reg.refreshSelection());
    expect(during.problems.every((p) => p.transient)).toBe(true);
    expect(during.removed).toEqual([]);
    expect(reg.selected().map((e) => e.row.symbol)).toEqual(["AAA", "BBB"]);
    // Back, and BBB is gone for good (404 everywhere): now it is dropped.
    failing = false;
    rows.pop();
    const after = await settleOn(reg.refreshSelection());
    expect(after.problems).toEqual([{ name: "bbb", message: "no market with this slug or symbol", transient: false }]);
    expect(after.removed).toEqual(["BBB"]);
  });

  it("says each unresolvable market name once, not at every refresh", async () => {
    const { transport, client, clock } = clientHarness();
    transport.on("GET", /^\/api\/markets\/NOPE$/, envelope(404, "market_not_found"));
    transport.on("GET", /^\/api\/markets\?/, json(200, { markets: [], hasMore: false }));
    const lines: string[] = [];
    const reg = new MarketRegistry({
      api: client,
      clock,
      log: createLogger({ level: "debug" }, { write: (l: string) => void lines.push(l) }),
      observer: NOOP_OBSERVER,
      markets: { slugs: ["NOPE"], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 5 },
      wallets: [{ index: 0 }],
      pullBeforeCloseMs: 60_000,
      defaultFeeTakerBps: () => 100,
    });
    for (let i = 0; i < 3; i++) await reg.refreshSelection();
    const said = lines.map((l) => JSON.parse(l) as { level: string; msg: string }).filter((l) => l.msg === "market name not resolved");
    expect(said.map((l) => l.level)).toEqual(["warn", "debug", "debug"]);
  });
});
