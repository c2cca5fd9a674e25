import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSweep, SweepSpecError, type LoadedSweep } from "../../src/sweep/spec.js";
import { runSweep } from "../../src/sweep/sweep.js";
import { mergeResults, MergeConflictError, readResults, resultKey, RESULTS_FILE } from "../../src/sweep/results.js";
import type { PointResult } from "../../src/sweep/run-point.js";
import { sweepCommand } from "../../src/cli/sweep.js";

const DEMO = resolve("configs/demo.yaml");

function sweepFile(dir: string, body: string): string {
  const f = join(dir, "sweep.yaml");
  writeFileSync(f, `config: ${DEMO}\n${body}`);
  return f;
}

const GRID = `data: { duration: 20s }
grid:
  strategy.params.halfSpreadTicks: [1, 3]
  risk.maxOrderSize: ["10", "50"]
seeds: [7]
objective: pnl_over_drawdown
`;

const keys = (rs: readonly PointResult[]): string[] => rs.map(resultKey).sort();

describe("mm sweep", () => {
  let dir: string;
  let sweep: LoadedSweep;
  let whole: PointResult[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sweep-"));
    sweep = loadSweep(sweepFile(dir, GRID));
    whole = (await runSweep(sweep, { out: join(dir, "whole"), workers: 0 })).results;
  }, 120_000);

  it("expands the grid into points with stable ids, one run each", () => {
    expect(sweep.points.map((p) => p.params)).toEqual([
      { "strategy.params.halfSpreadTicks": 1, "risk.maxOrderSize": "10" },
      { "strategy.params.halfSpreadTicks": 1, "risk.maxOrderSize": "50" },
      { "strategy.params.halfSpreadTicks": 3, "risk.maxOrderSize": "10" },
      { "strategy.params.halfSpreadTicks": 3, "risk.maxOrderSize": "50" },
    ]);
    expect(new Set(sweep.points.map((p) => p.id)).size).toBe(4);
    expect(loadSweep(join(dir, "sweep.yaml")).points.map((p) => p.id)).toEqual(sweep.points.map((p) => p.id));
    expect(whole.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(whole.every((r) => r.seed === 7 && r.objective.value !== null)).toBe(true);
  });

  it("refuses an invalid point (the strategy's own schema) and a bad sweep key before running", () => {
    const d = mkdtempSync(join(tmpdir(), "sweep-bad-"));
    expect(() => loadSweep(sweepFile(d, `data: { duration: 20s }\ngrid:\n  strategy.params.halfSpreadTicks: [2, 0]\n`))).toThrow(/halfSpreadTicks=0.*strategy\.params\.halfSpreadTicks/);
    expect(() => loadSweep(sweepFile(d, `data: { duration: 20s }\ngrid:\n  risk.maxOrderSize: ["ten"]\n`))).toThrow(/risk\.maxOrderSize/);
    expect(() => loadSweep(sweepFile(d, `data: { duration: 20s }\ngrid:\n  quoting.refreshMs: [1]\n`))).toThrow(SweepSpecError);
    expect(() => loadSweep(sweepFile(d, `data: { duration: 20s }\ngrid: { risk.maxOrderSize: ["1"] }\nobjectiv: pnl\n`))).toThrow(/objectiv: unknown key/);
    expect(() => loadSweep(sweepFile(d, `data: { duration: 20s }\n`))).toThrow(/exactly one of grid: or random:/);
  });

  it("a random search is drawn from its seed", () => {
    const d = mkdtempSync(join(tmpdir(), "sweep-rnd-"));
    const body = `data: { duration: 20s }\nrandom:\n  samples: 5\n  seed: 3\n  params:\n    strategy.params.halfSpreadTicks: { min: 1, max: 9, step: 2 }\n    risk.maxOrderSize: ["10", "20"]\n`;
    const a = loadSweep(sweepFile(d, body)).points;
    const b = loadSweep(sweepFile(d, body)).points;
    expect(a).toEqual(b);
    for (const p of a) expect([1, 3, 5, 7, 9]).toContain(p.params["strategy.params.halfSpreadTicks"]);
  });

  it("a sweep stopped half-way and restarted (torn last line) completes without repeating a point", async () => {
    const out = join(dir, "resumed");
    const first = await runSweep(sweep, { out, workers: 0, limit: 2 });
    expect(first.ran).toBe(2);
    expect(first.left).toBe(2);
    appendFileSync(join(out, RESULTS_FILE), '{"id":"torn'); // killed while writing
    const second = await runSweep(sweep, { out, workers: 0 });
    expect(second.ran).toBe(2);
    expect(second.skipped).toBe(2);
    const lines = readFileSync(join(out, RESULTS_FILE), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    const ids = lines.map((l) => (JSON.parse(l) as PointResult).id);
    expect(new Set(ids).size).toBe(4);
    expect(keys(readResults(out).results)).toEqual(keys(whole));
    const third = await runSweep(sweep, { out, workers: 0 });
    expect(third.ran).toBe(0);
  }, 120_000);

  it("the union of --shard i/N runs equals the single-process result set; merge detects conflicts", async () => {
    const dirs = [0, 1, 2].map((i) => join(dir, `shard-${i}`));
    for (const [i, out] of dirs.entries()) await runSweep(sweep, { out, workers: 0, shard: { index: i, count: 3 } });
    expect(readResults(dirs[0]!).results.map((r) => r.index)).toEqual([0, 3]);
    expect(keys(mergeResults(dirs))).toEqual(keys(whole));
    // a point with a different result in another dir
    const tampered = { ...whole[1]!, metrics: { ...whole[1]!.metrics, pnl: "999" } };
    appendFileSync(join(dirs[0]!, RESULTS_FILE), JSON.stringify(tampered) + "\n");
    expect(() => mergeResults(dirs)).toThrow(MergeConflictError);
    // the same result twice is fine
    expect(keys(mergeResults([join(dir, "whole"), ...dirs.slice(1)]))).toEqual(keys(whole));
  }, 120_000);

  it("mm sweep merge: ranking and sweep.html; exit 1 on a conflict", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
    const code = await sweepCommand(["merge", join(dir, "whole"), "--out", join(dir, "merged")], io);
    expect(err.join("")).toContain("4 point(s)");
    expect(code).toBe(0);
    expect(out.join("")).toContain("pnl_over_drawdown");
    const html = readFileSync(join(dir, "merged", "sweep.html"), "utf8");
    expect(html).toContain('data-cells="4"');
    expect(await sweepCommand(["merge", join(dir, "whole"), join(dir, "shard-0"), "--out", join(dir, "m2")], io)).toBe(1);
    expect(await sweepCommand([join(dir, "sweep.yaml"), "--out", join(dir, "x"), "--shard", "3/3"], io)).toBe(2);
  });
});
