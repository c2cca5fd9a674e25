/**
 * Opening a report in headless Chromium (Debian's `chromium` package, or $CHROMIUM): one launch
 * that runs the page's scripts (virtual time budget), saves a screenshot and dumps the DOM, from
 * which the page's own marks are read (client.ts: data-ready, data-errors, data-render-ms). Console
 * errors Chromium logs on stderr are collected too.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export function chromiumPath(): string | undefined {
  const env = process.env["CHROMIUM"];
  if (env !== undefined && env !== "" && existsSync(env)) return env;
  for (const p of ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]) if (existsSync(p)) return p;
  return undefined;
}

export interface Opened {
  ready: Record<string, number> | null;
  errors: string[];
  renderMs: number | null;
  /** The whole Chromium process, launch included. */
  wallMs: number;
}

const attr = (dom: string, name: string): string | null => {
  const m = new RegExp(`<body[^>]*\\s${name}="([^"]*)"`).exec(dom);
  return m === null ? null : m[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
};

export function openInChromium(chromium: string, htmlFile: string, pngFile: string): Opened {
  mkdirSync(dirname(resolve(pngFile)), { recursive: true });
  const t0 = performance.now();
  const r = spawnSync(
    chromium,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--hide-scrollbars",
      "--enable-logging=stderr",
      "--window-size=1200,3000",
      "--virtual-time-budget=15000",
      `--screenshot=${resolve(pngFile)}`,
      "--dump-dom",
      pathToFileURL(resolve(htmlFile)).href,
    ],
    { encoding: "utf8", timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: "disabled:" } },
  );
  const wallMs = performance.now() - t0;
  if (r.error !== undefined) throw new Error(`chromium did not run: ${r.error.message}`);
  const dom = r.stdout;
  const errors: string[] = [];
  const pageErrors = attr(dom, "data-errors");
  if (pageErrors === null) errors.push("the page never set data-errors (its script did not run)");
  else errors.push(...(JSON.parse(pageErrors) as string[]));
  for (const line of r.stderr.split("\n")) if (/CONSOLE.*(Uncaught|Error)/i.test(line)) errors.push(line.trim());
  const ready = attr(dom, "data-ready");
  const ms = attr(dom, "data-render-ms");
  return { ready: ready === null ? null : (JSON.parse(ready) as Record<string, number>), errors, renderMs: ms === null ? null : Number(ms), wallMs };
}
