/**
 * Latencies recorded by the daemon feed the fast engine: `readOrderRoundTrips` (src/data) keeps the
 * answered place/cancel round trips, and `mm backtest --engine fast --latency recorded --data DIR`
 * draws its order latencies from them.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { backtestCommand, type BacktestIo } from "../../src/cli/backtest.js";
import { syntheticSource } from "../../src/backtest/fast/sources.js";
import { prepareBacktest } from "../../src/backtest/index.js";
import { DataSetWriter, readOrderRoundTrips, type NewEvent } from "../../src/data/index.js";

const CONFIG = join(dirname(fileURLToPath(import.meta.url)), "..", "backtest", "fixtures", "config.yaml");

function io(): { io: BacktestIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {}, progress: false }, out, err };
}

const lat = (ts: number, routeClass: string, latencyMs: number, status = 201): NewEvent => ({
  kind: "latency",
  ts,
  method: routeClass === "read" ? "GET" : "POST",
  route: routeClass === "read" ? "/api/markets/{symbol}/orderbook" : `/api/orders/${routeClass}`,
  routeClass,
  status,
  latencyMs,
  serverTs: ts - 1,
});

/** `minutes` of the fixture scenario's synthetic flow, with the given latency rows among it. */
async function dataSet(minutes: number, latencies: (ts: number, i: number) => NewEvent[]): Promise<string> {
  const prepared = prepareBacktest({ configPath: CONFIG, durationMs: minutes * 60_000, env: {} });
  const dir = mkdtempSync(join(tmpdir(), "mm-reclat-"));
  const w = await DataSetWriter.open({ dir, clock: { now: () => prepared.startMs } });
  const src = syntheticSource({ scenario: prepared.scenario, seed: prepared.seed, startMs: prepared.startMs, durationMs: prepared.durationMs });
  let i = 0;
  for (let e = src.next(); e !== undefined; e = src.next()) {
    const { seq: _s, ...rest } = e;
    w.append(rest);
    if (i % 50 === 0) for (const l of latencies(e.ts, i / 50)) w.append(l);
    i += 1;
  }
  w.close();
  return dir;
}

describe("recorded latencies", () => {
  it("readOrderRoundTrips keeps the answered place and cancel round trips, ascending", async () => {
    const dir = await dataSet(1, (ts, k) => (k < 3 ? [lat(ts, "place", 30 - k), lat(ts, "cancel", 5 + k), lat(ts, "read", 99), lat(ts, "place", 999, 0), lat(ts, "place", 998, 503)] : []));
    const r = await readOrderRoundTrips(dir);
    expect(r.roundTripsMs).toEqual([5, 6, 7, 28, 29, 30]);
    expect(r.rows).toBe(15);
  });

  it("mm backtest --engine fast --latency recorded draws from them; refused without --data or without any", async () => {
    const dir = await dataSet(3, (ts, k) => [lat(ts, k % 2 === 0 ? "place" : "cancel", 40 + (k % 7) * 10)]);
    const out = join(mkdtempSync(join(tmpdir(), "mm-reclat-out-")), "fast.json");
    const h = io();
    expect(await backtestCommand(["--config", CONFIG, "--engine", "fast", "--data", dir, "--latency", "recorded", "--out", out], h.io), h.err.join("")).toBe(0);
    expect(h.err.join("")).toMatch(/latency recorded \(\d+ place\/cancel round trips, median \d+ ms, half each way\)/);
    const report = JSON.parse(readFileSync(out, "utf8")) as { markets: unknown[] };
    expect(report.markets.length).toBeGreaterThan(0);

    const noData = io();
    expect(await backtestCommand(["--config", CONFIG, "--engine", "fast", "--latency", "recorded"], noData.io)).toBe(2);
    expect(noData.err.join("")).toContain("--latency recorded: needs --data DIR");

    const none = await dataSet(1, () => []);
    const empty = io();
    expect(await backtestCommand(["--config", CONFIG, "--engine", "fast", "--data", none, "--latency", "recorded"], empty.io)).toBe(1);
    expect(empty.err.join("")).toContain("holds no answered place or cancel latency");
  }, 60_000);
});
