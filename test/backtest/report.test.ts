/**
 * The backtest report assembled (report.ts) from a hand-made run: a daemon whose ledger and
 * inventory hold two fills (10 YES of M at 0.4 as maker; 5 YES of S at 0.3 as taker, fee 0.01,
 * S then resolved YES) and a simulator whose books agree. Checked: the markets reported (selected,
 * traded or held, known to the simulator, by id), each wallet's rows only where it was active,
 * the figures and marks, the sensitivity figure at the hidden fair value, the settlement cancels
 * counted, halts and drift, the checks passing, the run facts, the timing; a failed start-up made
 * a problem; the JSON form and the comparable part without the timing.
 */
import { describe, expect, it } from "vitest";
import { ONE, parseMicros as m, type Micros } from "../../src/core/money.js";
import { Inventory } from "../../src/bot/fills/inventory.js";
import type { Fill } from "../../src/bot/fills/fill-ledger.js";
import type { Daemon, ShutdownReport, StartReport } from "../../src/bot/engine/daemon.js";
import type { Simulator } from "../../src/sim/simulator.js";
import { BacktestCollector } from "../../src/backtest/collector.js";
import type { PreparedBacktest } from "../../src/backtest/prepare.js";
import type { SeriesRecorder, SeriesReport } from "../../src/backtest/series.js";
import { FAIR_VALUE_NOTE, buildReport, comparablePart, reportJson, type ReportInputs } from "../../src/backtest/report.js";

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const W = "0x00000000000000000000000000000000000000aa";
const OTHER = "0x00000000000000000000000000000000000000ee";

const FILLS: Fill[] = [
  { tradeId: "t1", wallet: W, orderId: "o1", marketId: "M", outcome: 0, side: "BUY", price: m("0.4"), qty: 10n * ONE, fee: 0n, role: "maker", ts: T0 + 1_000, source: "stream" },
  { tradeId: "t2", wallet: W, orderId: "o2", marketId: "S", outcome: 0, side: "BUY", price: m("0.3"), qty: 5n * ONE, fee: m("0.01"), role: "taker", ts: T0 + 2_000, source: "stream" },
];

/** The simulator's trade rows of FILLS (W maker on t1, taker on t2). */
const TRADES = [
  { id: "t1", marketId: "M", makerWallet: W, takerWallet: OTHER, makerOrderId: "o1", takerOrderId: "x1", makerOutcome: 0, outcome: 1, makerSide: "BUY", side: "BUY", makerPrice: m("0.4"), price: m("0.6"), quantity: 10n * ONE, fee: 0n, createdAtMs: T0 + 1_000 },
  { id: "t2", marketId: "S", makerWallet: OTHER, takerWallet: W, makerOrderId: "x2", takerOrderId: "o2", makerOutcome: 0, outcome: 0, makerSide: "SELL", side: "BUY", makerPrice: m("0.3"), price: m("0.3"), quantity: 5n * ONE, fee: m("0.01"), createdAtMs: T0 + 2_000 },
];

interface Setup {
  start?: StartReport | undefined;
  startError?: string;
  wallMs?: number;
  series?: SeriesRecorder;
}

