import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../../src/core/clock.js";
import { formatMicros } from "../../../src/core/money.js";
import { DataSetReader, DataSetWriter, Levels, listSegments, readDataSet, toLine, type DataEvent, type NewEvent } from "../../../src/data/index.js";
import { recordedSource, SyntheticSource, syntheticSource, type MarketDataSource, type RecordedSource } from "../../../src/backtest/fast/sources.js";
import { Pipeline } from "../../../src/sim/http/pipeline.js";
import { allRoutes } from "../../../src/sim/http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "../../../src/sim/platform/index.js";
import { Simulator } from "../../../src/sim/simulator.js";
import { MARKET_STATUSES } from "../../../src/wire/enums.js";

const scenario = loadScenario(defaultScenarioPath());
const START = Date.UTC(2026, 2, 1, 12, 0, 0);
const dirOf = () => mkdtempSync(join(tmpdir(), "mm-sources-"));

/** Comparable text of an event (levels and money as the line form has them; top-level keys sorted). */
const text = (e: DataEvent): string => JSON.stringify(Object.fromEntries(Object.entries(toLine(e)).sort(([a], [b]) => (a < b ? -1 : 1))));

function drain(src: MarketDataSource): DataEvent[] {
  const out: DataEvent[] = [];
  for (let e = src.next(); e !== undefined; e = src.next()) out.push(e);
  return out;
}

function get(p: Pipeline, url: string) {
  return p.handle({ method: "GET", url, headers: {}, bodyText: "" });
}

