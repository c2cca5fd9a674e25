/**
 * Parquet in and out for sealed segments.
 *
 * Writing: hyparquet-writer (pure JS, no native code), every column REQUIRED, one row group,
 * uncompressed pages (SNAPPY on request: smaller, slower to decode). Encodings are standard
 * Parquet (DuckDB, pandas/pyarrow and polars read them): `seq` and the time columns
 * DELTA_BINARY_PACKED (they grow by small steps), strings dictionary-encoded when that pays (the
 * writer's rule), numbers PLAIN (`ENCODING` says why).
 *
 * Reading: hyparquet's general reader decodes about 20,000-70,000 books a second here
 * (docs/backtest.md, "Recording"), far from the 2,000,000 events a second a replay needs. So
 * `readTableFile` reads the footer, then only the column chunks asked for (the footer gives their
 * offsets), and decodes the pages our writer makes (data page v2, no levels; PLAIN,
 * RLE_DICTIONARY or DELTA_BINARY_PACKED; UNCOMPRESSED or SNAPPY) straight into typed arrays:
 * PLAIN numbers are one byte copy, dictionary indices are gathered (money word by word, so no
 * bigint is made), DELTA is decoded in number arithmetic (hyparquet's own decoder, in bigint, is
 * kept for values a number cannot hold). A file written otherwise (rewritten by another tool, say)
 * is read by hyparquet's general reader instead: slower, same result.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { parquetMetadata, parquetReadObjects, snappyUncompress } from "hyparquet";
import type { ColumnMetaData, FileMetaData, SchemaElement } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import { deltaBinaryUnpack } from "hyparquet/src/delta.js";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { ColumnSource } from "hyparquet-writer";
import type { ColumnData, ColumnSpec, ColumnType, ColumnValues } from "./tables.js";

const MONEY_SCALE = 6;
const MONEY_PRECISION = 18;
/** What our writer puts in a file's `created_by` (`fastPathFile` looks for it). */
const CREATED_BY = "pm-market-maker data set";

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
 * How each column type is encoded (bench/data.bench.ts, docs/backtest.md "Recording"). i64 (`seq`)
 * and times grow by small steps: DELTA_BINARY_PACKED (about 1 byte a value instead of 8), as is
 * any `ColumnSpec.delta` column. Strings: `undefined` lets the writer choose dictionary when it
 * pays. Money and i32 PLAIN: a dictionary would shrink the level prices (2 MB instead of 15 for
 * 1.9M levels) but unpacking and gathering its indices cost about 10 ns a value on this machine
 * (22 a book), against a byte copy for PLAIN, which the 2M events/s target cannot afford.
 */
