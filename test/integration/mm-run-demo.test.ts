/**
 * `mm run` end to end: the demo path (simulator mode, embedded simulator, real clock) starts,
 * quotes, and on the stop signal cancels everything and exits 0; usage and config errors exit 2.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCommand, type RunIo } from "../../src/cli/run.js";

/** With `stopWhen`, SIGINT is sent as soon as the output matches it (no wall-clock race). */
function io(stopWhen?: RegExp) {
  const out: string[] = [];
  const err: string[] = [];
  let handler: ((s: string) => void) | undefined;
  let stopped = false;
  const value: RunIo = {
    stdout: (t) => {
      out.push(t);
      if (stopWhen && !stopped && stopWhen.test(out.join(""))) {
        stopped = true;
        setImmediate(() => handler?.("SIGINT"));
      }
    },
    stderr: (t) => err.push(t),
    onStopSignal: (h) => {
      handler = h;
      return () => (handler = undefined);
    },
    exitNow: (code) => {
      throw new Error(`exitNow(${code})`);
    },
  };
  return { io: value, out, err };
}

describe("mm run", () => {
  it("runs the demo against the embedded simulator and exits 0 after a clean shutdown", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-run-"));
    const file = join(dir, "demo.yaml");
    writeFileSync(
      file,
      `mode: simulator
simulator: { seed: 5 }
instance: { id: runtest }
wallets: [{ name: maker-a }, { name: maker-b }]
markets: { maxMarkets: 3 }
strategy: { name: ladder, params: { size: "5" } }
quoting: { refreshMs: 200 }
log: { level: silent }
metrics: { port: 0 }
`,
    );
    const h = io(/wallets 2\/2 ready.* \| markets \d\/3 quoted \| orders \d+/);
    const code = await runCommand(["--config", file, "--status-every", "1"], h.io);
    const text = h.out.join("");
    expect(code).toBe(0);
    expect(text).toContain("embedded simulator");
    expect(text).toMatch(/wallets 2\/2 ready.* \| markets \d\/3 quoted \| orders \d+/);
    expect(text).toContain("shutdown (SIGINT): clean");
    expect(text).toMatch(/maker-a \(0x[0-9a-f]{40}\): cancelled \d+, left open 0/);
  }, 20_000);

  it("prints usage with --help and refuses unknown options and bad configs with exit 2", async () => {
    const help = io();
    expect(await runCommand(["--help"], help.io)).toBe(0);
    expect(help.out.join("")).toContain("Usage: mm run");
    const bad = io();
    expect(await runCommand(["--nope"], bad.io)).toBe(2);
    expect(bad.err.join("")).toContain("unknown option --nope");
    const dir = mkdtempSync(join(tmpdir(), "mm-run-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "mode: simulator\nstrategy: { name: nosuch }\n");
    const cfg = io();
    expect(await runCommand(["--config", file], cfg.io)).toBe(2);
    expect(cfg.err.join("")).toContain("strategy.name");
  });
});
