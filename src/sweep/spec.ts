/**
 * The sweep file (`mm sweep FILE`): YAML validated by zod, each problem naming its key. It names a
 * base daemon config, the data (synthetic: a scenario and a duration; or a recorded data set), the
 * engine, the search (a grid, or N random samples drawn with a seed) over strategy params and
 * risk limits by dotted path, the seeds and the objective. expandPoints turns it into points; each
 * point's config is the base config with the point's values set, validated by the config loader
 * (the config schema, and the strategy's own params schema), so an invalid point is refused before
 * anything runs.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Decimal } from "decimal.js";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { z } from "zod";
import { Rng } from "../core/rng.js";
import { formatPath, issueMessage } from "../core/validation.js";
import { ConfigError, parseConfig, type Env } from "../config/index.js";
import { parseDuration } from "../backtest/duration.js";
import { MARKOUT_HORIZONS_MS } from "../backtest/markouts.js";
import { parseQueueSpec } from "../backtest/models/queue.js";

export const OBJECTIVES = ["pnl", "pnl_over_drawdown", "markout_adjusted_pnl"] as const;
export type Objective = (typeof OBJECTIVES)[number];

/** A problem with the sweep file or one of its points: exit 2, nothing run. */
export class SweepSpecError extends Error {
  override readonly name = "SweepSpecError";
}

/** A swept value: what YAML gives for a config scalar. */
export type ParamValue = string | number | boolean;

const PATH_RE = /^(strategy\.params|risk)\.[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;
const pathKey = z.string().regex(PATH_RE, "a swept key is a dotted path under strategy.params. or risk. (e.g. strategy.params.halfSpreadTicks, risk.maxOrderSize)");
const scalar = z.union([z.string(), z.number(), z.boolean()]);

const rangeSchema = z
  .strictObject({
    min: z.union([z.number(), z.string()]),
    max: z.union([z.number(), z.string()]),
    /** Values are min + k * step (default 1). */
    step: z.union([z.number(), z.string()]).optional(),
  })
  .superRefine((r, ctx) => {
    for (const k of ["min", "max", "step"] as const) {
      const v = r[k];
      if (v === undefined) continue;
      if (!decimalOk(v)) ctx.addIssue({ code: "custom", path: [k], message: `expected a number or a decimal string (got ${JSON.stringify(v)})` });
    }
    if (decimalOk(r.min) && decimalOk(r.max) && new Decimal(r.min).gt(new Decimal(r.max))) ctx.addIssue({ code: "custom", path: ["max"], message: "must not be below min" });
    if (r.step !== undefined && decimalOk(r.step) && !new Decimal(r.step).gt(0)) ctx.addIssue({ code: "custom", path: ["step"], message: "must be above 0" });
  });

function decimalOk(v: number | string): boolean {
  if (typeof v === "number") return Number.isFinite(v);
  return /^-?\d+(\.\d+)?$/.test(v);
}

export const sweepFileSchema = z
  .strictObject({
    /** The base daemon config (mode: simulator), relative to the sweep file. */
    config: z.string().min(1),
    data: z.union([
      z.strictObject({
        /** Scenario file (default: the config's simulator.scenario, else the built-in one). */
        scenario: z.string().min(1).optional(),
        duration: z.string().min(1),
      }),
      z.strictObject({ dir: z.string().min(1) }),
    ]),
    engine: z.literal("fast", { message: 'expected "fast" (the full engine is not swept yet)' }).default("fast"),
    queue: z.string().default("risk-averse"),
    latency: z.strictObject({ entryMs: z.number().int().min(0).max(600_000), responseMs: z.number().int().min(0).max(600_000) }).default({ entryMs: 20, responseMs: 20 }),
    grid: z.record(pathKey, z.array(scalar).min(1, "give at least one value")).optional(),
    random: z
      .strictObject({
        samples: z.number().int().min(1).max(100_000),
        seed: z.number().int().min(0).max(0xffff_ffff),
        params: z.record(pathKey, z.union([z.array(scalar).min(1, "give at least one value"), rangeSchema])),
      })
      .optional(),
    /** Each point runs once per seed (the simulator's flow and the daemon's Rng). */
    seeds: z.array(z.number().int().min(0).max(0xffff_ffff)).min(1).optional(),
    objective: z.enum(OBJECTIVES).default("pnl"),
    /** The markout horizon of markout_adjusted_pnl (default 60s). */
    markoutHorizon: z.string().default("60s"),
  })
  .superRefine((f, ctx) => {
    if ((f.grid === undefined) === (f.random === undefined)) ctx.addIssue({ code: "custom", path: [], message: "give exactly one of grid: or random:" });
    if (f.grid !== undefined && Object.keys(f.grid).length === 0) ctx.addIssue({ code: "custom", path: ["grid"], message: "sweep at least one key" });
    if (f.random !== undefined && Object.keys(f.random.params).length === 0) ctx.addIssue({ code: "custom", path: ["random", "params"], message: "sweep at least one key" });
    if ("duration" in f.data) {
      const d = parseDuration(f.data.duration);
      if (typeof d === "string") ctx.addIssue({ code: "custom", path: ["data", "duration"], message: d });
    }
    const h = parseDuration(f.markoutHorizon);
    if (typeof h === "string") ctx.addIssue({ code: "custom", path: ["markoutHorizon"], message: h });
    else if (!MARKOUT_HORIZONS_MS.includes(h)) ctx.addIssue({ code: "custom", path: ["markoutHorizon"], message: `one of the report's horizons: ${MARKOUT_HORIZONS_MS.map((x) => `${x / 1000}s`).join(", ")}` });
    const q = parseQueueSpec(f.queue);
    if (typeof q === "string") ctx.addIssue({ code: "custom", path: ["queue"], message: q });
  });

export type SweepFile = z.output<typeof sweepFileSchema>;


/** One run: the swept values (by dotted path, in the file's key order) and a seed. */
export interface SweepPoint {
  /** Position in the expansion (stable for a given file): shards take index mod N. */
  index: number;
  /** Hash of the resolved parameters and the seed (16 hex digits). */
  id: string;
  params: Record<string, ParamValue>;
  seed: number;
}

/** What a worker needs to run a point (structured-clone safe: text, numbers). */
export interface PointTask {
  id: string;
  index: number;
  seed: number;
  params: Record<string, ParamValue>;
  /** The point's whole config as YAML text, and where its relative paths resolve from. */
  configText: string;
  configName: string;
  baseDir: string;
  scenarioPath?: string;
  durationMs?: number;
  dataDir?: string;
  queue: string;
  latency: { entryMs: number; responseMs: number };
  objective: Objective;
  markoutHorizonMs: number;
}

export interface LoadedSweep {
  file: string;
  spec: SweepFile;
  /** Resolved against the sweep file's directory. */
  configPath: string;
  scenarioPath?: string;
  dataDir?: string;
  durationMs?: number;
  markoutHorizonMs: number;
  points: SweepPoint[];
  tasks: PointTask[];
}

function issuesText(file: string, error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = formatPath(i.path);
      if (i.code === "unrecognized_keys") return i.keys.map((k) => `${file}: ${path === "" ? "" : `${path}.`}${k}: unknown key`).join("\n");
      return `${file}: ${path === "" ? "" : `${path}: `}${issueMessage(i)}`;
    })
    .join("\n");
}

