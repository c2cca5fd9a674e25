/**
 * `npm run bench`: runs every benchmark in bench/ (files named *.bench.ts) in turn. Each prints
 * lines `BENCH <name> <value> <unit>` with `ratio=<r>` where it compares against a baseline
 * measured in the same run. `npm run bench:dist` runs the same files compiled by tsc
 * (tsconfig.bench.json, into dist-bench/), the code the image runs: tsx transpiles with esbuild's
 * name-keeping helpers, which cost time on hot paths that the compiled build does not pay.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts") || f.endsWith(".bench.js"))
  .filter((f) => !only || f.includes(only))
  .sort();
for (const f of files) {
  console.log(`# ${f}`);
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { run?: () => Promise<void> };
  if (typeof mod.run === "function") await mod.run();
}
