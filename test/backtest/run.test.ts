/**
 * The backtester end to end on a small scenario (fixtures/): the same inputs give the same report
 * byte for byte (through the API and through `mm backtest --out`); the daemon's ledger matches the
 * simulator's trades, and a broken comparison is caught; PnL agrees with the simulator's own cash
 * and positions; money is decimal strings, never floats; other params give other numbers, another
 * clock step the same ones.
 * Virtual time only: three-minute runs, each a second or two of CPU.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { backtestCommand, type BacktestIo } from "../../src/cli/backtest.js";
import { parseMicros } from "../../src/core/money.js";
import type { Fill } from "../../src/bot/fills/fill-ledger.js";
import { compareFillLists, comparablePart, formatSummary, platformFills, reportJson, runBacktest, type BacktestReport } from "../../src/backtest/index.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(HERE, "fixtures", "config.yaml");
const SCENARIO = join(HERE, "fixtures", "scenario.yaml");
const DURATION_MS = 3 * 60_000;

const comparable = (r: BacktestReport): string => JSON.stringify(comparablePart(r), null, 2);

let a: BacktestReport;
let b: BacktestReport;
let ledger: Fill[] = [];
let simFills: Fill[] = [];

beforeAll(async () => {
  a = await runBacktest({
    configPath: CONFIG,
    durationMs: DURATION_MS,
    onFinish: ({ daemon, sim }) => {
      ledger = daemon.ledger.fills();
      simFills = platformFills(
        sim,
        daemon.runners.map((r) => r.wallet),
      );
    },
  });
  b = await runBacktest({ configPath: CONFIG, durationMs: DURATION_MS });
}, 60_000);

describe("a backtest run", () => {
  it("traded, finished cleanly and reports the run's facts", () => {
    expect(a.problems).toEqual([]);
    expect(a.warnings).toEqual([]);
    expect(a.ok).toBe(true);
    expect(a.totals.fills.count).toBeGreaterThan(5);
    expect(a.run.virtualStart).toBe("2026-03-02T09:00:00.000Z");
    expect(a.run.virtualEnd).toBe("2026-03-02T09:03:00.000Z");
    expect(a.run.scenario).toBe(SCENARIO);
    expect(a.run.scenarioSource).toBe("config");
    expect(a.run.seed).toBe(3);
    expect(a.run.shutdown.exitCode).toBe(0);
    expect(a.markets.map((m) => m.marketId)).toEqual(["BT-A", "BT-B"]);
    for (const m of a.markets) expect(m.mark).toMatchObject({ source: "book_mid", sources: ["book_mid", "book_mid"], asOf: a.run.shutdownEnd, ageMs: 0, stale: false });
    for (const w of a.run.shutdown.wallets) expect(w.platformOpenOrders).toBe(0);
    for (const w of a.wallets) expect(w.inventoryCheck).toMatchObject({ ok: true, cashDifference: "0", positionDifferenceCount: 0 });
    for (const m of a.markets) expect(parseMicros(m.figures.quoteUptime ?? "0")).toBeGreaterThan(parseMicros("0.5"));
  });

  it("is byte-identical when repeated, except for the timing section", () => {
    expect(comparable(b)).toBe(comparable(a));
    expect(a.timing.wallMs).toBeGreaterThan(0);
    expect(Object.keys(a)).toContain("timing");
  });

  it("finds the daemon's ledger equal to the simulator's trade list", () => {
    expect(a.consistency.ok).toBe(true);
    expect(a.consistency.ledgerFills).toBe(a.consistency.platformFills);
    expect(a.consistency.ledgerFills).toBe(a.totals.fills.count);
    expect(a.consistency.perWallet).toHaveLength(1);
    expect(ledger).toHaveLength(a.totals.fills.count);
    expect(compareFillLists(ledger, simFills).ok).toBe(true);
  });

  it("catches a broken comparison: a dropped fill, a phantom one, a changed price", () => {
    const dropped = compareFillLists(ledger.slice(1), simFills);
    expect(dropped.ok).toBe(false);
    expect(dropped.missingCount).toBe(1);
    expect(dropped.missing[0]?.tradeId).toBe(ledger[0]!.tradeId);
    const phantom = compareFillLists([...ledger, { ...ledger[0]!, tradeId: "phantom" }], simFills);
    expect(phantom.extraCount).toBe(1);
    const repriced = compareFillLists(
      ledger.map((f, i) => (i === 0 ? { ...f, price: f.price + 1_000n } : f)),
      simFills,
    );
    expect(repriced.mismatched.map((m) => m.fields)).toEqual([["price"]]);
  });

  it("agrees with the simulator's own cash and positions to the micro", () => {
    const w = a.wallets[0]!;
    expect(w.platformCheck).not.toBeNull();
    expect(w.platformCheck!.ok).toBe(true);
    const diff = parseMicros(w.platformCheck!.difference);
    expect(diff < 0n ? -diff : diff).toBeLessThanOrEqual(parseMicros(w.platformCheck!.tolerance));
  });

  it("adds up: totals are the sums of the market rows", () => {
    const sum = (pick: (r: BacktestReport["markets"][number]) => string): bigint => a.markets.reduce((s, m) => s + parseMicros(pick(m)), 0n);
    expect(sum((m) => m.figures.pnl.realised)).toBe(parseMicros(a.totals.pnl.realised));
    expect(sum((m) => m.figures.pnl.unrealised)).toBe(parseMicros(a.totals.pnl.unrealised));
    expect(sum((m) => m.figures.fills.volume)).toBe(parseMicros(a.totals.fills.volume));
    expect(a.markets.reduce((s, m) => s + m.figures.fills.count, 0)).toBe(a.totals.fills.count);
    const t = a.totals.pnl;
    expect(parseMicros(t.net)).toBe(parseMicros(t.realised) + parseMicros(t.unrealised) - parseMicros(t.fees));
  });

  it("writes money as decimal strings and no fractional number outside timing", () => {
    const money = new Set([
      "boughtShares",
      "soldShares",
      "buyNotional",
      "sellNotional",
      "volume",
      "fees",
      "realised",
      "unrealised",
      "net",
      "final",
      "maxAbs",
      "grossFinalShares",
      "cashDelta",
      "positionsValue",
      "difference",
      "tolerance",
      "inventoryCashDelta",
      "platformCashDelta",
      "cashDifference",
    ]);
    let moneyFields = 0;
    const walk = (v: unknown, key: string): void => {
      if (typeof v === "number") expect(Number.isInteger(v), `${key} = ${v}`).toBe(true);
      if (money.has(key)) {
        moneyFields++;
        expect(v, key).toMatch(/^-?\d+(\.\d{1,6})?$/);
      }
      if (key === "params") return; // the strategy params echoed from the config, as written
      if (Array.isArray(v)) v.forEach((x) => walk(x, key));
      else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, k);
    };
    walk(JSON.parse(JSON.stringify(comparablePart(a))), "");
    expect(moneyFields).toBeGreaterThan(50);
    for (const m of a.markets) for (const p of m.mark.prices) expect(p).toMatch(/^0\.\d{1,6}$/);
  });

  it("gives another report for another seed", async () => {
    const s = await runBacktest({ configPath: CONFIG, durationMs: DURATION_MS, seed: 4 });
    expect(s.ok).toBe(true);
    expect(s.run).toMatchObject({ seed: 4, seedSource: "override" });
    expect(JSON.stringify(s.totals)).not.toBe(JSON.stringify(a.totals));
    expect(JSON.stringify(s.markets.map((m) => m.mark.prices))).not.toBe(JSON.stringify(a.markets.map((m) => m.mark.prices)));
  }, 30_000);

  it("rounds quote uptime down in the summary, as in the JSON", () => {
    const m = a.markets[0]!;
    const tweaked = { ...a, markets: [{ ...m, figures: { ...m.figures, quoteUptime: "0.9995" } }] };
    expect(formatSummary(tweaked)).toMatch(/^BT-A .* 99\.9% /m);
  });

  it("gives other numbers for another strategy or other params", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-"));
    const other = join(dir, "wide.yaml");
    writeFileSync(other, readFileSync(CONFIG, "utf8").replace("scenario: scenario.yaml", `scenario: ${JSON.stringify(SCENARIO)}`).replace('params: { size: "10", levels: 2 }', 'params: { size: "10", levels: 2, halfSpreadTicks: 8 }'));
    const c = await runBacktest({ configPath: other, durationMs: DURATION_MS });
    expect(c.ok).toBe(true);
    expect(c.run.strategy.params).toEqual({ size: "10", levels: 2, halfSpreadTicks: 8 });
    expect(JSON.stringify(c.totals)).not.toBe(JSON.stringify(a.totals));
  }, 30_000);

  it("trades the same whatever the clock step (only the uptime sampling follows it)", async () => {
    const coarse = await runBacktest({ configPath: CONFIG, durationMs: DURATION_MS, stepMs: 5_000 });
    expect(coarse.run.stepMs).toBe(5_000);
    expect(JSON.stringify(coarse.totals)).toBe(JSON.stringify(a.totals));
    expect(JSON.stringify(coarse.consistency)).toBe(JSON.stringify(a.consistency));
    expect(coarse.run.shutdownEnd).toBe(a.run.shutdownEnd);
    expect(coarse.run.startup.readyAt).toBe(a.run.startup.readyAt);
  }, 30_000);

  it("mm backtest --out writes the same report as the API run, and a summary", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mm-bt-"));
    const out = join(dir, "report.json");
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io: BacktestIo = { stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t), env: {}, progress: false };
    const code = await backtestCommand(["--config", CONFIG, "--duration", "3m", "--out", out], io);
    expect(stderr.join("")).not.toMatch(/FAILED|failed/);
    expect(code).toBe(0);
    const text = stdout.join("");
    expect(text).toMatch(/^BT-A\s+\d+/m);
    expect(text).toMatch(/^TOTAL\s+\d+/m);
    expect(text).toContain("consistency OK");
    expect(text).toContain(`report: ${out}`);
    const written = readFileSync(out, "utf8");
    const parsed = JSON.parse(written) as BacktestReport;
    expect(comparable(parsed)).toBe(comparable(a));
    expect(written).toBe(reportJson(parsed));
  }, 30_000);
});