/** Stable id of a point: sha256 over the parameters (sorted by key) and the seed. */
export function pointId(params: Record<string, ParamValue>, seed: number): string {
  const sorted = Object.keys(params)
    .sort()
    .map((k) => [k, params[k]]);
  return createHash("sha256").update(JSON.stringify({ params: sorted, seed })).digest("hex").slice(0, 16);
}

/** Every combination of the grid, the last key varying fastest. */
function gridCombos(grid: Record<string, ParamValue[]>): Record<string, ParamValue>[] {
  let combos: Record<string, ParamValue>[] = [{}];
  for (const [key, values] of Object.entries(grid)) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  return combos;
}

type RandomParam = ParamValue[] | { min: number | string; max: number | string; step?: number | string | undefined };

/** One value of a random-search key: a choice from a list, or min + k * step for a uniform k. */
function draw(rng: Rng, p: RandomParam): ParamValue {
  if (Array.isArray(p)) return p[rng.int(p.length)]!;
  const min = new Decimal(p.min);
  const step = new Decimal(p.step ?? 1);
  const steps = new Decimal(p.max).minus(min).div(step).floor().toNumber();
  const v = min.plus(step.times(rng.range(0, steps)));
  // Numbers in, numbers out; a decimal string (money) stays a string.
  return typeof p.min === "number" && typeof p.max === "number" && (p.step === undefined || typeof p.step === "number") ? v.toNumber() : v.toFixed();
}

function randomCombos(r: NonNullable<SweepFile["random"]>): Record<string, ParamValue>[] {
  const rng = new Rng(r.seed);
  const out: Record<string, ParamValue>[] = [];
  for (let s = 0; s < r.samples; s++) {
    const combo: Record<string, ParamValue> = {};
    for (const [key, p] of Object.entries(r.params)) combo[key] = draw(rng, p);
    out.push(combo);
  }
  return out;
}