describe("syntheticSource", () => {
  it("is deterministic: same scenario and seed give the same events; another seed does not", () => {
    const a = drain(syntheticSource({ scenario, seed: 7, startMs: START, durationMs: 60_000 })).map(text);
    const b = drain(syntheticSource({ scenario, seed: 7, startMs: START, durationMs: 60_000 })).map(text);
    const c = drain(syntheticSource({ scenario, seed: 8, startMs: START, durationMs: 60_000 })).map(text);
    expect(a.length).toBeGreaterThan(1000);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it("starts with one market row per market, then books every interval for each market and outcome; seq increasing, ts non-decreasing", () => {
    const src = new SyntheticSource({ scenario, seed: 3, startMs: START, durationMs: 10_000, bookIntervalMs: 500 });
    const first = src.next()!;
    expect(src.clock.now()).toBe(START); // lazy: only the first step is made
    const events = [first, ...drain(src)];
    const markets = src.sim.platform.catalogue.markets("all");
    const opening = events.slice(0, markets.length);
    expect(opening.map((e) => e.kind)).toEqual(markets.map(() => "market"));
    expect(new Set(opening.map((e) => (e as { symbol: string }).symbol))).toEqual(new Set(markets.map((m) => m.symbol)));
    events.forEach((e, i) => {
      expect(e.seq).toBe(i + 1);
      if (i > 0) expect(e.ts).toBeGreaterThanOrEqual(events[i - 1]!.ts);
    });
    const books = events.filter((e) => e.kind === "book");
    const perStep = markets.reduce((n, m) => n + m.outcomeCount, 0);
    expect(books.length).toBe(perStep * (10_000 / 500 + 1)); // steps at 0, 500, ..., 10000 ms
    expect(new Set(books.map((b) => b.ts)).size).toBe(21);
    for (const b of books) expect(b.serverTs).toBe(b.ts);
    expect(src.describe).toContain("seed 3");
    expect(src.sim.isRunning).toBe(false); // stopped at the end
  });

  it("books and market rows are what the platform's routes serve at that instant (NO book the complement of YES)", async () => {
    const src = new SyntheticSource({ scenario, seed: 5, startMs: START, durationMs: 120_000 });
    const p = new Pipeline({ sim: src.sim, routes: allRoutes(), rateLimits: false });
    let books = 0;
    let rows = 0;
    let nonEmpty = 0;
    const statusQuery = MARKET_STATUSES.join(",");
    for (let e = src.next(); e !== undefined; e = src.next()) {
      if (e.kind === "book" && e.seq % 37 === 0) {
        expect(src.clock.now()).toBe(e.ts);
        const res = await get(p, `/api/markets/${e.symbol}/orderbook?outcome=${e.outcome}`);
        expect(res.status).toBe(200);
        expect(Number(res.headers["X-Server-Time"])).toBe(e.serverTs);
        const served = JSON.parse(res.bodyText) as { outcome: number; bids: { price: string; quantity: string }[]; asks: { price: string; quantity: string }[] };
        const fmt = (l: Levels) => l.toArray().map(([price, quantity]) => ({ price: formatMicros(price), quantity: formatMicros(quantity) }));
        expect(served.outcome).toBe(e.outcome);
        expect(fmt(e.bids)).toEqual(served.bids);
        expect(fmt(e.asks)).toEqual(served.asks);
        books += 1;
        if (e.bids.length > 0 && e.asks.length > 0) nonEmpty += 1;
      }
      if (e.kind === "market") {
        const res = await get(p, `/api/markets?status=${statusQuery}&limit=500`);
        const served = (JSON.parse(res.bodyText) as { markets: { symbol: string }[] }).markets.find((m) => m.symbol === e.symbol);
        expect(JSON.stringify(served)).toBe(e.row);
        expect(e.status).toBe(JSON.parse(e.row).status);
        rows += 1;
      }
    }
    expect(books).toBeGreaterThan(100);
    expect(nonEmpty).toBeGreaterThan(50);
    expect(rows).toBe(7); // six at the start, BAR-RMA-BAR opening 20 s in
  });

  it("has every trade of the window once, in execution order, in the public-trade form; symbols filter trades and books", () => {
    const src = new SyntheticSource({ scenario, seed: 9, startMs: START, durationMs: 300_000, symbols: ["ARS-CHE-ARS", "EPL-WINNER"] });
    const events = drain(src);
    const trades = events.filter((e) => e.kind === "trade");
    const log = src.sim.engine.ledger.tradeLog;
    const expected: string[] = [];
    for (let row = 0; row < log.count; row++) {
      const t = log.get(row);
      if (t.marketId !== "ARS-CHE-ARS" && t.marketId !== "EPL-WINNER") continue;
      if (t.createdAtMs > START + 300_000) continue;
      expected.push(JSON.stringify({ id: t.id, symbol: t.marketId, outcome: t.outcome, side: t.side, price: formatMicros(t.price), quantity: formatMicros(t.quantity), tradeTs: t.createdAtMs }));
    }
    const got = trades.map((t) => JSON.stringify({ id: t.id, symbol: t.symbol, outcome: t.outcome, side: t.side, price: formatMicros(t.price), quantity: formatMicros(t.quantity), tradeTs: t.tradeTs }));
    expect(got.length).toBeGreaterThan(20);
    expect(got).toEqual(expected);
    expect(new Set(trades.map((t) => t.id)).size).toBe(trades.length);
    for (const t of trades) expect(t.ts).toBe(t.tradeTs);
    const symbols = new Set(events.map((e) => (e as { symbol: string }).symbol));
    expect(symbols).toEqual(new Set(["ARS-CHE-ARS", "EPL-WINNER"]));
  });

  it("refuses bad options with a message naming the option", () => {
    expect(() => syntheticSource({ scenario, durationMs: 0 })).toThrow(/durationMs/);
    expect(() => syntheticSource({ scenario, durationMs: 1000, bookIntervalMs: 2.5 })).toThrow(/bookIntervalMs/);
    expect(() => syntheticSource({ scenario, durationMs: 1000, depth: 1000 })).toThrow(/depth/);
    expect(() => syntheticSource({ scenario, durationMs: 1000, seed: -1 })).toThrow(/seed/);
    expect(() => syntheticSource({ scenario, durationMs: 1000, symbols: ["ARS-CHE-ARS", "NOPE"] })).toThrow(/symbols: no market "NOPE"/);
  });
});

// ---- recorded -------------------------------------------------------------------------------

const T0 = Date.UTC(2026, 0, 1);
const lv = (p: bigint, q: bigint) => Levels.of([[p, q]]);

/** A hand-made data set: two markets, every kind of event, 40 s. */
function sample(): NewEvent[] {
  const out: NewEvent[] = [];
  for (const s of ["AAA", "BBB"]) out.push({ kind: "market", ts: T0, symbol: s, status: "OPEN", row: JSON.stringify({ symbol: s, status: "OPEN" }) });
  for (let i = 0; i < 40; i++) {
    const ts = T0 + i * 1000;
    const s = i % 2 === 0 ? "AAA" : "BBB";
    out.push({ kind: "book", ts, symbol: s, outcome: i % 2, serverTs: ts - 2, bids: lv(400_000n + BigInt(i) * 1000n, 10_000_000n), asks: lv(600_000n, 5_000_000n) });
    out.push({ kind: "trade", ts, id: `t${i}`, symbol: s, outcome: 0, side: "BUY", price: 600_000n, quantity: 1_000_000n, tradeTs: ts - 5 });
    out.push({ kind: "order", ts, wallet: "0xabc", symbol: s, outcome: 0, clientOrderId: `c${i}`, side: "BUY", price: 400_000n, quantity: 5_000_000n, postOnly: true });
    out.push({ kind: "ack", ts, wallet: "0xabc", clientOrderId: `c${i}`, orderId: `o${i}`, status: "OPEN", code: "" });
    out.push({ kind: "fill", ts, wallet: "0xabc", symbol: s, outcome: 0, orderId: `o${i}`, tradeId: `t${i}`, side: "BUY", role: "maker", price: 400_000n, quantity: 1_000_000n, fee: 0n, tradeTs: ts });
    out.push({ kind: "latency", ts, method: "POST", route: "/api/orders/place", status: 201, latencyMs: 12, serverTs: ts - 6 });
    if (i === 20) out.push({ kind: "market", ts, symbol: "BBB", status: "PAUSED", row: JSON.stringify({ symbol: "BBB", status: "PAUSED" }) });
    if (i === 25) out.push({ kind: "gap", ts, symbol: "AAA", fromTs: ts - 3000, toTs: ts - 10, reason: "trade pages full" });
  }
  return out;
}

/** Writes the events (rotating every 10 virtual s, the last segment left unsealed); returns them with their seqs. */
async function write(dir: string, events: readonly NewEvent[], seal = false): Promise<DataEvent[]> {
  let now = T0;
  const w = await DataSetWriter.open({ dir, clock: { now: () => now }, rotateMs: 10_000, fsyncEveryMs: 60_000 });
  const out: DataEvent[] = [];
  for (const e of events) {
    now = e.ts;
    out.push(w.append(e));
  }
  if (seal) w.close();
  return out;
}

const MARKET_DATA = new Set(["market", "book", "trade", "gap"]);

describe("recordedSource", () => {
  it("gives back every market-data event of a data set, event for event, sealed segments and the line log alike", async () => {
    const dir = dirOf();
    const written = await write(dir, sample());
    const src = await recordedSource(dir);
    expect(drain(src).map(text)).toEqual(written.filter((e) => MARKET_DATA.has(e.kind)).map(text));
    expect(src.describe).toBe(`recorded: ${dir}`);
  });

  it("filters by symbols and by fromMs <= ts < toMs, passing on each market's last row before the window first", async () => {
    const dir = dirOf();
    const written = await write(dir, sample(), true);
    const fromMs = T0 + 22_000;
    const toMs = T0 + 31_000;
    const got = drain(await recordedSource(dir, { symbols: ["BBB"], fromMs, toMs }));
    const bbb = written.filter((e) => MARKET_DATA.has(e.kind) && (e as { symbol: string }).symbol === "BBB");
    const lastRow = bbb.filter((e) => e.kind === "market" && e.ts < fromMs).pop()!;
    expect(lastRow.kind === "market" && lastRow.status).toBe("PAUSED");
    const expected = [lastRow, ...bbb.filter((e) => e.ts >= fromMs && e.ts < toMs)];
    expect(got.map(text)).toEqual(expected.map(text));
    expect(got.some((e) => e.ts >= toMs)).toBe(false);

    const both = drain(await recordedSource(dir, { fromMs: T0 + 25_000 }));
    expect(both.slice(0, 2).map((e) => e.kind === "market" && `${e.symbol} ${e.status}`)).toEqual(["AAA OPEN", "BBB PAUSED"]);
    expect(both.find((e) => e.kind === "gap")?.ts).toBe(T0 + 25_000);
    expect(both.filter((e) => e.kind === "trade").length).toBe(15);
  });

  it("raises a ts that goes backwards to the previous one and counts it", async () => {
    const dir = dirOf();
    const events = sample().filter((e) => e.kind === "trade").slice(0, 5);
    events[3] = { ...events[3]!, ts: events[1]!.ts - 500 };
    await write(dir, events, true);
    const src = (await recordedSource(dir)) as RecordedSource;
    const got = drain(src);
    expect(got.map((e) => e.ts)).toEqual([T0, T0 + 1000, T0 + 2000, T0 + 2000, T0 + 4000]);
    expect(src.clampedTs).toBe(1);
  });

  it("refuses a directory without a data set and a bad window", async () => {
    await expect(recordedSource(dirOf())).rejects.toThrow(/no data set here/);
    await expect(recordedSource(dirOf(), { fromMs: 10, toMs: 5 })).rejects.toThrow(/toMs/);
    await expect(recordedSource(dirOf(), { fromMs: Number.NaN })).rejects.toThrow(/fromMs/);
  });

  it("a synthetic stream written with DataSetWriter reads back through recordedSource as the same events", async () => {
    const dir = dirOf();
    const synth = drain(syntheticSource({ scenario, seed: 11, startMs: START, durationMs: 90_000 }));
    let now = START;
    const w = await DataSetWriter.open({ dir, clock: { now: () => now }, rotateMs: 30_000, fsyncEveryMs: 60_000 });
    for (const e of synth) {
      now = e.ts;
      const { seq: _seq, ...rest } = e;
      w.append(rest);
    }
    // The hot segment stays a line log: the replay reads sealed and unsealed segments alike.
    const back = drain(await recordedSource(dir));
    expect(back.length).toBe(synth.length);
    expect(back.map(text)).toEqual(synth.map(text));
    expect(w.sealed.length).toBeGreaterThanOrEqual(2);
  });
});

describe("recordedSource, segment by segment", () => {
  /** A synthetic stream written as several sealed segments (10 s each); the data set's events read up front. */
  async function sealedSet(): Promise<{ dir: string; all: DataEvent[] }> {
    const dir = dirOf();
    const synth = drain(syntheticSource({ scenario, seed: 5, startMs: START, durationMs: 45_000 }));
    let now = START;
    const w = await DataSetWriter.open({ dir, clock: { now: () => now }, rotateMs: 10_000, fsyncEveryMs: 60_000 });
    for (const e of synth) {
      now = e.ts;
      const { seq: _seq, ...rest } = e;
      w.append(rest);
    }
    w.close();
    const { events } = await readDataSet(dir, { kinds: ["market", "book", "trade", "gap"] });
    return { dir, all: events };
  }

  it("reads one sealed segment at a time, as next() reaches it, and gives the same events as reading them all first", async () => {
    const { dir, all } = await sealedSet();
    const segs = listSegments(dir);
    expect(segs.length).toBeGreaterThanOrEqual(4);
    expect(segs.every((s) => s.lines === undefined)).toBe(true);
    const src = (await recordedSource(dir)) as RecordedSource;
    expect(src.stats).toEqual({ segments: segs.length, opened: 0, ahead: 0, held: 0 });
    // The last seq of each segment (the reader that decodes a segment at a time, every kind).
    const lastSeqs: number[] = [];
    for await (const c of new DataSetReader(dir).segments()) lastSeqs.push(c.lastSeq!);
    const segmentOf = (seq: number): number => lastSeqs.findIndex((l) => seq <= l);
    const got: DataEvent[] = [];
    for (let e = src.next(); e !== undefined; e = src.next()) {
      got.push(e);
      // Only the event's own segment has been opened so far, and only it is held.
      expect(src.stats.opened).toBe(segmentOf(e.seq) + 1);
      expect(src.stats.held).toBe(1);
    }
    expect(got.map(text)).toEqual(all.map(text));
    expect(src.stats).toEqual({ segments: segs.length, opened: segs.length, ahead: 0, held: 0 });
    expect(new Set(got.map((e) => segmentOf(e.seq))).size).toBe(segs.length);
  });

  it("stops reading at toMs: the segments after the window are never opened", async () => {
    const { dir, all } = await sealedSet();
    const segs = listSegments(dir).length;
    const toMs = START + 12_000;
    const src = (await recordedSource(dir, { toMs })) as RecordedSource;
    const got = drain(src);
    expect(got.map(text)).toEqual(all.filter((e) => e.ts < toMs).map(text));
    expect(src.stats.opened).toBe(2);
    expect(src.stats.opened).toBeLessThan(segs);
    expect(src.stats.held).toBe(0);
  });

  it("decodes up front a segment whose files our writer did not make, and still gives the same events", async () => {
    const { dir, all } = await sealedSet();
    // Another tool's file: same columns, another created_by (same length, so the footer still reads).
    const name = readdirSync(dir).find((f) => f.startsWith("seg-000002.") && f.endsWith(".book.parquet"))!;
    const bytes = readFileSync(join(dir, name));
    const at = bytes.indexOf("pm-market-maker data set");
    expect(at).toBeGreaterThan(0);
    bytes.write("xx", at);
    writeFileSync(join(dir, name), bytes);
    const src = (await recordedSource(dir)) as RecordedSource;
    expect(src.stats.ahead).toBe(1);
    expect(drain(src).map(text)).toEqual(all.map(text));
  });
});

describe("StepClock", () => {
  it("drives the simulator as VirtualClock does: same trades and books after the same steps", async () => {
    const src = new SyntheticSource({ scenario, seed: 13, startMs: START, durationMs: 60_000 });
    drain(src);
    const clock = new VirtualClock(START);
    const sim = new Simulator(scenario, { clock, seed: 13, startMs: START, verifySignatures: false, pepper: new Uint8Array(32), recoveryCache: null });
    sim.start();
    for (let t = 0; t < 60_000; t += 250) await clock.advance(250);
    sim.stop();
    const trades = (s: Simulator) => {
      const log = s.engine.ledger.tradeLog;
      return Array.from({ length: log.count }, (_, i) => {
        const t = log.get(i);
        return `${t.id} ${t.marketId} ${t.outcome} ${t.side} ${t.price} ${t.quantity} ${t.createdAtMs}`;
      });
    };
    expect(trades(src.sim).length).toBeGreaterThan(20);
    expect(trades(sim)).toEqual(trades(src.sim));
    for (const m of sim.platform.catalogue.markets("all")) {
      for (let o = 0; o < m.outcomeCount; o++) expect(sim.engine.book(m.symbol, o, 50)).toEqual(src.sim.engine.book(m.symbol, o, 50));
    }
  });
});
