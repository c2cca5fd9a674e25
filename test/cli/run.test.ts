/**
 * `mm run` when the metrics port is taken: the error names the config key (metrics.port), the
 * port, and how to change it; nothing is left running.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeServeError, runCommand, type RunIo } from "../../src/cli/run.js";

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function occupiedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("no port");
  return addr.port;
}

function io(): { io: RunIo; out: () => string; err: () => string; exits: number[] } {
  let out = "";
  let err = "";
  const exits: number[] = [];
  return {
    io: {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      onStopSignal: () => () => undefined,
      exitNow: (code) => void exits.push(code),
    },
    out: () => out,
    err: () => err,
    exits,
  };
}

describe("mm run: metrics port in use", () => {
  it("fails with exit 1 and an error naming metrics.port, the port and the file to change", async () => {
    const port = await occupiedPort();
    const dir = mkdtempSync(join(tmpdir(), "mm-run-port-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const demo = readFileSync("configs/demo.yaml", "utf8");
    expect(demo).toMatch(/^ {2}port: 9464\b/m);
    const file = join(dir, "demo.yaml");
    writeFileSync(file, demo.replace(/^ {2}port: 9464\b/m, `  port: ${port}`).replace(/^ {2}level: info\b/m, "  level: silent"));

    const t = io();
    const code = await runCommand(["--config", file, "--status-every", "0"], t.io);
    expect(code).toBe(1);
    expect(t.exits).toEqual([]);
    const line = t.err().split("\n").find((l) => l.startsWith("mm run: "));
    expect(line).toBe(
      `mm run: cannot serve metrics: metrics.port ${port} is already in use on 127.0.0.1:${port} (another mm run?); change metrics.port in ${file} (0 picks a free port)`,
    );
    expect(t.out()).not.toContain("metrics on http");
  });

  it("tells the demo (no --config) to copy configs/demo.yaml", () => {
    const e = Object.assign(new Error("listen EADDRINUSE: address already in use 127.0.0.1:9464"), { code: "EADDRINUSE" });
    const msg = describeServeError(e, { metrics: { host: "127.0.0.1", port: 9464, processMetrics: true } }, undefined);
    expect(msg).toContain("metrics.port 9464 is already in use on 127.0.0.1:9464");
    expect(msg).toContain("copy configs/demo.yaml, change metrics.port in the copy");
    expect(msg).toContain("mm run --config <copy>");
  });

  it("leaves other errors alone", () => {
    expect(describeServeError(new Error("boom"), { metrics: { host: "127.0.0.1", port: 9464, processMetrics: true } }, "x.yaml")).toBeUndefined();
  });
});
