/**
 * Parquet in and out for sealed segments.
 *
 * Writing: hyparquet-writer (pure JS, no native code), every column REQUIRED, one row group,
 * uncompressed pages (SNAPPY on request: smaller, slower to decode); integers and money PLAIN
 * (DELTA_BINARY_PACKED for `ColumnSpec.delta` columns), strings dictionary-encoded when that pays
 * (the writer's rule).
 *
 * Reading: hyparquet's general reader decodes about 20,000 books a second here (docs/backtest.md,
 * "Recording"), far from the 2,000,000 events a second a replay needs. So `readTable` walks the
 * column chunks itself, into typed arrays: it takes the footer from hyparquet (`parquetMetadata`)
 * and decodes the pages our writer makes (data page v2, no levels, PLAIN, DELTA_BINARY_PACKED or
 * RLE_DICTIONARY, UNCOMPRESSED or SNAPPY) with hyparquet's own page-header, snappy, RLE and delta
 * routines. A file written otherwise (rewritten by another tool, say) is read by hyparquet's
 * general reader instead: slower, same result.
 */
import { parquetMetadata, parquetReadObjects, snappyUncompress } from "hyparquet";
import type { ColumnChunk, FileMetaData, SchemaElement } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import { deltaBinaryUnpack } from "hyparquet/src/delta.js";
import { readRleBitPackedHybrid } from "hyparquet/src/encoding.js";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { ColumnSource } from "hyparquet-writer";
import type { ColumnData, ColumnSpec, ColumnType, ColumnValues } from "./tables.js";

const MONEY_SCALE = 6;
const MONEY_PRECISION = 18;

function schemaElement(s: ColumnSpec): SchemaElement {
  const base = { name: s.name, repetition_type: "REQUIRED" as const };
  switch (s.type) {
    case "i32":
      return { ...base, type: "INT32" };
    case "i64":
      return { ...base, type: "INT64" };
    case "ts":
      return { ...base, type: "INT64", converted_type: "TIMESTAMP_MILLIS", logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" } };
    case "money":
      return {
        ...base,
        type: "INT64",
        converted_type: "DECIMAL",
        scale: MONEY_SCALE,
        precision: MONEY_PRECISION,
        logical_type: { type: "DECIMAL", scale: MONEY_SCALE, precision: MONEY_PRECISION },
      };
    case "str":
      return { ...base, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } };
    case "bool":
      return { ...base, type: "BOOLEAN" };
  }
}

/**
 * How each column type is encoded (bench/data.bench.ts, docs/backtest.md "Recording"): PLAIN
 * numbers decode as a copy into a typed array; hyparquet's DELTA_BINARY_PACKED decoder works in
 * bigint, so DELTA is kept for the columns our reader never decodes (`ColumnSpec.delta`).
 */
export const ENCODING: Readonly<Record<ColumnType, ColumnSource["encoding"]>> = {
  i32: "PLAIN",
  i64: "PLAIN",
  ts: "PLAIN",
  money: "PLAIN",
  str: undefined,
  bool: "PLAIN",
};

export interface WriteOptions {
  codec?: "SNAPPY" | "UNCOMPRESSED";
}

/** One table as a Parquet file's bytes. */
export function writeTable(specs: readonly ColumnSpec[], columns: ReadonlyMap<string, ColumnValues>, opts: WriteOptions = {}): Uint8Array {
  const rows = columns.get(specs[0]!.name)?.length ?? 0;
  const columnData = specs.map((s): ColumnSource => {
    const values = columns.get(s.name);
    if (values === undefined || values.length !== rows) throw new Error(`column ${s.name}: ${values?.length ?? "no"} values for ${rows} rows`);
    let data: ColumnSource["data"];
    if (s.type === "i64" || s.type === "ts" || s.type === "money") data = BigInt64Array.from(values, (v) => BigInt(v as number | bigint));
    else if (s.type === "i32") data = Int32Array.from(values as number[]);
    else data = values;
    const encoding = s.delta === true ? "DELTA_BINARY_PACKED" : ENCODING[s.type];
    return { name: s.name, data, nullable: false, ...(encoding !== undefined ? { encoding } : {}) };
  });
  const buf = parquetWriteBuffer({
    columnData,
    schema: [{ name: "root", num_children: specs.length }, ...specs.map(schemaElement)],
    codec: opts.codec ?? "UNCOMPRESSED",
    rowGroupSize: Math.max(1, rows),
    statistics: true,
    createdBy: "pm-market-maker data set",
  });
  return new Uint8Array(buf);
}