function inputs(s: Setup = {}): ReportInputs {
  const inventory = new Inventory();
  const collector = new BacktestCollector();
  collector.attach(inventory, [W]);
  for (const f of FILLS) {
    collector.onEvent({ type: "order_placed", wallet: W, marketId: f.marketId, clientOrderId: f.orderId, orderId: f.orderId, outcome: 0, side: "BUY", price: f.price, size: f.qty, postOnly: false, status: "OPEN" });
    inventory.applyFill(f);
    collector.onEvent({ type: "fill", wallet: W, fill: f });
  }
  collector.onEvent({ type: "order_placed", wallet: W, marketId: "M", clientOrderId: "c3", orderId: "o3", outcome: 0, side: "BUY", price: 1n, size: 1n, postOnly: true, status: "OPEN" });
  collector.sample([{ wallet: W, tracker: { liveOrders: () => [1] } }], ["M"], () => true);
  collector.sample([{ wallet: W, tracker: { liveOrders: () => [] } }], ["M"], () => true);
  collector.onEvent({ type: "halt", action: "raised", scope: "market", target: "M", reason: "stale_market_data", detail: "", at: T0 + 10_000 });
  collector.onEvent({ type: "drift", wallet: W, kind: "positions", count: 2 });
  collector.onEvent({ type: "drift", wallet: W, kind: "cash", count: 1 });
  if (s.series !== undefined) collector.series = s.series;

  const books: Record<string, [Micros | null, Micros | null]> = { M: [m("0.4"), m("0.44")], N: [null, null], S: [m("0.9"), m("0.95")] };
  const status: Record<string, string> = { M: "OPEN", N: "OPEN", S: "RESOLVED" };
  const sim = {
    market: (x: string) => (x in status ? { id: x } : undefined),
    platform: {
      catalogue: {
        status: (id: string) => status[id],
        lifecycle: (id: string) => ({ status: status[id], closedAtMs: null, pausedAtMs: null, updatedAtMs: 0, resolvedAtMs: id === "S" ? T0 + 30_000 : null }),
      },
    },
    settlements: new Map([["S", { payoutNumerators: [1n, 0n], cancelled: [{ wallet: W.toUpperCase().replace("0X", "0x") }, { wallet: OTHER }] }]]),
    engine: {
      market: () => ({ outcomeCount: 2 }),
      book: (x: string) => ({ bestBid: books[x]![0], bestAsk: books[x]![1], lastTradePrice: null }),
      ledger: { trades: () => TRADES },
      // 1000 - 4 - 1.5 - 0.01: the payout of S not taken yet, its shares still held
      balance: () => ({ total: m("994.49") }),
      positions: () => [
        { marketId: "M", outcome: 0, quantity: 10n * ONE },
        { marketId: "S", outcome: 0, quantity: 5n * ONE },
      ],
      openOrders: () => [],
    },
    flow: { fairValue: (x: string) => (x === "M" ? [m("0.5"), m("0.5")] : undefined) },
  } as unknown as Simulator;
  const daemon = {
    runners: [{ name: "quoter", wallet: W }],
    ledger: { fills: (w?: string) => FILLS.filter((f) => w === undefined || f.wallet === w) },
    inventory,
  } as unknown as Daemon;
  const prepared = {
    configPath: "cfg.yaml",
    config: { instance: { id: "bt" }, strategy: { name: "ladder", params: { size: "10" } }, wallets: [{ name: "quoter", address: W.toUpperCase().replace("0X", "0x") }] },
    scenarioPath: "sc.yaml",
    scenarioSource: "config",
    seed: 3,
    seedSource: "override",
    startMs: T0,
    durationMs: 60_000,
    stepMs: 1_000,
    signatures: "on",
  } as unknown as PreparedBacktest;
  const shutdown: ShutdownReport = {
    reason: "end of the backtest",
    exitCode: 0,
    wallets: [{ wallet: W, name: "quoter", cancelled: 4, unconfirmed: [], leftover: [], unresolved: [], notRecorded: [], finalWalk: { ok: true, open: 0 }, rounds: 1, errors: [] }],
  };
  return {
    prepared,
    daemon,
    sim,
    collector,
    start: "start" in s ? s.start : { markets: ["N", "M", "GONE"], wallets: [{ name: "quoter", ready: true }] },
    startError: s.startError,
    readyAt: s.startError === undefined ? T0 + 500 : undefined,
    shutdown,
    shutdownEnd: T0 + 65_000,
    wallMs: s.wallMs ?? 2_000,
    startBalances: new Map([[W, { cash: m("1000"), positions: 0 }]]),
  };
}

