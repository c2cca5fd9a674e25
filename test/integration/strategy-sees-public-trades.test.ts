/**
 * The strategy's context carries the public trades of the market it quotes: the daemon's trade
 * feed reads the simulator's `GET /api/markets/{symbol}/trades` and every cycle hands the quoted
 * outcome's trades (YES terms on a binary market) to the strategy as `recentTrades`, oldest first.
 *
 * The strategy is observed by wrapping the registry's runner: the real ladder quotes, and every
 * input it is given is recorded.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { complementPrice } from "../../src/core/amounts.js";
import type { StrategyInput, TradeView } from "../../src/bot/quote/quotes.js";
import type * as Registry from "../../strategies/registry.js";
import { daemonConfig, makeDaemon, run, settle, startSim, type DaemonHarness, type SimHarness } from "./harness.js";

const seen: StrategyInput[] = [];

vi.mock("../../strategies/registry.js", async (importOriginal) => {
  const real = await importOriginal<typeof Registry>();
  return {
    ...real,
    createStrategyRunner(name: string, raw: unknown): Registry.StrategyRunner {
      const inner = real.createStrategyRunner(name, raw);
      return {
        name: inner.name,
        params: inner.params,
        step(input, prev) {
          seen.push(input);
          return inner.step(input, prev);
        },
      };
    },
  };
});

const MARKETS = ["TAPE-A", "TAPE-B"];

/** The simulator's trades of one market as the feed must show them: YES terms, oldest first. */
function simTape(h: SimHarness, symbol: string): (TradeView & { outcome: number })[] {
  return h.sim.engine.ledger
    .trades()
    .filter((t) => t.marketId === symbol)
    .map((t) => {
      const no = t.outcome === 1;
      return { price: no ? complementPrice(t.price) : t.price, size: t.quantity, side: no ? (t.side === "BUY" ? "SELL" : "BUY") : t.side, ts: t.createdAtMs, outcome: t.outcome };
    });
}

const key = (t: TradeView): string => `${t.ts}:${t.price}:${t.size}:${t.side}`;

describe("a strategy sees the public trades of the market it quotes", () => {
  let h: SimHarness;
  let d: DaemonHarness;

  beforeAll(async () => {
    h = startSim({
      wallets: 1,
      markets: MARKETS.map((symbol) => ({ symbol, opensAt: "-1h", closesAt: "+1d", takerArrivalPerMin: 40 })),
    });
    d = makeDaemon(h, daemonConfig({ wallets: 1, slugs: MARKETS, strategy: { levels: 1, halfSpreadTicks: 5 } }));
    await settle(h.clock, d.daemon.start());
    await run(h.clock, 90_000);
    await settle(h.clock, d.daemon.stop());
  });

  afterAll(() => h.sim.stop());

  it("has public trades on both markets, some of them in NO", () => {
    for (const s of MARKETS) expect(simTape(h, s).length).toBeGreaterThan(10);
    expect(MARKETS.some((s) => simTape(h, s).some((t) => t.outcome === 1))).toBe(true);
  });

  it("gives each cycle only its own market's trades, in YES terms, oldest first", () => {
    const withTrades = seen.filter((i) => i.recentTrades.length > 0);
    expect(withTrades.length).toBeGreaterThan(20);
    for (const s of MARKETS) expect(withTrades.some((i) => i.marketId === s)).toBe(true);
    const tapes = new Map(MARKETS.map((s) => [s, new Set(simTape(h, s).map(key))]));
    for (const i of seen) {
      expect(i.quoteOutcome ?? 0).toBe(0);
      const tape = tapes.get(i.marketId)!;
      for (const t of i.recentTrades) expect(tape.has(key(t))).toBe(true);
      for (let k = 1; k < i.recentTrades.length; k++) expect(i.recentTrades[k]!.ts).toBeGreaterThanOrEqual(i.recentTrades[k - 1]!.ts);
    }
  });

  it("misses none of a market's trades older than a few seconds (the feed reads each market every 2 s)", () => {
    let noTrades = 0;
    for (const s of MARKETS) {
      const last = seen.filter((i) => i.marketId === s).at(-1)!;
      const got = new Set(last.recentTrades.map(key));
      const due = simTape(h, s).filter((t) => t.ts <= last.nowMs - 5_000);
      expect(due.length).toBeGreaterThan(10);
      expect(due.filter((t) => !got.has(key(t)))).toEqual([]);
      noTrades += due.filter((t) => t.outcome === 1).length;
    }
    // Trades taken in NO are among them, in YES terms.
    expect(noTrades).toBeGreaterThan(0);
  });

  it("reads the trades within its share of the trades bucket (no 429)", () => {
    const reads = h.transport.log.filter((r) => r.method === "GET" && /^\/api\/markets\/[^/]+\/trades/.test(r.path));
    expect(reads.length).toBeGreaterThan(40);
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect(d.daemon.trades.counters.errors).toBe(0);
  });
});
