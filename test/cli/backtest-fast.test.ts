/**
 * `mm backtest --engine fast`: over the scenario's synthetic flow and over a data set written by
 * the data-set writer; the flags that only one engine takes are refused for the other; the same
 * run twice gives the same JSON.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { backtestCommand, type BacktestIo } from "../../src/cli/backtest.js";
import { syntheticSource } from "../../src/backtest/fast/sources.js";
import { prepareBacktest } from "../../src/backtest/index.js";
import { DataSetWriter } from "../../src/data/index.js";
import type { FastReport } from "../../src/backtest/fast/engine.js";
import type { Comparison } from "../../src/backtest/compare.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "backtest", "fixtures");
const CONFIG = join(FIXTURES, "config.yaml");

function io(): { io: BacktestIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, progress: false }, out, err };
}

/** A data set of `minutes` of the fixture scenario's synthetic flow, in a fresh temp directory. */
async function recordSynthetic(minutes: number): Promise<string> {
  const prepared = prepareBacktest({ configPath: CONFIG, durationMs: minutes * 60_000, env: {} });
  const dir = mkdtempSync(join(tmpdir(), "mm-fast-"));
  const w = await DataSetWriter.open({ dir, clock: { now: () => prepared.startMs } });
  const src = syntheticSource({ scenario: prepared.scenario, seed: prepared.seed, startMs: prepared.startMs, durationMs: prepared.durationMs });
  for (let e = src.next(); e !== undefined; e = src.next()) {
    const { seq: _s, ...rest } = e;
    w.append(rest);
  }
  w.close();
  return dir;
}

describe("mm backtest --engine fast", () => {
  it("runs the decision core over the scenario's synthetic flow, the same twice", async () => {
    const runs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const h = io();
      expect(await backtestCommand(["--config", CONFIG, "--engine", "fast", "--duration", "10m", "--out", "-", "--queue", "prob-power:2", "--latency", "15,25"], h.io)).toBe(0);
      runs.push(h.out.join(""));
      expect(h.err.join("")).toContain("fast engine");
    }
    expect(runs[0]).toBe(runs[1]);
    const r = JSON.parse(runs[0]!) as FastReport;
    expect(r.engine).toBe("fast");
    expect(r.queueModel).toBe("prob-power");
    expect(r.events.book).toBeGreaterThan(0);
    expect(r.orders.placed).toBeGreaterThan(0);
  });

  it("replays a recorded data set (--data)", async () => {
    const dir = await recordSynthetic(5);
    const h = io();
    const out = join(dir, "report.json");
    expect(await backtestCommand(["--config", CONFIG, "--engine", "fast", "--data", dir, "--out", out], h.io)).toBe(0);
    const r = JSON.parse(readFileSync(out, "utf8")) as FastReport;
    expect(r.source).toContain(dir);
    expect(r.events.book).toBeGreaterThan(0);
    expect(h.out.join("")).toContain("total");
  });

  it("--compare runs both engines on the same recording and reports where they differ", async () => {
    const dir = await recordSynthetic(4);
    const h = io();
    expect(await backtestCommand(["--config", CONFIG, "--compare", "--data", dir, "--out", "-"], h.io)).toBe(0);
    const r = JSON.parse(h.out.join("")) as { comparison: Comparison; full: { ok: boolean; totals: { fills: { count: number } } }; fast: FastReport };
    expect(r.full.ok).toBe(true);
    // The fast engine read the same recording over the same window.
    expect(r.fast.events.book).toBeGreaterThan(0);
    expect(r.fast.orders.placed).toBeGreaterThan(0);
    const fills = r.comparison.totals.find((f) => f.name === "fills")!;
    expect(fills.full).toBe(String(r.full.totals.fills.count));
    expect(fills.fast).toBe(String(r.fast.totals.fills));
    expect(h.err.join("")).toContain("calibration");
  });

  it("refuses flags of the other engine and bad model values, naming them", async () => {
    const refuse = async (argv: string[], text: string): Promise<void> => {
      const h = io();
      expect(await backtestCommand(argv, h.io), argv.join(" ")).toBe(2);
      expect(h.err.join("")).toContain(text);
    };
    await refuse(["--queue", "risk-averse"], "--queue is for --engine fast");
    await refuse(["--engine", "fast", "--signatures", "off"], "--signatures is for --engine full");
    await refuse(["--engine", "fast", "--queue", "prob-power"], "--queue: expected");
    await refuse(["--engine", "fast", "--queue", "prob-power:-1"], "--queue");
    await refuse(["--engine", "fast", "--latency", "10"], "--latency: expected");
    await refuse(["--engine", "warp"], "--engine: expected full or fast");
    await refuse(["--engine", "fast", "--data", "/no/such/dir"], "--data: no such directory");
    await refuse(["--compare", "--engine", "fast"], "--compare runs both engines");
    await refuse(["--compare", "--compare"], "--compare given twice");
  });
});
