/**
 * The sweep file (sweep/spec.ts): its documented defaults, paths resolved from the file's
 * directory, a grid expanded with the last key varying fastest and every combination run once per
 * seed (the config's seed by default), a random search drawn from its seed on the min + k x step
 * grid (numbers stay numbers, decimal strings strings, a point drawn twice run once), each
 * point's config the base config with its values set; stable point ids; and every problem, in
 * the file, its base config or a point, a SweepSpecError naming where it is. (Running a sweep:
 * test/sweep/sweep.test.ts.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultScenarioPath } from "../../src/sim/platform/scenario.js";
import { OBJECTIVES, SweepSpecError, loadSweep, pointId, sweepFileSchema } from "../../src/sweep/spec.js";
import { LIVE_MIN_ENV, liveYaml } from "../config/fixtures.js";

const DEMO = resolve("configs/demo.yaml");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mm-sweep-spec-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function sweepFile(body: string, name = "sweep.yaml"): string {
  const f = join(dir, name);
  writeFileSync(f, body);
  return f;
}
const withDemo = (body: string): string => sweepFile(`config: ${DEMO}\n${body}`);
const refused = (file: string, message: string | RegExp, env = {}): void => {
  expect(() => loadSweep(file, env)).toThrow(SweepSpecError);
  expect(() => loadSweep(file, env)).toThrow(message);
};

describe("a sweep file", () => {
  it("has the documented defaults: fast engine, risk-averse queue, 20 ms each way, pnl, a 60 s markout, the config's seed", () => {
    const s = loadSweep(withDemo("data: { duration: 20s }\ngrid: { strategy.params.halfSpreadTicks: [1] }\n"));
    expect(s.spec).toMatchObject({ engine: "fast", queue: "risk-averse", latency: { entryMs: 20, responseMs: 20 }, objective: "pnl", markoutHorizon: "60s" });
    expect(s.markoutHorizonMs).toBe(60_000);
    expect(s.durationMs).toBe(20_000);
    expect(s.scenarioPath).toBeUndefined();
    expect(s.points.map((p) => p.seed)).toEqual([42]);
    expect([...OBJECTIVES]).toEqual(["pnl", "pnl_over_drawdown", "markout_adjusted_pnl"]);
  });

  it("resolves the config, scenario and data directory from its own directory", () => {
    mkdirSync(join(dir, "sub", "rec"), { recursive: true });
    writeFileSync(join(dir, "sub", "base.yaml"), `mode: simulator\nsimulator: { seed: 5 }\nwallets: [{ name: w }]\nstrategy: { name: ladder }\n`);
    const a = loadSweep(sweepFile(`config: sub/base.yaml\ndata: { scenario: ${defaultScenarioPath()}, duration: 1m }\ngrid: { risk.maxOrderSize: ["5"] }\n`));
    expect([a.configPath, a.scenarioPath, a.durationMs]).toEqual([join(dir, "sub", "base.yaml"), defaultScenarioPath(), 60_000]);
    const b = loadSweep(sweepFile(`config: sub/base.yaml\ndata: { dir: sub/rec }\ngrid: { risk.maxOrderSize: ["5"] }\n`));
    expect([b.dataDir, b.durationMs]).toEqual([join(dir, "sub", "rec"), undefined]);
    expect(b.tasks[0]).toMatchObject({ dataDir: join(dir, "sub", "rec"), configName: join(dir, "sub", "base.yaml"), baseDir: join(dir, "sub"), seed: 5 });
    expect(b.tasks[0]).not.toHaveProperty("durationMs");
  });

  it("expands a grid, the last key fastest, once per seed; each task carries its point's config", () => {
    const s = loadSweep(withDemo(`data: { duration: 20s }
grid:
  strategy.params.halfSpreadTicks: [1, 3]
  risk.maxOrderSize: ["10", "50"]
seeds: [7, 8]
queue: prob-log
latency: { entryMs: 5, responseMs: 15 }
objective: markout_adjusted_pnl
markoutHorizon: 5s
`));
    expect(s.points.map((p) => [p.index, p.params["strategy.params.halfSpreadTicks"], p.params["risk.maxOrderSize"], p.seed])).toEqual([
      [0, 1, "10", 7],
      [1, 1, "10", 8],
      [2, 1, "50", 7],
      [3, 1, "50", 8],
      [4, 3, "10", 7],
      [5, 3, "10", 8],
      [6, 3, "50", 7],
      [7, 3, "50", 8],
    ]);
    expect(s.points.map((p) => p.id)).toEqual(s.points.map((p) => pointId(p.params, p.seed)));
    const t = s.tasks[6]!;
    expect(t).toMatchObject({ id: s.points[6]!.id, index: 6, seed: 7, queue: "prob-log", latency: { entryMs: 5, responseMs: 15 }, objective: "markout_adjusted_pnl", markoutHorizonMs: 5_000, durationMs: 20_000, configName: DEMO });
    const config = parseYaml(t.configText) as { strategy: { params: Record<string, unknown> }; risk: Record<string, unknown>; simulator: { seed: number } };
    expect(config.strategy.params).toEqual({ halfSpreadTicks: 3 });
    expect(config.risk).toMatchObject({ maxOrderSize: "50", maxPositionPerMarket: "300" });
  });

  it("draws a random search from its seed on the min + k x step grid, numbers as numbers, decimal strings as strings", () => {
    const body = `data: { duration: 20s }
random:
  samples: 40
  seed: 3
  params:
    strategy.params.halfSpreadTicks: { min: 2, max: 9, step: 3 }
    risk.maxOrderSize: { min: "0.5", max: "1.5", step: "0.25" }
seeds: [1]
`;
    const a = loadSweep(withDemo(body));
    expect(loadSweep(withDemo(body)).points).toEqual(a.points);
    for (const p of a.points) {
      expect([2, 5, 8]).toContain(p.params["strategy.params.halfSpreadTicks"]);
      expect(["0.5", "0.75", "1", "1.25", "1.5"]).toContain(p.params["risk.maxOrderSize"]);
    }
    // 3 x 5 = 15 distinct points at most: a point drawn twice runs once
    expect(a.points.length).toBeLessThanOrEqual(15);
    expect(new Set(a.points.map((p) => p.id)).size).toBe(a.points.length);
    expect(a.points.map((p) => p.index)).toEqual(a.points.map((_, i) => i));
    const other = loadSweep(withDemo(body.replace("seed: 3", "seed: 4"))).points;
    expect(other.map((p) => p.id)).not.toEqual(a.points.map((p) => p.id));
  });
});

describe("point ids", () => {
  it("are 16 hex digits of the parameters, whatever their order, and the seed", () => {
    const id = pointId({ a: 1, b: "x" }, 7);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(pointId({ b: "x", a: 1 }, 7)).toBe(id);
    expect(pointId({ a: 1, b: "x" }, 8)).not.toBe(id);
    expect(pointId({ a: "1", b: "x" }, 7)).not.toBe(id);
  });
});

describe("problems", () => {
  it("in the file itself: missing, not YAML, not a mapping", () => {
    refused(join(dir, "none.yaml"), `${join(dir, "none.yaml")}: no such file`);
    refused(sweepFile("config: [unclosed"), /: YAML syntax error: /);
    refused(sweepFile("- a\n- b\n"), "expected a mapping (config, data, grid or random, seeds, objective)");
  });

  it("in its keys, each named", () => {
    const f = (body: string) => withDemo(body);
    refused(f("data: { duration: 20s }\ngrid: { strategy.params.halfSpreadTicks: [1] }\nobjectiv: pnl\n"), "objectiv: unknown key");
    // The key named, and why it is refused (not only zod's "Invalid key in record").
    refused(f("data: { duration: 20s }\ngrid: { quoting.refreshMs: [1] }\n"), /: grid\.quoting\.refreshMs: .*a swept key is a dotted path under strategy\.params\. or risk\./);
    refused(f("data: { duration: 20s }\ngrid: {}\n"), "grid: sweep at least one key");
    refused(f("data: { duration: 20s }\ngrid: { risk.maxOrderSize: [] }\n"), "give at least one value");
    refused(f("data: { duration: 20s }\n"), "give exactly one of grid: or random:");
    refused(f("data: { duration: 0s }\ngrid: { risk.maxOrderSize: ['1'] }\n"), "data.duration: must be longer than zero");
    refused(f("data: { duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\nmarkoutHorizon: 2s\n"), "markoutHorizon: one of the report's horizons: 1s, 5s, 30s, 60s, 300s");
    refused(f("data: { duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\nqueue: fifo\n"), /queue: /);
    refused(f("data: { duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\nengine: full\n"), 'engine: expected "fast" (the full engine is not swept yet)');
    refused(f("data: { duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\nlatency: { entryMs: -1, responseMs: 0 }\n"), /latency\.entryMs: /);
    refused(f("data: { duration: 20s }\nrandom: { samples: 2, seed: 1, params: { risk.maxOrderSize: { min: 5, max: 1 } } }\n"), /random\.params\.risk\.maxOrderSize\.max: must not be below min/);
    refused(f("data: { duration: 20s }\nrandom: { samples: 2, seed: 1, params: { risk.maxOrderSize: { min: 1, max: 5, step: 0 } } }\n"), /step: must be above 0/);
    refused(f("data: { duration: 20s }\nrandom: { samples: 2, seed: 1, params: { risk.maxOrderSize: { min: '1e3', max: 5 } } }\n"), 'expected a number or a decimal string (got "1e3")');
  });

  it("in what it names: the config, the scenario, the data directory", () => {
    refused(sweepFile("config: nope.yaml\ndata: { duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\n"), `config: no such file: ${join(dir, "nope.yaml")}`);
    refused(withDemo("data: { scenario: none.yaml, duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\n"), `data.scenario: no such file: ${join(dir, "none.yaml")}`);
    refused(withDemo("data: { dir: rec }\ngrid: { risk.maxOrderSize: ['1'] }\n"), `data.dir: no such directory: ${join(dir, "rec")}`);
  });

  it("in the base config: invalid, or not simulator mode", () => {
    writeFileSync(join(dir, "bad.yaml"), "mode: simulator\nwallets: [{ name: w }]\nstrategy: { name: ladder }\nbogus: 1\n");
    refused(sweepFile("config: bad.yaml\ndata: { duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\n"), `config: ${join(dir, "bad.yaml")} is invalid:\n`);
    writeFileSync(join(dir, "live.yaml"), liveYaml());
    refused(sweepFile("config: live.yaml\ndata: { duration: 20s }\ngrid: { risk.maxOrderSize: ['1'] }\n"), `config: ${join(dir, "live.yaml")} has mode live; a sweep backtests a simulator-mode config`, LIVE_MIN_ENV);
  });

  it("in a point: every invalid one listed, nothing run", () => {
    const f = withDemo("data: { duration: 20s }\ngrid:\n  strategy.params.halfSpreadTicks: [2, 0, 501]\n");
    expect(() => loadSweep(f)).toThrow(
      `${f}: invalid point(s), nothing was run:\n  point (strategy.params.halfSpreadTicks=0): strategy.params.halfSpreadTicks: `,
    );
    expect(() => loadSweep(f)).toThrow(/\n {2}point \(strategy\.params\.halfSpreadTicks=501\): strategy\.params\.halfSpreadTicks: /);
  });
});

describe("the schema", () => {
  it("takes a data set instead of a scenario and a duration, not both", () => {
    const base = { config: "c.yaml", grid: { "risk.maxOrderSize": ["1"] } };
    expect(sweepFileSchema.safeParse({ ...base, data: { dir: "rec" } }).success).toBe(true);
    expect(sweepFileSchema.safeParse({ ...base, data: { dir: "rec", duration: "1m" } }).success).toBe(false);
    expect(sweepFileSchema.safeParse({ ...base, data: { scenario: "s.yaml" } }).success).toBe(false);
  });
});
