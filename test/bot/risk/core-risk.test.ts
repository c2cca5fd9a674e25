/**
 * The core risk's own parts, without a daemon: what the watch turns engine events into (streams,
 * rejects, reconciliations, daily PnL with its UTC-day baseline), and the filter's exposure
 * snapshot (the cycle's market with its real outcome count, every wallet's notional).
 */
import { describe, expect, it } from "vitest";
import { buildCoreRisk, haltLabel, type CoreRisk } from "../../../src/bot/risk/core-risk.js";
import type { EngineView, RiskContext } from "../../../src/bot/risk/risk-hook.js";
import { RiskWatch, type ObservationSources } from "../../../src/bot/risk/risk-observations.js";
import type { DesiredQuote, LiveOrder } from "../../../src/bot/quote/quotes.js";
import { parseConfig } from "../../../src/config/index.js";
import { VirtualClock } from "../../../src/core/clock.js";
import { parseMicros, type Micros } from "../../../src/core/money.js";
import { createLogger } from "../../../src/log/index.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1, 23, 59, 0);
const A = "0x00000000000000000000000000000000000000aa";
const B = "0x00000000000000000000000000000000000000bb";

function sources(over: Partial<ObservationSources> = {}): ObservationSources & { pnl: Map<string, Micros> } {
  const pnl = new Map<string, Micros>();
  return {
    wallets: [{ name: "a", address: A }, { name: "b", address: B }],
    breaker: () => "closed",
    quotedMarkets: () => [],
    data: { book: () => undefined, isStale: () => false },
    netPnl: (w) => pnl.get(w) ?? 0n,
    pnl,
    ...over,
  };
}

describe("RiskWatch", () => {
  it("tracks streams: down since the first loss, up on subscribe, reconciled when a sync completes", () => {
    const clock = new VirtualClock(T0);
    const w = new RiskWatch(sources(), () => clock.now());
    w.onEvent({ type: "stream_state", wallet: A, state: "subscribed", at: T0 });
    w.onEvent({ type: "stream_state", wallet: A, state: "disconnected", at: T0 + 10 });
    w.onEvent({ type: "stream_state", wallet: A, state: "reconnecting", at: T0 + 20 });
    expect(w.collect(T0 + 30).obs.streams).toEqual([{ wallet: "a", connected: false, downSinceMs: T0 + 10 }]);
    w.onEvent({ type: "stream_state", wallet: A, state: "subscribed", at: T0 + 40 });
    w.onEvent({ type: "synced", wallet: A, reason: "gap", at: T0 + 50 });
    expect(w.collect(T0 + 60).obs.streams).toEqual([{ wallet: "a", connected: true, connectedSinceMs: T0 + 40, reconciledAtMs: T0 + 50 }]);
    w.onEvent({ type: "wallet_state", wallet: A, state: "stopping" });
    expect(w.collect(T0 + 70).obs.streams).toEqual([]);
  });

  it("queues platform rejects and reconciliations once; local refusals (open circuit) and key refusals are not rejects", () => {
    const clock = new VirtualClock(T0);
    const w = new RiskWatch(sources(), () => clock.now());
    w.onEvent({ type: "order_rejected", wallet: A, marketId: "M", clientOrderId: "c1", code: "insufficient_balance", handling: "business_reject" });
    w.onEvent({ type: "order_rejected", wallet: A, marketId: "M", clientOrderId: "c2", code: "circuit_open", handling: "wait_retry_after" });
    // A refused key is auth_refused's business (auth-watch.ts), never a reject storm.
    w.onEvent({ type: "order_rejected", wallet: A, marketId: "M", clientOrderId: "c3", code: "api_key_revoked", handling: "auth" });
    // A key lacking a scope (403) works otherwise: nothing else halts on it, so it counts.
    w.onEvent({ type: "order_rejected", wallet: A, marketId: "M", clientOrderId: "c4", code: "api_key_scope_missing", handling: "auth" });
    w.onEvent({ type: "reconciliation", wallet: B, positions: 2, cash: 1, at: T0 });
    expect(w.pending).toBe(true);
    const first = w.collect(T0).obs;
    expect(first.rejects).toEqual([
      { wallet: "a", market: "M", code: "insufficient_balance", atMs: T0 },
      { wallet: "a", market: "M", code: "api_key_scope_missing", atMs: T0 },
    ]);
    expect(first.reconciliations).toEqual([{ wallet: "b", drifted: 2, atMs: T0 }]);
    expect(w.pending).toBe(false);
    expect(w.collect(T0).obs.rejects).toEqual([]);
  });

  it("market data: a book never read is stale only once the source says so", () => {
    let stale = false;
    const w = new RiskWatch(sources({ quotedMarkets: () => [{ symbol: "M", outcomes: [0] }], data: { book: () => undefined, isStale: () => stale } }), () => T0);
    expect(w.collect(T0).obs.marketData).toEqual([{ market: "M", lastUpdateMs: T0 }]);
    stale = true;
    expect(w.collect(T0).obs.marketData).toEqual([{ market: "M", lastUpdateMs: undefined }]);
  });

  it("daily PnL: since the start on the first day, since the first look after 00:00 UTC on the next", () => {
    const s = sources();
    const w = new RiskWatch(s, () => T0);
    s.pnl.set(A, parseMicros("-5"));
    s.pnl.set(B, parseMicros("2"));
    const day1 = T0 - (T0 % DAY);
    expect(w.collect(T0).obs.pnl).toEqual([
      { wallet: "a", dayStartMs: day1, pnl: parseMicros("-5") },
      { wallet: "b", dayStartMs: day1, pnl: parseMicros("2") },
      { dayStartMs: day1, pnl: parseMicros("-3") },
    ]);
    // After midnight the day starts from the figures seen then.
    expect(w.collect(T0 + 120_000).obs.pnl![0]).toEqual({ wallet: "a", dayStartMs: day1 + DAY, pnl: 0n });
    s.pnl.set(A, parseMicros("-6.5"));
    expect(w.collect(T0 + 180_000).obs.pnl![0]).toEqual({ wallet: "a", dayStartMs: day1 + DAY, pnl: parseMicros("-1.5") });
    expect(w.dailyPnl().get("a")).toBe(parseMicros("-1.5"));
  });
});

