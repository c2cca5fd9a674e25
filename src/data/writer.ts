/**
 * Writes a data set: events are appended to the hot segment's line log, one line each, written
 * through to the OS at once (a killed process loses at most the line being written; a reader skips
 * a torn last line) and fsync'd at most every `fsyncEveryMs` (what a power cut can take). When the
 * segment reaches `rotateBytes` or has been open `rotateMs`, it is sealed into Parquet (one file per
 * table, each written to a temporary name and renamed) and the line log deleted; a new segment
 * starts. `open` seals a segment a killed writer left unsealed (its readable lines) and continues
 * after it: the next segment number and the next seq.
 *
 * Sealing is synchronous: a 64 MB segment takes a few seconds (bench/data.bench.ts gives the rate).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../core/clock.js";
import { toLine, withDefaults, type DataEvent, type NewEvent } from "./events.js";
import { readTable, writeTable, type WriteOptions } from "./parquet.js";
import { linePath, listSegments, readLineLog, tablePath, type SegmentFiles } from "./segments.js";
import { TABLES, tablesOf } from "./tables.js";

export interface WriterOptions {
  dir: string;
  clock: Pick<Clock, "now">;
  /** Seal the hot segment once its line log holds this many bytes. Default 64 MiB. */
  rotateBytes?: number;
  /** Seal the hot segment once it has been open this long. Default 1 h; 0: never by time. */
  rotateMs?: number;
  /** fsync the line log at most this often (and on seal and close). Default 1000; 0: every record. */
  fsyncEveryMs?: number;
  parquet?: WriteOptions;
}

export interface SealInfo {
  segment: number;
  events: number;
  tornLines: number;
  files: string[];
}

export const DEFAULT_ROTATE_BYTES = 64 * 1024 * 1024;
export const DEFAULT_ROTATE_MS = 3_600_000;

/** Seal one segment's line log into Parquet tables, then delete the log. */
export function sealSegment(dir: string, n: number, opts: WriteOptions = {}): SealInfo {
  const log = linePath(dir, n);
  const { events, torn } = readLineLog(log);
  const files: string[] = [];
  for (const [table, cols] of tablesOf(events)) {
    const path = tablePath(dir, n, table);
    const tmp = `${path}.tmp`;
    const bytes = writeTable(TABLES[table], cols, opts);
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    files.push(path);
  }
  rmSync(log);
  return { segment: n, events: events.length, tornLines: torn, files };
}

async function lastSeqOf(s: SegmentFiles): Promise<number> {
  let max = 0;
  for (const [table, file] of s.tables) {
    if (table === "book_level" || !(table in TABLES)) continue;
    const cols = await readTable(readFileSync(file), [{ name: "seq", type: "i64" }], file);
    const seq = cols.get("seq") as Float64Array;
    for (const v of seq) if (v > max) max = v;
  }
  return max;
}

export class DataSetWriter {
  private fd: number | undefined;
  private segment = 0;
  private bytes = 0;
  private openedAt = 0;
  private lastFsync = 0;
  private nextSeq = 1;
  private readonly rotateBytes: number;
  private readonly rotateMs: number;
  private readonly fsyncEveryMs: number;
  readonly sealed: SealInfo[] = [];

  private constructor(private readonly o: WriterOptions) {
    this.rotateBytes = o.rotateBytes ?? DEFAULT_ROTATE_BYTES;
    this.rotateMs = o.rotateMs ?? DEFAULT_ROTATE_MS;
    this.fsyncEveryMs = o.fsyncEveryMs ?? 1000;
    if (!(this.rotateBytes > 0)) throw new RangeError("rotateBytes must be > 0");
    if (!(this.rotateMs >= 0)) throw new RangeError("rotateMs must be >= 0");
  }

  /** Open (or create) a data set directory; a segment left unsealed by a kill is sealed first. */
  static async open(o: WriterOptions): Promise<DataSetWriter> {
    const w = new DataSetWriter(o);
    mkdirSync(o.dir, { recursive: true });
    for (const name of listTmp(o.dir)) rmSync(name);
    const segs = listSegments(o.dir);
    for (const s of segs) if (s.lines !== undefined) w.sealed.push(sealSegment(o.dir, s.n, o.parquet));
    const after = listSegments(o.dir);
    const last = after[after.length - 1];
    w.segment = Math.max(0, ...segs.map((s) => s.n));
    if (last !== undefined) w.nextSeq = (await lastSeqOf(last)) + 1;
    return w;
  }

  /** Seq the next event will get. */
  get seq(): number {
    return this.nextSeq;
  }

  /** The hot segment's number (0 before the first event). */
  get hotSegment(): number {
    return this.fd === undefined ? 0 : this.segment;
  }

  append(e: NewEvent): DataEvent {
    const now = this.o.clock.now();
    if (this.fd !== undefined && (this.bytes >= this.rotateBytes || (this.rotateMs > 0 && now - this.openedAt >= this.rotateMs))) this.rotate();
    if (this.fd === undefined) this.startSegment(now);
    const ev = { ...withDefaults(e), seq: this.nextSeq };
    const line = `${JSON.stringify(toLine(ev))}\n`;
    const buf = Buffer.from(line, "utf8");
    writeSync(this.fd!, buf);
    this.nextSeq += 1;
    this.bytes += buf.length;
    if (this.fsyncEveryMs === 0 || now - this.lastFsync >= this.fsyncEveryMs) {
      fsyncSync(this.fd!);
      this.lastFsync = now;
    }
    return ev;
  }

  /** Seal the hot segment now (the next event starts a new one). */
  rotate(): SealInfo | undefined {
    if (this.fd === undefined) return undefined;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
    const info = sealSegment(this.o.dir, this.segment, this.o.parquet);
    this.sealed.push(info);
    return info;
  }

  /** Seal and stop. */
  close(): SealInfo | undefined {
    return this.rotate();
  }

  private startSegment(now: number): void {
    this.segment += 1;
    this.fd = openSync(linePath(this.o.dir, this.segment), "a");
    this.bytes = 0;
    this.openedAt = now;
    this.lastFsync = now;
  }
}

/** Files a seal cut short left behind (`seg-000003.book.parquet.tmp`). */
function listTmp(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^seg-\d{6,}\.[a-z_]+\.parquet\.tmp$/.test(name))
    .map((name) => join(dir, name));
}
