/**
 * Signatures off is for backtests only: `mm run` cannot get it.
 *
 * - `mm run` (runCommand) hands createDaemon no order signers and the embedded simulator no
 *   option, so that simulator verifies; `--signatures` is not one of its flags, and environment
 *   variables that look like a switch change nothing. No config key turns it on (the schema is
 *   strict, so such a key is an error).
 * - createDaemon from a config signs for real: every order a daemon built the way `mm run` builds
 *   it sends carries a real signature, and a verifying simulator accepts them. A daemon given the
 *   no-op signer against that simulator gets every order refused bad_signature: the fake
 *   signature recovers to no one.
 * - Only src/backtest imports the no-op signer (also a dependency-cruiser rule) and only
 *   src/backtest passes DaemonDeps.orderSigners; src/signing's index does not re-export it.
 * - `mm sim` always verifies and has no flag to stop it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import { ConfigError, loadConfig, type SimulatorModeConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/log/index.js";
import * as daemonModule from "../../src/bot/engine/daemon.js";
import * as demoModule from "../../src/bot/engine/demo.js";
import type { DaemonDeps } from "../../src/bot/engine/daemon.js";
import type { Simulator } from "../../src/sim/simulator.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { runCommand, type RunIo } from "../../src/cli/run.js";
import { parseSimArgs, simCommand } from "../../src/cli/sim.js";
import { UNSIGNED_SIGNATURE, UnsignedOrderSigner } from "../../src/signing/unsigned.js";

vi.mock("../../src/bot/engine/daemon.js", async (importOriginal) => {
  const m = await importOriginal<typeof daemonModule>();
  return { ...m, createDaemon: vi.fn(m.createDaemon) };
});
vi.mock("../../src/bot/engine/demo.js", async (importOriginal) => {
  const m = await importOriginal<typeof demoModule>();
  return { ...m, startEmbeddedSimulator: vi.fn(m.startEmbeddedSimulator) };
});

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CONFIG = join(ROOT, "test", "backtest", "fixtures", "config.yaml");
const createDaemonSpy = vi.mocked(daemonModule.createDaemon);
const startSimSpy = vi.mocked(demoModule.startEmbeddedSimulator);

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
  createDaemonSpy.mockClear();
  startSimSpy.mockClear();
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

function runIo(): { io: RunIo; err: () => string } {
  let err = "";
  return {
    io: { stdout: () => undefined, stderr: (t) => (err += t), onStopSignal: () => () => undefined, exitNow: () => undefined },
    err: () => err,
  };
}

/** Every .ts file under src/ (relative, forward slashes). */
function sourceFiles(dir = join(ROOT, "src")): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith(".ts")) out.push(relative(ROOT, p).split("\\").join("/"));
  }
  return out;
}

