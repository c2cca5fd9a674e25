/**
 * A sweep's results file and ranking (sweep/results.ts) on hand-made results: one JSON line each,
 * a torn last line ignored on reading and cut off before the next append, any other bad line an
 * error naming the file and line; results of several directories merged, one point with two
 * different results refused (wall time aside); ranked best first by the objective as a decimal, a
 * missing value last, ties by index; the ranking as a table.
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PointResult } from "../../src/sweep/run-point.js";
import { MergeConflictError, RESULTS_FILE, ResultsWriter, mergeResults, rank, rankingTable, readResults, resultKey, shortKey } from "../../src/sweep/results.js";
import { pointResult as result } from "./fixtures.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-results-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = (d = dir): string => join(d, RESULTS_FILE);

describe("the results file", () => {
  it("is results.jsonl, absent meaning no results", () => {
    expect(RESULTS_FILE).toBe("results.jsonl");
    expect(readResults(dir)).toEqual({ results: [], wholeBytes: 0, tornTail: false });
  });

  it("is appended one whole line per result, and read back", () => {
    const w = new ResultsWriter(join(dir, "new"));
    w.append(result(0, "1.5"));
    w.append(result(1, null));
    w.close();
    const text = readFileSync(file(join(dir, "new")), "utf8");
    expect(text).toBe(`${JSON.stringify(result(0, "1.5"))}\n${JSON.stringify(result(1, null))}\n`);
    expect(readResults(join(dir, "new"))).toEqual({ results: [result(0, "1.5"), result(1, null)], wholeBytes: Buffer.byteLength(text), tornTail: false });
  });

  it("ignores a torn last line, and a writer cuts it off before appending", () => {
    const whole = `${JSON.stringify(result(0, "1"))}\n`;
    writeFileSync(file(), `${whole}\n${'{"id":"p1","ind'}`);
    expect(readResults(dir)).toEqual({ results: [result(0, "1")], wholeBytes: whole.length + 1, tornTail: true });
    const w = new ResultsWriter(dir);
    w.append(result(2, "3"));
    w.close();
    expect(readFileSync(file(), "utf8")).toBe(`${whole}\n${JSON.stringify(result(2, "3"))}\n`);
    expect(readResults(dir).results.map((r) => r.id)).toEqual(["p0", "p2"]);
  });

  it("refuses a bad line other than the last, naming the file and line", () => {
    writeFileSync(file(), `${JSON.stringify(result(0, "1"))}\n{oops\n${JSON.stringify(result(1, "1"))}\n`);
    expect(() => readResults(dir)).toThrow(`${file()}:2: not a JSON line (only a torn last line is skipped)`);
    writeFileSync(file(), `${JSON.stringify(result(0, "1"))}\n${JSON.stringify({ id: "p1", index: 1 })}\n`);
    expect(() => readResults(dir)).toThrow(`${file()}:2: not a sweep result (id, index, seed, metrics, objective)`);
  });
});

describe("merging directories", () => {
  const write = (name: string, rs: PointResult[]): string => {
    const d = join(dir, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(file(d), rs.map((r) => `${JSON.stringify(r)}\n`).join(""));
    return d;
  };

  it("gives every point once, by index, a repeat with another wall time being the same result", () => {
    const a = write("a", [result(2, "2"), result(0, "0")]);
    const b = write("b", [result(1, "1"), { ...result(2, "2"), elapsedMs: 99_999 }]);
    expect(mergeResults([a, b]).map((r) => [r.id, r.elapsedMs])).toEqual([
      ["p0", 1_000],
      ["p1", 1_001],
      ["p2", 1_002],
    ]);
    expect(resultKey({ ...result(2, "2"), elapsedMs: 5 })).toBe(resultKey(result(2, "2")));
    expect(resultKey({ ...result(2, "2"), seed: 8 })).not.toBe(resultKey(result(2, "2")));
  });

  it("refuses one point with two different results, listing each", () => {
    const a = write("a", [result(0, "0"), result(1, "1")]);
    const b = write("b", [{ ...result(1, "1"), metrics: { ...result(1, "1").metrics, fills: 0 } }]);
    let err: unknown;
    try {
      mergeResults([a, b]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MergeConflictError);
    expect((err as MergeConflictError).conflicts).toEqual([`point p1 (#1): ${a} and ${b} differ`]);
    expect((err as Error).message).toBe(`1 point(s) with different results:\n  point p1 (#1): ${a} and ${b} differ`);
  });

  it("refuses a directory that is missing or has no results file", () => {
    expect(() => mergeResults([join(dir, "none")])).toThrow(`no such directory: ${join(dir, "none")}`);
    mkdirSync(join(dir, "empty"));
    expect(() => mergeResults([join(dir, "empty")])).toThrow(`${join(dir, "empty")}: no results.jsonl`);
    appendFileSync(join(dir, "plain-file"), "x");
    expect(() => mergeResults([join(dir, "plain-file")])).toThrow("no such directory");
  });
});

describe("the ranking", () => {
  it("is best first by the objective as a decimal, missing values last, ties by index", () => {
    const rs = [result(0, "9.5"), result(1, null), result(2, "10.25"), result(3, "-1"), result(4, "10.25"), result(5, null), result(6, "0.000001")];
    expect(rank(rs).map((r) => r.index)).toEqual([2, 4, 0, 6, 3, 1, 5]);
    expect(rs.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("shows as a table: rank, point, swept values by short key, seed, pnl, drawdown, fills", () => {
    const lines = rankingTable([result(0, "1.5"), result(1, "2")]).split("\n");
    expect(lines.map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ["#", "point", "halfSpreadTicks", "risk.maxOrderSize", "seed", "pnl", "max dd", "fills"],
      ["1", "p1", "1", "10", "7", "2", "0.5", "3"],
      ["2", "p0", "0", "10", "7", "1.5", "0.5", "0"],
      [""],
    ]);
  });

  it("adds the objective's column when it is not pnl, n/a when missing, and keeps the top ones", () => {
    const o = (i: number, v: string | null) => ({ ...result(i, v), objective: { name: "pnl_over_drawdown" as const, value: v } });
    const lines = rankingTable([o(0, "3"), o(1, null), o(2, "4")], 2).trimEnd().split("\n");
    expect(lines.map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ["#", "point", "halfSpreadTicks", "risk.maxOrderSize", "seed", "pnl_over_drawdown", "pnl", "max dd", "fills"],
      ["1", "p2", "2", "10", "7", "4", "4", "0.5", "6"],
      ["2", "p0", "0", "10", "7", "3", "3", "0.5", "0"],
    ]);
    expect(rankingTable([])).toBe("no results\n");
  });

  it("shortens strategy params to their name, other keys kept whole", () => {
    expect(shortKey("strategy.params.halfSpreadTicks")).toBe("halfSpreadTicks");
    expect(shortKey("strategy.params.a.b")).toBe("a.b");
    expect(shortKey("risk.maxOrderSize")).toBe("risk.maxOrderSize");
  });
});
