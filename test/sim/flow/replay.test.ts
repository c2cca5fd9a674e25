/**
 * Replay of a recording as the simulator's other participants (src/sim/flow/replay.ts), on a bare
 * engine with a hand-made event stream: recorded rows parsed or refused with the event named,
 * the scenario built from them; then the flow on the clock: status rows moved through the
 * lifecycle, books made equal to the recorded levels (too much cancelled newest first, what is
 * missing posted behind, unchanged levels keep their orders), NO snapshots and halted markets
 * skipped, recorded trades sent as IOC orders, and the replay's wallets kept off reserved ones.
 */
import { describe, expect, it } from "vitest";
import { formatMicros } from "../../../src/core/money.js";
import { Levels, type BookEvent, type DataEvent, type MarketEvent, type TradeEvent } from "../../../src/data/index.js";
import { parseRecordedRow, ReplayFlow, replayScenario } from "../../../src/sim/flow/replay.js";
import { addressFromLabel } from "../../../src/sim/platform/derive.js";
import type { LifecycleStatus, TransitionArgs } from "../../../src/sim/platform/lifecycle.js";
import { parseScenario } from "../../../src/sim/platform/scenario.js";
import type { MarketSummary } from "../../../src/wire/markets.js";
import { ALICE, fixture, u } from "../engine/helpers.js";

const T0 = Date.UTC(2026, 0, 1); // the engine fixture's clock

/** A recorded market row (spec 2.6 MarketSummary) with every required key. */
function row(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "11111111-1111-4111-8111-111111111111",
    eventId: "22222222-2222-4222-8222-222222222222",
    symbol: "M",
    slug: "m-slug",
    title: "Will M happen?",
    groupItemTitle: null,
    conditionId: null,
    questionId: null,
    yesTokenId: null,
    noTokenId: null,
    status: "OPEN",
    currentReviewRound: 0,
    outcomeCount: 2,
    outcomeLabels: ["Yes", "No"],
    feeTakerBps: 150,
    tradingWindow: { preMarketStartsAt: null, opensAt: "2026-01-01T01:00:00.000Z", closesAt: "2026-01-02T00:00:00.000Z" },
    kickoff: "2026-01-01T20:00:00.000Z",
    resolutionWindowHours: 2,
    lifecycle: { closedAt: null, pausedAt: null, resolvedAt: null, voidedAt: null },
    payoutNumerators: null,
    officialDataSource: "League",
    sourceMatchId: "match-9",
    resolutionCriteria: "Yes if M happens.",
    negRiskEligible: true,
    isNewMarketType: false,
    createdAt: "2025-12-31T00:00:00.000Z",
    updatedAt: "2025-12-31T00:00:00.000Z",
    outcomePrices: [null, null],
    chances: ["0.5", "0.5"],
    vertical: "football",
    marketType: "MATCH_WINNER",
    crypto: null,
    eventSlug: "m-event",
    sport: "football",
    homeCountry: "ARS",
    awayCountry: "CHE",
    ...over,
  };
}

const summary = (over: Record<string, unknown> = {}): MarketSummary => parseRecordedRow(marketEv(1, 0, "M", "OPEN", over));

function marketEv(seq: number, ts: number, symbol: string, status: string, over: Record<string, unknown> = {}): MarketEvent {
  return { kind: "market", seq, ts: T0 + ts, symbol, status, row: JSON.stringify(row({ symbol, status, ...over })) };
}

type Lv = [string, string][];
const levels = (l: Lv): Levels => Levels.of(l.map(([p, q]) => [u(p), u(q)] as const));

function bookEv(seq: number, ts: number, symbol: string, outcome: number, bids: Lv, asks: Lv): BookEvent {
  return { kind: "book", seq, ts: T0 + ts, symbol, outcome, serverTs: 0, bids: levels(bids), asks: levels(asks) };
}

