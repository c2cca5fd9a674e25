/**
 * `mm run`'s SIGHUP wiring, in process with a fake signal source: the handler registered through
 * RunIo.onReloadSignal reloads the config file the daemon was started from (an unchanged file: no
 * change; a broken one: refused with the check-config line on stderr, the daemon still running),
 * and is unregistered when the command ends.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RELOAD_SIGNAL, runCommand, type RunIo } from "../../src/cli/run.js";

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

async function waitFor(what: string, cond: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("mm run: SIGHUP", () => {
  it("reloads the config file, refuses a broken one with the check-config line, and is unregistered at exit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-run-hup-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "demo.yaml");
    const demo = readFileSync("configs/demo.yaml", "utf8").replace(/^ {2}port: 9464\b/m, "  port: 0").replace(/^ {2}level: info\b/m, "  level: silent");
    writeFileSync(file, demo);

    let out = "";
    let err = "";
    let reload: ((signal: string) => void) | undefined;
    let stop: ((signal: string) => void) | undefined;
    let unregistered = 0;
    const io: RunIo = {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      onStopSignal: (h) => {
        stop = h;
        return () => undefined;
      },
      onReloadSignal: (h) => {
        reload = h;
        return () => void (unregistered += 1);
      },
      exitNow: () => undefined,
    };
    const done = runCommand(["--config", file, "--status-every", "0"], io);
    await waitFor("metrics served", () => out.includes("metrics on http"));
    expect(RELOAD_SIGNAL).toBe("SIGHUP");
    expect(reload).toBeDefined();

    reload!(RELOAD_SIGNAL);
    await waitFor("reload answered", () => err.includes("config reload"));
    expect(err).toMatch(/^mm run: SIGHUP: config reloaded: no change \(config hash [0-9a-f]{16}\)$/m);

    writeFileSync(file, `${demo}\nrisk: [\n`);
    reload!(RELOAD_SIGNAL);
    await waitFor("refusal", () => err.includes("refused"));
    expect(err).toContain("mm run: SIGHUP: config reload refused, nothing changed");
    expect(err).toMatch(/demo\.yaml:\d+: /);

    stop!("SIGTERM");
    await done;
    expect(unregistered).toBe(1);
  }, 60_000);
});
