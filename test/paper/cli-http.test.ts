/**
 * `mm paper` against the simulator served over loopback HTTP (as `mm sim` serves it): a short run
 * (--duration 4s of real time) whose report is written, while the simulator's pipeline counts every
 * request by path: only public GETs ever reach it. What is asserted does not depend on timing
 * (fills within the 4 s are not: the in-process test, paper-vs-sim, proves those).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RealClock } from "../../src/core/clock.js";
import { createLogger } from "../../src/log/index.js";
import { Pipeline } from "../../src/sim/http/pipeline.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { SimServer } from "../../src/sim/http/server.js";
import { defaultScenarioPath, loadScenario } from "../../src/sim/platform/scenario.js";
import { Simulator } from "../../src/sim/simulator.js";
import { paperCommand } from "../../src/cli/paper.js";
import { runCommand } from "../../src/cli/run.js";
import { paperYaml } from "./harness.js";

const silent = createLogger({ level: "silent" });
let sim: Simulator;
let server: SimServer;
const paths = new Map<string, number>();
let code = -1;
let out = "";
let err = "";
let reportFile = "";
let configFile = "";

beforeAll(async () => {
  sim = new Simulator(loadScenario(defaultScenarioPath()), { clock: new RealClock(), seed: 3 });
  const pipeline = new Pipeline({ sim, routes: allRoutes(), logger: silent });
  const handle = pipeline.handle.bind(pipeline);
  pipeline.handle = (req) => {
    const k = `${req.method} ${req.url.split("?")[0]}`;
    paths.set(k, (paths.get(k) ?? 0) + 1);
    return handle(req);
  };
  server = new SimServer({ sim, pipeline, logger: silent });
  const url = await server.listen("127.0.0.1", 0);
  sim.start();
  const dir = mkdtempSync(join(tmpdir(), "mm-paper-"));
  const config = join(dir, "paper.yaml");
  configFile = config;
  reportFile = join(dir, "report.json");
  writeFileSync(config, paperYaml().replace('baseUrl: "http://sim.invalid"', `baseUrl: "${url}"`));
  code = await paperCommand(["--config", config, "--duration", "4s", "--status-every", "0", "--out", reportFile, "--log-level", "silent"], {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    onStopSignal: () => () => undefined,
    exitNow: () => undefined,
  });
}, 60_000);

afterAll(async () => {
  sim.stop();
  await server.close();
});

describe("mm paper over HTTP", () => {
  it("ran, shut down clean and wrote the report", () => {
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain("paper trading: paper: http://127.0.0.1:");
    const r = JSON.parse(readFileSync(reportFile, "utf8")) as { engine: string; wallets: unknown[] };
    expect(r.engine).toBe("paper");
    expect(r.wallets).toHaveLength(2);
  });

  it("sent the simulator public reads only: no order route, no wallet route", () => {
    expect(paths.get("GET /api/markets") ?? 0).toBeGreaterThan(0);
    const keyed = [...paths.keys()].filter((k) => !k.startsWith("GET ") || /^GET \/api\/(orders|me|vault|withdrawals|v1\/partner)(\/|$)/.test(k));
    expect(keyed).toEqual([]);
  });
});

describe("mm run with a mode: paper config", () => {
  it("runs paper trading (SIGTERM ends it with the paper report)", async () => {
    let o = "";
    const before = [...paths.entries()];
    const code = await runCommand(["--config", configFile, "--status-every", "0", "--log-level", "silent"], {
      stdout: (t) => void (o += t),
      stderr: () => undefined,
      // The signal arrives 2 s after the handler is registered (the daemon is starting by then).
      onStopSignal: (h) => {
        const t = setTimeout(() => h("SIGTERM"), 2_000);
        return () => clearTimeout(t);
      },
      exitNow: () => undefined,
    });
    expect(code).toBe(0);
    expect(o).toContain("paper trading: paper: http://127.0.0.1:");
    const keyed = [...paths.keys()].filter((k) => !k.startsWith("GET ") || /^GET \/api\/(orders|me|vault|withdrawals|v1\/partner)(\/|$)/.test(k));
    expect(keyed).toEqual([]);
    expect(before.length).toBeGreaterThan(0);
  }, 30_000);
});

describe("mm paper arguments", () => {
  const io = () => {
    const o = { out: "", err: "" };
    return { o, io: { stdout: (t: string) => void (o.out += t), stderr: (t: string) => void (o.err += t), onStopSignal: () => () => undefined, exitNow: () => undefined } };
  };
  it("refuses a missing --config, a bad --queue or --latency, and a config that is not mode: paper (exit 2)", async () => {
    const a = io();
    expect(await paperCommand([], a.io)).toBe(2);
    expect(a.o.err).toContain("--config FILE is required");
    const b = io();
    expect(await paperCommand(["--config", "x.yaml", "--queue", "fifo"], b.io)).toBe(2);
    expect(b.o.err).toContain("--queue: expected risk-averse");
    const c = io();
    expect(await paperCommand(["--config", "x.yaml", "--latency", "20"], c.io)).toBe(2);
    expect(c.o.err).toContain("--latency: expected ENTRY_MS,RESPONSE_MS");
    const d = io();
    expect(await paperCommand(["--config", "configs/demo.yaml"], d.io)).toBe(2);
    expect(d.o.err).toContain("mode simulator: paper trading needs a config with mode: paper");
  });
});
