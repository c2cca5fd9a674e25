/**
 * The full engine replays a recorded data set: the simulator's markets are the recorded rows, its
 * book follows the recorded books (the replay's liquidity wallet re-posts them), each recorded
 * trade is sent once as another participant's IOC order, the synthetic flow is off; the daemon
 * trades against that, the report checks out, and the same data and seed give the same report.
 * The recording is the fixtures scenario's synthetic flow, written with the data-set writer.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import type { Micros } from "../../src/core/money.js";
import { recordedSource, syntheticSource } from "../../src/backtest/fast/sources.js";
import { comparablePart, prepareBacktest, reportJson, runPrepared, type BacktestReport } from "../../src/backtest/index.js";
import { loadReplay } from "../../src/backtest/run.js";
import { backtestCommand, type BacktestIo } from "../../src/cli/backtest.js";
import { DataSetWriter, type BookEvent, type DataEvent, type Levels } from "../../src/data/index.js";
import { ReplayFlow } from "../../src/sim/flow/replay.js";
import { Simulator } from "../../src/sim/simulator.js";
import type { MatchingEngine } from "../../src/sim/engine/index.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures");
const CONFIG = join(FIXTURES, "config.yaml");
const SPAN_MS = 4 * 60_000;

let dir: string;
/** The recorded market events, in order. */
let recorded: DataEvent[];

