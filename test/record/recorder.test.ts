import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { Rng } from "../../src/core/rng.js";
import { VirtualClock } from "../../src/core/clock.js";
import { formatMicros, parseMicros } from "../../src/core/money.js";
import { DataSetWriter, readDataSet, type DataEvent, type NewEvent } from "../../src/data/index.js";
import { RateGate } from "../../src/ratelimit/index.js";
import { Recorder, TRADES_PAGE } from "../../src/record/index.js";
import { silent, startSim, START } from "../integration/harness.js";

const selection = (slugs: string[] = []) => ({ slugs, eventSlugs: [], filters: { tag: [], vertical: [], stage: [] }, maxMarkets: 10 });

/** Keeps every order-book answer the simulator served, in order. */
class Tap implements Transport {
  readonly books: { path: string; body: string }[] = [];
  requests = 0;
  constructor(private readonly inner: Transport) {}
  async request(req: HttpRequest): Promise<HttpResponse> {
    this.requests += 1;
    const res = await this.inner.request(req);
    if (req.path.includes("/orderbook")) this.books.push({ path: req.path, body: res.body ?? "" });
    return res;
  }
}

describe("Recorder against the in-process simulator", () => {
  it("records the books exactly as served and every trade once, inside the rate buckets; the data set reads back the same", async () => {
    const h = startSim({ wallets: 1, markets: [
      { symbol: "AAA", opensAt: "-1h", closesAt: "+2h", takerArrivalPerMin: 30 },
      { symbol: "BBB", opensAt: "-1h", closesAt: "+2h", takerArrivalPerMin: 10 },
    ] });
    const tap = new Tap(h.transport);
    const gate = new RateGate({ clock: h.clock, safetyMargin: 0.1 });
    const client = createClient({ transport: tap, clock: h.clock, rng: new Rng(1), gate });
    const dir = mkdtempSync(join(tmpdir(), "mm-rec-"));
    const writer = await DataSetWriter.open({ dir, clock: h.clock, rotateMs: 60_000 });
    const rec = new Recorder({ client, room: (m, p) => gate.remainingFor(m, p), clock: h.clock, sink: writer, log: silent(), selection: selection() });
    const started = rec.start();
    await h.clock.advance(0);
    await started;
    for (let i = 0; i < 180; i++) await h.clock.advance(1000);
    rec.stop();
    await h.clock.advance(5000);
    writer.close();

    const { events, stats } = await readDataSet(dir);
    expect(stats.sealed).toBeGreaterThanOrEqual(3); // rotated every virtual minute
    const books = events.filter((e): e is Extract<DataEvent, { kind: "book" }> => e.kind === "book");
    expect(books.length).toBe(tap.books.length);
    expect(books.length).toBeGreaterThan(100);
    books.forEach((b, i) => {
      const served = JSON.parse(tap.books[i]!.body) as { outcome: number; bids: { price: string; quantity: string }[]; asks: { price: string; quantity: string }[] };
      expect(tap.books[i]!.path).toContain(`/api/markets/${b.symbol}/orderbook?outcome=${b.outcome}`);
      const fmt = (l: typeof b.bids) => l.toArray().map(([p, q]) => ({ price: formatMicros(p), quantity: formatMicros(q) }));
      const canon = (l: { price: string; quantity: string }[]) => l.map((x) => ({ price: formatMicros(parseMicros(x.price)), quantity: formatMicros(parseMicros(x.quantity)) }));
      expect(b.outcome).toBe(served.outcome);
      expect(fmt(b.bids)).toEqual(canon(served.bids));
      expect(fmt(b.asks)).toEqual(canon(served.asks));
      expect(b.serverTs).toBeGreaterThan(0);
      expect(b.ts).toBeGreaterThanOrEqual(b.serverTs);
    });

    // Every trade the simulator made on these markets since the recording started, once each.
    const trades = events.filter((e): e is Extract<DataEvent, { kind: "trade" }> => e.kind === "trade");
    const log = h.sim.engine.ledger.tradeLog;
    const simIds: string[] = [];
    for (const sym of ["AAA", "BBB"]) {
      const m = h.sim.engine.markets.get(sym)!;
      for (const row of log.rowsOfMarket(m)) {
        const t = log.get(row);
        if (t.createdAtMs >= START && t.createdAtMs <= START + 178_000) simIds.push(String(t.id));
      }
    }
    const recIds = trades.map((t) => t.id);
    expect(new Set(recIds).size).toBe(recIds.length);
    expect(simIds.length).toBeGreaterThan(20);
    for (const id of simIds) expect(recIds).toContain(id);
    expect(events.some((e) => e.kind === "gap")).toBe(false);
    expect(events.filter((e) => e.kind === "market").map((e) => (e as { symbol: string }).symbol).sort()).toEqual(["AAA", "BBB"]);
    // Never a 429: the gate kept every request inside its bucket.
    expect(rec.counters.errors).toBe(0);
    expect(gate.stats().every((s) => s.rejected429 === 0)).toBe(true);
  });
});