describe("the backtest report", () => {
  const r = buildReport(inputs());

  it("passes its checks and states the run's facts", () => {
    expect(r.version).toBe(3);
    expect(r.problems).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.run).toEqual({
      config: "cfg.yaml",
      scenario: "sc.yaml",
      scenarioSource: "config",
      seed: 3,
      seedSource: "override",
      instance: "bt",
      strategy: { name: "ladder", params: { size: "10" } },
      walletNames: [{ name: "quoter", address: W }],
      virtualStart: "2026-03-02T09:00:00.000Z",
      virtualEnd: "2026-03-02T09:01:00.000Z",
      shutdownEnd: "2026-03-02T09:01:05.000Z",
      durationMs: 60_000,
      duration: "1m",
      stepMs: 1_000,
      signatures: "on",
      startup: { readyAt: "2026-03-02T09:00:00.500Z", markets: ["N", "M", "GONE"], wallets: [{ name: "quoter", ready: true }] },
      shutdown: { reason: "end of the backtest", exitCode: 0, wallets: [{ name: "quoter", cancelled: 4, leftover: 0, unresolved: 0, unconfirmed: [], finalWalkOk: true, errors: [], platformOpenOrders: 0 }] },
    });
  });

  it("reports the markets selected, traded or held that the simulator knows, by id, with their marks", () => {
    expect(r.markets.map((x) => [x.marketId, x.status, x.outcomeCount])).toEqual([
      ["M", "OPEN", 2],
      ["N", "OPEN", 2],
      ["S", "RESOLVED", 2],
    ]);
    const [mk, n, s] = r.markets;
    expect(mk!.mark).toEqual({ source: "book_mid", sources: ["book_mid", "book_mid"], prices: ["0.42", "0.58"], asOf: "2026-03-02T09:01:05.000Z", ageMs: 0, stale: false });
    expect(n!.mark).toMatchObject({ source: "none", prices: [null, null], asOf: null, ageMs: null });
    expect(s!.mark).toEqual({ source: "resolution", sources: ["resolution", "resolution"], prices: ["1", "0"], asOf: "2026-03-02T09:00:30.000Z", ageMs: 30_000, stale: false });
    expect(r.markMethod).toBe(
      "after shutdown (our orders cancelled): settled markets at their payout (each position qty x numerator / sum of numerators, rounded down, as the platform pays); " +
        "other markets per outcome at the book mid (best bid + best ask) / 2, binary markets from the YES book with NO at 1 - mid; " +
        "an outcome whose book lacks a side at its last trade price; otherwise unmarked (left out of unrealised, counted in pnl.unmarked). " +
        "mark.asOf is the time the price describes (a closed market's book: when it stopped trading); stale: an unsettled mark older than 5 minutes at the end of trading",
    );
  });

  it("values positions at the mark, a settled market at its payout, and at the hidden fair value apart", () => {
    const [mk, n, s] = r.markets;
    // M: 10 x 0.42 - 4 = 0.2 at the mark, 10 x 0.5 - 4 = 1 at the fair value.
    expect(mk!.figures.pnl).toEqual({ fees: "0", realised: "0", unrealised: "0.2", net: "0.2", unmarked: 0 });
    expect(mk!.fairValue).toEqual(["0.5", "0.5"]);
    expect(mk!.atFairValue).toEqual({ unrealised: "1", net: "1" });
    // S: 5 shares paid 1 each for 1.5, fee 0.01; settled, so the same at the fair value.
    expect(s!.figures.pnl).toEqual({ fees: "0.01", realised: "0", unrealised: "3.5", net: "3.49", unmarked: 0 });
    expect(s!.atFairValue).toEqual({ unrealised: "3.5", net: "3.49" });
    // N: nothing held, no fair value, no settlement.
    expect(n!.atFairValue).toBeNull();
    expect(n!.figures.fills.count).toBe(0);
    expect(r.totals.pnl).toEqual({ fees: "0.01", realised: "0", unrealised: "3.7", net: "3.69", unmarked: 0 });
    expect(r.atFairValue).toEqual({ note: FAIR_VALUE_NOTE, unrealised: "4.5", net: "4.49", unmarked: 0 });
  });

  it("gives each wallet rows only for the markets it was active on, and the market rows our wallets together", () => {
    const w = r.wallets[0]!;
    expect(w.markets.map((x) => x.marketId)).toEqual(["M", "S"]);
    expect(w.markets[0]!.fills).toEqual({ count: 1, maker: 1, taker: 0, unknownRole: 0, boughtShares: "10", soldShares: "0", buyNotional: "4", sellNotional: "0", volume: "4" });
    expect(w.markets[0]!.orders.placed).toBe(2);
    expect(w.markets[0]!.inventory).toEqual([{ outcome: 0, final: "10", maxAbs: "10", avgCost: "0.4" }]);
    expect(w.markets[0]!.quoteUptime).toBe("0.5000");
    // The platform cancelled one of our orders when it settled S (the other wallet's is not ours).
    expect(w.markets[1]!.orders).toMatchObject({ placed: 1, cancelledBySettlement: 1 });
    expect(w.totals.fills).toMatchObject({ count: 2, maker: 1, taker: 1, boughtShares: "15", buyNotional: "5.5", volume: "5.5" });
    expect(w.totals.grossFinalShares).toBe("15");
    expect(r.totals.orders).toMatchObject({ placed: 3, cancelledBySettlement: 1 });
    expect(r.markets[0]!.figures.inventory).toEqual([{ outcome: 0, final: "10", maxAbs: "10", avgCost: null }]);
    expect(r.markets[0]!.figures.quoteUptime).toBe("0.5000");
  });

  it("runs the consistency, inventory and PnL checks against the simulator", () => {
    expect(r.consistency).toMatchObject({ ok: true, ledgerFills: 2, platformFills: 2, perWallet: [{ wallet: W, ledger: 2, platform: 2 }] });
    const w = r.wallets[0]!;
    expect(w.inventoryCheck).toMatchObject({ ok: true, inventoryCashDelta: "-5.51", platformCashDelta: "-5.51", positionsCompared: 2 });
    // 4.2 + 5 of positions - 5.51 of cash = 3.69; tolerance 2 fills + 2 x 2 positions + 2.
    expect(w.platformCheck).toEqual({ cashDelta: "-5.51", positionsValue: "9.2", net: "3.69", difference: "0", tolerance: "0.000008", ok: true });
    expect(w.platformCheckSkipped).toBeUndefined();
  });

  it("sums halts to the end of trading, sorts the drift kinds and counts the inventory's fills", () => {
    expect(r.events.halts).toEqual([{ at: "2026-03-02T09:00:10.000Z", action: "raised", scope: "market", target: "M", reason: "stale_market_data" }]);
    expect(r.events.haltSummary).toEqual([{ reason: "stale_market_data", raised: 1, haltedMs: 50_000, openAtEnd: 1 }]);
    expect(Object.entries(r.events.drift)).toEqual([
      ["cash", 1],
      ["positions", 2],
    ]);
    expect(r.events.inventory).toEqual({ fills: 2, preAnchor: 0, corrected: 0, repeatDeliveries: 0 });
    expect(r.events.fillsAfterSettlement).toBe(0);
  });

  it("times the run from the virtual time to the end of shutdown over the wall time", () => {
    // 65 s of virtual time in 2 s: 32.5 -> 33x; 0.018055.. h / 2 s = 0.009.
    expect(r.timing).toEqual({ wallMs: 2_000, speed: 33, virtualHoursPerWallSecond: 0.009 });
    expect(buildReport(inputs({ wallMs: 0 })).timing).toEqual({ wallMs: 0, speed: 65_000_000, virtualHoursPerWallSecond: 18_055.556 });
  });

  it("finishes the series at the end of shutdown when one is kept", () => {
    const seen: number[] = [];
    const series = { finish: (ts: number) => (seen.push(ts), { stepMs: 7 }) } as unknown as SeriesRecorder;
    expect(r.series).toBeUndefined();
    expect(buildReport(inputs({ series })).series).toEqual({ stepMs: 7 } as SeriesReport);
    expect(seen).toEqual([T0 + 65_000]);
  });

  it("makes a failed start-up a problem", () => {
    const bad = buildReport(inputs({ start: undefined, startError: "platform unreachable" }));
    expect(bad.ok).toBe(false);
    expect(bad.run.startup).toEqual({ readyAt: null, markets: [], wallets: [{ name: "quoter", ready: false }], error: "platform unreachable" });
    expect(bad.problems).toEqual(["daemon start-up: platform unreachable", "wallet quoter never became ready"]);
    // Without start-up markets, the traded ones are still reported.
    expect(bad.markets.map((x) => x.marketId)).toEqual(["M", "S"]);
  });

  it("writes two-space JSON with one newline, and compares without the timing", () => {
    const json = reportJson(r);
    expect(json.startsWith('{\n  "version": 3,\n  "ok": true,\n  "problems": [],\n  "warnings": [],\n  "run": {\n    "config": "cfg.yaml",\n    "scenario": "sc.yaml",\n')).toBe(true);
    expect(json).toContain('\n    "seed": 3,\n');
    expect(json).toContain('\n  "markMethod": "after shutdown (our orders cancelled): settled markets at their payout');
    expect(json.endsWith('\n  "timing": {\n    "wallMs": 2000,\n    "speed": 33,\n    "virtualHoursPerWallSecond": 0.009\n  }\n}\n')).toBe(true);
    expect(JSON.parse(json)).toEqual(r);
    const c = comparablePart(r);
    expect("timing" in c).toBe(false);
    expect(c).toEqual({ ...r, timing: undefined });
    expect(JSON.stringify(comparablePart(buildReport(inputs({ wallMs: 9_999 }))))).toBe(JSON.stringify(c));
  });
});
