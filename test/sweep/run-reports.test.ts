/**
 * `mm sweep --reports N`: the best N runs get their own HTML backtest report (re-run from their
 * task: the same figures as the ranked result), linked from sweep.html; merge links the reports
 * the shards wrote; a re-run that differs from its result is not linked. On the sweep's worker
 * pool the re-runs give the very files, links and findings of the in-thread ones.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSweep, type LoadedSweep } from "../../src/sweep/spec.js";
import { runSweep } from "../../src/sweep/sweep.js";
import { rank } from "../../src/sweep/results.js";
import { existingRunReports, writeRunReports, type RunReportsProgress } from "../../src/sweep/run-reports.js";
import { SweepPool } from "../../src/sweep/pool.js";
import { workerModule } from "../../src/sweep/loader.js";
import { sweepHtml } from "../../src/sweep/html.js";
import type { PointResult } from "../../src/sweep/run-point.js";
import { sweepCommand } from "../../src/cli/sweep.js";

const GRID = `config: ${resolve("configs/demo.yaml")}
data: { duration: 20s }
grid:
  strategy.params.halfSpreadTicks: [1, 3]
seeds: [5]
objective: pnl
`;

describe("sweep run reports", () => {
  let dir: string;
  let sweep: LoadedSweep;
  let results: PointResult[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sweep-reports-"));
    writeFileSync(join(dir, "sweep.yaml"), GRID);
    sweep = loadSweep(join(dir, "sweep.yaml"));
    results = (await runSweep(sweep, { out: join(dir, "a"), workers: 0 })).results;
  }, 120_000);

  it("writes the best run's report, the same run as ranked, and links it", async () => {
    const out = join(dir, "a");
    const best = rank(results)[0]!;
    const { links, mismatched } = await writeRunReports(sweep.tasks, results, out, 1);
    expect(mismatched).toEqual([]);
    expect([...links]).toEqual([[best.id, `runs/${best.id}.html`]]);
    const html = readFileSync(join(out, "runs", `${best.id}.html`), "utf8");
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain(best.metrics.pnl);
    const page = sweepHtml(results, { title: "t", links });
    expect(page).toContain(`<a href="runs/${best.id}.html"><code>${best.id}</code></a>`);
    const other = results.find((r) => r.id !== best.id)!;
    expect(page).toContain(`<td><code>${other.id}</code></td>`);
  }, 120_000);

  it("a result whose re-run gives other figures is not linked", async () => {
    const out = join(dir, "b");
    const best = rank(results)[0]!;
    const forged = results.map((r) => (r.id === best.id ? { ...r, metrics: { ...r.metrics, fills: r.metrics.fills + 1 } } : r));
    writeFileSync(join(dir, "stale.html"), "old");
    const { mkdirSync, copyFileSync } = await import("node:fs");
    mkdirSync(join(out, "runs"), { recursive: true });
    copyFileSync(join(dir, "stale.html"), join(out, "runs", `${best.id}.html`)); // left by an earlier sweep in this DIR
    const { links, mismatched } = await writeRunReports(sweep.tasks, forged, out, 1);
    expect(mismatched).toEqual([best.id]);
    expect(links.size).toBe(0);
    expect(existsSync(join(out, "runs", `${best.id}.html`))).toBe(false);
  }, 120_000);

  it("a re-run that fails is reported, not linked, and the others still get theirs", async () => {
    const out = join(dir, "e");
    const [first, second] = rank(results);
    const tasks = sweep.tasks.map((t) => (t.id === first!.id ? { ...t, dataDir: join(dir, "no-such-data") } : t));
    const { links, failed } = await writeRunReports(tasks, results, out, 2);
    expect(failed.map((f) => f.id)).toEqual([first!.id]);
    expect([...links.keys()]).toEqual([second!.id]);
  }, 120_000);

  it("on a worker pool the re-runs run in parallel and give the in-thread files, links and findings", async () => {
    const inThread = await writeRunReports(sweep.tasks, results, join(dir, "serial"), 2);
    expect(inThread.links.size).toBe(2);
    const pool = new SweepPool(workerModule(), 2);
    try {
      const progress: RunReportsProgress[] = [];
      const pooled = await writeRunReports(sweep.tasks, results, join(dir, "pooled"), 2, { pool, onProgress: (p) => progress.push(p) });
      expect(pool.threads).toBe(2);
      expect(pooled).toEqual(inThread);
      expect([...pooled.links.keys()]).toEqual([...inThread.links.keys()]); // rank order, whichever finished first
      const files = readdirSync(join(dir, "serial", "runs")).sort();
      expect(readdirSync(join(dir, "pooled", "runs")).sort()).toEqual(files);
      for (const f of files) expect(readFileSync(join(dir, "pooled", "runs", f), "utf8")).toBe(readFileSync(join(dir, "serial", "runs", f), "utf8"));
      expect(progress.map((p) => p.done)).toEqual([1, 2]);
      expect(progress.map((p) => p.written).sort()).toEqual([...inThread.links.values()].sort());

      // A failed and a mismatched re-run on the pool: the same findings as in this thread.
      const [first, second] = rank(results);
      const tasks = sweep.tasks.map((t) => (t.id === first!.id ? { ...t, dataDir: join(dir, "no-such-data") } : t));
      const forged = results.map((r) => (r.id === second!.id ? { ...r, metrics: { ...r.metrics, fills: r.metrics.fills + 1 } } : r));
      const serialBad = await writeRunReports(tasks, forged, join(dir, "serial-bad"), 2);
      const pooledBad = await writeRunReports(tasks, forged, join(dir, "pooled-bad"), 2, { pool });
      expect(pooledBad.failed.map((f) => f.id)).toEqual([first!.id]);
      expect(pooledBad.mismatched).toEqual([second!.id]);
      expect(pooledBad).toEqual(serialBad);
      expect(pooledBad.links.size).toBe(0);
    } finally {
      await pool.destroy();
    }
  }, 120_000);

  it("merge links the reports a shard wrote, relative to the merged DIR", () => {
    const best = rank(results)[0]!;
    const links = existingRunReports(results, [join(dir, "nothing-here"), join(dir, "a")], join(dir, "merged"));
    expect(links.get(best.id)).toBe(`../a/runs/${best.id}.html`);
  });

  it("mm sweep --reports: 0 writes none; a bad value and --reports on merge are refused", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
    // Every point is already in DIR a (a resumed sweep runs none): only the reports step is left.
    expect(await sweepCommand([join(dir, "sweep.yaml"), "--out", join(dir, "a"), "--workers", "1", "--reports", "0"], io)).toBe(0);
    expect(err.join("")).toContain("ran 0, skipped 2");
    expect(err.join("")).toMatch(/1 worker\(s\) loading the (compiled dist\/|TypeScript sources through tsx) \(/);
    expect(out.join("")).not.toContain("run reports:");
    expect(await sweepCommand([join(dir, "sweep.yaml"), "--out", join(dir, "c"), "--reports", "many"], io)).toBe(2);
    expect(err.join("")).toContain("--reports: expected a whole number in 0..100");
    expect(await sweepCommand(["merge", join(dir, "a"), "--out", join(dir, "d"), "--reports", "2"], io)).toBe(2);
  }, 120_000);

  it("mm sweep --reports 2 --workers 2: the sweep's pool writes both reports, progress said per report", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
    const dirF = join(dir, "f");
    expect(await sweepCommand([join(dir, "sweep.yaml"), "--out", dirF, "--workers", "2", "--reports", "2"], io)).toBe(0);
    expect(err.join("")).toContain("ran 2, skipped 0");
    const ranked = rank(results);
    const lines = err.join("").split("\n").filter((l) => l.startsWith("sweep: report "));
    expect(lines.map((l) => l.slice(0, "sweep: report 1/2".length))).toEqual(["sweep: report 1/2", "sweep: report 2/2"]);
    for (const r of ranked) {
      expect(lines.some((l) => l.endsWith(`written, runs/${r.id}.html`))).toBe(true);
      expect(readFileSync(join(dirF, "runs", `${r.id}.html`), "utf8")).toBe(readFileSync(join(dir, "serial", "runs", `${r.id}.html`), "utf8"));
    }
    expect(out.join("")).toContain("run reports:");
  }, 120_000);
});
