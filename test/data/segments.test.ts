/**
 * A data set's segments on disk: listed in number order whatever else the directory holds, a
 * segment with a line log counted unsealed even beside some of its Parquet files (a seal cut
 * short); a line log read back event for event, a torn last line (a kill mid-write) skipped and
 * counted, and any other bad line an error naming the file and the line.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toLine, type DataEvent } from "../../src/data/events.js";
import { linePath, listSegments, readLineLog, segmentName, tablePath } from "../../src/data/segments.js";

const TRADE: DataEvent = { kind: "trade", seq: 1, ts: 1_800_000_000_000, id: "t-1", symbol: "M1", outcome: 0, side: "BUY", price: 420_000n, quantity: 12_500_000n, tradeTs: 1_799_999_999_000 };
const GAP: DataEvent = { kind: "gap", seq: 2, ts: 1_800_000_001_000, symbol: "M1", fromTs: 1, toTs: 2, reason: "page cap" };
const line = (e: DataEvent): string => `${JSON.stringify(toLine(e))}\n`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-segments-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("segment files", () => {
  it("names segments with six digits or more", () => {
    expect(segmentName(7)).toBe("seg-000007");
    expect(segmentName(1_234_567)).toBe("seg-1234567");
    expect(linePath("/d", 3)).toBe(join("/d", "seg-000003.jsonl"));
    expect(tablePath("/d", 3, "book_level")).toBe(join("/d", "seg-000003.book_level.parquet"));
  });

  it("lists segments in number order, sealed tables by name, unsealed by their line log, and ignores other files", () => {
    for (const f of ["seg-000010.trade.parquet", "seg-000002.book.parquet", "seg-000002.trade.parquet", "seg-000011.jsonl", "seg-000011.book.parquet", "README", "seg-12.jsonl", "seg-000003.jsonl.tmp"]) {
      writeFileSync(join(dir, f), "");
    }
    const segs = listSegments(dir);
    expect(segs.map((s) => s.n)).toEqual([2, 10, 11]);
    expect([...segs[0]!.tables.keys()].sort()).toEqual(["book", "trade"]);
    expect(segs[0]!.lines).toBeUndefined();
    expect(segs[2]!.lines).toBe(join(dir, "seg-000011.jsonl"));
    expect([...segs[2]!.tables.keys()]).toEqual(["book"]);
  });

  it("has no segments in a directory that does not exist", () => {
    expect(listSegments(join(dir, "nowhere"))).toEqual([]);
  });
});

describe("readLineLog", () => {
  it("reads every event back as written", () => {
    const f = linePath(dir, 1);
    writeFileSync(f, line(TRADE) + line(GAP));
    expect(readLineLog(f)).toEqual({ events: [TRADE, GAP], torn: 0 });
  });

  it("skips and counts a last line cut off mid-write", () => {
    const f = linePath(dir, 1);
    writeFileSync(f, line(TRADE) + line(GAP).slice(0, 25));
    expect(readLineLog(f)).toEqual({ events: [TRADE], torn: 1 });
  });

  it("reads an empty log as no events", () => {
    const f = linePath(dir, 1);
    writeFileSync(f, "");
    expect(readLineLog(f)).toEqual({ events: [], torn: 0 });
  });

  it("refuses a bad line that is not the last one, naming the file and line", () => {
    const f = linePath(dir, 1);
    writeFileSync(f, line(TRADE) + "{not json\n" + line(GAP));
    expect(() => readLineLog(f)).toThrow(`${f}:2: not JSON`);
    writeFileSync(f, line(TRADE) + JSON.stringify({ kind: "trade", seq: 0 }) + "\n" + line(GAP));
    expect(() => readLineLog(f)).toThrow(`${f}:2: not an event`);
    writeFileSync(f, "\n" + line(GAP));
    expect(() => readLineLog(f)).toThrow(`${f}:1: empty line`);
  });
});
