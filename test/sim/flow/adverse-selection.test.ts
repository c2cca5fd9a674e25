/**
 * Adverse selection exists: the demo's `ladder` backtested on the same three markets with and
 * without strong informed flow (fixtures/adverse-*.yaml). Without it, nobody trades on what the
 * book does not know yet and the ladder earns on every market; with news that informed takers see
 * 3 s before the book, it loses on at least one, and loses to informed takers in particular.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parseMicros } from "../../../src/core/money.js";
import { runBacktest, type BacktestReport } from "../../../src/backtest/index.js";
import type { TradeRecord } from "../../../src/sim/engine/index.js";
import { flowWallet } from "./helpers.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const CONFIG = join(HERE, "fixtures", "adverse-config.yaml");
const DURATION_MS = 10 * 60_000;

let calm: BacktestReport;
let informed: BacktestReport;
/** Our fills in the informed run, as the simulator recorded them, with the taker's flow role. */
const ourFills: { trade: TradeRecord; informedTaker: boolean }[] = [];
/** The true fair values at the end of the informed run, per market. */
const fairAtEnd = new Map<string, bigint[]>();

beforeAll(async () => {
  const text = readFileSync(join(HERE, "fixtures", "adverse-scenario.yaml"), "utf8");
  const dir = mkdtempSync(join(tmpdir(), "adverse-"));
  const withInformed = join(dir, "informed.yaml");
  const without = join(dir, "calm.yaml");
  writeFileSync(withInformed, text);
  writeFileSync(
    without,
    text
      .split("\n")
      .filter((l) => !l.endsWith("# informed"))
      .join("\n"),
  );
  calm = await runBacktest({ configPath: CONFIG, scenarioPath: without, durationMs: DURATION_MS });
  informed = await runBacktest({
    configPath: CONFIG,
    scenarioPath: withInformed,
    durationMs: DURATION_MS,
    onFinish: ({ daemon, sim }) => {
      const ours = new Set(daemon.runners.map((r) => r.wallet.toLowerCase()));
      const informedWallets = new Set(sim.flow.markets().map((m) => flowWallet(m, "informed")));
      for (const m of sim.flow.markets()) fairAtEnd.set(m, sim.flow.fairValue(m)!);
      for (const trade of sim.engine.ledger.trades()) {
        if (!ours.has(trade.makerWallet.toLowerCase())) continue;
        ourFills.push({ trade, informedTaker: informedWallets.has(trade.takerWallet.toLowerCase()) });
      }
    },
  });
}, 240_000);

const net = (r: BacktestReport) => r.markets.map((m) => [m.marketId, parseMicros(m.figures.pnl.net)] as const);

describe("adverse selection", () => {
  it("both runs are sound", () => {
    for (const r of [calm, informed]) {
      expect(r.problems).toEqual([]);
      expect(r.ok).toBe(true);
      expect(r.markets).toHaveLength(3);
      for (const m of r.markets) expect(m.figures.fills.count).toBeGreaterThan(10);
    }
  });

  it("without informed flow the ladder earns on every market", () => {
    for (const [market, pnl] of net(calm)) expect(pnl > 0n, `${market}: ${pnl}`).toBe(true);
  });

  it("with strong informed flow it loses on at least one market, and its fills to informed takers lose money", () => {
    const losing = net(informed).filter(([, pnl]) => pnl < 0n);
    expect(losing.length, JSON.stringify(net(informed), (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))).toBeGreaterThan(0);
    const toInformed = ourFills.filter((f) => f.informedTaker);
    expect(toInformed.length).toBeGreaterThan(10);
    // valued at the true fair values at the end, what we traded with informed takers lost money
    // (each of those trades was priced on the wrong side of the fair value of its time)
    let pnl = 0n;
    for (const { trade: t } of toInformed) {
      const fair = fairAtEnd.get(t.marketId)![t.makerOutcome]!;
      pnl += ((t.makerSide === "BUY" ? fair - t.makerPrice : t.makerPrice - fair) * t.quantity) / 1_000_000n;
    }
    expect(pnl < 0n, `our fills to informed takers at the end's fair values: ${pnl}`).toBe(true);
  });
});
