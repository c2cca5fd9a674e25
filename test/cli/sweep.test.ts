/**
 * `mm sweep`'s command line (src/cli/sweep.ts) where no backtest runs: every refusal before a run
 * (exit 2: --out, the FILE, --workers, --reports, --shard, a bad sweep file, --x / --y not swept),
 * --help, and `mm sweep merge` over results written here by hand: the union of the directories
 * (index order, one line per point however often it is merged), the ranking and sweep.html, the run
 * reports a directory holds linked, and a conflict or a missing directory failing with exit 1.
 * Sweeps that run: test/sweep/sweep.test.ts and run-reports.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { USAGE, sweepCommand } from "../../src/cli/sweep.js";
import type { PointResult } from "../../src/sweep/run-point.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), "mm-cli-sweep-"));
  dirs.push(d);
  return d;
}

function io() {
  let out = "";
  let err = "";
  return { io: { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t) }, out: () => out, err: () => err };
}

function result(index: number, pnl: string, over: Partial<PointResult> = {}): PointResult {
  return {
    id: `p${index}`,
    index,
    seed: 7,
    params: { "strategy.params.halfSpreadTicks": index + 1 },
    metrics: { pnl, maxDrawdown: "1", fills: index * 3, volume: "10", fees: "0.1", markoutValue: null, markoutAdjustedPnl: null },
    objective: { name: "pnl", value: pnl },
    elapsedMs: 100,
    ...over,
  };
}

function resultsDir(results: PointResult[]): string {
  const d = tmp();
  writeFileSync(join(d, "results.jsonl"), results.map((r) => JSON.stringify(r) + "\n").join(""));
  return d;
}

async function refused(argv: string[]): Promise<string> {
  const a = io();
  expect(await sweepCommand(argv, a.io), argv.join(" ")).toBe(2);
  return a.err();
}

const SWEEP = `config: ${resolve("configs/demo.yaml")}
data: { duration: 20s }
grid:
  strategy.params.halfSpreadTicks: [1, 3]
seeds: [7]
objective: pnl
`;

describe("mm sweep refusals (exit 2, nothing run)", () => {
  it("--help prints the usage, exit 0", async () => {
    const a = io();
    expect(await sweepCommand(["--help"], a.io)).toBe(0);
    expect(a.out()).toBe(USAGE);
  });

  it("--out and the sweep FILE are required", async () => {
    expect(await refused(["s.yaml"])).toMatch(/^mm sweep: --out DIR is required\nUsage: mm sweep FILE --out DIR/);
    expect(await refused(["--out", "d"])).toMatch(/^mm sweep: give the sweep FILE\n/);
    expect(await refused(["a.yaml", "b.yaml", "--out", "d"])).toBe(
      'mm sweep: unexpected argument "b.yaml"\n' +
        "Usage: mm sweep FILE --out DIR [--workers N] [--shard I/N] [--reports N] [--x KEY] [--y KEY]\n" +
        "       mm sweep merge DIR... --out DIR [--x KEY] [--y KEY]\n" +
        "Run `mm help sweep` for the options.\n",
    );
  });

  it("--workers 1..256, --reports 0..100", async () => {
    for (const w of ["0", "257", "two", "1.5"]) expect(await refused(["s.yaml", "--out", "d", "--workers", w])).toContain(`--workers: expected a whole number in 1..256 (got "${w}")`);
    for (const r of ["101", "-1", "all"]) expect(await refused(["s.yaml", "--out", "d", "--reports", r])).toContain(`--reports: expected a whole number in 0..100 (got "${r}")`);
  });

  it("--shard I/N with 0 <= I < N", async () => {
    expect(await refused(["s.yaml", "--out", "d", "--shard", "3/3"])).toContain("--shard: expected 0 <= I < N (got 3/3)");
    expect(await refused(["s.yaml", "--out", "d", "--shard", "0/0"])).toContain("--shard: expected 0 <= I < N (got 0/0)");
    expect(await refused(["s.yaml", "--out", "d", "--shard", "1-4"])).toContain('--shard: expected I/N, e.g. 0/4 (got "1-4")');
  });

  it("a sweep file that does not load: its problem", async () => {
    const d = tmp();
    writeFileSync(join(d, "bad.yaml"), "grid: 3\n");
    const err = await refused([join(d, "bad.yaml"), "--out", join(d, "out")]);
    expect(err).toMatch(new RegExp(`^mm sweep: ${join(d, "bad.yaml")}: config: `));
    expect(err).toContain(`${join(d, "bad.yaml")}: grid: `);
    expect(existsSync(join(d, "out", "results.jsonl"))).toBe(false);
  });

  it("--x or --y that is not a swept key, naming the swept ones", async () => {
    const d = tmp();
    writeFileSync(join(d, "s.yaml"), SWEEP);
    expect(await refused([join(d, "s.yaml"), "--out", join(d, "out"), "--x", "risk.maxOrderSize"])).toContain('--x: "risk.maxOrderSize" is not a swept key (strategy.params.halfSpreadTicks)');
    expect(await refused([join(d, "s.yaml"), "--out", join(d, "out"), "--y", "nope"])).toContain('--y: "nope" is not a swept key');
    expect(existsSync(join(d, "out"))).toBe(false);
  });
});

describe("mm sweep merge", () => {
  it("refuses no DIR, and the flags that are for running a sweep", async () => {
    expect(await refused(["merge", "--out", "d"])).toMatch(/^mm sweep: merge: give at least one DIR\n/);
    for (const f of [["--workers", "2"], ["--shard", "0/2"], ["--reports", "1"]]) expect(await refused(["merge", "a", "--out", "d", ...f])).toContain(`merge: ${f[0]} is for running a sweep`);
  });

  it("the union in index order, ranked best first, with sweep.html; merging again adds no line", async () => {
    const a = resultsDir([result(0, "5"), result(2, "-1")]);
    const b = resultsDir([result(1, "12.5"), result(2, "-1")]);
    const out = join(tmp(), "merged");
    const run = io();
    expect(await sweepCommand(["merge", a, b, "--out", out], run.io)).toBe(0);
    expect(run.err()).toBe("mm sweep merge: 3 point(s) from 2 dir(s)\n");
    const lines = readFileSync(join(out, "results.jsonl"), "utf8").trimEnd().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as PointResult).id)).toEqual(["p0", "p1", "p2"]);
    const ranking = run.out().split("\n").filter((l) => /^\d+\s+p\d/.test(l.trim()));
    expect(ranking.map((l) => l.trim().split(/\s+/)[1])).toEqual(["p1", "p0", "p2"]);
    expect(run.out()).toContain(`results: ${join(out, "results.jsonl")}\nhtml report: ${join(out, "sweep.html")}\n`);
    expect(run.out()).not.toContain("run reports:");
    expect(readFileSync(join(out, "sweep.html"), "utf8")).toContain("<html");

    expect(await sweepCommand(["merge", a, b, "--out", out], io().io)).toBe(0);
    expect(readFileSync(join(out, "results.jsonl"), "utf8").trimEnd().split("\n")).toHaveLength(3);
  });

  it("links the run reports a directory holds, relative to --out", async () => {
    const a = resultsDir([result(0, "5")]);
    mkdirSync(join(a, "runs"));
    writeFileSync(join(a, "runs", "p0.html"), "<html></html>");
    const root = tmp();
    const out = join(root, "merged");
    const run = io();
    expect(await sweepCommand(["merge", a, "--out", out], run.io)).toBe(0);
    expect(run.out()).toContain(`run reports: ${join(a, "runs", "p0.html")}\n`);
    // sweep.html is in root/merged, the report in <a>/runs: both temporary dirs side by side.
    expect(readFileSync(join(out, "sweep.html"), "utf8")).toContain(`<a href="../../${basename(a)}/runs/p0.html"><code>p0</code></a>`);
  });

  it("one point with two different results: exit 1, naming it; a missing directory: exit 1", async () => {
    const a = resultsDir([result(0, "5")]);
    const b = resultsDir([result(0, "6")]);
    const run = io();
    expect(await sweepCommand(["merge", a, b, "--out", join(tmp(), "m")], run.io)).toBe(1);
    expect(run.err()).toBe(`mm sweep merge: 1 point(s) with different results:\n  point p0 (#0): ${a} and ${b} differ\n`);
    const gone = io();
    expect(await sweepCommand(["merge", join(tmp(), "none"), "--out", join(tmp(), "m")], gone.io)).toBe(1);
    expect(gone.err()).toMatch(/^mm sweep merge: no such directory: /);
  });
});