function tradeEv(seq: number, ts: number, symbol: string, outcome: number, side: "BUY" | "SELL", price: string, qty: string): TradeEvent {
  return { kind: "trade", seq, ts: T0 + ts, id: `t${seq}`, symbol, outcome, side, price: u(price), quantity: u(qty), tradeTs: T0 + ts };
}

function setup(events: DataEvent[], opts: { status?: Record<string, LifecycleStatus>; refuse?: boolean; reserved?: string[] } = {}) {
  const f = fixture();
  f.engine.addMarket({ id: "X", outcomeCount: 3, feeRateBps: 0 });
  const status: Record<string, LifecycleStatus> = { M: "OPEN", X: "OPEN", ...opts.status };
  const moves: [string, string, TransitionArgs][] = [];
  const applied: number[] = [];
  let i = 0;
  const replay = new ReplayFlow({
    clock: f.clock,
    engine: f.engine,
    source: { next: () => events[i++] },
    status: (s) => status[s],
    move: (symbol, trigger, args) => {
      moves.push([symbol, trigger, args]);
      if (opts.refuse) return false;
      status[symbol] = trigger === "resolve" ? "RESOLVED" : trigger === "void" ? "VOIDED" : (args as { status: LifecycleStatus }).status;
      return true;
    },
    reserved: new Set(opts.reserved ?? []),
    onApplied: (e) => applied.push(e.seq),
  });
  return { ...f, replay, status, moves, applied };
}

/** The replay liquidity's resting orders on one book, "SIDE price qty" sorted. */
function lpBook(s: ReturnType<typeof setup>, symbol = "M", outcome = 0): string[] {
  return s.engine
    .openOrders(s.replay.liquidityWallet(symbol), symbol)
    .filter((o) => o.outcome === outcome)
    .map((o) => `${o.side} ${formatMicros(o.price)} ${formatMicros(o.remainingQty)}`)
    .sort();
}

describe("parseRecordedRow", () => {
  it("parses a recorded market row", () => {
    const r = summary();
    expect(r.symbol).toBe("M");
    expect(r.feeTakerBps).toBe(150);
  });

  it("refuses a row that is not JSON, naming the event", () => {
    const e: MarketEvent = { kind: "market", seq: 7, ts: T0, symbol: "M", status: "OPEN", row: "{not json" };
    expect(() => parseRecordedRow(e)).toThrow("market event 7 (M): the row is not JSON");
  });

  it("refuses JSON that is not a market row, naming the event and the bad keys", () => {
    const e: MarketEvent = { kind: "market", seq: 8, ts: T0, symbol: "M", status: "OPEN", row: JSON.stringify(row({ id: "nope", outcomeCount: "two" })) };
    expect(() => parseRecordedRow(e)).toThrow(/^market event 8 \(M\): not a market row: .*id: .*outcomeCount: /);
  });
});

