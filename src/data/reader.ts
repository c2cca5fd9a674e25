/**
 * Reads a data set back: every event, in `seq` order (the order written, which is the local
 * time order), segment after segment. A sealed segment's tables are decoded column by column into
 * typed arrays (parquet.ts); a cursor then makes its events one at a time in seq order (which
 * table holds seq s is found by position, s - first seq: a segment's seqs are consecutive), so a
 * replay that does not keep the events never holds more than the columns. An unsealed segment is
 * read line by line, skipping a torn last line.
 *
 * Errors name the file: a table that is not Parquet, a bad line in the middle of a line log
 * (`FILE:LINE: ...`), seqs that repeat or go backwards.
 */
import { EVENT_KINDS, type DataEvent, type EventKind } from "./events.js";
import { fastPathFile, readTableFile, readTableFileSync, type TableRead } from "./parquet.js";
import { listSegments, readLineLog, type SegmentFiles } from "./segments.js";
import { TABLES, sourceOf, type EventSource } from "./tables.js";

/** What a replay needs of book_level: the levels are stored in book order, so no join on seq. */
const LEVEL_COLUMNS = TABLES.book_level.filter((c) => c.name === "price" || c.name === "quantity");

export interface ReadStats {
  segments: number;
  sealed: number;
  unsealed: number;
  /** Torn last lines skipped (a writer killed mid-line). */
  tornLines: number;
  events: number;
  /** Bytes read from the sealed files (footers and the column chunks decoded; not whole files). */
  bytes: number;
}

export interface ReadOptions {
  /** Only these kinds (others are not decoded). Default: all. */
  kinds?: readonly EventKind[];
}

export class DataSetReader {
  readonly stats: ReadStats = { segments: 0, sealed: 0, unsealed: 0, tornLines: 0, events: 0, bytes: 0 };
  private lastSeq = 0;
  private readonly kinds: ReadonlySet<EventKind>;

  constructor(
    readonly dir: string,
    opts: ReadOptions = {},
  ) {
    this.kinds = new Set(opts.kinds ?? EVENT_KINDS);
  }

  /** Each segment's events, in seq order, as a cursor. */
  async *segments(): AsyncGenerator<EventCursor, void, undefined> {
    for (const s of listSegments(this.dir)) {
      const where = whereOf(s, this.dir);
      const cursor = s.lines !== undefined ? new ArrayCursor(this.readLines(s.lines)) : await this.readSealed(s, where);
      yield this.accept(cursor, where);
    }
  }

  /**
   * Each segment as an opener to call in order, when its events are wanted: a sealed segment is
   * then read synchronously (its column chunks, fast path) and a line log parsed, so only the
   * segments opened and not yet let go are in memory. A sealed segment whose files the fast path
   * would not take (not written by our writer, judged on the footers) is decoded here, ahead, by
   * the general reader, and its opener hands that over (`ahead`). Counts and seq checks happen
   * when a segment is opened; opening out of order is an error.
   */
  async openers(): Promise<SegmentOpener[]> {
    const out: SegmentOpener[] = [];
    let next = 0;
    const inOrder = (i: number): void => {
      if (i !== next) throw new Error(`${this.dir}: segment ${i + 1} opened out of order (expected ${next + 1})`);
      next += 1;
    };
    for (const s of listSegments(this.dir)) {
      const i = out.length;
      const where = whereOf(s, this.dir);
      if (s.lines !== undefined) {
        const file = s.lines;
        out.push({ n: s.n, where, ahead: false, open: () => (inOrder(i), this.accept(new ArrayCursor(this.readLines(file)), where)) });
        continue;
      }
      const files = this.tablesOf(s);
      if (files.every((f) => fastPathFile(f.file) && (f.levels === undefined || fastPathFile(f.levels)))) {
        out.push({ n: s.n, where, ahead: false, open: () => (inOrder(i), this.accept(this.readSealedSync(files, where), where)) });
      } else {
        const cursor = await this.readSealed(s, where);
        out.push({ n: s.n, where, ahead: true, open: () => (inOrder(i), this.accept(cursor, where)) });
      }
    }
    return out;
  }

  /** Counts a segment's cursor and checks its seqs follow the previous segment's. */
  private accept(cursor: EventCursor, where: string): EventCursor {
    this.stats.segments += 1;
    this.stats.events += cursor.length;
    const first = cursor.firstSeq;
    if (first !== undefined && first <= this.lastSeq) throw new Error(`${where}: seq ${first} after ${this.lastSeq} (repeated or out of order)`);
    this.lastSeq = cursor.lastSeq ?? this.lastSeq;
    return cursor;
  }

  /** Every event, in seq order. */
  async *events(): AsyncGenerator<DataEvent, void, undefined> {
    for await (const seg of this.segments()) {
      for (let e = seg.next(); e !== undefined; e = seg.next()) yield e;
    }
  }

  async readAll(): Promise<DataEvent[]> {
    const out: DataEvent[] = [];
    for await (const seg of this.segments()) for (let e = seg.next(); e !== undefined; e = seg.next()) out.push(e);
    return out;
  }

  private readLines(file: string): DataEvent[] {
    this.stats.unsealed += 1;
    const { events, torn } = readLineLog(file);
    this.stats.tornLines += torn;
    let last = 0;
    events.forEach((e, i) => {
      if (e.seq <= last) throw new Error(`${file}:${i + 1}: seq ${e.seq} after ${last} (repeated or out of order)`);
      last = e.seq;
    });
    return this.kinds.size === EVENT_KINDS.length ? events : events.filter((e) => this.kinds.has(e.kind));
  }