beforeAll(async () => {
  const p = prepareBacktest({ configPath: CONFIG, durationMs: SPAN_MS, env: {} });
  dir = mkdtempSync(join(tmpdir(), "mm-replay-full-"));
  const w = await DataSetWriter.open({ dir, clock: { now: () => p.startMs } });
  const src = syntheticSource({ scenario: p.scenario, seed: p.seed, startMs: p.startMs, durationMs: p.durationMs });
  for (let e = src.next(); e !== undefined; e = src.next()) {
    const { seq: _s, ...rest } = e;
    w.append(rest);
  }
  w.close();
  const back = await recordedSource(dir);
  recorded = [];
  for (let e = back.next(); e !== undefined; e = back.next()) recorded.push(e);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** [price, qty] pairs of one side of a recorded book. */
const pairs = (l: Levels): [Micros, Micros][] => l.toArray().map(([p, q]) => [p, q]);

/** The engine's book of a market outcome, both sides, as [price, qty] pairs. */
function engineBook(engine: MatchingEngine, symbol: string, outcome: number): { bids: [Micros, Micros][]; asks: [Micros, Micros][] } {
  const b = engine.book(symbol, outcome, 999);
  return { bids: b.bids.map((l) => [l.price, l.quantity]), asks: b.asks.map((l) => [l.price, l.quantity]) };
}

/** One wallet's open orders on a book, as levels (bids best first, asks best first). */
function walletLevels(engine: MatchingEngine, wallet: string, symbol: string, outcome: number): { bids: [Micros, Micros][]; asks: [Micros, Micros][] } {
  const sum = new Map<string, Micros>();
  for (const o of engine.openOrders(wallet, symbol)) {
    if (o.outcome !== outcome) continue;
    const k = `${o.side}|${o.price}`;
    sum.set(k, (sum.get(k) ?? 0n) + o.remainingQty);
  }
  const side = (s: string, desc: boolean): [Micros, Micros][] =>
    [...sum]
      .filter(([k]) => k.startsWith(`${s}|`))
      .map(([k, q]): [Micros, Micros] => [BigInt(k.slice(s.length + 1)), q])
      .sort((a, b) => (desc ? (a[0] > b[0] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  return { bids: side("BUY", true), asks: side("SELL", false) };
}

function io(): { io: BacktestIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, progress: false }, out, err };
}

describe("the replay flow on its own (no daemon)", () => {
  it("makes the simulator's book equal each recorded book and sends each recorded trade once", async () => {
    const { prepared, source } = await loadReplay(prepareBacktest({ configPath: CONFIG, data: dir, env: {} }));
    expect(prepared.startMs).toBe(recorded[0]!.ts);
    expect(prepared.durationMs).toBe(recorded[recorded.length - 1]!.ts - recorded[0]!.ts);
    expect(prepared.scenario.events.flatMap((e) => e.markets.map((m) => m.symbol))).toEqual(["BT-A", "BT-B"]);
    const clock = new VirtualClock(prepared.startMs);
    const sim = new Simulator(prepared.scenario, { clock, flow: false, verifySignatures: false, pepper: new Uint8Array(32), recoveryCache: null });
    sim.start();
    const applied: DataEvent[] = [];
    let compared = 0;
    const replay = new ReplayFlow({
      clock,
      engine: sim.engine,
      source,
      status: (s) => {
        const m = sim.market(s);
        return m === undefined ? undefined : sim.platform.catalogue.status(m.id);
      },
      move: (s, t, a) => sim.setMarketStatus(s, t, a).ok,
      reserved: new Set(),
      onApplied: (e) => {
        applied.push(e);
        if (e.kind !== "book") return;
        // Both outcomes of a binary market: outcome 1 is the complement of the replayed YES book.
        expect(engineBook(sim.engine, e.symbol, e.outcome), `book ${e.seq} ${e.symbol}/${e.outcome}`).toEqual({ bids: pairs(e.bids), asks: pairs(e.asks) });
        compared++;
      },
    });
    replay.start();
    await clock.advanceTo(prepared.startMs + prepared.durationMs);
    replay.stop();
    sim.stop();
    expect(applied.map((e) => e.seq)).toEqual(recorded.map((e) => e.seq));
    const books = recorded.filter((e) => e.kind === "book").length;
    const trades = recorded.filter((e) => e.kind === "trade");
    expect(books).toBeGreaterThan(100);
    expect(compared).toBe(books);
    expect(trades.length).toBeGreaterThan(3);
    expect(replay.stats).toMatchObject({ trades: trades.length, tradesSkipped: 0, books: books / 2, booksComplement: books / 2, unknownSymbol: 0, statusRefused: 0 });
    expect(replay.stats.tradeQty).toBe(trades.reduce((s, t) => s + (t.kind === "trade" ? t.quantity : 0n), 0n));
    expect(replay.stats.tradeFilledQty).toBeGreaterThan(0n);
    expect(replay.wallets()).toHaveLength(4);
  });
});

describe("recorded status changes", () => {
  it("move the simulator's lifecycle at their times; books and trades wait while the market is halted", async () => {
    const { prepared } = await loadReplay(prepareBacktest({ configPath: CONFIG, data: dir, env: {} }));
    const t0 = prepared.startMs;
    const row = recorded.find((e) => e.kind === "market" && e.symbol === "BT-A");
    const book = recorded.find((e) => e.kind === "book" && e.symbol === "BT-A" && e.outcome === 0);
    const trade = recorded.find((e) => e.kind === "trade" && e.symbol === "BT-A");
    if (row?.kind !== "market" || book === undefined || trade === undefined) throw new Error("fixture recording lacks BT-A events");
    const paused = { ...row, ts: t0 + 1_000, status: "PAUSED", row: JSON.stringify({ ...(JSON.parse(row.row) as object), status: "PAUSED" }) };
    const open = { ...row, ts: t0 + 3_000, status: "OPEN" };
    const events: DataEvent[] = [
      { ...paused, seq: 1 },
      { ...book, ts: t0 + 2_000, seq: 2 },
      { ...trade, ts: t0 + 2_000, seq: 3 },
      { ...open, seq: 4 },
      { ...book, ts: t0 + 4_000, seq: 5 },
      { kind: "market", seq: 6, ts: t0 + 5_000, symbol: "NOT-LISTED", status: "OPEN", row: "{}" },
    ];
    const clock = new VirtualClock(t0);
    const sim = new Simulator(prepared.scenario, { clock, flow: false, verifySignatures: false, pepper: new Uint8Array(32), recoveryCache: null });
    sim.start();
    const status = (s: string): string | undefined => {
      const m = sim.market(s);
      return m === undefined ? undefined : sim.platform.catalogue.status(m.id);
    };
    const seen: string[] = [];
    let i = 0;
    const replay = new ReplayFlow({
      clock,
      engine: sim.engine,
      source: { next: () => events[i++] },
      status: (s) => sim.market(s) && sim.platform.catalogue.status(sim.market(s)!.id),
      move: (s, t, a) => sim.setMarketStatus(s, t, a).ok,
      reserved: new Set(),
      onApplied: (e) => seen.push(`${e.seq}@${e.ts - t0}:${status("BT-A")}`),
    });
    replay.start();
    await clock.advanceTo(t0 + 6_000);
    replay.stop();
    sim.stop();
    expect(seen).toEqual(["1@1000:PAUSED", "2@2000:PAUSED", "3@2000:PAUSED", "4@3000:OPEN", "5@4000:OPEN", "6@5000:OPEN"]);
    expect(replay.stats).toMatchObject({ statusMoves: 2, statusRefused: 0, booksHeld: 1, books: 1, tradesSkipped: 1, trades: 0, unknownSymbol: 1 });
  });
});

describe("mm backtest --data with the full engine", () => {
  let a: BacktestReport;
  let b: BacktestReport;
  let checked = { empty: 0, lpLevels: 0, crossed: 0 };

  beforeAll(async () => {
    const prepared = prepareBacktest({ configPath: CONFIG, data: dir, env: {} });
    const counts = { empty: 0, lpLevels: 0, crossed: 0 };
    let lastCrossed = 0n;
    a = await runPrepared(prepared, {
      onReplayed: (e, sim, replay) => {
        if (e.kind !== "book" || e.outcome !== 0) return;
        const be: BookEvent = e;
        const crossed = replay.stats.liquidityCrossedQty !== lastCrossed;
        lastCrossed = replay.stats.liquidityCrossedQty;
        const recordedBook = { bids: pairs(be.bids), asks: pairs(be.asks) };
        if (crossed) {
          counts.crossed++;
          return;
        }
        // Others' part of the book (the replay's liquidity) is the recorded book ...
        expect(walletLevels(sim.engine, replay.liquidityWallet(be.symbol), be.symbol, 0), `lp ${be.seq}`).toEqual(recordedBook);
        counts.lpLevels++;
        // ... and when no order of ours rests there, so is the whole book.
        const ours = sim.platform.wallets.list().some((w) => sim.engine.openOrders(w.address, be.symbol).length > 0);
        if (!ours) {
          expect(engineBook(sim.engine, be.symbol, 0), `book ${be.seq}`).toEqual(recordedBook);
          counts.empty++;
        }
      },
    });
    checked = counts;
    b = await runPrepared(prepareBacktest({ configPath: CONFIG, data: dir, env: {} }));
  }, 120_000);

  it("trades against the recorded market and the report checks out", () => {
    expect(a.problems).toEqual([]);
    expect(a.ok).toBe(true);
    expect(a.markets.map((m) => m.marketId)).toEqual(["BT-A", "BT-B"]);
    expect(a.run.virtualStart).toBe(new Date(recorded[0]!.ts).toISOString());
    expect(a.run.durationMs).toBe(recorded[recorded.length - 1]!.ts - recorded[0]!.ts);
    expect(a.totals.fills.count).toBeGreaterThan(0);
    expect(a.consistency.ok).toBe(true);
    for (const w of a.wallets) expect(w.inventoryCheck.ok).toBe(true);
    for (const m of a.markets) expect(m.fairValue).toBeNull();
  });

  it("replays each recorded trade once and follows the recorded books", () => {
    const trades = recorded.filter((e) => e.kind === "trade").length;
    const books = recorded.filter((e) => e.kind === "book").length;
    expect(a.run.data).toMatchObject({ dir, events: recorded.length, trades, tradesSkipped: 0, books: books / 2, booksComplement: books / 2, unknownSymbol: 0 });
    expect(checked.lpLevels).toBeGreaterThan(50);
    expect(checked.empty).toBeGreaterThan(2);
    expect(checked.lpLevels + checked.crossed).toBe(books / 2);
  });

  it("gives the same report for the same data and seed", () => {
    expect(reportJson(comparablePart(b) as BacktestReport)).toBe(reportJson(comparablePart(a) as BacktestReport));
  });

  it("runs from the command line, for --duration from the recording's start", async () => {
    const h = io();
    const out = join(dir, "report.json");
    const code = await backtestCommand(["--config", CONFIG, "--data", dir, "--duration", "2m", "--signatures", "off", "--out", out], h.io);
    expect(h.err.join("")).toContain("replay of");
    expect(code).toBe(0);
    const r = JSON.parse(readFileSync(out, "utf8")) as BacktestReport;
    expect(r.run.durationMs).toBe(120_000);
    expect(r.run.signatures).toBe("off");
    expect(r.run.data?.trades).toBeGreaterThan(0);
    expect(r.ok).toBe(true);
  }, 60_000);

  it("refuses --queue and --latency for the full engine but takes --data", async () => {
    const h = io();
    expect(await backtestCommand(["--data", dir, "--queue", "risk-averse"], h.io)).toBe(2);
    expect(h.err.join("")).toContain("--queue is for --engine fast");
  });
});
