/**
 * The data set writer (data/writer.ts) on a virtual clock: events numbered 1, 2, 3... with their
 * defaults filled, one line each in the hot segment's log; the segment sealed into one Parquet
 * file per table (the log deleted) when it reaches its size, when it has been open its time (never
 * by time with 0), on rotate and on close; opening a directory removes a cut-short seal's
 * temporary files, seals a segment a kill left unsealed and continues after it; bad options
 * refused. (Reading back every kind exactly is test/data/data-set.test.ts.)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { Levels } from "../../src/data/levels.js";
import type { NewEvent } from "../../src/data/events.js";
import { readDataSet } from "../../src/data/reader.js";
import { DEFAULT_ROTATE_BYTES, DEFAULT_ROTATE_MS, DataSetWriter, sealSegment } from "../../src/data/writer.js";
import { dataSetSandbox } from "./sandbox.js";

const T0 = Date.UTC(2026, 0, 1);

const trade = (id: string): NewEvent => ({ kind: "trade", ts: T0, id, symbol: "M", outcome: 0, side: "BUY", price: 500_000n, quantity: 1_000_000n, tradeTs: T0 });
const book: NewEvent = { kind: "book", ts: T0, symbol: "M", outcome: 0, serverTs: 0, bids: Levels.of([[400_000n, 1n]]), asks: Levels.EMPTY };

let dir: string;
const openWriter = dataSetSandbox("mm-writer-", (d) => (dir = d));

const files = (): string[] => readdirSync(dir).sort();
const lines = (n: number): Record<string, unknown>[] =>
  readFileSync(join(dir, `seg-${String(n).padStart(6, "0")}.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the data set writer", () => {
  it("rotates every 64 MiB or every hour by default", () => {
    expect(DEFAULT_ROTATE_BYTES).toBe(64 * 1024 * 1024);
    expect(DEFAULT_ROTATE_MS).toBe(3_600_000);
  });

  it("numbers events from 1, fills their defaults and writes one line each to the hot segment", async () => {
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    expect([w.seq, w.hotSegment]).toEqual([1, 0]);
    const placed = w.append({ kind: "order", ts: T0, wallet: "quoter", symbol: "M", outcome: 1, clientOrderId: "c1", side: "SELL", price: 610_000n, quantity: 2_500_000n, postOnly: true });
    expect(placed).toEqual({ kind: "order", ts: T0, action: "place", orderId: "", wallet: "quoter", symbol: "M", outcome: 1, clientOrderId: "c1", side: "SELL", price: 610_000n, quantity: 2_500_000n, postOnly: true, seq: 1 });
    expect(w.append(trade("t1")).seq).toBe(2);
    expect([w.seq, w.hotSegment]).toEqual([3, 1]);
    expect(files()).toEqual(["seg-000001.jsonl"]);
    expect(lines(1)).toEqual([
      { kind: "order", ts: T0, action: "place", orderId: "", wallet: "quoter", symbol: "M", outcome: 1, clientOrderId: "c1", side: "SELL", price: "0.61", quantity: "2.5", postOnly: true, seq: 1 },
      { kind: "trade", ts: T0, id: "t1", symbol: "M", outcome: 0, side: "BUY", price: "0.5", quantity: "1", tradeTs: T0, seq: 2 },
    ]);
  });

  it("seals a segment that has been open its time, and never by time with 0", async () => {
    const clock = new VirtualClock(T0);
    const w = await openWriter({ dir, clock, rotateMs: 10_000 });
    w.append(trade("t1"));
    await clock.advance(9_999);
    w.append(trade("t2"));
    expect(w.sealed).toEqual([]);
    await clock.advance(1);
    w.append(book);
    expect(w.sealed).toEqual([{ segment: 1, events: 2, tornLines: 0, files: [join(dir, "seg-000001.trade.parquet")] }]);
    expect(w.hotSegment).toBe(2);
    expect(files()).toEqual(["seg-000001.trade.parquet", "seg-000002.jsonl"]);

    const dir2 = join(dir, "never");
    const w2 = await openWriter({ dir: dir2, clock, rotateMs: 0 });
    w2.append(trade("t1"));
    await clock.advance(86_400_000);
    w2.append(trade("t2"));
    expect([w2.sealed, w2.hotSegment]).toEqual([[], 1]);
  });

  it("seals a segment once its log holds the size given", async () => {
    const w = await openWriter({ dir, clock: new VirtualClock(T0), rotateBytes: 1 });
    w.append(trade("t1"));
    w.append(book);
    w.append(trade("t3"));
    expect(w.sealed.map((s) => [s.segment, s.events, s.files.map((f) => f.slice(dir.length + 1))])).toEqual([
      [1, 1, ["seg-000001.trade.parquet"]],
      [2, 1, ["seg-000002.book.parquet", "seg-000002.book_level.parquet"]],
    ]);
    expect(w.hotSegment).toBe(3);
  });

  it("seals on rotate and close, once", async () => {
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    expect(w.rotate()).toBeUndefined();
    w.append(trade("t1"));
    expect(w.rotate()).toMatchObject({ segment: 1, events: 1 });
    expect(w.hotSegment).toBe(0);
    w.append(trade("t2"));
    expect(w.close()).toMatchObject({ segment: 2, events: 1 });
    expect(w.close()).toBeUndefined();
    expect(files()).toEqual(["seg-000001.trade.parquet", "seg-000002.trade.parquet"]);
    const { events } = await readDataSet(dir);
    expect(events.map((e) => (e.kind === "trade" ? `${e.seq}:${e.id}` : e.kind))).toEqual(["1:t1", "2:t2"]);
  });

  it("refuses a size of 0 or a negative time", async () => {
    await expect(DataSetWriter.open({ dir, clock: new VirtualClock(T0), rotateBytes: 0 })).rejects.toThrow(new RangeError("rotateBytes must be > 0"));
    await expect(DataSetWriter.open({ dir, clock: new VirtualClock(T0), rotateMs: -1 })).rejects.toThrow(new RangeError("rotateMs must be >= 0"));
  });
});

describe("opening a data set again", () => {
  it("removes a cut-short seal's temporary files, nothing else", async () => {
    writeFileSync(join(dir, "seg-000001.trade.parquet.tmp"), "half");
    writeFileSync(join(dir, "seg-000001.book_level.parquet.tmp"), "half");
    writeFileSync(join(dir, "notes.txt"), "keep");
    writeFileSync(join(dir, "seg-1.trade.parquet.tmp"), "not ours");
    await openWriter({ dir, clock: new VirtualClock(T0) });
    expect(files()).toEqual(["notes.txt", "seg-1.trade.parquet.tmp"]);
  });

  it("seals a segment left unsealed and continues after it, numbers and seqs", async () => {
    const clock = new VirtualClock(T0);
    const first = await DataSetWriter.open({ dir, clock });
    for (const id of ["t1", "t2", "t3"]) first.append(trade(id));
    first.close();
    // a writer killed after t4 and t5 leaves segment 2 a line log
    const t = (seq: number): string => JSON.stringify({ kind: "trade", seq, ts: T0, id: `t${seq}`, symbol: "M", outcome: 0, side: "BUY", price: "0.5", quantity: "1", tradeTs: T0 });
    writeFileSync(join(dir, "seg-000002.jsonl"), `${t(4)}\n${t(5)}\n`);
    expect(files()).toEqual(["seg-000001.trade.parquet", "seg-000002.jsonl"]);
    const again = await DataSetWriter.open({ dir, clock });
    expect(again.sealed).toEqual([{ segment: 2, events: 2, tornLines: 0, files: [join(dir, "seg-000002.trade.parquet")] }]);
    expect(again.seq).toBe(6);
    again.append(trade("t6"));
    expect(again.hotSegment).toBe(3);
    again.close();
    const { events } = await readDataSet(dir);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("continues after sealed segments only", async () => {
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    w.append(trade("t1"));
    w.append(book);
    w.close();
    const again = await openWriter({ dir, clock: new VirtualClock(T0) });
    expect([again.sealed, again.seq]).toEqual([[], 3]);
    expect(again.append(trade("t3")).seq).toBe(3);
    expect(again.hotSegment).toBe(2);
  });
});

describe("sealing a line log", () => {
  it("writes a table per kind with rows, skips a torn last line and deletes the log", () => {
    const log = join(dir, "seg-000004.jsonl");
    const t = (seq: number) => JSON.stringify({ kind: "trade", seq, ts: T0, id: `t${seq}`, symbol: "M", outcome: 0, side: "BUY", price: "0.5", quantity: "1", tradeTs: T0 });
    const g = JSON.stringify({ kind: "gap", seq: 3, ts: T0, symbol: "M", fromTs: 1, toTs: 2, reason: "r" });
    writeFileSync(log, `${t(1)}\n${t(2)}\n${g}\n${t(4).slice(0, 20)}`);
    expect(sealSegment(dir, 4)).toEqual({ segment: 4, events: 3, tornLines: 1, files: [join(dir, "seg-000004.trade.parquet"), join(dir, "seg-000004.gap.parquet")] });
    expect(existsSync(log)).toBe(false);
    expect(files()).toEqual(["seg-000004.gap.parquet", "seg-000004.trade.parquet"]);
  });
});
