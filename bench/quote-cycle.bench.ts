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
import { Rng } from "../src/core/rng.js";
import { loadConfig } from "../src/config/index.js";
import { createStrategyRunner } from "../strategies/registry.js";
import { quoteCycle, type CyclePolicy, type CycleSnapshot, type StrategyState } from "../src/bot/quote/cycle.js";
import type { LiveOrder } from "../src/bot/quote/quotes.js";
import { RiskSnapshot } from "../src/bot/risk/exposure.js";

const CYCLES = 50_000;
const SYMBOL = "BENCH";
const T0 = 1_700_000_000_000;

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Mid ticks (0.001) of a seeded random walk inside [0.2, 0.8]. */
function walk(n: number, seed: number): Int32Array {
  const rng = new Rng(seed);
  const out = new Int32Array(n);
  let mid = 500;
  for (let i = 0; i < n; i++) {
    const r = rng.float();
    mid += r < 0.3 ? -1 : r > 0.7 ? 1 : 0;
    mid = Math.min(800, Math.max(200, mid));
    out[i] = mid;
  }
  return out;
}

function snapshotAt(i: number, mid: number, live: LiveOrder[], limitsSnapshot: () => RiskSnapshot): CycleSnapshot {
  const tick = 1000n;
  const m = BigInt(mid) * tick;
  const nowMs = T0 + i * 100;
  const view = {
    bids: [1, 2, 3, 4, 5].map((k) => ({ price: m - BigInt(k) * tick, size: 200_000_000n })),
    asks: [1, 2, 3, 4, 5].map((k) => ({ price: m + BigInt(k) * tick, size: 200_000_000n })),
    updatedAtMs: nowMs,
  };
  return {
    symbol: SYMBOL,
    nowMs,
    market: { outcomeCount: 2, feeTakerBps: 0 },
    phase: { phase: "open", reason: "open", closesAtMs: T0 + 86_400_000 },
    books: new Map([[0, { snapshot: { symbol: SYMBOL, outcome: 0, view, fetchedAtMs: nowMs, sentSeq: i }, own: [], trades: [] }]]),
    mids: { 0: m, 1: 1_000_000n - m },
    live,
    inventory: [],
    budget: { cancels: 100, places: 100 },
    gate: { quote: true },
    exposure: limitsSnapshot(),
    risk: {
      wallet: "0xbench",
      walletName: "bench",
      marketId: SYMBOL,
      outcomeCount: 2,
      nowMs,
      phase: "open",
      phaseReason: "open",
      book: view,
      dataAgeMs: 0,
      inventory: [],
      live,
      stream: { subscribed: true, downSinceMs: undefined },
      engine: undefined as never,
    },
  };
}

function once(policy: CyclePolicy, mids: Int32Array, strategyOnly: boolean): number {
  let live: LiveOrder[] = [];
  let state: StrategyState = new Map();
  let seq = 0;
  const t0 = cpuMs();
  for (let i = 0; i < mids.length; i++) {
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
    // The plan as if executed at once: cancels end, places rest.
    const gone = new Set(c.plan.cancels.map((o) => o.clientOrderId));
    live = live.filter((o) => !gone.has(o.clientOrderId));
    for (const q of c.plan.places) {
      seq += 1;
      live.push({ clientOrderId: `c${seq}`, orderId: `o${seq}`, outcome: q.outcome, side: q.side, price: q.price, size: q.size, remaining: q.size, postOnly: q.postOnly, createdAtMs: snap.nowMs, state: "open" });
    }
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
  const mids = walk(CYCLES, 42);
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