describe("replayScenario", () => {
  const BASE = parseScenario(
    `
seed: 9
start: "2026-06-01T00:00:00Z"
wallets:
  - name: mm
    address: "0x1111111111111111111111111111111111111111"
    balances:
      collateral: "100"
      positions:
        - { market: M, outcome: 0, quantity: "5" }
        - { market: n-slug, outcome: 1, quantity: "2" }
        - { market: GONE, outcome: 0, quantity: "3" }
events:
  - title: Replaced
    markets:
      - { title: Old market, symbol: OLD, tradingWindow: { opensAt: "-1h" } }
`,
    "base.yaml",
  );
  const START = Date.UTC(2026, 0, 1, 0, 30);

  it("keeps the base's platform and wallets, starts at the replay's start and lists only the recorded markets", () => {
    const s = replayScenario(BASE, [summary()], START);
    expect(s.seed).toBe(9);
    expect(s.start).toEqual({ kind: "absolute", atMs: START });
    expect(s.events.flatMap((e) => e.markets.map((m) => m.symbol))).toEqual(["M"]);
    expect(s.wallets[0]!.balances.collateral).toBe(u("100"));
  });

  it("copies each row's market facts, windows as absolute times, with the flow off", () => {
    const m = replayScenario(BASE, [summary()], START).events[0]!.markets[0]!;
    expect(m).toMatchObject({
      title: "Will M happen?",
      slug: "m-slug",
      symbol: "M",
      outcomeLabels: ["Yes", "No"],
      feeTakerBps: 150,
      negRiskEligible: true,
      marketType: "MATCH_WINNER",
      resolutionWindowHours: 2,
      officialDataSource: "League",
      sourceMatchId: "match-9",
      resolutionCriteria: "Yes if M happens.",
      crypto: null,
      actions: [],
      kickoff: { kind: "absolute", atMs: Date.UTC(2026, 0, 1, 20) },
      tradingWindow: {
        preMarketStartsAt: null,
        opensAt: { kind: "absolute", atMs: Date.UTC(2026, 0, 1, 1) },
        closesAt: { kind: "absolute", atMs: Date.UTC(2026, 0, 2) },
      },
    });
    expect(m.flow.enabled).toBe(false);
    expect(m.flow.informed.arrivalPerMin).toBe(0);
  });

  it("groups markets into events by eventSlug (else one event per symbol), and opens a market without opensAt at the start", () => {
    const rows = [
      summary(),
      summary({ symbol: "N", slug: "n-slug", id: "33333333-3333-4333-8333-333333333333" }),
      summary({ symbol: "L", slug: "l-slug", eventSlug: undefined, outcomeCount: 3, outcomeLabels: [], tradingWindow: { preMarketStartsAt: null, opensAt: null, closesAt: null } }),
    ];
    const s = replayScenario(BASE, rows, START);
    expect(s.events.map((e) => [e.slug, e.markets.map((m) => m.symbol)])).toEqual([
      ["m-event", ["M", "N"]],
      ["replay-L", ["L"]],
    ]);
    expect(s.events[0]).toMatchObject({ title: "m-event", vertical: "football", sport: "football", homeCountry: "ARS", awayCountry: "CHE", tags: [] });
    const l = s.events[1]!.markets[0]!;
    expect(l.outcomeLabels).toEqual(["Outcome 0", "Outcome 1", "Outcome 2"]);
    expect(l.tradingWindow).toEqual({ preMarketStartsAt: null, opensAt: { kind: "absolute", atMs: START }, closesAt: null });
  });

  it("drops wallet positions in markets that are not replayed (matched by symbol or slug)", () => {
    const rows = [summary(), summary({ symbol: "N", slug: "n-slug" })];
    const positions = replayScenario(BASE, rows, START).wallets[0]!.balances.positions.map((p) => p.market);
    expect(positions).toEqual(["M", "n-slug"]);
    expect(BASE.wallets[0]!.balances.positions).toHaveLength(3);
  });
});

