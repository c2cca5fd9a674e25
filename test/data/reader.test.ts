/**
 * The data set reader (data/reader.ts): sealed and unsealed segments read in order as one stream
 * in seq order, with counts of what was read; only the kinds asked for decoded; segments opened
 * one at a time, in order only; seqs that repeat or go backwards, inside a segment or across two,
 * refused naming the file, as are books without their levels. (Every kind read back exactly
 * through the writer is test/data/data-set.test.ts.)
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { Levels } from "../../src/data/levels.js";
import { toLine, type DataEvent, type NewEvent } from "../../src/data/events.js";
import { writeTable } from "../../src/data/parquet.js";
import { DataSetReader, readDataSet } from "../../src/data/reader.js";
import { TABLES, type ColumnValues } from "../../src/data/tables.js";
import { DataSetWriter } from "../../src/data/writer.js";
import { dataSetSandbox } from "./sandbox.js";

const T0 = Date.UTC(2026, 0, 1);

const trade = (id: string): NewEvent => ({ kind: "trade", ts: T0, id, symbol: "M", outcome: 0, side: "BUY", price: 500_000n, quantity: 1_000_000n, tradeTs: T0 });
const gap: NewEvent = { kind: "gap", ts: T0, symbol: "M", fromTs: 1, toTs: 2, reason: "page_full" };
const book: NewEvent = { kind: "book", ts: T0, symbol: "M", outcome: 0, serverTs: 0, bids: Levels.of([[400_000n, 1n]]), asks: Levels.of([[600_000n, 2n]]) };

let dir: string;
const openWriter = dataSetSandbox("mm-reader-", (d) => (dir = d));

/** Segment 1 sealed (trade, book, gap), segment 2 left as a line log (trade, gap) until the test ends. */
async function twoSegments(): Promise<void> {
  const w = await openWriter({ dir, clock: new VirtualClock(T0) });
  for (const e of [trade("t1"), book, gap]) w.append(e);
  w.rotate();
  for (const e of [trade("t4"), gap]) w.append(e);
}

const tag = (e: DataEvent): string => `${e.seq}:${e.kind}`;
const line = (e: DataEvent): string => `${JSON.stringify(toLine(e))}\n`;
const lineTrade = (seq: number): DataEvent => ({ kind: "trade", seq, ts: T0, id: `t${seq}`, symbol: "M", outcome: 0, side: "BUY", price: 1n, quantity: 1n, tradeTs: T0 });

describe("reading a data set", () => {
  it("gives every event of sealed and unsealed segments in seq order, and counts what it read", async () => {
    await twoSegments();
    const r = new DataSetReader(dir);
    const events = await r.readAll();
    expect(events.map(tag)).toEqual(["1:trade", "2:book", "3:gap", "4:trade", "5:gap"]);
    expect(r.stats).toMatchObject({ segments: 2, sealed: 1, unsealed: 1, tornLines: 0, events: 5 });
    expect(r.stats.bytes).toBeGreaterThan(0);
    const b = events[1]!;
    expect(b.kind === "book" && [b.bids.toArray(), b.asks.toArray()]).toEqual([[[400_000n, 1n]], [[600_000n, 2n]]]);
  });

  it("streams the same events one at a time", async () => {
    await twoSegments();
    const seen: string[] = [];
    for await (const e of new DataSetReader(dir).events()) seen.push(tag(e));
    expect(seen).toEqual(["1:trade", "2:book", "3:gap", "4:trade", "5:gap"]);
  });

  it("decodes only the kinds asked for, sealed or not", async () => {
    await twoSegments();
    const { events, stats } = await readDataSet(dir, { kinds: ["gap"] });
    expect(events.map(tag)).toEqual(["3:gap", "5:gap"]);
    expect(stats.events).toBe(2);
    expect((await readDataSet(dir, { kinds: ["trade", "book"] })).events.map(tag)).toEqual(["1:trade", "2:book", "4:trade"]);
  });

  it("finds nothing in a directory that does not exist", async () => {
    expect(await readDataSet(join(dir, "none"))).toEqual({ events: [], stats: { segments: 0, sealed: 0, unsealed: 0, tornLines: 0, events: 0, bytes: 0 } });
  });
});

