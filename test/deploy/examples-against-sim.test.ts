/**
 * The client examples against `mm sim`, the second way docs/client.md runs them: `mm sim` prints an
 * `export PM_BASE_URL=... PM_API_KEY=... PM_WALLET=... PM_WALLET_KEY=...` line in its banner; pasted
 * into a shell, it points examples/client/*.ts at the simulator over loopback HTTP (and WebSocket),
 * where they read, sign, place and cancel. (test/api/integration/examples.test.ts runs them in-process.)
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main as readMarkets } from "../../examples/client/read-markets.js";
import { simCommand } from "../../src/cli/sim.js";
import { createLogger } from "../../src/log/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Runs `<export line> && node --import tsx examples/client/<name>` in bash, with no PM_* inherited. */
function runExample(exportLine: string, name: string): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PM_")));
  return new Promise((resolve, reject) => {
    execFile(
      "bash",
      ["-c", `${exportLine} && exec "$NODE" --import tsx examples/client/${name}`],
      { cwd: ROOT, env: { ...env, NODE: process.execPath }, timeout: 60_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${name} failed: ${err.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("mm sim's banner runs the client examples", () => {
  it("prints a ready export line, and the examples read, place and cancel through it", async () => {
    const stop = new AbortController();
    let banner = "";
    let listening!: (url: string) => void;
    const url = new Promise<string>((resolve) => (listening = resolve));
    const done = simCommand(["--port", "0", "--host", "127.0.0.1"], {
      stdout: () => undefined,
      stderr: (text) => void (banner += text),
      logger: createLogger({ level: "silent" }),
      signal: stop.signal,
      onListening: (u) => listening(u),
    });
    try {
      const base = await url;
      const exportLine = /^ {4}(export .+)$/m.exec(banner)?.[1];
      expect(exportLine, banner).toBeDefined();
      const vars = Object.fromEntries(
        exportLine!
          .slice("export ".length)
          .split(" ")
          .map((w) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]),
      );
      // The default scenario's test key and its first wallet (configs/scenarios/default.yaml).
      expect(vars).toEqual({
        PM_BASE_URL: base,
        PM_API_KEY: "pmk_sim_5e1d000000000001_DemoMarketMakerSecret00000000001",
        PM_WALLET: "0x86de5549fb86499c2e7e935b175e2bb5c1fde79e",
        PM_WALLET_KEY: "0x040c9ba6ea32f98a659955309e06a2bff2874f8730bde3f68141c073d88a4306",
      });
      expect(banner).toContain("npx tsx examples/client/place-order.ts");

      // As a script, the way the banner says: the line is valid shell, the key signs for the wallet.
      const place = await runExample(exportLine!, "place-order.ts");
      expect(place).toMatch(/^accepted: \S+ OPEN$/m);
      expect(place).toMatch(/^cancel: CANCELLED after \d+ round\(s\)$/m);

      // In this process (one script start is enough), over HTTP with the same variables.
      for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
      vi.spyOn(console, "log").mockImplementation(() => undefined);
      const read = await readMarkets();
      expect(read.symbols).toEqual(expect.arrayContaining(["ARS-CHE-ARS", "EPL-WINNER", "BAR-RMA-BAR"]));
    } finally {
      stop.abort();
      expect(await done).toBe(0);
    }
  }, 90_000);
});