describe("Recorder: trades deduped by id, gaps marked", () => {
  function fakeClient(pages: (q: { after?: string; before?: string }) => { trades: unknown[]; nextCursor?: string | null }) {
    const row = { id: "m1", eventId: "e", symbol: "X", slug: "x", status: "OPEN", outcomeCount: 2 };
    return {
      markets: {
        get: () => Promise.resolve({ data: row }),
        orderbook: () => Promise.reject(new Error("no books here")),
        trades: (_s: string, q: { after?: string; before?: string }) => Promise.resolve({ data: pages(q), meta: {} }),
        iterate: () => (async function* () {
          yield await Promise.resolve(row);
        })(),
      },
      events: {},
    } as never;
  }
  const tr = (i: number) => ({ id: `t${i}`, outcome: 0, side: "BUY", price: "0.5", quantity: "1", createdAt: new Date(START + i * 10).toISOString() });

  async function record(pages: Parameters<typeof fakeClient>[0], seconds: number): Promise<NewEvent[]> {
    const clock = new VirtualClock(START);
    const out: NewEvent[] = [];
    const rec = new Recorder({ client: fakeClient(pages), clock, sink: { append: (e) => out.push(e) }, log: silent(), selection: selection(["x"]), bookBudgetPerMin: 1, minTradeIntervalMs: 2000 });
    const p = rec.start();
    await clock.advance(0);
    await p;
    for (let i = 0; i < seconds; i++) await clock.advance(1000);
    rec.stop();
    return out;
  }

  it("a trade served again by a later read is written once", async () => {
    // Every read answers the same three trades plus, later, a fourth: overlapping pages.
    let reads = 0;
    const out = await record(() => ({ trades: (reads++ < 2 ? [tr(3), tr(2), tr(1)] : [tr(4), tr(3), tr(2), tr(1)]), nextCursor: null }), 10);
    expect(out.filter((e) => e.kind === "trade").map((e) => (e as { id: string }).id)).toEqual(["t1", "t2", "t3", "t4"]);
    expect(out.some((e) => e.kind === "gap")).toBe(false);
  });

  it("pages still full after the walk: a gap from the newest trade seen to the oldest read", async () => {
    let reads = 0;
    const out = await record((q) => {
      reads += 1;
      // A market busier than 3 pages between reads: every page is full and has a cursor.
      const base = reads * 10_000;
      const trades = Array.from({ length: TRADES_PAGE }, (_, i) => tr(base - i));
      return { trades, nextCursor: q.before === undefined ? "c1" : "c2" };
    }, 3);
    const gaps = out.filter((e): e is Extract<NewEvent, { kind: "gap" }> => e.kind === "gap");
    expect(gaps.length).toBeGreaterThan(0);
    expect(gaps[0]!.symbol).toBe("X");
    expect(gaps[0]!.toTs).toBeGreaterThanOrEqual(gaps[0]!.fromTs);
    expect(gaps[0]!.reason).toMatch(/pages full/);
  });
});
