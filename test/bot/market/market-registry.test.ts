/**
 * The followed markets (src/bot/market/market-registry.ts): the entries a selection leaves behind,
 * lookups by id or symbol, the phase event said once per change, the checks before an order leaves,
 * the next clock boundary, status refreshes and their "row" notices, and forgetting. The selection
 * refresh's discovery paths are in market-selection.test.ts and market-discovery.test.ts.
 */
import { describe, expect, it } from "vitest";
import { MarketRegistry, signingMarketOf } from "../../../src/bot/market/market-registry.js";
import type { DiscoveryConfig } from "../../../src/bot/market/market-discovery.js";
import type { WalletMarkets } from "../../../src/bot/market/market-selection.js";
import type { EngineEvent } from "../../../src/bot/observer.js";
import type { MarketSummary } from "../../../src/wire/index.js";
import { T0, clientHarness, envelope, json, marketRow, silentLogger } from "../engine/fakes.js";

const iso = (ms: number) => new Date(ms).toISOString();
const PULL = 60_000;

function setup(rows: MarketSummary[], opts: { slugs?: string[]; wallets?: WalletMarkets[]; details?: MarketSummary[] } = {}) {
  const h = clientHarness();
  const state = { rows, details: opts.details };
  h.transport.on("GET", /^\/api\/markets\?/, () => json(200, { markets: state.rows, hasMore: false }));
  h.transport.on("GET", /^\/api\/markets\/[^/?]+$/, (r) => {
    const slug = r.path.split("/").pop()!;
    const row = (state.details ?? state.rows).find((x) => x.slug === slug);
    return row ? json(200, row) : envelope(404, "market_not_found");
  });
  const events: EngineEvent[] = [];
  const markets: DiscoveryConfig = { slugs: opts.slugs ?? [], eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 10 };
  const reg = new MarketRegistry({
    api: h.client,
    clock: h.clock,
    log: silentLogger(),
    observer: { onEvent: (e) => events.push(e) },
    markets,
    wallets: opts.wallets ?? [{ index: 0 }, { index: 1 }],
    pullBeforeCloseMs: PULL,
    defaultFeeTakerBps: () => 100,
  });
  const notices: string[] = [];
  const off = reg.onChange((s, what) => notices.push(`${what}:${s}`));
  return { ...h, reg, events, notices, off, state };
}

describe("signingMarketOf", () => {
  it("carries what signing needs: tokens (binary and per outcome), taker fee and neg-risk flag", () => {
    const row = marketRow({ symbol: "S", feeTakerBps: 250, negRiskEligible: true, yesTokenId: "7", noTokenId: "8", outcomeTokenIds: ["7", "8"] });
    expect(signingMarketOf(row)).toEqual({ symbol: "S", yesTokenId: "7", noTokenId: "8", outcomeTokenIds: ["7", "8"], feeTakerBps: 250, negRiskEligible: true });
  });
});