describe("segments one at a time", () => {
  it("open in order, read when opened", async () => {
    await twoSegments();
    const r = new DataSetReader(dir);
    const openers = await r.openers();
    expect(openers.map((o) => [o.n, o.ahead, o.where.slice(dir.length + 1)])).toEqual([
      // a sealed segment is named by its first file
      [1, false, "seg-000001.book.parquet"],
      [2, false, "seg-000002.jsonl"],
    ]);
    expect(r.stats.segments).toBe(0);
    const first = openers[0]!.open();
    expect([first.length, first.firstSeq, first.lastSeq]).toEqual([3, 1, 3]);
    expect(r.stats).toMatchObject({ segments: 1, sealed: 1, unsealed: 0 });
    const second = openers[1]!.open();
    const out: string[] = [];
    for (let e = second.next(); e !== undefined; e = second.next()) out.push(tag(e));
    expect(out).toEqual(["4:trade", "5:gap"]);
  });

  it("refuse to open out of order", async () => {
    await twoSegments();
    const openers = await new DataSetReader(dir).openers();
    expect(() => openers[1]!.open()).toThrow(`${dir}: segment 2 opened out of order (expected 1)`);
  });
});

describe("seqs and files a writer could not have left", () => {
  it("a seq repeated inside a line log is an error naming the file and line", async () => {
    const log = join(dir, "seg-000001.jsonl");
    writeFileSync(log, line(lineTrade(1)) + line(lineTrade(2)) + line(lineTrade(2)));
    await expect(readDataSet(dir)).rejects.toThrow(`${log}:3: seq 2 after 2 (repeated or out of order)`);
  });

  it("a segment starting at or before the previous one's last seq is an error naming it", async () => {
    writeFileSync(join(dir, "seg-000001.jsonl"), line(lineTrade(1)) + line(lineTrade(5)));
    writeFileSync(join(dir, "seg-000002.jsonl"), line(lineTrade(5)) + line(lineTrade(6)));
    await expect(readDataSet(dir)).rejects.toThrow(`${join(dir, "seg-000002.jsonl")}: seq 5 after 5 (repeated or out of order)`);
  });

  it("a seq held by two tables of a segment, or out of order in one, is an error naming the segment", async () => {
    const write = (kind: "trade" | "gap", rows: Record<string, ColumnValues>): void => writeFileSync(join(dir, `seg-000001.${kind}.parquet`), writeTable(TABLES[kind], new Map(Object.entries(rows))));
    const trades = (seqs: number[]) => ({ seq: seqs, ts: seqs.map(() => T0), symbol: seqs.map(() => "M"), outcome: seqs.map(() => 0), id: seqs.map((s) => `t${s}`), side: seqs.map(() => "BUY"), price: seqs.map(() => 1n), quantity: seqs.map(() => 1n), trade_ts: seqs.map(() => T0) });
    write("trade", trades([1, 3]));
    write("gap", { seq: [1], ts: [T0], symbol: ["M"], from_ts: [0], to_ts: [1], reason: ["r"] });
    const where = join(dir, "seg-000001.gap.parquet"); // the segment's first file
    await expect(readDataSet(dir)).rejects.toThrow(`${where}: seq 1 appears twice`);
    write("trade", trades([3, 2]));
    await expect(readDataSet(dir)).rejects.toThrow(`${where}: seq 2 after 3 (repeated or out of order)`);
  });

  it("books without their book_level table are an error naming the file", async () => {
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    w.append(book);
    w.close();
    rmSync(join(dir, "seg-000001.book_level.parquet"));
    await expect(readDataSet(dir)).rejects.toThrow(`${join(dir, "seg-000001.book.parquet")}: books without their book_level table`);
  });
});
