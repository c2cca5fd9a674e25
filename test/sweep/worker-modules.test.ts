/**
 * What a sweep worker thread loads before its first point: the fast engine's module graph, without
 * the data set reader and the Parquet libraries under it (about 50 modules, 0.1 s of a worker's
 * start-up), which src/backtest/fast/sources.ts imports only when a recording is read
 * (recordedSource; test/backtest/fast/sources.test.ts runs that path).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/** Every module URL a fresh node process loads when it imports `entry` through tsx. */
function loadedModules(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "sweep-modules-"));
  const log = join(dir, "urls.txt");
  writeFileSync(log, "");
  writeFileSync(
    join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + "\\n"); return next(url, context); }\n`,
  );
  writeFileSync(join(dir, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});\n`);
  const r = spawnSync(process.execPath, ["--import", join(dir, "register.mjs"), "--import", "tsx", "--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(entry).href)});`], {
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(log, "utf8").split("\n").filter((u) => u !== "");
}

describe("sweep worker modules", () => {
  it("a worker thread's module (src/sweep/worker.ts) loads the fast engine but neither the data set reader nor hyparquet", () => {
    const urls = loadedModules(resolve("src/sweep/worker.ts"));
    expect(urls.some((u) => u.endsWith("/src/backtest/fast/engine.ts"))).toBe(true);
    expect(urls.some((u) => u.endsWith("/src/backtest/fast/sources.ts"))).toBe(true);
    expect(urls.filter((u) => u.includes("/node_modules/hyparquet") || /\/src\/data\/(reader|parquet|writer)\.ts$/.test(u))).toEqual([]);
  }, 60_000);
});