describe("entries after a selection", () => {
  it("lists every followed market, the selected ones, and a wallet's; looks a market up by symbol or platform id", async () => {
    const rows = [marketRow({ symbol: "A" }), marketRow({ symbol: "B" }), marketRow({ symbol: "C" })];
    const { reg, clock } = setup(rows);
    await reg.refreshSelection();
    expect(reg.all().map((e) => e.row.symbol)).toEqual(["A", "B", "C"]);
    expect(reg.marketsOf(0)).toEqual(["A", "C"]);
    expect(reg.marketsOf(1)).toEqual(["B"]);
    expect(reg.get("A")).toMatchObject({ selected: true, wallet: 0, readAtMs: clock.now() });
    expect(reg.symbolOf("B")).toBe("B");
    expect(reg.symbolOf(rows[2]!.id)).toBe("C");
    expect(reg.symbolOf("nothing")).toBeUndefined();
  });

  it("a market leaving the selection keeps its entry and wallet (its orders are still pulled by it) until forgotten", async () => {
    const rows = [marketRow({ symbol: "A" }), marketRow({ symbol: "B" })];
    const { reg, state, notices } = setup(rows);
    await reg.refreshSelection();
    state.rows = [rows[0]!];
    const change = await reg.refreshSelection();
    expect(change).toMatchObject({ added: [], removed: ["B"], moved: [] });
    expect(reg.get("B")).toMatchObject({ selected: false, wallet: 1 });
    expect(reg.selected().map((e) => e.row.symbol)).toEqual(["A"]);
    expect(reg.marketsOf(1)).toEqual([]);
    expect(reg.maySend("B", true)).toEqual({ ok: false, reason: "unknown_market" });
    expect(notices).toEqual(["selected:A", "selected:B", "deselected:B"]);
    reg.forget("B");
    expect(reg.get("B")).toBeUndefined();
    expect(reg.symbolOf(rows[1]!.id)).toBeUndefined();
  });

  it("a market coming back is added again; a refresh changing nothing says nothing", async () => {
    const rows = [marketRow({ symbol: "A" }), marketRow({ symbol: "B" })];
    const { reg, state, notices } = setup(rows);
    await reg.refreshSelection();
    expect(await reg.refreshSelection()).toMatchObject({ added: [], removed: [], moved: [] });
    state.rows = [rows[0]!];
    await reg.refreshSelection();
    state.rows = rows;
    expect((await reg.refreshSelection()).added).toEqual(["B"]);
    expect(notices).toEqual(["selected:A", "selected:B", "deselected:B", "selected:B"]);
  });

  it("a market listed for another wallet later moves there, and the wallet's other markets to a free wallet, reported as moved", async () => {
    const rows = [marketRow({ symbol: "A" }), marketRow({ symbol: "B" })];
    const wallets: WalletMarkets[] = [{ index: 0 }, { index: 1 }];
    const { reg, notices } = setup(rows, { wallets, slugs: ["a", "b"] });
    await reg.refreshSelection();
    expect(reg.get("A")!.wallet).toBe(0);
    // Wallet 1's configuration now names A (wallet lists win over stickiness).
    wallets[1] = { index: 1, markets: ["A"] };
    const change = await reg.refreshSelection();
    // B was wallet 1's; a wallet with its own list takes only those, so B moves to the free wallet 0.
    expect(change.moved).toEqual(["A", "B"]);
    expect(reg.get("A")!.wallet).toBe(1);
    expect(reg.get("B")!.wallet).toBe(0);
    expect(change.removed).toEqual([]);
    expect(notices).toEqual(["selected:A", "selected:B", "selected:A", "selected:B"]);
    expect(reg.maySend("A", true, 0)).toEqual({ ok: false, reason: "not_assigned" });
  });

  it("an unsubscribed listener hears nothing more", async () => {
    const rows = [marketRow({ symbol: "A" })];
    const { reg, notices, off, state } = setup(rows);
    off();
    await reg.refreshSelection();
    state.rows = [];
    await reg.refreshSelection();
    expect(notices).toEqual([]);
  });
});

describe("phase", () => {
  it("is computed from the row and the clock at every read; the event and log come once per change", async () => {
    const closes = T0 + 10 * 60_000;
    const rows = [marketRow({ symbol: "A", tradingWindow: { preMarketStartsAt: null, opensAt: iso(T0 - 1_000), closesAt: iso(closes) } })];
    const { reg, clock, events } = setup(rows);
    await reg.refreshSelection();
    expect(reg.phase("nothing")).toBeUndefined();
    expect(reg.phase("A")).toMatchObject({ phase: "open" });
    reg.phase("A");
    await clock.advanceTo(closes - PULL);
    expect(reg.phase("A")).toMatchObject({ phase: "pull" });
    reg.phase("A");
    const phases = events.filter((e) => e.type === "market_phase");
    expect(phases.map((e) => (e.type === "market_phase" ? e.phase : ""))).toEqual(["open", "pull"]);
    // Forgetting the market forgets what was said: a market followed again says its phase again.
    reg.forget("A");
    await reg.refreshSelection();
    reg.phase("A");
    expect(events.filter((e) => e.type === "market_phase")).toHaveLength(3);
  });

  it("is asked at a given time without moving the clock", async () => {
    const opens = T0 + 30 * 60_000;
    const rows = [marketRow({ symbol: "P", status: "PRE_MARKET", tradingWindow: { preMarketStartsAt: iso(T0 - 1_000), opensAt: iso(opens), closesAt: iso(opens + 3_600_000) } })];
    const { reg } = setup(rows);
    await reg.refreshSelection();
    expect(reg.phase("P")).toMatchObject({ phase: "pre_market", postOnly: true });
    // A pre-market takes post-only orders only.
    expect(reg.maySend("P", false, 0)).toEqual({ ok: false, reason: "post_only_required" });
    expect(reg.maySend("P", true, 0)).toEqual({ ok: true });
  });
});