export const ENCODING: Readonly<Record<ColumnType, ColumnSource["encoding"]>> = {
  i32: "PLAIN",
  i64: "DELTA_BINARY_PACKED",
  ts: "DELTA_BINARY_PACKED",
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
    createdBy: CREATED_BY,
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
  let p = 0;
  for (let i = 0; i < count; i++) {
    const len = (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
    p += 4;
    if (p + len > b.length) throw new NotOurs("string past the end of its page");
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

/** Scratch space reused between pages (dictionary indices, delta values, unaligned words). */
let scratchI32 = new Int32Array(1024);
let scratchF64 = new Float64Array(1024);
function i32Scratch(n: number): Int32Array {
  if (scratchI32.length < n) scratchI32 = new Int32Array(Math.max(n, scratchI32.length * 2));
  return scratchI32;
}
function f64Scratch(n: number): Float64Array {
  if (scratchF64.length < n) scratchF64 = new Float64Array(Math.max(n, scratchF64.length * 2));
  return scratchF64;
}

/** `count` little-endian 32-bit words of `b` as an Int32Array (a view when aligned, else a copy). */
function words(b: Uint8Array, count: number): Int32Array {
  if (count * 4 > b.length) throw new NotOurs("page shorter than its values");
  if (b.byteOffset % 4 === 0) return new Int32Array(b.buffer, b.byteOffset, count);
  const w = i32Scratch(count);
  new Uint8Array(w.buffer, 0, count * 4).set(b.subarray(0, count * 4));
  return w;
}

/** Copies the page's bytes straight into a typed array's memory (no aligned intermediate). */
function copyInto(out: Int32Array | BigInt64Array, at: number, b: Uint8Array, count: number): void {
  const size = out.BYTES_PER_ELEMENT;
  if (count * size > b.length) throw new NotOurs("page shorter than its values");
  new Uint8Array(out.buffer, out.byteOffset + at * size, count * size).set(b.subarray(0, count * size));
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

/** PLAIN values of a page (or a dictionary page) into `out` from `at`. */
function decodePlain(s: ColumnSpec, b: Uint8Array, count: number, out: ColumnData, at: number): void {
  switch (s.type) {
    case "i32":
    case "money":
      copyInto(out as Int32Array | BigInt64Array, at, b, count);
      return;
    case "i64":
    case "ts": {
      const w = words(b, count * 2);
      const o = out as Float64Array;
      for (let i = 0; i < count; i++) o[at + i] = w[2 * i + 1]! * 4294967296 + (w[2 * i]! >>> 0);
      return;
    }
    case "str":
      readStrings(b, count, out as string[], at);
      return;
    case "bool": {
      if (count > b.length * 8) throw new NotOurs("page shorter than its values");
      const o = out as Uint8Array;
      for (let i = 0; i < count; i++) o[at + i] = (b[i >> 3]! >> (i & 7)) & 1;
      return;
    }
  }
}

/**
 * `count` values of the RLE / bit-packed hybrid (width at most 31) from `b[p]` into `out`: four
 * bytes read and shifted a value (hyparquet's reader goes bit by bit through a DataView).
 */
function readHybrid(b: Uint8Array, p: number, width: number, out: Int32Array, count: number): void {
  const r: Cursor = { p, big: false };
  const mask = (1 << width) - 1;
  const bytes = (width + 7) >> 3;
  let n = 0;
  while (n < count) {
    const header = uleb(b, r);
    if (r.big) throw new NotOurs("run header beyond 2^53");
    const start = r.p;
    if (header % 2 === 1) {
      const groups = (header - 1) / 2;
      r.p += groups * width;
      const k = Math.min(groups * 8, count - n);
      if (start + Math.ceil((k * width) / 8) > b.length) throw new NotOurs("bit-packed run past the end of its page");
      if (width <= 25) {
        for (let i = 0, bit = 0; i < k; i++, bit += width) {
          const q = start + (bit >>> 3);
          out[n++] = ((b[q]! | (b[q + 1]! << 8) | (b[q + 2]! << 16) | (b[q + 3]! << 24)) >>> (bit & 7)) & mask;
        }
      } else {
        for (let i = 0, bit = 0; i < k; i++, bit += width) {
          const q = start + (bit >>> 3);
          const sh = bit & 7;
          const lo = (b[q]! | (b[q + 1]! << 8) | (b[q + 2]! << 16) | (b[q + 3]! << 24)) >>> sh;
          out[n++] = (sh === 0 ? lo : lo | (b[q + 4]! << (32 - sh))) & mask;
        }
      }
    } else {
      const run = header / 2;
      r.p += bytes;
      if (r.p > b.length) throw new NotOurs("run past the end of its page");
      let v = 0;
      for (let i = 0; i < bytes; i++) v |= b[start + i]! << (8 * i);
      const k = Math.min(run, count - n);
      out.fill(v & mask, n, n + k);
      n += k;
    }
  }
}

/** Dictionary indices of a page, mapped through the dictionary into `out` from `at`. */
function decodeDictionary(s: ColumnSpec, b: Uint8Array, count: number, out: ColumnData, at: number, dict: ColumnData): void {
  const idx = i32Scratch(count);
  const width = b[0]!;
  if (width > 31) throw new NotOurs(`dictionary index width ${width}`);
  readHybrid(b, 1, width, idx, count);
  const n = dict.length;
  let max = 0;
  for (let i = 0; i < count; i++) max |= idx[i]!;
  // Indices are below 2^width; only those past the dictionary's end need a closer look.
  if (max >>> 0 >= n) for (let i = 0; i < count; i++) if (idx[i]! >>> 0 >= n) throw new NotOurs(`dictionary index ${idx[i]} of ${n}`);
  // One loop per array type, so each stays monomorphic.
  switch (s.type) {
    case "str":
      gatherStrings(out as string[], at, dict as string[], idx, count);
      return;
    case "i32":
      gatherI32(out as Int32Array, at, dict as Int32Array, idx, count);
      return;
    case "i64":
    case "ts":
      gatherF64(out as Float64Array, at, dict as Float64Array, idx, count);
      return;
    case "money":
      gatherWords(out as BigInt64Array, at, dict as BigInt64Array, idx, count);
      return;
    case "bool":
      throw new NotOurs("dictionary on a boolean column");
  }
}

function gatherStrings(o: string[], at: number, d: string[], idx: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) o[at + i] = d[idx[i]!]!;
}

function gatherI32(o: Int32Array, at: number, d: Int32Array, idx: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) o[at + i] = d[idx[i]!]!;
}

function gatherF64(o: Float64Array, at: number, d: Float64Array, idx: Int32Array, count: number): void {
  for (let i = 0; i < count; i++) o[at + i] = d[idx[i]!]!;
}

/** 64-bit values word by word: reading a BigInt64Array element would allocate a bigint. */
function gatherWords(out: BigInt64Array, at: number, dict: BigInt64Array, idx: Int32Array, count: number): void {
  const o = new Int32Array(out.buffer, out.byteOffset + at * 8, count * 2);
  const d = new Int32Array(dict.buffer, dict.byteOffset, dict.length * 2);
  for (let i = 0; i < count; i++) {
    const k = idx[i]! << 1;
    o[2 * i] = d[k]!;
    o[2 * i + 1] = d[k + 1]!;
  }
}

interface Cursor {
  p: number;
  /** A varint was beyond 2^53 (its number is not exact). */
  big: boolean;
}

/** Unsigned LEB128 as a number (`r.big` set when beyond 2^53). */
function uleb(b: Uint8Array, r: Cursor): number {
  let v = 0;
  let mul = 1;
  for (;;) {
    const x = b[r.p++];
    if (x === undefined) throw new NotOurs("varint past the end of its page");
    v += (x & 0x7f) * mul;
    if (x < 0x80) break;
    mul *= 128;
    if (mul > 2 ** 63) throw new NotOurs("varint longer than 64 bits");
  }
  if (v > Number.MAX_SAFE_INTEGER) r.big = true;
  return v;
}

const zigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/**
 * DELTA_BINARY_PACKED in number arithmetic, into `out` (hyparquet's decoder works in bigint for
 * 64-bit columns, several times slower). False when a miniblock is wider than 32 bits or a value
 * leaves the range a number holds exactly: the caller then takes the bigint decoder.
 */
function deltaToNumbers(b: Uint8Array, count: number, out: Float64Array): boolean {
  const r: Cursor = { p: 0, big: false };
  const blockSize = uleb(b, r);
  const miniblocks = uleb(b, r);
  const total = uleb(b, r);
  if (miniblocks === 0 || blockSize % miniblocks !== 0 || (blockSize / miniblocks) % 32 !== 0 || total < count) throw new NotOurs("delta header");
  const perMini = blockSize / miniblocks;
  let value = zigzag(uleb(b, r));
  if (r.big) return false;
  if (count === 0) return true;
  out[0] = value;
  let n = 1;
  const limit = Number.MAX_SAFE_INTEGER;
  while (n < count) {
    const minDelta = zigzag(uleb(b, r));
    if (r.big) return false;
    const widths = r.p;
    r.p += miniblocks;
    if (r.p > b.length) throw new NotOurs("delta block past the end of its page");
    for (let m = 0; m < miniblocks && n < count; m++) {
      const w = b[widths + m]!;
      if (w > 32) return false;
      const start = r.p;
      r.p += (perMini * w) / 8;
      const k = Math.min(perMini, count - n);
      if (start + Math.ceil((k * w) / 8) > b.length) throw new NotOurs("delta miniblock past the end of its page");
      // Every value of this miniblock stays exact in a number, or the bigint decoder takes the page.
      if (Math.abs(value) + k * (Math.abs(minDelta) + 2 ** w) > limit) return false;
      if (w === 0) {
        for (let i = 0; i < k; i++) out[n++] = value += minDelta;
      } else if (w <= 25) {
        const mask = (1 << w) - 1;
        for (let i = 0, bit = 0; i < k; i++, bit += w) {
          const q = start + (bit >>> 3);
          const x = ((b[q]! | (b[q + 1]! << 8) | (b[q + 2]! << 16) | (b[q + 3]! << 24)) >>> (bit & 7)) & mask;
          out[n++] = value += minDelta + x;
        }
      } else {
        const mod = 2 ** w;
        for (let i = 0, bit = 0; i < k; i++, bit += w) {
          const q = start + (bit >>> 3);
          const sh = bit & 7;
          const lo = (b[q]! | (b[q + 1]! << 8) | (b[q + 2]! << 16) | (b[q + 3]! << 24)) >>> sh;
          const x = (lo + (b[q + 4] ?? 0) * 2 ** (32 - sh)) % mod;
          out[n++] = value += minDelta + x;
        }
      }
    }
  }
  return true;
}

/** The numbers of a delta page into the column (money as its two 32-bit words: no bigint made). */
function storeNumbers(s: ColumnSpec, v: Float64Array, count: number, out: ColumnData, at: number): void {
  switch (s.type) {
    case "i32":
      (out as Int32Array).set(v.subarray(0, count), at);
      return;
    case "i64":
    case "ts":
      (out as Float64Array).set(v.subarray(0, count), at);
      return;
    case "money": {
      const o = new Int32Array((out as BigInt64Array).buffer, (out as BigInt64Array).byteOffset + at * 8, count * 2);
      for (let i = 0; i < count; i++) {
        const x = v[i]!;
        o[2 * i] = x >>> 0;
        o[2 * i + 1] = Math.floor(x / 4294967296);
      }
      return;
    }
    default:
      throw new NotOurs(`delta on a ${s.type} column`);
  }
}

function decodeDelta(s: ColumnSpec, b: Uint8Array, count: number, out: ColumnData, at: number): void {
  if (s.type !== "i32" && s.type !== "i64" && s.type !== "ts" && s.type !== "money") throw new NotOurs(`delta on a ${s.type} column`);
  const v = f64Scratch(count);
  if (deltaToNumbers(b, count, v)) {
    storeNumbers(s, v, count, out, at);
    return;
  }
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
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
}

/**
 * One column chunk's pages into `out` from `at`. `bytes` holds the chunk alone: file offset
 * `base` is `bytes[0]`.
 */
function readChunk(bytes: Uint8Array, base: number, md: ColumnMetaData, s: ColumnSpec, out: ColumnData, at: number): number {
  const total = Number(md.num_values);
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: Number(md.dictionary_page_offset ?? md.data_page_offset) - base };
  let dict: ColumnData | undefined;
  let done = 0;
  while (done < total) {
    if (reader.offset >= bytes.length) throw new NotOurs("pages past the end of the chunk");
    const h = parquetHeader(reader);
    if (reader.offset + h.compressed_page_size > bytes.length) throw new NotOurs("page past the end of the chunk");
    const body = bytes.subarray(reader.offset, reader.offset + h.compressed_page_size);
    reader.offset += h.compressed_page_size;
    if (h.type === "DICTIONARY_PAGE") {
      const n = h.dictionary_page_header?.num_values ?? 0;
      dict = allocate(s, n);
      decodePlain(s, decompress(body, md.codec, h.uncompressed_page_size), n, dict, 0);
      continue;
    }
    const v2 = h.data_page_header_v2;
    if (h.type !== "DATA_PAGE_V2" || v2 === undefined) throw new NotOurs(`page type ${h.type}`);
    if (v2.num_nulls !== 0 || v2.definition_levels_byte_length !== 0 || v2.repetition_levels_byte_length !== 0) throw new NotOurs("levels");
    const count = v2.num_values;
    if (done + count > total) throw new NotOurs("more values than the chunk says");
    const data = v2.is_compressed === false ? body : decompress(body, md.codec, h.uncompressed_page_size);
    const enc = v2.encoding;
    if (enc === "PLAIN") decodePlain(s, data, count, out, at + done);
    else if (enc === "RLE_DICTIONARY" || enc === "PLAIN_DICTIONARY") {
      if (dict === undefined) throw new NotOurs("dictionary page missing");
      decodeDictionary(s, data, count, out, at + done, dict);
    } else if (enc === "DELTA_BINARY_PACKED") decodeDelta(s, data, count, out, at + done);
    else throw new NotOurs(`encoding ${enc}`);
    done += count;
  }
  return done;
}

function notParquet(file: string, why: string, cause?: unknown): Error {
  return new Error(`${file}: not a readable Parquet file (${why})`, cause === undefined ? undefined : { cause });
}

function metadataOf(bytes: Uint8Array, file: string): FileMetaData {
  try {
    return parquetMetadata(bytes);
  } catch (e) {
    throw notParquet(file, e instanceof Error ? e.message : String(e), e);
  }
}

/** A table's decoded columns, and the bytes read from its file to get them. */
export interface TableRead {
  columns: Map<string, ColumnData>;
  bytesRead: number;
}

const FAST_CODECS = new Set(["UNCOMPRESSED", "SNAPPY"]);
const FAST_ENCODINGS = new Set(["PLAIN", "RLE_DICTIONARY", "PLAIN_DICTIONARY", "DELTA_BINARY_PACKED", "RLE", "BIT_PACKED"]);

/**
 * Opens `file`, reads its footer and tries the fast path on the columns asked for: the columns,
 * or `undefined` (with the footer) when the fast path cannot take the file. Synchronous.
 */
function readFastFile(file: string, specs: readonly ColumnSpec[]): { columns: Map<string, ColumnData> | undefined; md: FileMetaData; bytesRead: number } {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (size < 12) throw notParquet(file, "file is too short");
    const tail = Buffer.alloc(8);
    readSync(fd, tail, 0, 8, size - 8);
    if (tail.readUInt32LE(4) !== 0x31524150) throw notParquet(file, "footer != PAR1");
    const footLength = tail.readUInt32LE(0) + 8;
    if (footLength > size - 4) throw notParquet(file, `metadata length ${footLength - 8} exceeds the file`);
    const foot = Buffer.alloc(footLength);
    readSync(fd, foot, 0, footLength, size - footLength);
    const md = metadataOf(foot, file);
    let bytesRead = footLength + 8;
    if (specs.length === 0) return { columns: new Map(), md, bytesRead };
    const readRange = (start: number, length: number): Uint8Array => {
      if (!(start >= 4 && length >= 0 && start + length <= size - footLength)) throw notParquet(file, `column chunk at ${start}+${length} outside the file`);
      const b = Buffer.allocUnsafeSlow(length);
      if (readSync(fd, b, 0, length, start) !== length) throw notParquet(file, "short read");
      bytesRead += length;
      return b;
    };
    try {
      const columns = readFast(md, specs, file, readRange);
      return { columns, md, bytesRead };
    } catch (e) {
      if (!(e instanceof NotOurs)) throw e;
    }
    return { columns: undefined, md, bytesRead };
  } finally {
    closeSync(fd);
  }
}