function setPath(target: Record<string, unknown>, path: string[], value: ParamValue): void {
  let node = target;
  for (const k of path.slice(0, -1)) {
    const next = node[k];
    if (typeof next !== "object" || next === null || Array.isArray(next)) node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

function describeParams(params: Record<string, ParamValue>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
}

/** Parse and validate the sweep file and every point (SweepSpecError naming what is wrong). */
export function loadSweep(file: string, env: Env = process.env): LoadedSweep {
  if (!existsSync(file) || !statSync(file).isFile()) throw new SweepSpecError(`${file}: no such file`);
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, "utf8"));
  } catch (e) {
    throw new SweepSpecError(`${file}: YAML syntax error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new SweepSpecError(`${file}: expected a mapping (config, data, grid or random, seeds, objective)`);
  const parsed = sweepFileSchema.safeParse(raw);
  if (!parsed.success) throw new SweepSpecError(issuesText(file, parsed.error));
  const spec = parsed.data;
  const here = dirname(resolve(file));
  const configPath = resolve(here, spec.config);
  if (!existsSync(configPath) || !statSync(configPath).isFile()) throw new SweepSpecError(`${file}: config: no such file: ${configPath}`);
  const baseText = readFileSync(configPath, "utf8");
  // The base config alone first: its own problems are reported as such.
  let baseSeed: number;
  try {
    const base = parseConfig(baseText, configPath, env);
    if (base.mode !== "simulator") throw new SweepSpecError(`${file}: config: ${configPath} has mode ${base.mode}; a sweep backtests a simulator-mode config`);
    baseSeed = base.simulator.seed;
  } catch (e) {
    if (e instanceof ConfigError) throw new SweepSpecError(`${file}: config: ${configPath} is invalid:\n${e.message}`);
    throw e;
  }
  const loaded: Omit<LoadedSweep, "points" | "tasks"> = {
    file,
    spec,
    configPath,
    markoutHorizonMs: parseDuration(spec.markoutHorizon) as number,
  };
  if ("dir" in spec.data) {
    const dir = resolve(here, spec.data.dir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new SweepSpecError(`${file}: data.dir: no such directory: ${dir}`);
    loaded.dataDir = dir;
  } else {
    loaded.durationMs = parseDuration(spec.data.duration) as number;
    if (spec.data.scenario !== undefined) {
      const s = resolve(here, spec.data.scenario);
      if (!existsSync(s) || !statSync(s).isFile()) throw new SweepSpecError(`${file}: data.scenario: no such file: ${s}`);
      loaded.scenarioPath = s;
    }
  }
  const combos = spec.grid !== undefined ? gridCombos(spec.grid) : randomCombos(spec.random!);
  const seeds = spec.seeds ?? [baseSeed];
  const baseRaw = parseYaml(baseText) as Record<string, unknown>;
  const points: SweepPoint[] = [];
  const tasks: PointTask[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  const checkedCombos = new Map<string, string>();
  for (const params of combos) {
    const comboKey = JSON.stringify(params);
    let configText = checkedCombos.get(comboKey);
    if (configText === undefined) {
      const doc = structuredClone(baseRaw);
      for (const [k, v] of Object.entries(params)) setPath(doc, k.split("."), v);
      configText = stringifyYaml(doc);
      try {
        parseConfig(configText, configPath, env, { baseDir: dirname(configPath) });
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        problems.push(...e.issues.map((i) => `point (${describeParams(params)}): ${i.path === "" ? "" : `${i.path}: `}${i.message}`));
        if (problems.length > 20) break;
        continue;
      }
      checkedCombos.set(comboKey, configText);
    }
    for (const seed of seeds) {
      const id = pointId(params, seed);
      if (seen.has(id)) continue; // a random search may draw a point twice: run it once
      seen.add(id);
      const point: SweepPoint = { index: points.length, id, params, seed };
      points.push(point);
      tasks.push({
        id,
        index: point.index,
        seed,
        params,
        configText,
        configName: configPath,
        baseDir: dirname(configPath),
        ...(loaded.scenarioPath !== undefined ? { scenarioPath: loaded.scenarioPath } : {}),
        ...(loaded.durationMs !== undefined ? { durationMs: loaded.durationMs } : {}),
        ...(loaded.dataDir !== undefined ? { dataDir: loaded.dataDir } : {}),
        queue: spec.queue,
        latency: spec.latency,
        objective: spec.objective,
        markoutHorizonMs: loaded.markoutHorizonMs,
      });
    }
  }
  if (problems.length > 0) throw new SweepSpecError(`${file}: invalid point(s), nothing was run:\n${[...new Set(problems)].map((p) => `  ${p}`).join("\n")}`);
  return { ...loaded, points, tasks };
}