describe("nextBoundary", () => {
  it("is the next of pre-market start, open, the pull time and close, after now", async () => {
    const pre = T0 + 60_000;
    const opens = T0 + 120_000;
    const closes = T0 + 600_000;
    const rows = [marketRow({ symbol: "A", tradingWindow: { preMarketStartsAt: iso(pre), opensAt: iso(opens), closesAt: iso(closes) } })];
    const { reg } = setup(rows);
    await reg.refreshSelection();
    expect(reg.nextBoundary("A", T0)).toBe(pre);
    expect(reg.nextBoundary("A", pre)).toBe(opens);
    expect(reg.nextBoundary("A", opens)).toBe(closes - PULL);
    expect(reg.nextBoundary("A", closes - PULL)).toBe(closes);
    expect(reg.nextBoundary("A", closes)).toBeUndefined();
    expect(reg.nextBoundary("nothing", T0)).toBeUndefined();
  });

  it("a window without times has no boundary", async () => {
    const rows = [marketRow({ symbol: "A", tradingWindow: { preMarketStartsAt: null, opensAt: null, closesAt: null } })];
    const { reg } = setup(rows);
    await reg.refreshSelection();
    expect(reg.nextBoundary("A", T0)).toBeUndefined();
  });
});

describe("refreshStatus", () => {
  it("re-reads every followed row, stamps the read, and says 'row' only when status or window changed", async () => {
    const rows = [marketRow({ symbol: "A" }), marketRow({ symbol: "B" })];
    const { reg, state, clock, notices } = setup(rows);
    await reg.refreshSelection();
    notices.length = 0;
    await clock.advance(5_000);
    state.rows = [{ ...rows[0]!, title: "renamed" }, { ...rows[1]!, status: "PAUSED" }];
    await reg.refreshStatus();
    expect(reg.get("A")!.row.title).toBe("renamed");
    expect(reg.get("A")!.readAtMs).toBe(T0 + 5_000);
    expect(reg.get("B")!.row.status).toBe("PAUSED");
    expect(notices).toEqual(["row:B"]);
    state.rows = [{ ...rows[0]!, title: "renamed", tradingWindow: { ...rows[0]!.tradingWindow, closesAt: iso(T0 + 60_000) } }, state.rows[1]!];
    await reg.refreshStatus(["A"]);
    expect(notices).toEqual(["row:B", "row:A"]);
  });

  it("reads a market gone from the open list by its detail; one whose detail fails keeps its old row", async () => {
    const rows = [marketRow({ symbol: "A" }), marketRow({ symbol: "B" })];
    const { reg, state, transport } = setup(rows, { details: rows });
    await reg.refreshSelection();
    const before = reg.get("B")!.readAtMs;
    state.rows = [];
    state.details = [{ ...rows[0]!, status: "CLOSED" }];
    await reg.refreshStatus();
    expect(reg.get("A")!.row.status).toBe("CLOSED");
    expect(reg.get("B")!.row.status).toBe("OPEN");
    expect(reg.get("B")!.readAtMs).toBe(before);
    expect(transport.count("GET", /^\/api\/markets\/b$/)).toBe(1);
  });

  it("with nothing followed (or only unknown symbols asked) reads nothing", async () => {
    const { reg, transport } = setup([]);
    await reg.refreshStatus();
    await reg.refreshStatus(["X"]);
    expect(transport.requests).toEqual([]);
  });
});

describe("followHeld: markets where shares are held but no selection follows", () => {
  it("reads a row by symbol when the slug is the symbol, keeps it unselected, and says nothing of it as selected", async () => {
    const late = marketRow({ symbol: "LATE", slug: "LATE", status: "RESOLVED" });
    const { reg, notices, transport } = setup([], { details: [late] });
    expect(await reg.followHeld(["LATE"])).toEqual(["LATE"]);
    expect(reg.get("LATE")).toMatchObject({ selected: false, wallet: undefined, row: { status: "RESOLVED" } });
    expect(reg.selected()).toEqual([]);
    expect(notices).toEqual([]);
    expect(transport.requests.filter((r) => r.path.startsWith("/api/markets?"))).toEqual([]);
  });

  it("finds a market whose slug is not its symbol in the post-trading list (closed=true)", async () => {
    const late = marketRow({ symbol: "LATE", slug: "will-it-rain", status: "RESOLVED" });
    const { reg, transport } = setup([late]);
    expect(await reg.followHeld(["LATE"])).toEqual(["LATE"]);
    expect(reg.get("LATE")?.row.slug).toBe("will-it-rain");
    expect(transport.requests.some((r) => r.path.startsWith("/api/markets?") && r.path.includes("closed=true"))).toBe(true);
  });

  it("skips markets already followed and markets found nowhere", async () => {
    const a = marketRow({ symbol: "A" });
    const { reg } = setup([a], { slugs: ["A"] });
    await reg.refreshSelection();
    expect(await reg.followHeld(["A", "GONE"])).toEqual([]);
    expect(reg.get("GONE")).toBeUndefined();
    expect(reg.get("A")?.selected).toBe(true);
  });
});