function config(risk: string) {
  return parseConfig(
    `mode: simulator\nwallets: [{ name: a }, { name: b }]\nstrategy: { name: ladder }\nrisk: ${risk}\nlog: { level: silent }\n`,
    "core-risk.yaml",
    {},
  );
}

const live = (over: Partial<LiveOrder>): LiveOrder => ({
  clientOrderId: "c",
  orderId: "o",
  outcome: 0,
  side: "BUY",
  price: parseMicros("0.5"),
  size: parseMicros("10"),
  remaining: parseMicros("10"),
  postOnly: true,
  createdAtMs: T0,
  state: "open",
  ...over,
});

function core(risk: string, liveOrders: Record<string, LiveOrder[]> = {}): { core: CoreRisk; changes: string[] } {
  const cfg = config(risk);
  const addr = cfg.wallets.map((w) => w.address.toLowerCase());
  const view: EngineView = {
    wallets: () => addr,
    markets: () => ["BIN", "MULTI"],
    liveOrders: (w, m) => liveOrders[`${w === addr[0] ? "a" : "b"}:${m}`] ?? [],
    positions: () => [],
    pnl: () => ({ realised: 0n, unrealised: 0n, fees: 0n, net: 0n, unmarked: [] }),
    mark: () => undefined,
    outcomeCount: (m) => (m === "MULTI" ? 4 : 2),
  };
  const changes: string[] = [];
  const clock = new VirtualClock(T0);
  const built = buildCoreRisk({
    config: cfg,
    clock,
    log: createLogger({ level: "silent" }),
    view,
    sources: { breaker: () => "closed", quotedMarkets: () => [], data: { book: () => undefined, isStale: () => false }, netPnl: () => 0n },
    onHaltChange: () => undefined,
    onChange: (cs) => changes.push(...cs.map((c) => `${c.type} ${haltLabel(c.halt)}`)),
    onFiltered: () => undefined,
  });
  return { core: built.core, changes };
}

function ctx(walletName: string, marketId: string, outcomeCount: number): RiskContext {
  return { wallet: "0x", walletName, marketId, outcomeCount, nowMs: T0, phase: "open", phaseReason: "open", book: undefined, dataAgeMs: 0, inventory: [], live: [], stream: { subscribed: true, downSinceMs: undefined }, engine: {} as EngineView };
}

const q = (outcome: number, price: string, size = "10"): DesiredQuote => ({ outcome, side: "BUY", price: parseMicros(price), size: parseMicros(size), postOnly: true });

describe("CoreRisk", () => {
  it("filters a multi-outcome market with its own outcome count (outcome 3 is valid there)", () => {
    const { core: c } = core("{}");
    const allowed = c.reviewQuotes([q(0, "0.30"), q(3, "0.10")], ctx("a", "MULTI", 4));
    expect(allowed.map((x) => x.outcome)).toEqual([0, 3]);
  });

  it("counts other wallets' resting BUY notional against the total", () => {
    // b rests 10 x 0.5 = 5 on BIN; the total cap is 7: a may add 2 more, i.e. 4 shares at 0.5.
    const { core: c } = core('{ maxNotionalPerWallet: "6", maxNotionalTotal: "7" }', { "b:BIN": [live({})] });
    const allowed = c.reviewQuotes([q(0, "0.50")], ctx("a", "MULTI", 4));
    expect(allowed.map((x) => x.size)).toEqual([parseMicros("4")]);
  });

  it("kill: nothing allowed, plans place nothing, the halt is reported once; resume clears it", () => {
    const { core: c, changes } = core("{}");
    c.kill("test");
    c.kill("again");
    expect(changes).toEqual(["raised all kill_switch"]);
    expect(c.reviewQuotes([q(0, "0.50")], ctx("a", "BIN", 2))).toEqual([]);
    expect(c.allowPlace("0x", "b", "BIN")).toBe(false);
    expect(c.halts()).toEqual(["all kill_switch"]);
    const plan = { keep: [], cancels: [], places: [q(0, "0.5")], cancelBatches: [], placeBatches: [[q(0, "0.5")]], cancelReasons: {}, deferred: { cancels: [], places: [], pending: [] }, inFlight: [] };
    expect(c.reviewPlan(plan, ctx("a", "BIN", 2)).places).toEqual([]);
    c.resume();
    expect(changes).toEqual(["raised all kill_switch", "cleared all kill_switch"]);
    expect(c.allowPlace("0x", "b", "BIN")).toBe(true);
  });
});