describe("ReplayFlow: books", () => {
  it("makes the liquidity wallet's orders equal the recorded levels", () => {
    const s = setup([bookEv(1, 0, "M", 0, [["0.48", "10"], ["0.47", "5"]], [["0.52", "7"]])]);
    s.replay.start();
    expect(lpBook(s)).toEqual(["BUY 0.47 5", "BUY 0.48 10", "SELL 0.52 7"]);
    expect(s.replay.stats).toMatchObject({ events: 1, books: 1, liquidityPosted: 3, liquidityCancelled: 0, liquidityCrossedQty: 0n });
  });

  it("follows the clock: a later book is applied at its time, changing only the levels that differ", async () => {
    const s = setup([bookEv(1, 0, "M", 0, [["0.48", "10"], ["0.47", "5"]], [["0.52", "7"]]), bookEv(2, 1_000, "M", 0, [["0.48", "4"], ["0.46", "3"]], [["0.52", "7"]])]);
    s.replay.start();
    const ask = s.engine.openOrders(s.replay.liquidityWallet("M"), "M").find((o) => o.side === "SELL")!.id;
    await s.clock.advance(999);
    expect(s.applied).toEqual([1]);
    await s.clock.advance(1);
    expect(s.applied).toEqual([1, 2]);
    expect(lpBook(s)).toEqual(["BUY 0.46 3", "BUY 0.48 4", "SELL 0.52 7"]);
    // The 0.52 ask was left in place; 0.48 (too much) and 0.47 (gone) were cancelled.
    expect(s.engine.openOrders(s.replay.liquidityWallet("M"), "M").find((o) => o.side === "SELL")!.id).toBe(ask);
    expect(s.replay.stats).toMatchObject({ books: 2, liquidityPosted: 5, liquidityCancelled: 2 });
  });

  it("a level that grew gets the difference posted behind what rests", async () => {
    const s = setup([bookEv(1, 0, "M", 0, [["0.4", "2"]], []), bookEv(2, 10, "M", 0, [["0.4", "5"]], [])]);
    s.replay.start();
    await s.clock.advance(10);
    const sizes = s.engine.openOrders(s.replay.liquidityWallet("M"), "M").map((o) => o.remainingQty);
    expect(sizes.sort()).toEqual([u("2"), u("3")]);
    expect(s.replay.stats.liquidityCancelled).toBe(0);
  });

  it("posted size that crosses another wallet's order trades with it", () => {
    const s = setup([bookEv(1, 0, "M", 0, [], [["0.5", "5"]])]);
    s.place(ALICE, { outcome: 0, side: "BUY", price: u("0.5"), quantity: u("2") });
    s.replay.start();
    expect(s.replay.stats.liquidityCrossedQty).toBe(u("2"));
    expect(lpBook(s)).toEqual(["SELL 0.5 3"]);
  });

  it("skips a binary market's NO snapshots, which are the complement of the YES book", () => {
    const s = setup([bookEv(1, 0, "M", 1, [["0.3", "1"]], [])]);
    s.replay.start();
    expect(s.replay.stats).toMatchObject({ books: 0, booksComplement: 1, liquidityPosted: 0 });
    expect(s.engine.openOrders(s.replay.liquidityWallet("M"))).toEqual([]);
  });

  it("replays every outcome's book of a multi-outcome market", () => {
    const s = setup([bookEv(1, 0, "X", 1, [["0.3", "1"]], [["0.35", "2"]]), bookEv(2, 0, "X", 2, [["0.2", "1"]], [])]);
    s.replay.start();
    expect(lpBook(s, "X", 1)).toEqual(["BUY 0.3 1", "SELL 0.35 2"]);
    expect(lpBook(s, "X", 2)).toEqual(["BUY 0.2 1"]);
  });

  it("holds books while the market takes no orders, and posts post-only ones in PRE_MARKET", () => {
    const held = setup([bookEv(1, 0, "M", 0, [["0.4", "1"]], [])], { status: { M: "PAUSED" } });
    held.replay.start();
    expect(held.replay.stats).toMatchObject({ books: 0, booksHeld: 1 });
    const pre = setup([bookEv(1, 0, "M", 0, [["0.4", "1"]], [])], { status: { M: "PRE_MARKET" } });
    pre.replay.start();
    const orders = pre.engine.openOrders(pre.replay.liquidityWallet("M"), "M");
    expect(orders.map((o) => o.postOnly)).toEqual([true]);
  });

  it("counts events of symbols (or outcomes) the simulator does not have, and ignores kinds other than market, book and trade", () => {
    const s = setup([
      bookEv(1, 0, "NOPE", 0, [["0.4", "1"]], []),
      bookEv(2, 0, "X", 3, [["0.4", "1"]], []),
      tradeEv(3, 0, "NOPE", 0, "BUY", "0.5", "1"),
      { kind: "gap", seq: 4, ts: T0, symbol: "M", fromTs: 0, toTs: 1, reason: "test" },
    ]);
    s.replay.start();
    expect(s.replay.stats).toMatchObject({ events: 3, unknownSymbol: 3, books: 0, trades: 0 });
    expect(s.applied).toEqual([1, 2, 3, 4]);
  });
});

