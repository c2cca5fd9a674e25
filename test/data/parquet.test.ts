import { mkdtempSync, writeFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { Rng } from "../../src/core/rng.js";
import { readTable, readTableFile, writeTable } from "../../src/data/parquet.js";
import type { ColumnSpec, ColumnValues } from "../../src/data/tables.js";

const c = (name: string, type: ColumnSpec["type"], delta = false): ColumnSpec => ({ name, type, ...(delta ? { delta } : {}) });

/** Columns that exercise every page our writer makes: PLAIN, dictionary, delta (narrow, wide, beyond a number). */
function table(n: number, seed: number): { specs: ColumnSpec[]; cols: Map<string, ColumnValues> } {
  const rng = new Rng(seed);
  const specs = [
    c("seq", "i64"),
    c("ts", "ts"),
    c("back", "ts"),
    c("i", "i32"),
    c("idelta", "i32", true),
    c("m", "money"),
    c("mdelta", "money", true),
    c("mwide", "money", true),
    c("sym", "str"),
    c("id", "str"),
    c("flag", "bool"),
  ];
  const cols = new Map<string, ColumnValues>(specs.map((s) => [s.name, []]));
  let seq = 0;
  let ts = 1_767_225_600_000;
  const syms = ["A-B", "C-D", "É-Ü", "LONG-" + "X".repeat(60)];
  for (let k = 0; k < n; k++) {
    seq += 1 + rng.int(4);
    ts += rng.int(k % 700 === 0 ? 2 ** 30 : 50);
    const row: Record<string, number | bigint | string | boolean> = {
      seq,
      ts,
      back: ts - rng.int(100_000), // deltas of both signs
      i: rng.int(2 ** 31) - 2 ** 30,
      idelta: k % 9,
      m: BigInt(rng.int(2 ** 30)) * BigInt(rng.int(2 ** 20)) - 2n ** 40n,
      mdelta: BigInt(500_000 + rng.int(1000) * 1000 - 500_000),
      // beyond 2^53 and 32-bit deltas: the bigint decoder's pages
      mwide: (BigInt(rng.int(2 ** 30)) << 30n) * (k % 2 === 0 ? 1n : -1n) + (k % 1000 === 0 ? 2n ** 62n : 0n),
      sym: syms[rng.int(syms.length)]!,
      id: `tr_${k}_${rng.int(1e9)}`,
      flag: rng.float() < 0.3,
    };
    for (const [name, v] of Object.entries(row)) cols.get(name)!.push(v);
  }
  return { specs, cols };
}

function expected(s: ColumnSpec, values: ColumnValues): unknown[] {
  if (s.type === "money") return values.map((v) => BigInt(v as bigint));
  if (s.type === "bool") return values.map((v) => (v === true ? 1 : 0));
  return values;
}

describe("parquet: our decode path", () => {
  it("decodes every encoding the writer uses exactly, on the fast path, across pages", async () => {
    for (const n of [0, 1, 7, 129, 20_000]) {
      const { specs, cols } = table(n, 11 + n);
      const bytes = writeTable(specs, cols);
      const got = await readTable(bytes, specs, "t.parquet", { general: false });
      for (const s of specs) expect(Array.from(got.get(s.name) as ArrayLike<unknown>), `${s.name} (${n} rows)`).toEqual(expected(s, cols.get(s.name)!));
    }
  });

  it("writes standard encodings: delta for seq and times, a dictionary for repeated strings, plain numbers", () => {
    const { specs, cols } = table(5000, 3);
    const md = parquetMetadata(writeTable(specs, cols));
    const enc = new Map(md.row_groups[0]!.columns.map((ch) => [ch.meta_data!.path_in_schema[0], ch.meta_data!.encodings]));
    expect(enc.get("seq")).toContain("DELTA_BINARY_PACKED");
    expect(enc.get("ts")).toContain("DELTA_BINARY_PACKED");
    expect(enc.get("sym")).toContain("RLE_DICTIONARY");
    expect(enc.get("m")).toEqual(["PLAIN"]);
    expect(enc.get("i")).toEqual(["PLAIN"]);
  });

  it("agrees with hyparquet's general reader", async () => {
    const { specs, cols } = table(3000, 5);
    const bytes = writeTable(specs, cols);
    const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer });
    const got = await readTable(bytes, specs, "t.parquet", { general: false });
    const seq = got.get("seq") as Float64Array;
    const mwide = got.get("mwide") as BigInt64Array;
    const ts = got.get("ts") as Float64Array;
    rows.forEach((r, i) => {
      expect(Number(r.seq)).toBe(seq[i]);
      // hyparquet gives DECIMAL as a number of units: equal to the micros within a double's precision
      expect(Math.abs((r.mwide as number) - Number(mwide[i]!) / 1e6)).toBeLessThanOrEqual(Math.abs(Number(mwide[i]!) / 1e6) * 1e-15);
      expect((r.ts as Date).getTime()).toBe(ts[i]);
    });
  });

  it("reads the footer and the chunks asked for, not the whole file", async () => {
    const { specs, cols } = table(20_000, 9);
    const file = join(mkdtempSync(join(tmpdir(), "mm-pq-")), "t.parquet");
    writeFileSync(file, writeTable(specs, cols));
    const one = await readTableFile(file, [c("i", "i32")]);
    expect([...(one.columns.get("i") as Int32Array)]).toEqual(cols.get("i"));
    expect(one.bytesRead).toBeLessThan(statSync(file).size / 4);
    expect(one.bytesRead).toBeGreaterThan(20_000 * 4);
  });

  it("a file the fast path does not take (snappy pages are, another writer's may not be) still reads", async () => {
    const { specs, cols } = table(2000, 4);
    const bytes = writeTable(specs, cols, { codec: "SNAPPY" });
    const got = await readTable(bytes, specs, "t.parquet", { general: false });
    expect([...(got.get("id") as string[])]).toEqual(cols.get("id"));
    expect([...(got.get("mwide") as BigInt64Array)]).toEqual(expected(specs[7]!, cols.get("mwide")!));
  });
});