/**
 * The columns asked for of a Parquet file, reading only its footer and those columns' chunks
 * (the footer gives their offsets). Fast path, else hyparquet's general reader on the whole file.
 */
export async function readTableFile(file: string, specs: readonly ColumnSpec[]): Promise<TableRead> {
  const r = readFastFile(file, specs);
  if (r.columns !== undefined) return { columns: r.columns, bytesRead: r.bytesRead };
  const all = readFileSync(file);
  return { columns: await readGeneral(all, r.md, specs, file), bytesRead: r.bytesRead + all.length };
}

/**
 * `readTableFile` synchronously, fast path only: an error naming the file when the fast path
 * cannot take it (check with `fastPathFile` first).
 */
export function readTableFileSync(file: string, specs: readonly ColumnSpec[]): TableRead {
  const r = readFastFile(file, specs);
  if (r.columns === undefined) throw new Error(`${file}: not decoded by the fast path (a file our writer did not make, or a damaged one)`);
  return { columns: r.columns, bytesRead: r.bytesRead };
}

/**
 * Whether the fast path should take `file`, judged on its footer alone: written by our writer,
 * a codec and encodings the fast path decodes. (The page headers are not looked at: a damaged
 * file may still fail.) Synchronous; reads only the footer.
 */
export function fastPathFile(file: string): boolean {
  const { md } = readFastFile(file, []);
  if (md.created_by !== CREATED_BY) return false;
  return md.row_groups.every((rg) => rg.columns.every((c) => c.meta_data !== undefined && FAST_CODECS.has(c.meta_data.codec) && c.meta_data.encodings.every((e) => FAST_ENCODINGS.has(e))));
}