  /** The tables of a sealed segment to read, in EVENT_KINDS order (books with their levels' file). */
  private tablesOf(s: SegmentFiles): SealedTable[] {
    const out: SealedTable[] = [];
    for (const kind of EVENT_KINDS) {
      const file = s.tables.get(kind);
      if (file === undefined || !this.kinds.has(kind)) continue;
      let levels: string | undefined;
      if (kind === "book") {
        levels = s.tables.get("book_level");
        if (levels === undefined) throw new Error(`${file}: books without their book_level table`);
      }
      out.push({ kind, file, levels });
    }
    return out;
  }

  private sourceOf(t: SealedTable, table: TableRead, levels: TableRead | undefined): EventSource {
    this.stats.bytes += table.bytesRead + (levels?.bytesRead ?? 0);
    const lv = levels === undefined ? undefined : { price: levels.columns.get("price") as BigInt64Array, quantity: levels.columns.get("quantity") as BigInt64Array };
    return sourceOf(t.kind, table.columns, t.file, lv);
  }

  private async readSealed(s: SegmentFiles, where: string): Promise<EventCursor> {
    this.stats.sealed += 1;
    const sources: EventSource[] = [];
    for (const t of this.tablesOf(s)) {
      const table = await readTableFile(t.file, TABLES[t.kind]);
      const levels = t.levels === undefined ? undefined : await readTableFile(t.levels, LEVEL_COLUMNS);
      sources.push(this.sourceOf(t, table, levels));
    }
    return new MergeCursor(sources, where);
  }

  /** A sealed segment read synchronously (fast path only: an error naming a file it cannot take). */
  private readSealedSync(tables: readonly SealedTable[], where: string): EventCursor {
    this.stats.sealed += 1;
    const sources = tables.map((t) => this.sourceOf(t, readTableFileSync(t.file, TABLES[t.kind]), t.levels === undefined ? undefined : readTableFileSync(t.levels, LEVEL_COLUMNS)));
    return new MergeCursor(sources, where);
  }
}

interface SealedTable {
  kind: EventKind;
  file: string;
  /** The book_level file, for books. */
  levels: string | undefined;
}

const whereOf = (s: SegmentFiles, dir: string): string => s.lines ?? [...s.tables.values()][0] ?? dir;

/** A segment of a data set, read when opened (`DataSetReader.openers`). */
export interface SegmentOpener {
  /** The segment's number. */
  readonly n: number;
  /** Its first file, for messages. */
  readonly where: string;
  /** Decoded ahead (by the general reader), not when opened. */
  readonly ahead: boolean;
  /** Its events as a cursor (read now unless `ahead`). Call openers in order, each once. */
  open(): EventCursor;
}

/** One segment's events in seq order, made one at a time. */
export interface EventCursor {
  readonly length: number;
  readonly firstSeq: number | undefined;
  readonly lastSeq: number | undefined;
  /** The next event, undefined at the end. */
  next(): DataEvent | undefined;
}

class ArrayCursor implements EventCursor {
  private i = 0;
  constructor(private readonly events: readonly DataEvent[]) {}
  get length(): number {
    return this.events.length;
  }
  get firstSeq(): number | undefined {
    return this.events[0]?.seq;
  }
  get lastSeq(): number | undefined {
    return this.events[this.events.length - 1]?.seq;
  }
  next(): DataEvent | undefined {
    return this.events[this.i++];
  }
}

/**
 * Tables of one segment merged by seq. With consecutive seqs (every kind read), `which[s - first]`
 * names the table holding seq s and each table is walked in row order; otherwise (some kinds left
 * out) a plain k-way merge on the seq columns.
 */
class MergeCursor implements EventCursor {
  readonly length: number;
  readonly firstSeq: number | undefined;
  readonly lastSeq: number | undefined;
  private readonly rows: Int32Array;
  private readonly which: Uint8Array | undefined;
  private i = 0;

  constructor(
    private readonly sources: readonly EventSource[],
    where: string,
  ) {
    let min = Infinity;
    let max = -Infinity;
    let total = 0;
    for (const s of sources) {
      const n = s.seq.length;
      total += n;
      for (let i = 1; i < n; i++) if (!(s.seq[i]! > s.seq[i - 1]!)) throw new Error(`${where}: seq ${s.seq[i]} after ${s.seq[i - 1]} (repeated or out of order)`);
      if (n > 0) {
        min = Math.min(min, s.seq[0]!);
        max = Math.max(max, s.seq[n - 1]!);
      }
    }
    this.length = total;
    this.firstSeq = total > 0 ? min : undefined;
    this.lastSeq = total > 0 ? max : undefined;
    this.rows = new Int32Array(sources.length);
    if (total > 0 && max - min + 1 === total) {
      const which = new Uint8Array(total).fill(255);
      sources.forEach((s, k) => {
        for (const q of s.seq) {
          const at = q - min;
          if (which[at] !== 255) throw new Error(`${where}: seq ${q} appears twice`);
          which[at] = k;
        }
      });
      this.which = which;
    }
  }

  next(): DataEvent | undefined {
    if (this.i >= this.length) return undefined;
    let k: number;
    if (this.which !== undefined) k = this.which[this.i]!;
    else {
      k = -1;
      let best = Infinity;
      for (let j = 0; j < this.sources.length; j++) {
        const q = this.sources[j]!.seq[this.rows[j]!];
        if (q !== undefined && q < best) {
          best = q;
          k = j;
        }
      }
    }
    this.i += 1;
    const row = this.rows[k]!;
    this.rows[k] = row + 1;
    return this.sources[k]!.make(row);
  }
}

/** Every event of a data set directory, in seq order. */
export async function readDataSet(dir: string, opts: ReadOptions = {}): Promise<{ events: DataEvent[]; stats: ReadStats }> {
  const r = new DataSetReader(dir, opts);
  const events = await r.readAll();
  return { events, stats: r.stats };
}
