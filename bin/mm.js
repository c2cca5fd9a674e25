#!/usr/bin/env node
// The `mm` command. In a source checkout it runs the TypeScript sources through tsx (always
// current, no build step needed after `npm ci`); in an installed or Docker image without
// sources it runs the compiled `dist/`.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "src", "cli", "main.ts");
const compiled = join(root, "dist", "src", "cli", "main.js");

let entry;
if (existsSync(source)) {
  try {
    const { register } = await import("tsx/esm/api");
    register();
    entry = source;
  } catch {
    entry = undefined; // tsx not installed (production install): fall back to dist
  }
}
if (!entry) {
  if (!existsSync(compiled)) {
    process.stderr.write("mm: no compiled build found; run `npm run build` first\n");
    process.exit(1);
  }
  entry = compiled;
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
