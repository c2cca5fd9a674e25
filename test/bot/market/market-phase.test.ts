import { describe, expect, it } from "vitest";
import { marketPhase, maySendOrder, type PhaseMarket } from "../../../src/bot/market/market-phase.js";
import { MARKET_STATUSES, type MarketStatus } from "../../../src/wire/enums.js";
import type { MarketSummary } from "../../../src/wire/markets.js";

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();
const MIN = 60_000;
const opts = { pullBeforeCloseMs: 5 * MIN };

function market(status: MarketStatus, over: Partial<PhaseMarket["tradingWindow"]> = {}, lifecycle?: PhaseMarket["lifecycle"]): PhaseMarket {
  const m: PhaseMarket = {
    status,
    tradingWindow: { preMarketStartsAt: iso(T0 - 60 * MIN), opensAt: iso(T0 - 30 * MIN), closesAt: iso(T0 + 60 * MIN), ...over },
  };
  if (lifecycle !== undefined) m.lifecycle = lifecycle;
  return m;
}

const EXPECTED: Record<MarketStatus, [string, string]> = {
  PRE_MARKET: ["pre_market", "pre_market"],
  OPEN: ["open", "open"],
  PAUSED: ["pull", "paused"],
  POSTPONED: ["pull", "postponed"],
  SUSPENDED: ["pull", "suspended"],
  DELAYED: ["pull", "delayed"],
  DISPUTED: ["pull", "disputed"],
  CLOSED: ["stopped", "closed"],
  PENDING_RESOLUTION: ["stopped", "pending_resolution"],
  RESOLVED: ["stopped", "resolved"],
  VOIDED: ["stopped", "voided"],
};

describe("marketPhase", () => {
  it.each(MARKET_STATUSES.map((s) => [s]))("status %s", (s) => {
    const p = marketPhase(market(s), T0, opts);
    expect([p.phase, p.reason]).toEqual(EXPECTED[s]);
    expect(p.postOnly).toBe(s === "PRE_MARKET");
    expect(p.closesAtMs).toBe(T0 + 60 * MIN);
    expect(p.msToClose).toBe(60 * MIN);
  });

  it("pulls within pullBeforeCloseMs of closesAt, edge included, and past it", () => {
    const closes = T0 + 60 * MIN;
    expect(marketPhase(market("OPEN"), closes - opts.pullBeforeCloseMs - 1, opts).phase).toBe("open");
    expect(marketPhase(market("OPEN"), closes - opts.pullBeforeCloseMs, opts)).toMatchObject({ phase: "pull", reason: "closing" });
    expect(marketPhase(market("PRE_MARKET"), closes - 1, opts)).toMatchObject({ phase: "pull", reason: "closing" });
    expect(marketPhase(market("OPEN"), closes, opts)).toMatchObject({ phase: "pull", reason: "past_close", msToClose: 0 });
    expect(marketPhase(market("OPEN"), closes + 1, opts)).toMatchObject({ phase: "pull", reason: "past_close", msToClose: -1 });
    // With no pull window, quoting runs up to the last millisecond before closesAt.
    expect(marketPhase(market("OPEN"), closes - 1, { pullBeforeCloseMs: 0 }).phase).toBe("open");
    expect(marketPhase(market("OPEN"), closes, { pullBeforeCloseMs: 0 }).phase).toBe("pull");
  });

  it("a market without closesAt is never pulled for time", () => {
    const p = marketPhase(market("OPEN", { closesAt: null }), T0 + 1e12, opts);
    expect(p).toMatchObject({ phase: "open", closesAtMs: null, msToClose: null });
  });

  it("settled lifecycle stops the market whatever the status says", () => {
    expect(marketPhase(market("OPEN", {}, { resolvedAt: iso(T0), voidedAt: null }), T0, opts)).toMatchObject({ phase: "stopped", reason: "settled" });
    expect(marketPhase(market("PAUSED", {}, { resolvedAt: null, voidedAt: iso(T0) }), T0, opts).phase).toBe("stopped");
    expect(marketPhase(market("OPEN", {}, { resolvedAt: null, voidedAt: null }), T0, opts).phase).toBe("open");
  });

  it("status precedence: a paused market past closesAt is paused; a closed one is stopped", () => {
    const late = T0 + 120 * MIN;
    expect(marketPhase(market("PAUSED"), late, opts).reason).toBe("paused");
    expect(marketPhase(market("CLOSED"), late, opts).phase).toBe("stopped");
  });

  it("before the window: PRE_MARKET before preMarketStartsAt pulls; OPEN before opensAt quotes post-only", () => {
    expect(marketPhase(market("PRE_MARKET"), T0 - 61 * MIN, opts)).toMatchObject({ phase: "pull", reason: "not_started" });
    expect(marketPhase(market("PRE_MARKET"), T0 - 60 * MIN, opts).phase).toBe("pre_market");
    expect(marketPhase(market("PRE_MARKET", { preMarketStartsAt: null }), T0 - 600 * MIN, opts).phase).toBe("pre_market");
    expect(marketPhase(market("OPEN"), T0 - 31 * MIN, opts)).toMatchObject({ phase: "pre_market", reason: "before_opens_at", postOnly: true });
    expect(marketPhase(market("OPEN", { preMarketStartsAt: null }), T0 - 31 * MIN, opts)).toMatchObject({ phase: "pull", reason: "not_started" });
    expect(marketPhase(market("OPEN"), T0 - 30 * MIN, opts).phase).toBe("open");
    // PRE_MARKET past opensAt: the status has not flipped yet; stay post-only.
    expect(marketPhase(market("PRE_MARKET"), T0, opts).phase).toBe("pre_market");
  });

  it("takes a wire MarketSummary as is", () => {
    const asPhaseMarket = (row: MarketSummary): PhaseMarket => row;
    expect(typeof asPhaseMarket).toBe("function");
  });

  it("an unreadable closesAt pulls", () => {
    expect(marketPhase(market("OPEN", { closesAt: "not a date" }), T0, opts)).toMatchObject({ phase: "pull", reason: "bad_window", closesAtMs: null });
  });
});

describe("maySendOrder", () => {
  it("allows any order when open, post-only only in pre_market, nothing in pull / stopped or after closesAt", () => {
    expect(maySendOrder(market("OPEN"), T0, opts, { postOnly: false })).toEqual({ ok: true });
    expect(maySendOrder(market("PRE_MARKET"), T0, opts, { postOnly: true })).toEqual({ ok: true });
    expect(maySendOrder(market("PRE_MARKET"), T0, opts, { postOnly: false })).toEqual({ ok: false, reason: "post_only_required" });
    expect(maySendOrder(market("PAUSED"), T0, opts, { postOnly: true })).toEqual({ ok: false, reason: "paused" });
    expect(maySendOrder(market("RESOLVED"), T0, opts, { postOnly: true })).toEqual({ ok: false, reason: "resolved" });
    expect(maySendOrder(market("OPEN"), T0 + 60 * MIN, { pullBeforeCloseMs: 0 }, { postOnly: true })).toEqual({ ok: false, reason: "past_close" });
    expect(maySendOrder(market("OPEN"), T0 + 56 * MIN, opts, { postOnly: true })).toEqual({ ok: false, reason: "closing" });
  });
});
