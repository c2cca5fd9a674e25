/**
 * A data set is a directory of segments, in the order of their numbers:
 *
 *   seg-000001.book.parquet  seg-000001.book_level.parquet  seg-000001.trade.parquet ...  (sealed)
 *   seg-000002.jsonl                                                                   (being written)
 *
 * The segment being written is a line log (one event per line, JSON, `lineSchema`); sealing turns
 * it into one Parquet file per table and then deletes it, so a segment with a `.jsonl` is unsealed
 * whatever Parquet files of it exist (a seal cut short). Events keep one `seq` across the set.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeZodError } from "../core/validation.js";
import { fromLine, lineSchema, type DataEvent } from "./events.js";
import type { TableName } from "./tables.js";

const SEGMENT_RE = /^seg-(\d{6,})\.(jsonl|([a-z_]+)\.parquet)$/;

export const segmentName = (n: number): string => `seg-${String(n).padStart(6, "0")}`;
export const linePath = (dir: string, n: number): string => join(dir, `${segmentName(n)}.jsonl`);
export const tablePath = (dir: string, n: number, table: TableName): string => join(dir, `${segmentName(n)}.${table}.parquet`);

export interface SegmentFiles {
  n: number;
  /** The line log, when the segment is not sealed. */
  lines: string | undefined;
  /** Sealed tables by name. */
  tables: Map<string, string>;
}

/** The segments of a data set, in order (a directory that does not exist has none). */
export function listSegments(dir: string): SegmentFiles[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const byN = new Map<number, SegmentFiles>();
  for (const name of names) {
    const m = SEGMENT_RE.exec(name);
    if (m === null) continue;
    const n = Number(m[1]);
    let s = byN.get(n);
    if (s === undefined) {
      s = { n, lines: undefined, tables: new Map() };
      byN.set(n, s);
    }
    if (m[2] === "jsonl") s.lines = join(dir, name);
    else s.tables.set(m[3]!, join(dir, name));
  }
  return [...byN.values()].sort((a, b) => a.n - b.n);
}

export interface LineRead {
  events: DataEvent[];
  /** 1 when the last line was cut off mid-write (skipped), else 0. */
  torn: number;
}

/**
 * The events of a line log. A last line that does not read is a write cut short by a kill: it
 * is skipped and counted. Any other line that does not read is an error naming the file and line.
 */
export function readLineLog(file: string): LineRead {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  // A complete log ends with "\n": the last piece is then empty.
  const last = lines.length - 1;
  const events: DataEvent[] = [];
  let torn = 0;
  for (let i = 0; i <= last; i++) {
    const line = lines[i]!;
    if (line === "" && i === last) break;
    const problem = parseLine(line);
    if (typeof problem !== "string") {
      events.push(problem);
      continue;
    }
    if (i === last) {
      torn = 1;
      break;
    }
    throw new Error(`${file}:${i + 1}: ${problem}`);
  }
  return { events, torn };
}

function parseLine(line: string): DataEvent | string {
  if (line.trim() === "") return "empty line";
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (e) {
    return `not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  const r = lineSchema.safeParse(raw);
  if (!r.success) return `not an event: ${describeZodError(r.error)}`;
  return fromLine(r.data);
}
