/**
 * The quote cycle alone (src/bot/quote/cycle.ts), as a backtester drives it: snapshot and strategy
 * state in, plan out, no HTTP, JSON or signatures. A binary market whose book moves by a random
 * walk (seeded); the live orders are whatever the previous plan placed (cancels applied), so the
 * reconciler sees a realistic mix of keeps, cancels and places. The ladder strategy (3 levels a
 * side) and the demo's risk limits.
 *
 *   BENCH quote_cycle_us        CPU microseconds per cycle (median of 3 runs of 50,000 cycles)
 *   BENCH quote_cycles_per_sec  the same as a rate, ratio = the cycle's cost over the strategy
 *                               step's alone (what strategy -> risk -> reconcile -> risk adds)
 *
 * Time is process CPU time (the machines are shared). Every random draw is made before timing.
 */
import { loadConfig } from "../src/config/index.js";
import { createStrategyRunner } from "../strategies/registry.js";
import { quoteCycle, type CyclePolicy, type CycleSnapshot, type StrategyState } from "../src/bot/quote/cycle.js";
import type { LiveOrder } from "../src/bot/quote/quotes.js";
import { RiskSnapshot } from "../src/bot/risk/exposure.js";
import { benchSnapshot, cpuMs, InstantOrders, ladderBook, median, midWalk } from "./fixtures.js";

const CYCLES = 50_000;
const SYMBOL = "BENCH";
const T0 = 1_700_000_000_000;

function snapshotAt(i: number, mid: number, live: LiveOrder[], limitsSnapshot: () => RiskSnapshot): CycleSnapshot {
  const m = BigInt(mid) * 1000n;
  const nowMs = T0 + i * 100;
  return benchSnapshot({ symbol: SYMBOL, i, nowMs, mid: m, view: ladderBook(m, nowMs), closesAtMs: T0 + 86_400_000, live, exposure: limitsSnapshot() });
}

function once(policy: CyclePolicy, mids: Int32Array, strategyOnly: boolean): number {
  const orders = new InstantOrders();
  let state: StrategyState = new Map();
  const t0 = cpuMs();
  for (let i = 0; i < mids.length; i++) {
    const live = orders.live;
    const snap = snapshotAt(i, mids[i]!, live, () => new RiskSnapshot([{ wallet: "bench", market: SYMBOL, outcomeCount: 2, positions: [], openOrders: live }]));
    if (strategyOnly) {
      const b = snap.books.get(0)!;
      const step = policy.strategy.step(
        { marketId: SYMBOL, outcomeCount: 2, phase: "open", book: b.snapshot.view, recentTrades: b.trades, inventory: [], nowMs: snap.nowMs, closesAtMs: null, timeToCloseMs: null, feeTakerBps: 0, quoteOutcome: 0 },
        state.get(0),
      );
      state = new Map([[0, step.state]]);
      continue;
    }
    const c = quoteCycle(policy, snap, state);
    state = c.nextStrategyState;
    orders.apply(c.plan, snap.nowMs);
  }
  return cpuMs() - t0;
}

export async function run(): Promise<void> {
  const config = loadConfig("configs/demo.yaml", {});
  const policy: CyclePolicy = {
    strategy: createStrategyRunner("ladder", { levels: 3 }),
    quoting: { priceToleranceTicks: 1, sizeTolerance: 0.1, maxOrderAgeMs: 600_000 },
    limits: config.risk,
    tuning: { minQuoteSize: 1_000_000n },
  };
  const mids = midWalk(CYCLES, 42, { start: 500, min: 200, max: 800 });
  once(policy, mids.subarray(0, 5_000), false);
  once(policy, mids.subarray(0, 5_000), true);
  const full: number[] = [];
  const strategy: number[] = [];
  for (let r = 0; r < 3; r++) {
    full.push(once(policy, mids, false));
    strategy.push(once(policy, mids, true));
  }
  const fullMs = median(full);
  const strategyMs = median(strategy);
  const us = (fullMs * 1000) / CYCLES;
  console.log(`BENCH quote_cycle_us ${us.toFixed(2)} us`);
  console.log(`BENCH quote_cycles_per_sec ${Math.round(CYCLES / (fullMs / 1000))} cycles/s ratio=${(fullMs / strategyMs).toFixed(2)}`);
  await Promise.resolve();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
