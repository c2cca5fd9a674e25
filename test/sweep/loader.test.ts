/**
 * What mm sweep's worker threads load (src/sweep/loader.ts): the compiled dist/ only when it is
 * newer than every source, else the sources through tsx; and a pool of worker threads gives the
 * very results of the in-thread run.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { staleBuild, workerModule } from "../../src/sweep/loader.js";
import { loadSweep } from "../../src/sweep/spec.js";
import { runSweep } from "../../src/sweep/sweep.js";
import { resultKey } from "../../src/sweep/results.js";

const T0 = new Date("2026-01-01T00:00:00Z");
const later = (s: number): Date => new Date(T0.getTime() + s * 1000);

/** A checkout in a temp dir: each file written with its mtime. */
function tree(files: Record<string, Date>): string {
  const root = mkdtempSync(join(tmpdir(), "sweep-loader-"));
  for (const [rel, mtime] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, "");
    utimesSync(p, mtime, mtime);
  }
  return root;
}

const SOURCES = { "src/sweep/worker.ts": T0, "src/sweep/loader.ts": T0, "src/core/money.ts": T0, "strategies/ladder.ts": T0, "src/types.d.ts": T0 };
const BUILT = { "dist/src/sweep/worker.js": later(5), "dist/src/sweep/loader.js": later(5), "dist/src/core/money.js": later(5), "dist/strategies/ladder.js": later(5) };

describe("sweep worker loader", () => {
  it("dist/ is current when every .ts under src/ and strategies/ has a .js no older than it (.d.ts aside)", () => {
    expect(staleBuild(tree(SOURCES))).toBe("no dist/ (npm run build makes one)");
    expect(staleBuild(tree({ ...SOURCES, ...BUILT }))).toBeUndefined();
    expect(staleBuild(tree({ ...SOURCES, ...BUILT, "src/core/money.ts": later(9) }))).toBe("src/core/money.ts is newer than dist/ (npm run build)");
    expect(staleBuild(tree({ ...SOURCES, ...BUILT, "strategies/new.ts": T0 }))).toBe("dist/ has no dist/strategies/new.js (npm run build)");
  });

  it("a checkout's workers load dist/ only when it is current; a build loads its own worker.js", () => {
    const fresh = tree({ ...SOURCES, ...BUILT });
    const here = join(fresh, "src", "sweep", "loader.ts");
    expect(workerModule("auto", here)).toEqual({ kind: "dist", filename: join(fresh, "dist/src/sweep/worker.js"), execArgv: [], why: "dist/ is newer than every source" });
    expect(workerModule("tsx", here)).toMatchObject({ kind: "tsx", filename: join(fresh, "src/sweep/worker.ts"), execArgv: ["--import", "tsx"] });

    const stale = tree({ ...SOURCES, ...BUILT, "src/sweep/worker.ts": later(9) });
    const staleHere = join(stale, "src", "sweep", "loader.ts");
    expect(workerModule("auto", staleHere)).toEqual({ kind: "tsx", filename: join(stale, "src/sweep/worker.ts"), execArgv: ["--import", "tsx"], why: "src/sweep/worker.ts is newer than dist/ (npm run build)" });
    expect(() => workerModule("dist", staleHere)).toThrow(/workers from dist\/: src\/sweep\/worker\.ts is newer than dist\//);

    const built = join(fresh, "dist", "src", "sweep", "loader.js");
    expect(workerModule("auto", built)).toEqual({ kind: "dist", filename: join(fresh, "dist/src/sweep/worker.js"), execArgv: [], why: "running from a build" });
    expect(() => workerModule("tsx", built)).toThrow(/not a source checkout/);
  });

  it("a pool of worker threads gives the in-thread results, and says what it loaded", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sweep-pool-"));
    const file = join(dir, "sweep.yaml");
    writeFileSync(file, `config: ${resolve("configs/demo.yaml")}\ndata: { duration: 20s }\ngrid:\n  strategy.params.halfSpreadTicks: [1, 2, 3]\nseeds: [9]\n`);
    const sweep = loadSweep(file);
    const inThread = await runSweep(sweep, { out: join(dir, "a"), workers: 0 });
    expect(inThread.worker).toBeUndefined();
    const tsx = workerModule("tsx");
    const pooled = await runSweep(sweep, { out: join(dir, "b"), workers: 2, worker: tsx });
    expect(pooled.worker).toBe(tsx);
    expect(pooled.ran).toBe(3);
    expect(pooled.results.map(resultKey)).toEqual(inThread.results.map(resultKey));
    const auto = workerModule();
    if (auto.kind === "dist") {
      // this checkout has a current build: its workers must agree too
      const compiled = await runSweep(sweep, { out: join(dir, "c"), workers: 2, worker: auto });
      expect(compiled.results.map(resultKey)).toEqual(inThread.results.map(resultKey));
    }
  }, 120_000);
});
