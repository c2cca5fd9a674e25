/**
 * Which module mm sweep's worker threads load. A build (dist/, the Docker image) loads its own
 * worker.js. A source checkout loads the compiled dist/src/sweep/worker.js when dist/ is fresh
 * (every .ts under src/ and strategies/ has its .js in dist/, written after the .ts was last
 * changed), else worker.ts through tsx. Loading through tsx costs every worker thread more
 * start-up CPU than the compiled tree (measured by bench/sweep.bench.ts, docs/backtest.md
 * "Sweeps"), so `npm run build` before a sweep in a checkout makes the pool start faster; a
 * stale dist/ is never used (it would run other code than the sources).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export type LoaderChoice = "auto" | "dist" | "tsx";

export interface WorkerModule {
  /** "dist": compiled JavaScript; "tsx": the TypeScript sources through tsx. */
  kind: "dist" | "tsx";
  filename: string;
  execArgv: string[];
  /** Why this one, for the user (mm sweep prints it). */
  why: string;
}

/** Directories of a checkout that tsconfig.build.json compiles into dist/. */
export const COMPILED_DIRS = ["src", "strategies"] as const;

function tsFiles(dir: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out);
    else if (e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(p);
  }
}

/**
 * Why ROOT/dist is not a current build of ROOT's sources, or undefined when it is: every .ts
 * under ROOT/src and ROOT/strategies has ROOT/dist/<same path>.js, modified no earlier than the .ts.
 */
export function staleBuild(root: string, dirs: readonly string[] = COMPILED_DIRS): string | undefined {
  const dist = join(root, "dist");
  if (!existsSync(dist)) return "no dist/ (npm run build makes one)";
  for (const d of dirs) {
    const files: string[] = [];
    if (existsSync(join(root, d))) tsFiles(join(root, d), files);
    for (const ts of files) {
      const rel = relative(root, ts);
      const js = join(dist, rel.slice(0, -".ts".length) + ".js");
      if (!existsSync(js)) return `dist/ has no ${relative(root, js)} (npm run build)`;
      if (statSync(js).mtimeMs < statSync(ts).mtimeMs) return `${rel} is newer than dist/ (npm run build)`;
    }
  }
  return undefined;
}

/**
 * The worker module for a sweep run from `here` (this file's path: .ts in a checkout, .js in a
 * build). choice "dist" or "tsx" forces one in a checkout (bench, tests); "dist" is refused when
 * dist/ is stale or absent.
 */
export function workerModule(choice: LoaderChoice = "auto", here: string = fileURLToPath(import.meta.url)): WorkerModule {
  const dir = dirname(here);
  if (!here.endsWith(".ts")) {
    if (choice === "tsx") throw new Error("workers through tsx: this is a build (dist/), not a source checkout");
    return { kind: "dist", filename: join(dir, "worker.js"), execArgv: [], why: "running from a build" };
  }
  const tsx: WorkerModule = { kind: "tsx", filename: join(dir, "worker.ts"), execArgv: ["--import", "tsx"], why: "" };
  if (choice === "tsx") return { ...tsx, why: "asked for" };
  const root = resolve(dir, "..", "..");
  const stale = staleBuild(root);
  if (stale === undefined) {
    return { kind: "dist", filename: join(root, "dist", "src", "sweep", "worker.js"), execArgv: [], why: "dist/ is newer than every source" };
  }
  if (choice === "dist") throw new Error(`workers from dist/: ${stale}`);
  return { ...tsx, why: stale };
}