/** Why the fast path gave up on a file (then hyparquet's general reader takes it). */
class NotOurs extends Error {}

const utf8 = new TextDecoder("utf-8", { fatal: false });

function decompress(bytes: Uint8Array, codec: string, size: number): Uint8Array {
  if (codec === "UNCOMPRESSED") return bytes;
  if (codec !== "SNAPPY") throw new NotOurs(`codec ${codec}`);
  const out = new Uint8Array(size);
  snappyUncompress(bytes, out);
  return out;
}

function readStrings(b: Uint8Array, count: number, out: string[], at: number): void {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let p = 0;
  for (let i = 0; i < count; i++) {
    const len = view.getUint32(p, true);
    p += 4;
    out[at + i] = asciiOrUtf8(b, p, len);
    p += len;
  }
}

/** Short ASCII strings (symbols, ids) without the TextDecoder's per-call cost. */
function asciiOrUtf8(b: Uint8Array, p: number, len: number): string {
  if (len <= 48) {
    let s = "";
    for (let i = 0; i < len; i++) {
      const ch = b[p + i]!;
      if (ch >= 0x80) return utf8.decode(b.subarray(p, p + len));
      s += String.fromCharCode(ch);
    }
    return s;
  }
  return utf8.decode(b.subarray(p, p + len));
}

/** An aligned copy when the bytes do not sit at a multiple of `align` in their buffer. */
function aligned(b: Uint8Array, align: number): Uint8Array {
  return b.byteOffset % align === 0 ? b : new Uint8Array(b);
}

function allocate(s: ColumnSpec, n: number): ColumnData {
  switch (s.type) {
    case "i32":
      return new Int32Array(n);
    case "i64":
    case "ts":
      return new Float64Array(n);
    case "money":
      return new BigInt64Array(n);
    case "str":
      return new Array<string>(n);
    case "bool":
      return new Uint8Array(n);
  }
}

/** Values of a page into `out` from `at`. */
function decodeValues(s: ColumnSpec, enc: string, b: Uint8Array, count: number, out: ColumnData, at: number, dict: string[] | undefined): void {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (enc === "RLE_DICTIONARY" || enc === "PLAIN_DICTIONARY") {
    if (dict === undefined || s.type !== "str") throw new NotOurs("dictionary page missing or not strings");
    const idx = new Int32Array(count);
    readRleBitPackedHybrid({ view, offset: 1 }, b[0]!, idx, b.byteLength - 1);
    const o = out as string[];
    for (let i = 0; i < count; i++) o[at + i] = dict[idx[i]!]!;
    return;
  }
  if (enc === "DELTA_BINARY_PACKED") {
    if (s.type === "i32") {
      deltaBinaryUnpack({ view, offset: 0 }, count, (out as Int32Array).subarray(at, at + count));
      return;
    }
    const tmp = s.type === "money" ? (out as BigInt64Array).subarray(at, at + count) : new BigInt64Array(count);
    deltaBinaryUnpack({ view, offset: 0 }, count, tmp);
    if (s.type !== "money") {
      const o = out as Float64Array;
      for (let i = 0; i < count; i++) o[at + i] = Number(tmp[i]!);
    }
    return;
  }
  if (enc !== "PLAIN") throw new NotOurs(`encoding ${enc}`);
  switch (s.type) {
    case "i32": {
      const a = aligned(b, 4);
      (out as Int32Array).set(new Int32Array(a.buffer, a.byteOffset, count), at);
      return;
    }
    case "money": {
      const a = aligned(b, 8);
      (out as BigInt64Array).set(new BigInt64Array(a.buffer, a.byteOffset, count), at);
      return;
    }
    case "i64":
    case "ts": {
      const a = aligned(b, 4);
      const w = new Int32Array(a.buffer, a.byteOffset, count * 2);
      const o = out as Float64Array;
      for (let i = 0; i < count; i++) o[at + i] = w[2 * i + 1]! * 4294967296 + (w[2 * i]! >>> 0);
      return;
    }
    case "str":
      readStrings(b, count, out as string[], at);
      return;
    case "bool": {
      const o = out as Uint8Array;
      for (let i = 0; i < count; i++) o[at + i] = (b[i >> 3]! >> (i & 7)) & 1;
      return;
    }
  }
}

