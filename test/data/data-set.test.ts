import { mkdtempSync, readFileSync, readdirSync, truncateSync, writeFileSync, appendFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { DataSetWriter, Levels, readDataSet, type DataEvent, type NewEvent } from "../../src/data/index.js";

const T0 = Date.UTC(2026, 0, 1);
const dirOf = () => mkdtempSync(join(tmpdir(), "mm-data-"));

function sample(i: number, ts: number): NewEvent[] {
  return [
    { kind: "market", ts, symbol: "A-B", status: "OPEN", row: JSON.stringify({ symbol: "A-B", status: "OPEN", é: "ü" }) },
    { kind: "book", ts, symbol: "A-B", outcome: i % 2, serverTs: ts - 3, bids: Levels.of([[500_000n + BigInt(i), 10_000_000n], [499_000n, 1n]]), asks: Levels.of([[510_000n, 123_456_789n]]) },
    { kind: "book", ts, symbol: "C-D", outcome: 0, serverTs: 0, bids: Levels.EMPTY, asks: Levels.EMPTY },
    { kind: "trade", ts, id: `t${i}`, symbol: "A-B", outcome: 1, side: i % 3 === 0 ? "SELL" : "BUY", price: 505_000n, quantity: 2_500_000n + BigInt(i), tradeTs: ts - 100 },
    { kind: "gap", ts, symbol: "A-B", fromTs: ts - 1000, toTs: ts - 10, reason: "page_full" },
    { kind: "order", ts, wallet: "0xabc", symbol: "A-B", outcome: 0, clientOrderId: `c${i}`, side: "BUY", price: 400_000n, quantity: 5_000_000n, postOnly: i % 2 === 0 },
    { kind: "ack", ts, wallet: "0xabc", clientOrderId: `c${i}`, orderId: `o${i}`, status: "OPEN", code: "" },
    { kind: "fill", ts, wallet: "0xabc", symbol: "A-B", outcome: 0, orderId: `o${i}`, tradeId: `t${i}`, side: "BUY", role: "maker", price: 400_000n, quantity: 1_000_000n, fee: 0n, tradeTs: ts },
    { kind: "latency", ts, method: "POST", route: "/api/orders/place", status: 201, latencyMs: 12, serverTs: ts - 6 },
  ];
}

/** Comparable form: levels as arrays. */
const plain = (e: DataEvent) => (e.kind === "book" ? { ...e, bids: e.bids.toArray(), asks: e.asks.toArray() } : e);

describe("data set: write, seal, read back", () => {
  it("reproduces every event of every kind exactly, sealed and unsealed, across rotations", async () => {
    const dir = dirOf();
    const clock = new VirtualClock(T0);
    const w = await DataSetWriter.open({ dir, clock, rotateMs: 10_000 });
    const written: DataEvent[] = [];
    for (let i = 0; i < 30; i++) {
      for (const e of sample(i, clock.now())) written.push(w.append(e));
      await clock.advance(1000);
    }
    // Hot segment still unsealed: read the sealed ones and the line log together.
    const mid = await readDataSet(dir);
    expect(mid.stats.sealed).toBe(2);
    expect(mid.stats.unsealed).toBe(1);
    expect(mid.events.map(plain)).toEqual(written.map(plain));
    w.close();
    const { events, stats } = await readDataSet(dir);
    expect(stats).toMatchObject({ segments: 3, sealed: 3, unsealed: 0, tornLines: 0 });
    expect(events.map(plain)).toEqual(written.map(plain));
    expect(events.map((e) => e.seq)).toEqual(written.map((_, i) => i + 1));
    expect(readdirSync(dir).filter((f) => f.endsWith(".jsonl"))).toEqual([]);
  });

  it("reads only the kinds asked for", async () => {
    const dir = dirOf();
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    for (let i = 0; i < 5; i++) for (const e of sample(i, T0)) w.append(e);
    w.close();
    const { events } = await readDataSet(dir, { kinds: ["trade"] });
    expect(events.map((e) => e.kind)).toEqual(Array(5).fill("trade"));
  });
});

describe("data set: kills, resume and bad files", () => {
  async function killedMidLine(): Promise<{ dir: string; written: DataEvent[]; log: string }> {
    const dir = dirOf();
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    const written: DataEvent[] = [];
    for (let i = 0; i < 4; i++) for (const e of sample(i, T0 + i)) written.push(w.append(e));
    const log = join(dir, "seg-000001.jsonl");
    // The writer is dropped without close (a kill), its last line cut in the middle.
    truncateSync(log, statSync(log).size - 25);
    return { dir, written, log };
  }

  it("a writer killed mid-line leaves a readable data set: the torn last line is skipped and counted", async () => {
    const { dir, written } = await killedMidLine();
    const { events, stats } = await readDataSet(dir);
    expect(stats.tornLines).toBe(1);
    expect(events.map(plain)).toEqual(written.slice(0, -1).map(plain));
  });

  it("resume seals the segment a kill left (its readable lines) and continues after it", async () => {
    const { dir, written } = await killedMidLine();
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0 + 10) });
    expect(w.sealed).toMatchObject([{ segment: 1, events: written.length - 1, tornLines: 1 }]);
    expect(w.seq).toBe(written.length); // the lost line's seq is given again
    const more = sample(9, T0 + 10).map((e) => w.append(e));
    w.close();
    const { events, stats } = await readDataSet(dir);
    expect(stats).toMatchObject({ segments: 2, sealed: 2, tornLines: 0 });
    expect(events.map(plain)).toEqual([...written.slice(0, -1), ...more].map(plain));
  });

  it("a bad line in the middle of a line log is an error naming the file and line", async () => {
    const { dir, log } = await killedMidLine();
    const lines = readFileSync(log, "utf8").split("\n");
    lines[2] = '{"kind":"trade","seq":3}';
    writeFileSync(log, lines.join("\n"));
    await expect(readDataSet(dir)).rejects.toThrow(`${log}:3: not an event:`);
    lines[2] = "{not json";
    writeFileSync(log, lines.join("\n"));
    await expect(readDataSet(dir)).rejects.toThrow(`${log}:3: not JSON`);
  });

  it("a corrupt Parquet file is an error naming it", async () => {
    const dir = dirOf();
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    for (const e of sample(1, T0)) w.append(e);
    w.close();
    const file = join(dir, "seg-000001.trade.parquet");
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 30));
    await expect(readDataSet(dir)).rejects.toThrow(`${file}: not a readable Parquet file`);
    writeFileSync(file, "PAR1 this is not parquet PAR1");
    await expect(readDataSet(dir)).rejects.toThrow(`${file}: not a readable Parquet file`);
  });

  it("a line appended after a clean line ending that is whole is read, not counted torn", async () => {
    const dir = dirOf();
    const w = await DataSetWriter.open({ dir, clock: new VirtualClock(T0) });
    w.append(sample(0, T0)[0]!);
    const log = join(dir, "seg-000001.jsonl");
    const line = readFileSync(log, "utf8").replace('"seq":1', '"seq":2');
    appendFileSync(log, line.trimEnd()); // whole JSON, no newline yet
    const { events, stats } = await readDataSet(dir);
    expect(events.map((e) => e.seq)).toEqual([1, 2]);
    expect(stats.tornLines).toBe(0);
  });
});
