/**
 * `npm run bench`: runs every benchmark in bench/ (files named *.bench.ts) in turn. Each prints
 * lines `BENCH <name> <value> <unit>` with `ratio=<r>` where it compares against a baseline
 * measured in the same run.
 */
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => !only || f.includes(only))
  .sort();
for (const f of files) {
  console.log(`# ${f}`);
  const mod = (await import(pathToFileURL(join(here, f)).href)) as { run?: () => Promise<void> };
  if (typeof mod.run === "function") await mod.run();
}