function readChunk(bytes: Uint8Array, chunk: ColumnChunk, s: ColumnSpec, out: ColumnData, at: number): number {
  const md = chunk.meta_data;
  if (md === undefined) throw new NotOurs("no column metadata");
  const total = Number(md.num_values);
  const start = Number(md.dictionary_page_offset ?? md.data_page_offset);
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: start };
  let dict: string[] | undefined;
  let done = 0;
  while (done < total) {
    const h = parquetHeader(reader);
    const body = bytes.subarray(reader.offset, reader.offset + h.compressed_page_size);
    reader.offset += h.compressed_page_size;
    if (h.type === "DICTIONARY_PAGE") {
      const n = h.dictionary_page_header?.num_values ?? 0;
      if (s.type !== "str") throw new NotOurs("dictionary on a non-string column");
      dict = new Array<string>(n);
      readStrings(decompress(body, md.codec, h.uncompressed_page_size), n, dict, 0);
      continue;
    }
    const v2 = h.data_page_header_v2;
    if (h.type !== "DATA_PAGE_V2" || v2 === undefined) throw new NotOurs(`page type ${h.type}`);
    if (v2.num_nulls !== 0 || v2.definition_levels_byte_length !== 0 || v2.repetition_levels_byte_length !== 0) throw new NotOurs("levels");
    const data = v2.is_compressed === false ? body : decompress(body, md.codec, h.uncompressed_page_size);
    decodeValues(s, v2.encoding, data, v2.num_values, out, at + done, dict);
    done += v2.num_values;
  }
  return done;
}

function metadataOf(bytes: Uint8Array, file: string): FileMetaData {
  try {
    return parquetMetadata(bytes);
  } catch (e) {
    throw new Error(`${file}: not a readable Parquet file (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/** The columns asked for, decoded (fast path, else hyparquet's reader). */
export async function readTable(bytes: Uint8Array, specs: readonly ColumnSpec[], file: string): Promise<Map<string, ColumnData>> {
  const md = metadataOf(bytes, file);
  try {
    return readFast(bytes, md, specs, file);
  } catch (e) {
    if (!(e instanceof NotOurs)) throw e;
  }
  return readGeneral(bytes, md, specs, file);
}

function readFast(bytes: Uint8Array, md: FileMetaData, specs: readonly ColumnSpec[], file: string): Map<string, ColumnData> {
  const rows = Number(md.num_rows);
  const out = new Map<string, ColumnData>();
  for (const s of specs) {
    const data = allocate(s, rows);
    let at = 0;
    for (const rg of md.row_groups) {
      const chunk = rg.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === s.name);
      if (chunk === undefined) throw new Error(`${file}: no column ${s.name}`);
      at += readChunk(bytes, chunk, s, data, at);
    }
    if (at !== rows) throw new NotOurs(`column ${s.name}: ${at} values for ${rows} rows`);
    out.set(s.name, data);
  }
  return out;
}

async function readGeneral(bytes: Uint8Array, md: FileMetaData, specs: readonly ColumnSpec[], file: string): Promise<Map<string, ColumnData>> {
  let rows: Record<string, unknown>[];
  try {
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    rows = await parquetReadObjects({ file: ab, metadata: md, columns: specs.map((s) => s.name) });
  } catch (e) {
    throw new Error(`${file}: not a readable Parquet file (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  const out = new Map<string, ColumnData>();
  for (const s of specs) {
    const data = allocate(s, rows.length);
    rows.forEach((r, i) => {
      const v = r[s.name];
      if (v === undefined || v === null) throw new Error(`${file}: row ${i + 1}: column ${s.name} is missing`);
      if (s.type === "str") (data as string[])[i] = typeof v === "string" ? v : JSON.stringify(v);
      else if (s.type === "bool") (data as Uint8Array)[i] = v === true ? 1 : 0;
      else if (s.type === "money") (data as BigInt64Array)[i] = typeof v === "bigint" ? v : BigInt(Math.round(Number(v) * 10 ** MONEY_SCALE));
      else if (v instanceof Date) (data as Float64Array)[i] = v.getTime();
      else (data as Float64Array | Int32Array)[i] = Number(v);
    });
    out.set(s.name, data);
  }
  return out;
}