describe("mm run cannot turn signatures off", () => {
  it("builds the daemon without order signers and an embedded simulator that verifies, whatever the environment says", async () => {
    const port = await occupiedPort();
    const dir = mkdtempSync(join(tmpdir(), "mm-sigoff-run-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const demo = readFileSync(join(ROOT, "configs", "demo.yaml"), "utf8");
    const file = join(dir, "demo.yaml");
    writeFileSync(file, demo.replace(/^ {2}port: 9464\b/m, `  port: ${port}`).replace(/^ {2}level: info\b/m, "  level: silent"));
    const names = ["MM_SIGNATURES", "SIGNATURES", "MM_VERIFY_SIGNATURES", "MM_UNSIGNED", "MM_BACKTEST_SIGNATURES"];
    for (const n of names) vi.stubEnv(n, "off");
    cleanup.push(() => void vi.unstubAllEnvs());

    const t = runIo();
    // The metrics port is taken: the run stops right after building the simulator and the daemon.
    expect(await runCommand(["--config", file, "--status-every", "0"], t.io)).toBe(1);
    expect(startSimSpy).toHaveBeenCalledTimes(1);
    expect(startSimSpy.mock.calls[0]!.length).toBeLessThan(4);
    const sim = startSimSpy.mock.results[0]!.value as demoModule.EmbeddedSimulator;
    expect(sim.sim.verifySignatures).toBe(true);
    expect(sim.sim.desk.verifySignatures).toBe(true);
    expect(createDaemonSpy).toHaveBeenCalledTimes(1);
    const deps = createDaemonSpy.mock.calls[0]![1] as DaemonDeps;
    expect(deps.orderSigners).toBeUndefined();
    expect(deps.tuning?.presign).not.toBe(false);
  });

  it("has no --signatures flag", async () => {
    for (const argv of [["--signatures", "off"], ["--signatures=off"]]) {
      const t = runIo();
      expect(await runCommand(argv, t.io)).toBe(2);
      expect(t.err()).toMatch(/unknown option --signatures/);
    }
    expect(createDaemonSpy).not.toHaveBeenCalled();
  });

  it("refuses a config key that would turn signatures off (the schema is strict)", () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-sigoff-cfg-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const base = readFileSync(CONFIG, "utf8").replace("scenario: scenario.yaml", `scenario: ${join(ROOT, "test", "backtest", "fixtures", "scenario.yaml")}`);
    const variants = [
      base + "signatures: off\n",
      base.replace("simulator: { seed: 3,", "simulator: { signatures: off, seed: 3,"),
      base.replace("simulator: { seed: 3,", "simulator: { verifySignatures: false, seed: 3,"),
      base.replace("  - name: quoter", "  - name: quoter\n    signer: unsigned"),
    ];
    expect(() => loadConfig(join(dir, "none.yaml"))).toThrow();
    writeFileSync(join(dir, "ok.yaml"), base);
    expect(loadConfig(join(dir, "ok.yaml"), {}).mode).toBe("simulator");
    variants.forEach((text, i) => {
      const f = join(dir, `v${i}.yaml`);
      writeFileSync(f, text);
      expect(() => loadConfig(f, {}), text).toThrow(ConfigError);
    });
  });

  it("leaves the no-op signer to src/backtest alone: imports, the daemon dependency, the signing index", () => {
    const files = sourceFiles();
    const importers = files.filter((f) => /from\s+"[^"]*signing\/unsigned\.js"/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(importers).toEqual(["src/backtest/run.ts"]);
    const passers = files.filter((f) => /\borderSigners\b/.test(readFileSync(join(ROOT, f), "utf8")));
    // Declared and threaded through in the daemon's shell; passed only by the backtest (the no-op signer's header names it).
    expect(passers.sort()).toEqual(["src/backtest/run.ts", "src/bot/engine/daemon-types.ts", "src/bot/engine/daemon-wallets.ts", "src/bot/engine/daemon.ts", "src/signing/unsigned.ts"]);
    expect(readFileSync(join(ROOT, "src/signing/index.ts"), "utf8")).not.toMatch(/unsigned/);
    expect(readFileSync(join(ROOT, ".dependency-cruiser.cjs"), "utf8")).toMatch(/unsigned-signer-backtest-only/);
    const verifyOff = files.filter((f) => /verifySignatures:\s*false/.test(readFileSync(join(ROOT, f), "utf8")));
    // demo.ts forwards its caller's option to the simulator; only the backtester asks (mm run's call
    // is checked above): the full engine's run, and the fast engine's synthetic source, whose
    // simulator only generates market data (no order of ours reaches it).
    expect(verifyOff.filter((f) => !f.startsWith("src/backtest/"))).toEqual(["src/bot/engine/demo.ts"]);
    expect(verifyOff).toContain("src/backtest/run.ts");
  });
});

interface Placed {
  signatures: string[];
  rejectedCodes: string[];
  accepted: number;
  sim: Simulator;
  wallet: string;
}

/** A daemon built as `mm run` builds it (plus `extra`) against the embedded simulator as `mm run` starts it, for `ms` of virtual time. */
async function placeFor(ms: number, extra: Partial<DaemonDeps> = {}): Promise<Placed> {
  const config = loadConfig(CONFIG, {}) as SimulatorModeConfig;
  const clock = new VirtualClock(Date.UTC(2026, 2, 2, 9, 0, 0));
  const embedded = demoModule.startEmbeddedSimulator(config, clock);
  const signatures: string[] = [];
  const rejectedCodes: string[] = [];
  let accepted = 0;
  const transport: Transport = {
    async request(req: HttpRequest): Promise<HttpResponse> {
      const place = req.method === "POST" && req.path.startsWith("/api/orders/place");
      if (place && req.body !== undefined) {
        const body = JSON.parse(req.body) as { order?: { signature: string }; orders?: { order: { signature: string } }[] };
        for (const o of body.orders ?? [body]) if (o.order !== undefined) signatures.push(o.order.signature);
      }
      const res = await embedded.transport.request(req);
      if (place && res.status === 201) {
        const b = JSON.parse(res.body) as { status?: string; code?: string; results?: { status?: string; code?: string }[] };
        for (const r of b.results ?? [b]) {
          if (r.status === "REJECTED") rejectedCodes.push(r.code ?? "?");
          else accepted++;
        }
      }
      return res;
    },
  };
  const daemon = daemonModule.createDaemon(config, {
    clock,
    logger: createLogger({ level: "silent" }),
    transport,
    connector: embedded.connector,
    apiKey: embedded.apiKey,
    rng: new Rng(config.simulator.seed),
    monotonic: () => clock.now(),
    ...extra,
  });
  void daemon.start().catch(() => undefined);
  try {
    for (let t = 0; t < ms; t += 1000) await clock.advance(1000);
  } finally {
    daemon.abandon();
    embedded.stop();
  }
  return { signatures, rejectedCodes, accepted, sim: embedded.sim, wallet: config.wallets[0]!.address.toLowerCase() };
}

describe("createDaemon from a config signs for real", () => {
  it("sends real signatures that a verifying simulator accepts", async () => {
    const p = await placeFor(20_000);
    expect(p.sim.verifySignatures).toBe(true);
    expect(p.signatures.length).toBeGreaterThan(3);
    expect(p.signatures.filter((s) => s === UNSIGNED_SIGNATURE)).toEqual([]);
    expect(new Set(p.signatures).size).toBe(p.signatures.length);
    expect(p.rejectedCodes.filter((c) => c === "bad_signature")).toEqual([]);
    expect(p.accepted).toBeGreaterThan(3);
  });

  it("given the no-op signer, trades nothing against a verifying simulator: every order is refused bad_signature", async () => {
    const p = await placeFor(20_000, { orderSigners: (w) => new UnsignedOrderSigner(w.address), tuning: { presign: false } });
    expect(p.signatures.length).toBeGreaterThan(3);
    expect(new Set(p.signatures)).toEqual(new Set([UNSIGNED_SIGNATURE]));
    expect(p.accepted).toBe(0);
    expect(new Set(p.rejectedCodes)).toEqual(new Set(["bad_signature"]));
    expect(p.sim.engine.openOrders(p.wallet)).toEqual([]);
  });
});

describe("mm sim always verifies", () => {
  it("has no flag to turn verification off", () => {
    for (const argv of [["--signatures", "off"], ["--verify-signatures", "false"], ["--no-verify"]]) {
      expect(parseSimArgs(argv)).toMatch(/^unknown option/);
    }
  });

  it("serves a simulator that verifies every order's signature", async () => {
    const abort = new AbortController();
    let seen: Simulator | undefined;
    const done = simCommand(["--port", "0", "--clock", "virtual"], {
      stdout: () => undefined,
      stderr: () => undefined,
      logger: createLogger({ level: "silent" }),
      signal: abort.signal,
      onListening: (_url, _server, sim) => {
        seen = sim;
        abort.abort();
      },
    });
    expect(await done).toBe(0);
    expect(seen?.verifySignatures).toBe(true);
    expect(seen?.desk.verifySignatures).toBe(true);
  });
});