describe("ReplayFlow: trades", () => {
  it("sends each recorded trade as an IOC order of the replay taker, at the recorded price and size", () => {
    const s = setup([bookEv(1, 0, "M", 0, [], [["0.52", "3"]]), tradeEv(2, 0, "M", 0, "BUY", "0.52", "5")]);
    s.replay.start();
    const taker = s.engine.ledger.trades().filter((t) => t.takerWallet.toLowerCase() !== s.replay.liquidityWallet("M"));
    expect(taker.map((t) => [t.side, t.price, t.quantity])).toEqual([["BUY", u("0.52"), u("3")]]);
    expect(s.replay.stats).toMatchObject({ trades: 1, tradeQty: u("5"), tradeFilledQty: u("3") });
    // The unfilled 2 did not rest.
    const wallets = s.replay.wallets();
    expect(wallets).toHaveLength(2);
    for (const w of wallets.filter((x) => x !== s.replay.liquidityWallet("M"))) expect(s.engine.openOrders(w)).toEqual([]);
  });

  it("skips trades while the market is not OPEN (PRE_MARKET included)", () => {
    const s = setup([tradeEv(1, 0, "M", 0, "SELL", "0.5", "1")], { status: { M: "PRE_MARKET" } });
    s.replay.start();
    expect(s.replay.stats).toMatchObject({ trades: 0, tradesSkipped: 1 });
  });
});

describe("ReplayFlow: status rows", () => {
  it("moves the lifecycle to a recorded status that differs, through set_status, resolve and void", () => {
    const s = setup([
      marketEv(1, 0, "M", "OPEN"),
      marketEv(2, 0, "M", "PAUSED"),
      marketEv(3, 0, "M", "RESOLVED", { payoutNumerators: ["1", 0] }),
      marketEv(4, 0, "X", "VOIDED"),
    ]);
    s.replay.start();
    expect(s.moves).toEqual([
      ["M", "set_status", { status: "PAUSED" }],
      ["M", "resolve", { payoutNumerators: [1, 0] }],
      ["X", "void", {}],
    ]);
    expect(s.replay.stats).toMatchObject({ statusMoves: 3, statusRefused: 0 });
  });

  it("never moves a settled market, and counts the moves the lifecycle refuses", () => {
    const settled = setup([marketEv(1, 0, "M", "OPEN")], { status: { M: "RESOLVED" } });
    settled.replay.start();
    expect(settled.moves).toEqual([]);
    const refused = setup([marketEv(1, 0, "M", "CLOSED")], { refuse: true });
    refused.replay.start();
    expect(refused.replay.stats).toMatchObject({ statusMoves: 0, statusRefused: 1 });
  });
});

describe("ReplayFlow: wallets and the clock", () => {
  it("derives a liquidity and a taker wallet per market, skipping reserved addresses, matched in any case", () => {
    const lp = addressFromLabel("sim:replay:M:lp").toLowerCase();
    const s = setup([], { reserved: [lp] });
    const w = s.replay.liquidityWallet("M");
    expect(w).toBe(addressFromLabel("sim:replay:M:lp:1").toLowerCase());
    expect(s.replay.wallets()).toEqual([w, addressFromLabel("sim:replay:M:taker").toLowerCase()]);
    expect(s.replay.isReplayWallet(w.toUpperCase().replace("0X", "0x"))).toBe(true);
    expect(s.replay.isReplayWallet(lp)).toBe(false);
  });

  it("stop leaves later events pending until the next start", async () => {
    const s = setup([bookEv(1, 0, "M", 0, [["0.4", "1"]], []), bookEv(2, 500, "M", 0, [["0.41", "1"]], [])]);
    s.replay.start();
    s.replay.stop();
    await s.clock.advance(1_000);
    expect(s.applied).toEqual([1]);
    expect(s.clock.pending()).toBe(0);
    s.replay.start();
    expect(s.applied).toEqual([1, 2]);
    expect(lpBook(s)).toEqual(["BUY 0.41 1"]);
  });
});