/**
 * The columns asked for of a Parquet file held in memory (fast path, else hyparquet's reader;
 * `general: false` makes a file the fast path cannot take an error, for tests).
 */
export async function readTable(bytes: Uint8Array, specs: readonly ColumnSpec[], file: string, opts: { general?: boolean } = {}): Promise<Map<string, ColumnData>> {
  const md = metadataOf(bytes, file);
  try {
    return readFast(md, specs, file, (start, length) => {
      if (!(start >= 0 && length >= 0 && start + length <= bytes.length)) throw notParquet(file, `column chunk at ${start}+${length} outside the file`);
      return bytes.subarray(start, start + length);
    });
  } catch (e) {
    if (!(e instanceof NotOurs)) throw e;
    if (opts.general === false) throw new Error(`${file}: not decoded by the fast path (${e.message})`, { cause: e });
  }
  return readGeneral(bytes, md, specs, file);
}

function readFast(md: FileMetaData, specs: readonly ColumnSpec[], file: string, readRange: (start: number, length: number) => Uint8Array): Map<string, ColumnData> {
  const rows = Number(md.num_rows);
  const out = new Map<string, ColumnData>();
  for (const s of specs) {
    const data = allocate(s, rows);
    let at = 0;
    for (const rg of md.row_groups) {
      const chunk = rg.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === s.name);
      if (chunk === undefined) throw new Error(`${file}: no column ${s.name}`);
      const cmd = chunk.meta_data;
      if (cmd === undefined) throw new NotOurs("no column metadata");
      const start = Number(cmd.dictionary_page_offset ?? cmd.data_page_offset);
      const bytes = readRange(start, Number(cmd.total_compressed_size));
      if (at + Number(cmd.num_values) > rows) throw new NotOurs(`column ${s.name}: more values than rows`);
      at += readChunk(bytes, start, cmd, s, data, at);
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
    throw notParquet(file, e instanceof Error ? e.message : String(e), e);
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
